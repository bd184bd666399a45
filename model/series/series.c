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
    quant *q;
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

int series_add(series *s, int64_t ts_us, double value)
{
    if (quantile_reserve(s->q, value) != 0 || fsum_reserve(&s->sum) != 0)
        return -1;  /* also rejects NaN/inf: one would poison every mean */
    if (series_tiers_add(&s->t, ts_us, value) != 0)
        return -1;
    quantile_add(s->q, value);  /* cannot fail after the reserves */
    fsum_add(&s->sum, value);
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
    return 0;
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
    return s->t.lean ? 0 : series_tiers_make_lean(&s->t);
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
    /* quantile_get only sorts its exact buffer, a cache that changes no
     * answer: casting const away here is safe under the model's lock. */
    quant *q = s->q;
    out->p5 = quantile_get(q, 5);
    out->p50 = quantile_get(q, 50);
    out->p95 = quantile_get(q, 95);
    out->p99 = quantile_get(q, 99);
    out->exact = quantile_is_exact(q);
    quantile_error_bound(q, &out->err_abs, &out->err_rel);
}
