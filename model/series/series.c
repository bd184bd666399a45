/* series: identity, whole-series summary, and reads over the tiers
 * (placement lives in series_tier.c). */
#include "model/series/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/series/fsum.h"
#include "model/series/quantile.h"
#include "model/series/series_tier.h"

#define SERIES_EXACT_CAP 1024

struct series {
    char *type, *dim, *name;    /* one allocation, owned */
    tiers t;
    /* While `deferred`, q holds no value: the first SERIES_EXACT_CAP
     * samples all sit in the raw tier (SERIES_RAW_CAP is larger), and
     * exact percentiles are taken from there; the sample that ends exact
     * mode, or going lean, hands q every one first (undefer). At 64 nodes
     * the copies were 12 MB of the peak. */
    quant *q;
    int deferred;
    uint64_t pct_gen;       /* pct computed at this gen + 1 */
    double pct[4];          /* p5, p50, p95, p99 */
    int64_t count;
    double min, max;
    fsum sum;               /* exact: the mean does not depend on the order */
    int64_t first_us, last_us;
    double last_value;
    uint64_t gen;
    int bands;              /* series_count_bands was called */
    double band_lo, band_hi;
    int64_t band[3];
};

static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Utilization in percent (CPUUtilization, GPUUtilization,
 * GPUMemoryUtilization, MemoryUsedPercent, ...): bounded to 0..100, so its
 * percentiles come from a histogram in 0.1 steps (quantile.h). */
static quant *summary_quant(const char *dim, size_t ld)
{
    if (ends_with(dim, ld, "Utilization") || ends_with(dim, ld, "Percent") ||
        ends_with(dim, ld, "Percentage"))
        return quantile_new_linear(SERIES_EXACT_CAP, 100, 0.1);
    return quantile_new(SERIES_EXACT_CAP);
}

series *series_new(const char *type, const char *dimension, const char *name)
{
    size_t lt = strlen(type), ld = strlen(dimension), ln = name ? strlen(name) : 0;
    series *s = calloc(1, sizeof *s);
    char *ids = malloc(lt + ld + ln + 3);
    if (!s || !ids || !(s->q = summary_quant(dimension, ld))) {
        free(ids);
        free(s);
        return NULL;
    }
    s->type = ids;
    s->dim = memcpy(ids + lt + 1, dimension, ld + 1);
    memcpy(ids, type, lt + 1);
    s->name = ids + lt + ld + 2;
    memcpy(s->name, name ? name : "", ln + 1);
    series_tiers_init(&s->t);
    s->deferred = 1;
    fsum_init(&s->sum);
    s->min = INFINITY;
    s->max = -INFINITY;
    return s;
}

void series_free(series *s)
{
    if (!s)
        return;
    series_tiers_free(&s->t);
    fsum_free(&s->sum);
    quantile_free(s->q);
    free(s->type);
    free(s);
}

static double raw_value(const void *ctx, size_t i)
{
    return series_tier_raw_at(ctx, i).v;
}

/* The raw tier, settled: while deferred, it holds every sample. */
static const tiers *raw_settled(const series *s)
{
    series_tiers_settle((tiers *)&s->t);   /* a cache flush: see series_tiers_ */
    return &s->t;
}

/* Ends deferred mode: a quant of the series' own kind takes every sample
 * so far. 0, or -1 on OOM (s unchanged). */
static int undefer(series *s)
{
    const tiers *t = raw_settled(s);
    quant *q = summary_quant(s->dim, strlen(s->dim));
    if (!q || quantile_add_all(q, raw_value, t, t->raw.len) != 0) {
        quantile_free(q);
        return -1;
    }
    quantile_free(s->q);
    s->q = q;
    s->deferred = 0;
    return 0;
}

/* What every sample added does to the whole-series figures. */
static inline void note_sample(series *s, int64_t ts_us, double value)
{
    if (s->count == 0 || ts_us < s->first_us)
        s->first_us = ts_us;
    if (s->count == 0 || ts_us >= s->last_us) {
        s->last_us = ts_us;
        s->last_value = value;
    }
    s->count++;
    if (s->bands)
        s->band[value < s->band_lo ? 0 : value > s->band_hi ? 2 : 1]++;
    if (value < s->min)
        s->min = value;
    if (value > s->max)
        s->max = value;
    s->gen++;
}

int series_add(series *s, int64_t ts_us, double value)
{
    if (!isfinite(value))
        return -1;  /* one would poison every mean */
    if (s->deferred && s->count >= SERIES_EXACT_CAP && undefer(s) != 0)
        return -1;
    if ((!s->deferred && quantile_reserve(s->q, value) != 0) || fsum_reserve(&s->sum) != 0)
        return -1;
    if (series_tiers_add(&s->t, ts_us, value) != 0)
        return -1;
    if (!s->deferred)
        quantile_add(s->q, value);  /* cannot fail after the reserves */
    fsum_add(&s->sum, value);
    note_sample(s, ts_us, value);
    return 0;
}

