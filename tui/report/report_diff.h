/* report_diff: a job side by side with a baseline (`smtop diff`).
 *
 * Works on two report objects (tui/report/report.h), each extended with a
 * "step_breakdown" section by report_diff_add_breakdown, so the diff sees
 * exactly what `smtop report --json` would show for either job. The diff
 * object:
 *   {schema_version (REPORT_SCHEMA_VERSION), base, target,
 *    steps[]       {node, target_node, phase, stat (p50_us|p95_us|p99_us|mean_us), base,
 *                   target, change_pct},
 *    utilization[] {node, [target_node], metric (cpu_total|gpu_util|gpu_mem|host_mem), base,
 *                   target, change_pct},
 *    breakdown[]   {node, [target_node], category (data|forward|backward|comm|other), base,
 *                   target, change_pct},
 *    python[]      {function, base, target, change_pct}   (tottime_s, top-N of both)
 *    gpu[], gpu_kernel_types[], gpu_steps[], gpu_critical_path[]
 *                  each PyTorch profiler rank against the target's of the
 *                  same rank (report_diff_gpu.c): its temporal breakdown,
 *                  kernel types, mean step split and critical path classes
 *    kernels[]     {name, kind (added|removed|slower|faster), type, base/target count,
 *                   mean_us, sum_us, change_pct}   (the largest changes first;
 *                   names whole, matched whole)
 *    changed       rows kept whose value differs (kernels: not "same")
 *    noise_rows}   rows left out under the noise floor (DIFF_NOISE_*)
 * Rows exist for keys present in both jobs; a node meets the target's node
 * of its name, or, when each job has one node, the target's one node
 * whatever it is called (target_node then names it; utilization and
 * breakdown rows carry it only then). change_pct is null when the
 * baseline is 0 (or the value is missing on one side). A change under
 * the noise floor (0 -> 0, or under DIFF_NOISE_PCT % of the base, or
 * under 0.1 ms: 0.1 points of a percentage, 0.0001 s) is left out and
 * counted, so a reader meets no "forward 0.0 ms -> 0.0 ms" nor
 * "cpu_op p50 0.0 ms -> 0.0 ms -22.5 %". */
#ifndef SMTOP_REPORT_DIFF_H
#define SMTOP_REPORT_DIFF_H

#include <jansson.h>
#include <stdio.h>

#include "io/run/job.h"

/* What a diff counted: rows kept whose values differ, rows left out. */
typedef struct diff_count {
    int changed;
    int noise;
} diff_count;

#define DIFF_NOISE_PCT 1.0

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
 * ranks summed (raw name, type, count, sum_us), and obj["rank_steps"]:
 * each rank's mean step split and critical path classes, for
 * report_diff_gpu. Takes the job's lock. -1 on OOM. (report_diff_gpu.c) */
int report_diff_add_kernels(json_t *obj, job *j);

/* Sets d["gpu"], d["gpu_kernel_types"], d["gpu_steps"],
 * d["gpu_critical_path"] (each rank against the target's of the same
 * rank, report_diff_gpu.c) and d["kernels"] (gpu_diff_kernels over the
 * kernel tables), counting into *c. -1 on OOM. */
int report_diff_gpu(const json_t *base, const json_t *target, json_t *d, diff_count *c);

/* The kernels section of the text table. (report_diff_gpu.c) */
void report_diff_print_kernels(const json_t *d, FILE *f);

/* A per-rank row's label, sanitized: "rank 3 (control)", or both sides'
 * "rank 3 (control) -> rank 1 (test)" when the target's rank or node is
 * another. (report_diff_gpu.c) */
void report_diff_rank_label(const json_t *row, char *out, size_t cap);

/* Completes row (its identifying members; owned) with base_<unit>,
 * target_<unit> and change_pct and appends it to arr, counting it in
 * c->changed when they differ; a change under the noise floor (see
 * above) is freed instead and counted in c->noise. unit: "us", "s",
 * "pct". -1 on OOM or when row is NULL. */
int report_diff_add_row(json_t *arr, json_t *row, const char *unit, double b, double t,
                        diff_count *c);

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
