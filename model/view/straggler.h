/* straggler: which node or rank holds the job back. There is one
 * definition, the Straggler rule (model/rules): straggler_from_rule reads
 * its result for every view (heatmap, verdict, report); the median and
 * deviation helpers order the heatmap's rows by how far each stands out.
 * Pure. */
#ifndef SMTOP_STRAGGLER_H
#define SMTOP_STRAGGLER_H

#include <stddef.h>

#include "model/model.h"
#include "model/rules/rules.h"

/* Median of the non-NaN values of v[0..n) (not modified); NaN when none. */
double straggler_median(const double *v, size_t n);

/* |v - med| relative to med (at least floor), as the heatmap's sort by
 * stragglers measures it; NaN when either is NaN. Floors: STRAGGLER_GPU_FLOOR for
 * utilization, STRAGGLER_STEP_FLOOR for step times. */
#define STRAGGLER_GPU_FLOOR 20.0
#define STRAGGLER_STEP_FLOOR 1.0
double straggler_deviation(double v, double med, double floor);

/* The job's straggler as the Straggler rule found it — the one
 * definition every view uses (heatmap, verdict, report and its JSON):
 * over the whole job, every node and every rank, with the rule's
 * threshold (`:set Straggler.threshold`, --rule). */
typedef struct straggler_found {
    char id[64];          /* the node, or the writer of a slow rank */
    double value_us;      /* its median TRAIN step */
    double median_us;     /* its peers' median */
    double over_pct;      /* how much slower, percent */
} straggler_found;

/* Fills *out from r, the Straggler rule's result; 1 when it fired, else 0
 * (out zeroed). */
int straggler_from_rule(const rule_result *r, straggler_found *out);

/* A node's first phase's p50 step time (µs) when that phase is the
 * training step; NaN otherwise: the heatmap's step sort key. */
double straggler_step_p50(const model_node *nd);

#endif