/* series_add's work when none of it allocates or changes a form: each
 * part is first checked (the quantile's place, the sum's fast range),
 * then the tiers place it (through the block's cursor), then the rest
 * follows; 0 with s unchanged when any part needs the full path. */
static int add_fast(series *s, tier_cursor *c, int64_t ts_us, double value)
{
    quant_plan qp;
    if (!isfinite(value))
        return 0;
    if (s->deferred ? s->count >= SERIES_EXACT_CAP : !quantile_plan(s->q, value, &qp))
        return 0;
    if (!fsum_fast_takes(&s->sum, value) || !series_tiers_add_cursor(&s->t, c, ts_us, value))
        return 0;
    fsum_add_fast(&s->sum, value);
    if (!s->deferred)
        quantile_apply(s->q, &qp, value);
    note_sample(s, ts_us, value);
    return 1;
}

size_t series_add_block(series *s, const int64_t *ts_us, const double *values, size_t n)
{
    tier_cursor c;
    c.at = NULL;
    size_t i = 0;
    for (; i < n; i++) {
        if (add_fast(s, &c, ts_us[i], values[i]))
            continue;
        series_tiers_cursor_flush(&s->t, &c);   /* series_add reads the tiers */
        if (series_add(s, ts_us[i], values[i]) != 0)
            break;
    }
    series_tiers_cursor_flush(&s->t, &c);
    return i;
}

const tiers *series_tiers_(const series *s);
const tiers *series_tiers_(const series *s)
{
    /* Every reader comes through here: merge a staged run first. Like
     * quantile_get's sort, a cache flush that changes no answer, safe under
     * the model's lock. */
    series_tiers_settle((tiers *)&s->t);
    return &s->t;
}

int series_make_lean(series *s)
{
    if (s->t.lean)
        return 0;
    if (s->deferred && undefer(s) != 0)
        return -1;
    return series_tiers_make_lean(&s->t);
}

int series_is_lean(const series *s) { return s->t.lean; }

void series_count_bands(series *s, double lo, double hi)
{
    s->bands = 1;
    s->band_lo = lo;
    s->band_hi = hi;
}

int series_band_counts(const series *s, int64_t out[3])
{
    memcpy(out, s->band, sizeof s->band);
    return s->bands;
}

const char *series_type(const series *s) { return s->type; }
const char *series_dimension(const series *s) { return s->dim; }
const char *series_name(const series *s) { return s->name; }
uint64_t series_generation(const series *s) { return s->gen; }

size_t series_memory_bytes(const series *s)
{
    return sizeof *s + strlen(s->type) + strlen(s->dim) + strlen(s->name) + 3 +
           deque_bytes(&s->t.raw) + deque_bytes(&s->t.t1) + deque_bytes(&s->t.t2) +
           s->t.caprun * s->t.raw.elem +
           quantile_memory_bytes(s->q) + (s->sum.heap ? s->sum.cap * sizeof(double) : 0);
}

int64_t series_extent(const series *s, int64_t *first_us, int64_t *last_us)
{
    *first_us = s->count ? s->first_us : 0;
    *last_us = s->count ? s->last_us : 0;
    return s->count;
}

/* p5, p50, p95 and p99, cached per generation; a deferred series takes
 * them exactly from its raw samples (quantile_exact_of: the same
 * answers); NAN on OOM. quantile_get's sort and this cache change no
 * answer: casting const away is safe under the model's lock. */
static const double *percentiles(const series *cs)
{
    series *s = (series *)cs;
    if (s->pct_gen == s->gen + 1)
        return s->pct;
    static const double p[4] = {5, 50, 95, 99};
    int rc = 0;
    if (s->deferred) {
        const tiers *t = raw_settled(s);
        rc = quantile_exact_of(raw_value, t, t->raw.len, p, 4, s->pct);
    } else {
        for (int i = 0; i < 4; i++)
            s->pct[i] = quantile_get(s->q, p[i]);
    }
    if (rc == 0)
        s->pct_gen = s->gen + 1;
    return s->pct;
}

void series_settle(series *s)
{
    series_tiers_settle(&s->t);
    if (s->count)
        (void)percentiles(s);
}

void series_get_summary(const series *s, series_summary *out)
{
    memset(out, 0, sizeof *out);
    out->count = s->count;
    out->exact = 1;
    if (s->count == 0) {
        out->min = out->max = out->mean = NAN;
        out->p5 = out->p50 = out->p95 = out->p99 = out->last_value = NAN;
        return;
    }
    out->min = s->min;
    out->max = s->max;
    out->mean = fsum_value(&s->sum) / (double)s->count;
    out->first_us = s->first_us;
    out->last_us = s->last_us;
    out->last_value = s->last_value;
    const double *pct = percentiles(s);
    out->p5 = pct[0];
    out->p50 = pct[1];
    out->p95 = pct[2];
    out->p99 = pct[3];
    out->exact = s->deferred || quantile_is_exact(s->q);
    if (!s->deferred)
        quantile_error_bound(s->q, &out->err_abs, &out->err_rel);
}
