/* report_diff: a job side by side with a baseline (`smtop diff`).
 *
 * Works on two report objects (tui/report/report.h), each extended with a
 * "step_breakdown" section by report_diff_add_breakdown, so the diff sees
 * exactly what `smtop report --json` would show for either job. The diff
 * object:
 *   {schema_version (REPORT_SCHEMA_VERSION), base, target,
 *    steps[]       {node, phase, stat (p50_us|p95_us|p99_us|mean_us), base, target, change_pct},
 *    utilization[] {node, metric (cpu_total|gpu_util|gpu_mem|host_mem), base, target, change_pct},
 *    breakdown[]   {node, category (data|forward|backward|comm|other), base, target, change_pct},
 *    python[]      {function, base, target, change_pct}   (tottime_s, top-N of both)
 *    gpu[]         {process, node, metric (idle|compute|non_compute|comm_comp_overlap),
 *                   base, target, change_pct}   (pct, PyTorch profiler ranks)
 *    kernels[]     {name, kind (added|removed|slower|faster), type, base/target count,
 *                   mean_us, sum_us, change_pct}   (the largest changes first)
 *    changed}      number of rows whose value differs (kernels: not "same")
 * Rows exist for keys present in both jobs; change_pct is null when the
 * baseline is 0 (or the value is missing on one side). */
#ifndef SMTOP_REPORT_DIFF_H
#define SMTOP_REPORT_DIFF_H

#include <jansson.h>
#include <stdio.h>

#include "io/run/job.h"

/* Sets obj["step_breakdown"] = [{node, steps, data_us, forward_us,
 * backward_us, comm_us, other_us}] (means over the node's retained TRAIN
 * steps). Takes the job's lock. -1 on OOM (obj unchanged). */
int report_diff_add_breakdown(json_t *obj, job *j);

/* The report object a diff compares (report_build + python top-N +
 * step_breakdown) of an open job, taking its lock per section; the job
 * may still be scanning (the dashboard's Diff pane). Caller owns it.
 * NULL with err on OOM. (report_diff_load.c) */
json_t *report_diff_snapshot(job *j, sm_err *err);

/* Opens spec, reads it to the end once (not live), and returns its
 * snapshot; NULL with err (unreadable source: the source's message). */
json_t *report_diff_load(const char *spec, const source_opts *so, sm_err *err);

/* Reads the open job j to its end once (with its API watch, when it has
 * one: CloudWatch's metrics for a job whose files hold no system
 * metrics) and returns its snapshot; NULL with err. j stays the
 * caller's. (report_diff_load.c) */
json_t *report_diff_read(job *j, sm_err *err);

/* Sets obj["kernel_table"]: every kernel of the job's PyTorch profiler
 * ranks summed (raw name, type, count, sum_us), for report_diff_gpu.
 * Takes the job's lock. -1 on OOM. (report_diff_gpu.c) */
int report_diff_add_kernels(json_t *obj, job *j);

/* Sets d["gpu"] (each rank's GPU time breakdown, matched by process) and
 * d["kernels"] (gpu_diff_kernels over the kernel tables), counting changed
 * rows into *ch. -1 on OOM. (report_diff_gpu.c) */
int report_diff_gpu(const json_t *base, const json_t *target, json_t *d, int *ch);

/* The kernels section of the text table. (report_diff_gpu.c) */
void report_diff_print_kernels(const json_t *d, FILE *f);

/* Completes row (its identifying members; owned) with base_<unit>,
 * target_<unit> and change_pct, counts it in *changed when they differ,
 * appends it to arr. -1 on OOM or when row is NULL. */
int report_diff_add_row(json_t *arr, json_t *row, const char *unit, double b, double t,
                        int *changed);

/* Builds the diff object (caller owns it). NULL on OOM. */
json_t *report_diff_build(const json_t *base, const json_t *target);

/* A diff row's value as the text table shows it: "154.0 ms" for µs
 * values (is_us), else "71.50"; "-" when not finite. */
void report_diff_format_value(char *out, size_t cap, double v, int is_us);
/* A row's base_<unit> and target_<unit> values (NAN when absent). */
void report_diff_row_values(const json_t *row, double *b, double *t);

/* The change mark of one diff row, as the text table shows it: "=",
 * "(no baseline)" or "+21.6 % ▲" (utf8; "+21.6 % +" without). Returns the
 * direction: 1 up, -1 down, 0 unchanged or not comparable. */
int report_diff_mark(const json_t *row, char *out, size_t cap, int utf8);

/* Human-readable side-by-side table; utf8 picks ▲/▼ over +/-. */
/* threshold: rows whose change is under this many percent (noise) are
 * not printed; the closing line says how many were hidden. A headline
 * (TRAIN p50 job-wide and the node that changed most) comes first. */
void report_diff_print_text(const json_t *diff, FILE *f, int utf8, double threshold);

#endif
