/* pane_steps_calc: the Steps pane's arithmetic, pure (no curses, no
 * model): the histogram's rows, the outlier threshold, the pane's
 * vertical split, the strip's columns and where its cursor falls.
 * Unit-tested without a terminal (test_pane_steps); pane_steps.c draws
 * what these compute. */
#ifndef SMTOP_PANE_STEPS_CALC_H
#define SMTOP_PANE_STEPS_CALC_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* One histogram row: buckets [b0, b1) of the model's log-scale histogram. */
typedef struct steps_hist_row {
    size_t b0, b1;
    uint64_t count;
} steps_hist_row;

/* Groups the non-empty span of counts[0..nbuckets) (first to last non-zero
 * bucket) into at most max_rows rows of equal bucket width, smallest
 * durations first. Returns the rows written (0 when every count is 0 or
 * max_rows is 0). */
size_t pane_steps_hist_rows(const uint32_t *counts, size_t nbuckets,
                            size_t max_rows, steps_hist_row *out);

/* Histogram bucket holding a duration (per phase_hist_lower_us). */
size_t pane_steps_bucket_of(double us);

/* Index of the row whose buckets contain `bucket`, or n when none does. */
size_t pane_steps_row_of(const steps_hist_row *rows, size_t n, size_t bucket);

/* Duration above which a step counts as an outlier: the lower of
 * mean + 3σ and p99, but never below 1.1 × p50 (a 1 % wobble in a tight
 * distribution is not an outlier). INFINITY with fewer than 10 events,
 * when there is not enough history to call anything unusual. */
double pane_steps_outlier_threshold(const phase_summary *s);

/* Which node and phase it shows: stepsview_pick_node and
 * stepsview_phase_index (model/view/stepsview.h), built by the loader. */

/* Vertical split of a pane of height h (content rows) into the parts
 * drawn top to bottom. */
typedef struct steps_layout {
    int stats_rows;   /* 1: "n .. mean .. min .. max"; 2: plus a p50/p95/p99 line */
    int hist_rows;    /* histogram rows (0 when the pane is too short) */
    int strip_rows;   /* recent-durations strip height (>= 1 when h >= 3) */
} steps_layout;
steps_layout pane_steps_layout_for(int h);

/* Heights (0..1 of the strip, by the strip's largest duration) and outlier
 * flags for the last `cols * per_col` durations of dur[0..n): fills
 * frac[i] / outlier[i] for i < returned count, oldest first. */
size_t pane_steps_strip(const int64_t *dur, size_t n, size_t cols, int per_col,
                        double threshold, double *frac, int *outlier);

/* How many of ev[0..n) (time order) start at or before t_us. */
size_t pane_steps_count_upto(const phase_event *ev, size_t n, int64_t t_us);

/* Index among ev[0..n) (time order) of the event the cursor anchored at
 * start time `at_us` is on: the last event starting at or before it (the
 * anchor survives the event being evicted). n when at_us is 0 (no
 * cursor) or n is 0; 0 when every event starts after it. */
size_t pane_steps_cursor_find(const phase_event *ev, size_t n, int64_t at_us);

/* The next outlier (dur > threshold) from index `from` in direction dir
 * (-1 older, +1 newer), wrapping around; from == n starts from the newest
 * end. n when there is none. */
size_t pane_steps_next_outlier(const phase_event *ev, size_t n, size_t from,
                               double threshold, int dir);

/* End (exclusive) of the `m` events a strip of ev[0..n) shows so that the
 * cursor is visible: n while the cursor is among the newest m (or there
 * is none, cursor == n), else a quarter strip of newer steps after it
 * (at least m, so the strip stays full near the oldest step). */
size_t pane_steps_strip_end(size_t n, size_t m, size_t cursor);

#endif
