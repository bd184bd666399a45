/* jobsum: the figures every surface shows of one whole job — the job
 * list's row (`smtop jobs`, its --json), the report's header and verdict
 * and the dashboard — computed here once, so that no surface keeps a
 * copy of a definition (issue 33):
 *
 * - the data's time range (model_first_us .. model_last_us), never a
 *   file's time;
 * - nodes (model_node_count);
 * - the step p50: the median, over the nodes, of each node's training
 *   step p50 (straggler_step_p50: the Straggler rule's and the
 *   heatmap's figure), so one node's job has its node's p50;
 * - alerts: the rules that fired (rules_triggered_count), and the
 *   verdict's worst finding;
 * - idle GPU-hours and GPU-hours (device_usage_idle_gpu summed: the
 *   report's idle GPU line);
 * - GPU, CPU and memory means over the newest 5 whole minutes of system
 *   data (the minute of the newest sample and the 4 before it): GPU over
 *   every GPU's utilization samples, CPU over the nodes' totals, memory
 *   over MemoryUsedPercent.
 *
 * Pure: takes a model and the rules and verdict evaluated on it (caller
 * holds the model lock). */
#ifndef SMTOP_JOBSUM_H
#define SMTOP_JOBSUM_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/rules/rules.h"
#include "model/view/verdict.h"

#define JOBSUM_WINDOW_US 300000000LL   /* the list's utilization: 5 minutes */

typedef struct jobsum {
    int64_t first_us, last_us;   /* the data's time range; 0 when none */
    size_t nodes;
    double step_p50_us;          /* NaN: no node has training steps */
    size_t step_nodes;           /* nodes whose p50 the median is over */
    size_t alerts;               /* rules that fired */
    rule_severity worst;         /* the verdict's worst finding; INFO: none */
    double gpu_hours, idle_gpu_hours;   /* NaN: no GPU utilization */
    double gpu_pct, cpu_pct, mem_pct;   /* newest 5 minutes; NaN: none */
} jobsum;

/* Fills *out from m, r (as the last rules_evaluate(r, m) left it) and v
 * (verdict_build(m, r, v)). 0, or -1 on OOM (out then holds every figure
 * but the idle GPU-hours, NaN). */
int jobsum_build(const model *m, const rules *r, const verdict *v, jobsum *out);

#endif
