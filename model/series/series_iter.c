/* series_iter: see series_iter.h. Reads the tiers through series.c's
 * internal accessor (series_tiers_), without touching series internals
 * otherwise. */
#include "model/series/series_iter.h"

#include "model/series/series_tier.h"

const tiers *series_tiers_(const series *s);

static int visit_buckets(const tiers *tr, int level, int64_t width, int64_t first,
                         int64_t t0, int64_t t1, series_visit_fn fn, void *ud)
{
    for (size_t i = 0; i < series_tier_buckets(tr, level)->len; i++) {
        bucket b = series_tier_bucket_at(tr, level, i);
        int64_t t = b.key * width;
        if (t < first)
            t = first;
        if (t < t0 || t >= t1 || b.count == 0)
            continue;
        series_point p = {.t_us = t, .width_us = width, .min = b.min,
                          .max = b.max, .mean = b.sum / b.count,
                          .count = b.count};
        if (fn(ud, &p))
            return 1;
    }
    return 0;
}

void series_visit(const series *s, int64_t t0_us, int64_t t1_us,
                  series_visit_fn fn, void *ud)
{
    const tiers *t = series_tiers_(s);
    int64_t first, last;
    series_extent(s, &first, &last);   /* the summary's first_us */
    if (visit_buckets(t, 2, SERIES_T2_WIDTH_US, first, t0_us, t1_us, fn, ud) ||
        visit_buckets(t, 1, SERIES_T1_WIDTH_US, first, t0_us, t1_us, fn, ud))
        return;
    for (size_t i = series_tier_raw_lower(t, t0_us); i < t->raw.len; i++) {
        raw_pt r = series_tier_raw_at(t, i);
        if (r.ts >= t1_us)
            break;
        series_point p = {.t_us = r.ts, .mean = r.v, .min = r.v,
                          .max = r.v, .count = 1};
        if (fn(ud, &p))
            return;
    }
}
