/* step_hist: the Steps pane's histogram rows.
 *
 * phase_stats' log-scale buckets (a 19 % span each) put a tight step
 * time into one bar: p50 and p95 of steps that differ by 2 % share it,
 * and a few stalls stretch the rows to hold them. Here the bulk of the
 * steps, p1 to p99, is cut into equal-width bars, and the steps outside
 * it go to an underflow and an overflow row that carry their range. When
 * the top percent are outliers themselves (3 stalls among 30 steps make
 * p99 a stall), the bulk ends at Tukey's far fence, Q3 + 3 IQR, but never
 * below p95 (and starts at the higher of p1 and Q1 - 3 IQR, never above
 * p5); so p50 and p95 fall in bars of their own, and the stalls in the
 * overflow row.
 *
 * Takes the steps' durations (exact), or a quantile table of the phase
 * (from its quantile sketch: within QUANT_REL_ERR, so bars finer than
 * about 1 % of a step show the sketch's bins) when it holds more steps
 * than it retains; the log histogram is too
 * coarse for that. The counts always sum to every step. Gives at most max_rows rows,
 * smallest durations first. Pure. */
#ifndef SMTOP_STEP_HIST_H
#define SMTOP_STEP_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "model/steps/phase_stats.h"

#define STEP_HIST_MAX_ROWS 128
/* Entries of a quantile table (step_hist_table_pcts). */
#define STEP_HIST_TABLE 209

/* The range the bars resolve, and every step's. */
typedef struct step_hist_bounds {
    double lo_us, hi_us;       /* the bulk: [lo, hi], cut into equal bars */
    double min_us, max_us;     /* the shortest and longest step */
    int exact;                 /* 0: from a quantile table */
} step_hist_bounds;

typedef enum step_hist_kind {
    STEP_HIST_UNDER = 0,       /* steps below lo: [min, lo) */
    STEP_HIST_BAR,             /* [lo_us, hi_us); the last bar holds hi too */
    STEP_HIST_OVER             /* steps above hi: (hi, max] */
} step_hist_kind;

typedef struct step_hist_row {
    step_hist_kind kind;
    double lo_us, hi_us;       /* the row's range (UNDER: min..lo, OVER: hi..max) */
    uint64_t count;
} step_hist_row;

typedef struct step_hist {
    size_t nrows;
    step_hist_row row[STEP_HIST_MAX_ROWS];
    size_t first_bar, nbars;   /* row[first_bar .. +nbars) are the bars */
    double lo_us, width_us;    /* bar i is [lo + i w, lo + (i+1) w) */
} step_hist;

/* The bounds of dur[0..n) (exact percentiles, quantile.h's definition:
 * linear between the closest ranks); sorts dur (a radix sort: a frame
 * takes them for the window's steps). 0; -1 on OOM or when n is 0 (out
 * then all NAN, exact 0). */
int step_hist_bounds_of(int64_t *dur, size_t n, step_hist_bounds *out);

/* A phase's durations at percentiles: us[i] at pct[i] (0..100, rising;
 * pct[0] 0, pct[n-1] 100). */
typedef struct step_hist_table {
    size_t n;
    double pct[STEP_HIST_TABLE];
    double us[STEP_HIST_TABLE];
    double err_rel;            /* what each us[i] may be off by, relative */
} step_hist_table;

/* Sets t's percentiles: every half percent from 1 to 99, finer below and
 * above (a few stalls among thousands of steps are 0.1 %). */
void step_hist_table_pcts(step_hist_table *t);

/* Makes t's durations, as a quantile sketch estimated them (within
 * err_rel), a distribution: us[0] min, us[n-1] max, never falling, and a
 * run of one estimate (the steps of one sketch bin) spread over the bin,
 * between its neighbours. */
void step_hist_table_fix(step_hist_table *t, double min_us, double max_us, double err_rel);

/* The bounds of a phase from its table t (step_hist_table_fix'ed) and its
 * summary s, whose p50/p95/p99 (drawn as markers) stay inside the bulk. */
void step_hist_bounds_table(const step_hist_table *t, const phase_summary *s,
                            step_hist_bounds *out);

/* The rows of dur[0..n) with bounds b, at most max_rows
 * (<= STEP_HIST_MAX_ROWS): an UNDER row when a step lies more than a
 * bar's width below lo and an OVER row when one lies that far above hi
 * (each only while at least one bar is left); else the bars stretch to
 * min / max. No more bars
 * than steps inside [lo, hi], nor bars narrower than 1 µs. The rows'
 * counts sum to n. Returns h->nrows: 0 when n or max_rows is 0. */
size_t step_hist_build(const int64_t *dur, size_t n, const step_hist_bounds *b,
                       size_t max_rows, step_hist *h);

/* The same for n steps described by a quantile table (as above) and
 * bounds from step_hist_bounds_table: each row counts the steps its range
 * holds (linear between the table's entries), rounded so that the counts
 * sum to n. */
size_t step_hist_build_table(const step_hist_table *t, uint64_t n,
                             const step_hist_bounds *b, size_t max_rows, step_hist *h);

/* The row a duration falls in, h->nrows when none (NaN, or outside
 * every row). */
size_t step_hist_row_of(const step_hist *h, double us);

#endif
