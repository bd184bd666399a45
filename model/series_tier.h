/* series_tier: the storage tiers behind series.c (internal to model/).
 *
 * tier 0 is a deque of raw points sorted by time; tiers 1 and 2 are deques
 * of buckets sorted by key = floor(ts / width). Each sample lives in
 * exactly one tier, so aggregates over tiers never double-count. */
#ifndef SMTOP_SERIES_TIER_H
#define SMTOP_SERIES_TIER_H

#include <stdint.h>

#include "model/deque.h"

typedef struct raw_pt {
    int64_t ts;
    double v;
} raw_pt;

typedef struct bucket {
    int64_t key;        /* floor(ts / tier width) */
    double min, max, sum;
    uint32_t count;
} bucket;

/* `run` stages an ascending run of samples that all precede raw[0] while
 * raw has room for them: the scanner reads files newest first, so each
 * older file arrives as such a run, and inserting it point by point at the
 * front of raw would shift the run so far once per sample (quadratic per
 * file). The run joins raw in one copy when anything else happens or
 * when the tiers are read (series_tiers_settle). */
typedef struct tiers {
    deque raw, t1, t2;
    raw_pt *run;
    size_t nrun, caprun;
    size_t hint[2];     /* t1/t2 index of the bucket last merged into:
                         * consecutive samples mostly share a bucket */
    int lean;           /* no raw tier: samples go straight to tier 1 */
} tiers;

void series_tiers_init(tiers *t);
void series_tiers_free(tiers *t);
/* Places one sample, cascading evictions. 0, or -1 on OOM (t unchanged). */
int series_tiers_add(tiers *t, int64_t ts, double v);
/* Rolls raw (and a staged run) up into tier 1 and keeps no raw tier from
 * then on (series_make_lean). 0, or -1 on OOM (t unchanged but for
 * samples already moved: none is lost or counted twice). */
int series_tiers_make_lean(tiers *t);
/* Moves a staged run into raw. Cannot fail (series_tiers_add reserved the
 * room); changes no answer, so readers may call it on data they otherwise
 * only read, under the lock that serialises them with writers. */
void series_tiers_settle(tiers *t);

/* floor(a / b) for b > 0. */
static inline int64_t tier_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* First raw index with ts >= t (len when none). */
size_t series_tier_raw_lower(const deque *raw, int64_t t);
/* First bucket index with key >= k (len when none). */
size_t series_tier_bucket_lower(const deque *d, int64_t k);

#endif
