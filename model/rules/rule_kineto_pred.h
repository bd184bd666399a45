/* rule_kineto_pred: the four Kineto rules of issue 25, as pure predicates over
 * one rank's summary (gpu_rank.h), with their parameters described the way
 * model/rules/ describes every rule's (a name, a default, a range), so
 * each becomes one row of the rule table and its thresholds are edited
 * like the others (`Name.param=value`, the rules file, `:set`).
 *
 *   GPUIdleHostBound       idle_pct > threshold and host wait is more than
 *                          host_wait share of the idle time: the GPU waits
 *                          for the CPU to launch work
 *   CommNotOverlapped      communication takes at least min_comm % of the
 *                          span and less than threshold % of it overlaps
 *                          computation
 *   KernelLaunchOverhead   at least min_launches launches and more than
 *                          threshold % of them short (the launch call
 *                          outlasts its kernel)
 *   GPUMemoryNearCapacity  a device's peak reserved memory above threshold
 *                          % of its totalGlobalMem, or any OutOfMemory event
 *
 * A predicate fills a rule_result (status, violations / datapoints, one
 * example, a message); RULE_NO_DATA when the summary lacks what it needs
 * (no GPU rows, no launches, no memory events or no device size). The
 * caller sets the node and device names. Pure: no I/O. */
#ifndef SMTOP_RULE_KINETO_PRED_H
#define SMTOP_RULE_KINETO_PRED_H

#include <stddef.h>

#include "model/gpu/gpu_rank.h"
#include "model/rules/rule_impl.h"

typedef int (*gpu_rule_fn)(const gpu_summary *s, const double *p, rule_result *out);

typedef struct gpu_rule_def {
    const char *name, *summary, *example_key;
    rule_severity severity;
    size_t n_params;
    rule_param_def params[RULE_MAX_PARAMS];
    gpu_rule_fn evaluate;       /* 0, or -1 on a bad argument */
} gpu_rule_def;

size_t gpu_rules_count(void);
/* The i-th rule (table order), or NULL past the end. */
const gpu_rule_def *gpu_rule_at(size_t i);
/* Evaluates rule i on s with every parameter at its default. */
int gpu_rule_eval_default(size_t i, const gpu_summary *s, rule_result *out);

#endif
