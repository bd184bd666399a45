/* series_query: chart bins and range summaries over the tiers.
 *
 * Bin b of nbins over [t0, t1) covers [t0 + floor(b*span/n),
 * t0 + floor((b+1)*span/n)). Raw samples land in the bin holding their
 * time; a rolled-up bucket, whose samples may sit anywhere in its width,
 * contributes to every bin its (clipped) width overlaps, so zooming into
 * old data draws steps instead of gaps. Tiers hold disjoint samples, so
 * adding them up never double-counts. */
#include "model/series/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/series/series_tier.h"

/* Reaching into the series for its tiers: series_query is series.c's
 * second half, split only to keep files short. */
const tiers *series_tiers_(const series *s);

typedef struct binner {
    int64_t t0, q, r;
    uint64_t n;
} binner;

static int64_t bin_start(const binner *B, uint64_t b)
{
    return B->t0 + (int64_t)b * B->q + (int64_t)(b * (uint64_t)B->r / B->n);
}

static void bin_put(series_bin *o, double min, double max, double sum, int64_t n)
{
    if (min < o->min)
        o->min = min;
    if (max > o->max)
        o->max = max;
    o->mean += sum;  /* a sum until the final pass */
    o->count += n;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static void raw_pass(const tiers *t, const binner *B, int64_t t1, series_bin *out)
{
    uint64_t b = 0;
    int64_t end = bin_start(B, 1);
    for (size_t i = series_tier_raw_lower(t, B->t0); i < t->raw.len; i++) {
        raw_pt p = series_tier_raw_at(t, i);
        if (p.ts >= t1)
            break;
        while (p.ts >= end)
            end = bin_start(B, ++b + 1);
        bin_put(&out[b], p.v, p.v, p.v, 1);
    }
}

static void bucket_pass(const tiers *t, int level, int64_t width, int64_t clip,
                        const binner *B, int64_t t1, series_bin *out)
{
    uint64_t b = 0;
    size_t n = series_tier_buckets(t, level)->len;
    for (size_t i = series_tier_bucket_lower(t, level, tier_floordiv(B->t0, width)); i < n; i++) {
        bucket k = series_tier_bucket_at(t, level, i);
        int64_t bs = k.key * width, be = sat_add(bs, width);
        if (bs >= t1)
            break;
        if (be > clip)
            be = clip;
        if (bs < B->t0)
            bs = B->t0;
        if (be > t1)
            be = t1;
        if (bs >= be)
            continue;
        while (bin_start(B, b + 1) <= bs)
            b++;
        for (uint64_t c = b; c < B->n && bin_start(B, c) < be; c++)
            bin_put(&out[c], k.min, k.max, k.sum, k.count);
    }
}

/* Exclusive end of the time a coarse tier's samples can occupy. */
static void tier_clips(const tiers *t, int64_t *clip1, int64_t *clip2)
{
    *clip1 = *clip2 = INT64_MAX;
    if (t->raw.len)
        *clip1 = sat_add(series_tier_raw_ts(t, 0), 1);
    if (t->t1.len)
        *clip2 = series_tier_bucket_key(t, 1, 0) * SERIES_T1_WIDTH_US;
}

void series_query(const series *s, int64_t t0_us, int64_t t1_us,
                  size_t nbins, series_bin *out)
{
    for (size_t i = 0; i < nbins; i++) {
        out[i].min = INFINITY;
        out[i].max = -INFINITY;
        out[i].mean = 0;
        out[i].count = 0;
    }
    int64_t span;
    if (nbins && t1_us > t0_us && !__builtin_sub_overflow(t1_us, t0_us, &span)) {
        binner B = {t0_us, span / (int64_t)nbins, span % (int64_t)nbins, nbins};
        const tiers *t = series_tiers_(s);
        int64_t clip1, clip2;
        tier_clips(t, &clip1, &clip2);
        raw_pass(t, &B, t1_us, out);
        bucket_pass(t, 1, SERIES_T1_WIDTH_US, clip1, &B, t1_us, out);
        bucket_pass(t, 2, SERIES_T2_WIDTH_US, clip2, &B, t1_us, out);
    }
    for (size_t i = 0; i < nbins; i++) {
        if (out[i].count) {
            out[i].mean /= (double)out[i].count;
        } else {
            out[i].min = out[i].max = out[i].mean = 0;
        }
    }
}

/* ---- holding a sample across columns narrower than its interval ------ */

#define HOLD_GAPS 63     /* spacings the interval's median is taken from */
#define HOLD_FACTOR 2.5  /* a missed sample or two is no gap; a longer silence is */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The median spacing of up to HOLD_GAPS + 1 raw samples spread over
 * [a, b) (raw indices), widened by a few on each side so a window
 * narrower than one interval still has neighbours; 0 when fewer than two. */
static int64_t raw_interval(const tiers *t, size_t a, size_t b)
{
    a = a > 4 ? a - 4 : 0;
    b = b + 4 < t->raw.len ? b + 4 : t->raw.len;
    if (b < a + 2)
        return 0;
    int64_t gap[HOLD_GAPS];
    size_t n = b - a - 1 < HOLD_GAPS ? b - a - 1 : HOLD_GAPS;
    for (size_t k = 0; k < n; k++) {
        size_t i = a + k * (b - a - 1) / n;
        gap[k] = series_tier_raw_ts(t, i + 1) - series_tier_raw_ts(t, i);
    }
    qsort(gap, n, sizeof *gap, cmp_i64);
    return gap[n / 2];
}

/* Fills vals[b0..b1) (a run of empty bins) where the sample before it
 * held: across the whole run when the next sample came on time (within
 * HOLD_FACTOR intervals), else for one interval after it (the newest
 * sample, or the last before a real gap). Returns the bins filled. */
static size_t hold_run(const tiers *t, const binner *B, size_t b0, size_t b1, int64_t iv,
                       double *vals)
{
    size_t prev = series_tier_raw_lower(t, bin_start(B, b0));
    if (prev == 0 || iv <= 0)
        return 0;   /* nothing before the run to hold */
    raw_pt p = series_tier_raw_at(t, prev - 1);
    size_t next = series_tier_raw_lower(t, bin_start(B, b1));
    int on_time = next < t->raw.len &&
                  (double)(series_tier_raw_ts(t, next) - p.ts) <= HOLD_FACTOR * (double)iv;
    size_t filled = 0;
    for (size_t b = b0; b < b1 && (on_time || bin_start(B, b) - p.ts < iv); b++) {
        vals[b] = p.v;
        filled++;
    }
    return filled;
}

size_t series_hold_gaps(const series *s, int64_t t0_us, int64_t t1_us, size_t nbins,
                        double *vals)
{
    int64_t span;
    if (!nbins || t1_us <= t0_us || __builtin_sub_overflow(t1_us, t0_us, &span))
        return 0;
    const tiers *t = series_tiers_(s);
    if (t->raw.len < 2)
        return 0;
    binner B = {t0_us, span / (int64_t)nbins, span % (int64_t)nbins, nbins};
    int64_t iv = -1;   /* estimated at the first empty run */
    size_t filled = 0;
    for (size_t b = 0; b < nbins;) {
        if (!isnan(vals[b])) {
            b++;
            continue;
        }
        size_t e = b;
        while (e < nbins && isnan(vals[e]))
            e++;
        if (iv < 0)
            iv = raw_interval(t, series_tier_raw_lower(t, t0_us), series_tier_raw_lower(t, t1_us));
        filled += hold_run(t, &B, b, e, iv, vals);
        b = e;
    }
    return filled;
}

static void sum_add(series_summary *o, double sum, double mn, double mx, int64_t n,
                    int64_t t, double last)
{
    if (o->count == 0 || t < o->first_us)
        o->first_us = t;
    if (o->count == 0 || t >= o->last_us) {
        o->last_us = t;
        o->last_value = last;
    }
    if (mn < o->min)
        o->min = mn;
    if (mx > o->max)
        o->max = mx;
    o->mean += sum;
    o->count += n;
}

static void range_buckets(const tiers *t, int level, int64_t width, int64_t t0, int64_t t1,
                          series_summary *o)
{
    size_t n = series_tier_buckets(t, level)->len;
    for (size_t i = series_tier_bucket_lower(t, level, tier_floordiv(t0, width)); i < n; i++) {
        bucket k = series_tier_bucket_at(t, level, i);
        int64_t bs = k.key * width;
        if (bs >= t1)
            break;
        if (bs >= t0)
            sum_add(o, k.sum, k.min, k.max, k.count, bs, k.sum / k.count);
    }
}

void series_range_summary(const series *s, int64_t t0_us, int64_t t1_us,
                          series_summary *out)
{
    memset(out, 0, sizeof *out);
    out->min = INFINITY;
    out->max = -INFINITY;
    const tiers *t = series_tiers_(s);
    /* Coarse tiers first: a raw sample at the same time as a bucket start
     * is the better last_value. */
    range_buckets(t, 2, SERIES_T2_WIDTH_US, t0_us, t1_us, out);
    range_buckets(t, 1, SERIES_T1_WIDTH_US, t0_us, t1_us, out);
    for (size_t i = series_tier_raw_lower(t, t0_us); i < t->raw.len; i++) {
        raw_pt p = series_tier_raw_at(t, i);
        if (p.ts >= t1_us)
            break;
        sum_add(out, p.v, p.v, p.v, 1, p.ts, p.v);
    }
    out->p5 = out->p50 = out->p95 = out->p99 = NAN;
    if (out->count) {
        out->mean /= (double)out->count;
    } else {
        out->min = out->max = out->mean = out->last_value = NAN;
    }
}
