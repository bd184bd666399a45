/* report_diff: a job side by side with a baseline (`smtop diff`).
 *
 * Works on two report objects (tui/report.h), each extended with a
 * "step_breakdown" section by report_diff_add_breakdown, so the diff sees
 * exactly what `smtop report --json` would show for either job. The diff
 * object:
 *   {base, target,
 *    steps[]       {node, phase, stat (p50_us|p95_us|p99_us|mean_us), base, target, change_pct},
 *    utilization[] {node, metric (cpu_total|gpu_util|gpu_mem|host_mem), base, target, change_pct},
 *    breakdown[]   {node, category (data|forward|backward|comm|other), base, target, change_pct},
 *    python[]      {function, base, target, change_pct}   (tottime_s, top-N of both)
 *    changed}      number of rows whose value differs
 * Rows exist for keys present in both jobs; change_pct is null when the
 * baseline is 0 (or the value is missing on one side). */
#ifndef SMTOP_REPORT_DIFF_H
#define SMTOP_REPORT_DIFF_H

#include <jansson.h>
#include <stdio.h>

#include "job.h"

/* Sets obj["step_breakdown"] = [{node, steps, data_us, forward_us,
 * backward_us, comm_us, other_us}] (means over the node's retained TRAIN
 * steps). Takes the job's lock. -1 on OOM (obj unchanged). */
int report_diff_add_breakdown(json_t *obj, job *j);

/* Builds the diff object (caller owns it). NULL on OOM. */
json_t *report_diff_build(const json_t *base, const json_t *target);

/* Human-readable side-by-side table; utf8 picks ▲/▼ over +/-. */
void report_diff_print_text(const json_t *diff, FILE *f, int utf8);

#endif
