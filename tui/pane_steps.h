/* pane_steps: the step-time pane — a log-scale histogram of one node's
 * phase durations with p50/p95/p99 marked, count/mean/min/max, and a strip
 * of recent durations with outliers highlighted.
 *
 * The computations are pure functions declared here (unit-tested without a
 * terminal); the vtable in panes_builtin.h only lays them out. */
#ifndef SMTOP_PANE_STEPS_H
#define SMTOP_PANE_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "../model/model.h"
#include "view.h"

/* One histogram row: buckets [b0, b1) of the model's log-scale histogram. */
typedef struct steps_hist_row {
    size_t b0, b1;
    uint64_t count;
} steps_hist_row;

/* Groups the non-empty span of counts[0..nbuckets) (first to last non-zero
 * bucket) into at most max_rows rows of equal bucket width, smallest
 * durations first. Returns the rows written (0 when every count is 0 or
 * max_rows is 0). */
size_t steps_hist_rows(const uint32_t *counts, size_t nbuckets,
                       size_t max_rows, steps_hist_row *out);

/* Histogram bucket holding a duration (per phase_hist_lower_us). */
size_t steps_bucket_of(double us);

/* Index of the row whose buckets contain `bucket`, or n when none does. */
size_t steps_row_of(const steps_hist_row *rows, size_t n, size_t bucket);

/* Duration above which a step counts as an outlier: the lower of
 * mean + 3σ and p99, but never below 1.1 × p50 (a 1 % wobble in a tight
 * distribution is not an outlier). INFINITY with fewer than 10 events,
 * when there is not enough history to call anything unusual. */
double steps_outlier_threshold(const phase_summary *s);

/* Which node the pane shows: the selected one among `nodes` when it has
 * framework events, else the first that has any; -1 when none has. */
long steps_pick_node(const model_node *const *nodes, size_t n, size_t selected);

/* Index of the phase labelled `label` on the node, 0 when absent or NULL. */
size_t steps_phase_index(const model_node *nd, const char *label);

/* Vertical split of a pane of height h (content rows) into the parts
 * drawn top to bottom. */
typedef struct steps_layout {
    int stats_rows;   /* 1: "n .. mean .. min .. max"; 2: plus a p50/p95/p99 line */
    int hist_rows;    /* histogram rows (0 when the pane is too short) */
    int strip_rows;   /* recent-durations strip height (>= 1 when h >= 3) */
} steps_layout;
steps_layout steps_layout_for(int h);

/* Heights (0..1 of the strip, by the strip's largest duration) and outlier
 * flags for the last `cols * per_col` durations of dur[0..n): fills
 * frac[i] / outlier[i] for i < returned count, oldest first. */
size_t steps_strip(const int64_t *dur, size_t n, size_t cols, int per_col,
                   double threshold, double *frac, int *outlier);

#endif
