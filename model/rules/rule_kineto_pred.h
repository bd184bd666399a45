/* rule_kineto_pred: the four Kineto rules of issue 25, as pure predicates
 * over one rank's summary (gpu_rank.h); their thresholds are edited like
 * every rule's (`Name.param=value`, the rules file, `:set`).
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
 * Their names, parameters and summaries are rows of the one rule table
 * (rules.c). A predicate fills a rule_result (status, violations / datapoints, one
 * example, a message); RULE_NO_DATA when the summary lacks what it needs
 * (no GPU rows, no launches, no memory events or no device size). The
 * caller sets the node and device names. Pure: no I/O. */
#ifndef SMTOP_RULE_KINETO_PRED_H
#define SMTOP_RULE_KINETO_PRED_H

#include <stddef.h>

#include "model/gpu/gpu_rank.h"
#include "model/rules/rule_impl.h"

/* The predicates, in the rule table's rows (rules.c: evaluate_rank);
 * p holds the row's parameters in its order. */
int rule_kineto_pred_idle_host_bound(const gpu_summary *s, const double *p, rule_result *o);
int rule_kineto_pred_comm_not_overlapped(const gpu_summary *s, const double *p,
                                         rule_result *o);
int rule_kineto_pred_launch_overhead(const gpu_summary *s, const double *p, rule_result *o);
int rule_kineto_pred_memory_near_capacity(const gpu_summary *s, const double *p,
                                          rule_result *o);

#endif
