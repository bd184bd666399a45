/* series_iter: every stored point of a series in time order, at the finest
 * resolution the series still holds — raw samples one by one, older data
 * as its rolled-up buckets (one point per bucket, carrying its sample
 * count). Unlike series_query, a bucket is reported once, so sample counts
 * add up to what is stored; rules and usage statistics weight by them.
 * Read-only; same threading rules as series.h. */
#ifndef SMTOP_SERIES_ITER_H
#define SMTOP_SERIES_ITER_H

#include <stdint.h>

#include "model/series/series.h"

typedef struct series_point {
    int64_t t_us;       /* sample time; for a bucket, its start (clamped to
                           the series' first sample) */
    int64_t width_us;   /* 0 for a raw sample, else the bucket width */
    double mean, min, max;
    int64_t count;      /* 1 for a raw sample */
} series_point;

/* Returns non-zero to stop the walk. */
typedef int (*series_visit_fn)(void *ud, const series_point *p);

/* Calls fn for every point with t_us in [t0_us, t1_us), oldest first
 * (tier 2, then tier 1, then raw: the tiers hold successive time ranges). */
void series_visit(const series *s, int64_t t0_us, int64_t t1_us,
                  series_visit_fn fn, void *ud);

#endif
