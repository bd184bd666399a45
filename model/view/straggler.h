/* straggler: which node stands out from the others — the check the
 * Heatmap shows in its footer, computed with the loader's other derived
 * products (model/view/heatview.h). Pure functions over per-node values. */
#ifndef SMTOP_STRAGGLER_H
#define SMTOP_STRAGGLER_H

#include <stddef.h>

#include "model/model.h"

typedef struct straggler {
    long index;      /* node index, -1 when no node stands out */
    int by_steps;    /* 1: flagged by step p50, 0: by GPU utilization */
    double value;    /* the node's value of that metric */
    double median;   /* the median over nodes */
    double dev;      /* relative deviation |value - median| / median */
} straggler;

/* Median of the non-NaN values of v[0..n) (not modified); NaN when none. */
double straggler_median(const double *v, size_t n);

/* The node whose mean GPU utilization (percent) or step p50 (µs) deviates
 * most, relative to the median, from the other nodes. Either array may be
 * NULL; NaN marks a node without that metric. Needs 3 nodes with the metric
 * (with 2 a median cannot tell which one is off) and a deviation of at least
 * 10 % (utilization deviations are measured against a floor of 20 points so
 * an idle cluster's noise does not count). */
straggler straggler_find(const double *gpu_util, const double *step_p50, size_t n);

/* |v - med| relative to med (at least floor), as straggler_find measures
 * it; NaN when either is NaN. Floors: STRAGGLER_GPU_FLOOR for
 * utilization, STRAGGLER_STEP_FLOOR for step times. */
#define STRAGGLER_GPU_FLOOR 20.0
#define STRAGGLER_STEP_FLOOR 1.0
double straggler_deviation(double v, double med, double floor);

/* A node's first phase's p50 step time (µs) when that phase is the
 * training step; NaN otherwise: the step input of straggler_find. */
double straggler_step_p50(const model_node *nd);

#endif
