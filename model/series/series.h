/* series: one metric's history on one node, in bounded memory.
 *
 * Storage tiers (all keyed by time, so samples may arrive in any order —
 * the scanner ingests newest files first and backfills history):
 *   tier 0: the most recent SERIES_RAW_CAP samples at full resolution;
 *   tier 1: older samples rolled up into 10 s buckets (min/mean/max/count);
 *   tier 2: older still, 5 min buckets; the oldest tier-2 buckets are
 *           dropped past its capacity (whole-series summary stats are kept
 *           separately and never lose a sample).
 * A sample evicted from a finer tier is merged into the next, never counted
 * twice. Memory per series is bounded by the three capacities (about
 * 300 KiB when all are full); storage grows on demand, so a series of a
 * few dozen samples costs about 1 KiB.
 *
 * Not thread-safe: the owner (the model) serialises writers and readers. */
#ifndef SMTOP_SERIES_H
#define SMTOP_SERIES_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_RAW_CAP 2048
#define SERIES_T1_WIDTH_US 10000000LL   /* 10 s */
#define SERIES_T1_CAP 2048              /* ~5.7 h */
#define SERIES_T2_WIDTH_US 300000000LL  /* 5 min */
#define SERIES_T2_CAP 4096              /* ~14 days */
/* A lean series (one of a node's many CPU cores) keeps the newest 10 min
 * in 10 s buckets, older in 5 min: what a per-core chart draws, at a
 * sixth of an hour of 10 s buckets (40 B each, times 32 cores a node). */
#define SERIES_LEAN_T1_CAP 60

typedef struct series series;

/* Whole-series statistics over every sample ever added (within the model's
 * time filter). Percentiles are exact for the first 1024 samples; after
 * that within err_abs + err_rel * |p| of exact (quantile.h): 0.05 points
 * for utilization in percent (a histogram over 0..100 in 0.1 steps), 1 %
 * relative for other metrics. */
typedef struct series_summary {
    int64_t count;
    double min, max, mean;
    double p5, p50, p95, p99;
    int exact;              /* 1 when percentiles are exact */
    double err_abs, err_rel;   /* the bound when not exact (0 when exact) */
    int64_t first_us, last_us;
    double last_value;      /* value of the sample with the largest time */
} series_summary;

/* One column of a chart: aggregate of the samples in its time slice. */
typedef struct series_bin {
    double min, mean, max;
    int64_t count;          /* 0 = no data in this slice */
} series_bin;

/* Creates an empty series with the given identity (copied). NULL on OOM. */
series *series_new(const char *type, const char *dimension, const char *name);
void series_free(series *s);

/* Adds one sample. Returns 0, or -1 on OOM or a non-finite value (the
 * sample is then dropped and the series is unchanged). */
int series_add(series *s, int64_t ts_us, double value);

/* Adds values[i] at ts_us[i] for i in 0..n, in that order, exactly as n
 * calls of series_add would (the same figures to the last bit), with
 * most of the per-sample work checked and done inline (issue 28: a node
 * worker adds a file's samples series by series). Returns how many
 * leading samples went in: n, or the index of the first one series_add
 * refused (non-finite or OOM; s unchanged by it), after which the caller
 * may go on with the rest. */
size_t series_add_block(series *s, const int64_t *ts_us, const double *values, size_t n);

const char *series_type(const series *s);
const char *series_dimension(const series *s);
const char *series_name(const series *s);   /* "" when the data had no Name */

void series_get_summary(const series *s, series_summary *out);
/* Does now what a reader would do lazily through a const pointer (the
 * staged run merged, the percentiles cached, the exact buffer sorted),
 * none of which changes an answer: until s is next written, readers then
 * only read, so several threads may read it at once (issue 28: the
 * report's rules in parallel). */
void series_settle(series *s);

/* The sample count and the first and last sample times, as in the
 * summary, without computing its percentiles (cheap: readers that only
 * need the extent, like series_visit and the rule grids, call it often).
 * first/last are 0 when the count is 0. */
int64_t series_extent(const series *s, int64_t *first_us, int64_t *last_us);

/* Fills out[0..nbins) with the aggregate of samples in each of nbins equal
 * slices of [t0_us, t1_us), using the finest tier that holds each slice.
 * Bins without data get count 0 (and 0 values). Bin b covers
 * [t0 + floor(b*span/nbins), t0 + floor((b+1)*span/nbins)); a rolled-up
 * bucket wider than a bin feeds every bin it overlaps (steps, not gaps). */
void series_query(const series *s, int64_t t0_us, int64_t t1_us,
                  size_t nbins, series_bin *out);

/* Chart columns narrower than the sampling interval: vals[0..nbins) are
 * series_query's bin means over [t0_us, t1_us) with NaN where a bin got
 * no sample. A run of such bins between two raw samples at most 2.5
 * sampling intervals apart takes the earlier sample's value (it held
 * until the next one). After the newest sample, or before a longer
 * silence (a real gap, which stays NaN), a sample holds for one interval.
 * The interval is the median spacing of the raw samples around the
 * window. Returns the bins filled. */
size_t series_hold_gaps(const series *s, int64_t t0_us, int64_t t1_us, size_t nbins,
                        double *vals);

/* Summary restricted to [t0_us, t1_us) computed from the tiers (min, max,
 * mean, count exact for raw samples, bucket-granular for rolled-up ones;
 * percentiles not filled). */
void series_range_summary(const series *s, int64_t t0_us, int64_t t1_us,
                          series_summary *out);

/* Keeps no raw tier from now on: raw samples roll up into 10 s buckets
 * and new ones go straight there (the newest SERIES_LEAN_T1_CAP of them;
 * older ones in 5 min buckets). For a node's many CPU cores (the node's total keeps
 * full resolution): charts of one core then draw 10 s buckets, while the
 * whole-series summary and the band counts stay per sample.
 * 0, or -1 on OOM (no sample is lost or counted twice; retry later). */
int series_make_lean(series *s);
int series_is_lean(const series *s);

/* Counts every sample added from now on as below lo, in [lo, hi], or above
 * hi: usage classes that need no history. Call before the first add. */
void series_count_bands(series *s, double lo, double hi);
/* The counts (below, between, above); 0 when s does not count bands. */
int series_band_counts(const series *s, int64_t out[3]);

/* Heap bytes owned by s (for memory accounting and tests). */
size_t series_memory_bytes(const series *s);

/* Bumped on every successful add: lets a view skip unchanged series. */
uint64_t series_generation(const series *s);

#endif
