/* series_tier: the storage tiers behind series.c (internal to model/).
 *
 * tier 0 is a deque of raw points sorted by time; tiers 1 and 2 are deques
 * of buckets sorted by key = floor(ts / width). Each sample lives in
 * exactly one tier, so aggregates over tiers never double-count. */
#ifndef SMTOP_SERIES_TIER_H
#define SMTOP_SERIES_TIER_H

#include <stdint.h>

#include "deque.h"

typedef struct raw_pt {
    int64_t ts;
    double v;
} raw_pt;

typedef struct bucket {
    int64_t key;        /* floor(ts / tier width) */
    double min, max, sum;
    uint32_t count;
} bucket;

typedef struct tiers {
    deque raw, t1, t2;
} tiers;

void tiers_init(tiers *t);
void tiers_free(tiers *t);
/* Places one sample, cascading evictions. 0, or -1 on OOM (t unchanged). */
int tiers_add(tiers *t, int64_t ts, double v);

/* floor(a / b) for b > 0. */
static inline int64_t tier_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* First raw index with ts >= t (len when none). */
size_t tier_raw_lower(const deque *raw, int64_t t);
/* First bucket index with key >= k (len when none). */
size_t tier_bucket_lower(const deque *d, int64_t k);

#endif
