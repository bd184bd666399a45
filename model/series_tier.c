/* series_tier: placing samples into the raw/10 s/5 min tiers.
 *
 * Invariant (shown by induction): every tier-1 sample is <= every raw
 * sample and every tier-2 sample <= every tier-1 sample, because a tier
 * only receives samples older than its finer neighbour's oldest, or that
 * neighbour's evicted oldest. Boundary buckets may share a time slice with
 * the finer tier; they never share a sample. */
#include "model/series_tier.h"

#include <stdlib.h>

#include "model/series.h"

void series_tiers_init(tiers *t)
{
    deque_init(&t->raw, sizeof(raw_pt), SERIES_RAW_CAP, SERIES_RAW_CAP / 4);
    /* Buckets are inserted about once per 10 s of data: small slack. */
    deque_init(&t->t1, sizeof(bucket), SERIES_T1_CAP, 64);
    deque_init(&t->t2, sizeof(bucket), SERIES_T2_CAP, 64);
    t->run = NULL;
    t->nrun = t->caprun = 0;
    t->hint[0] = t->hint[1] = 0;
    t->lean = 0;
}

void series_tiers_free(tiers *t)
{
    free(t->run);
    t->run = NULL;
    t->nrun = t->caprun = 0;
    deque_free(&t->raw);
    deque_free(&t->t1);
    deque_free(&t->t2);
}

size_t series_tier_raw_lower(const deque *raw, int64_t t)
{
    const raw_pt *p = raw->len ? deque_at(raw, 0) : NULL;
    size_t lo = 0, hi = raw->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid].ts < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t series_tier_bucket_lower(const deque *d, int64_t k)
{
    const bucket *b = d->len ? deque_at(d, 0) : NULL;
    size_t lo = 0, hi = d->len;
    if (hi && b[hi - 1].key < k)
        return hi;  /* the usual case: a new newest bucket */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void bucket_merge(bucket *into, const bucket *b)
{
    if (b->min < into->min)
        into->min = b->min;
    if (b->max > into->max)
        into->max = b->max;
    into->sum += b->sum;
    into->count += b->count;
}

/* Merges b (key in tier-1 units when level == 1) into tier `level`.
 * 0, or -1 on OOM with every tier unchanged. */
static int series_tier_put(tiers *t, int level, bucket b)
{
    deque *d = level == 1 ? &t->t1 : &t->t2;
    if (level == 2)
        b.key = tier_floordiv(b.key, SERIES_T2_WIDTH_US / SERIES_T1_WIDTH_US);
    /* Keys are unique within a tier, so a hint holding b's key is exactly
     * the lower bound the search would find. */
    size_t *hint = &t->hint[level - 1];
    size_t i = *hint < d->len && ((bucket *)deque_at(d, *hint))->key == b.key
                   ? *hint : series_tier_bucket_lower(d, b.key);
    if (i < d->len) {
        bucket *at = deque_at(d, i);
        if (at->key == b.key) {
            bucket_merge(at, &b);
            *hint = i;
            return 0;
        }
    }
    if (i == 0 && d->len == d->max_len) {
        /* Older than everything a full tier keeps. */
        if (level == 2)
            return 0;   /* dropped: only the whole-series summary keeps it */
        return series_tier_put(t, 2, b);
    }
    if (deque_insert(d, i, &b) != 0)
        return -1;
    if (d->len > d->max_len) {
        bucket old = *(bucket *)deque_at(d, 0);
        if (level == 1 && series_tier_put(t, 2, old) != 0) {
            deque_remove(d, i);
            return -1;
        }
        deque_pop_front(d);
        i = i ? i - 1 : 0;
    }
    *hint = i;
    return 0;
}

static bucket point_bucket(int64_t ts, double v)
{
    bucket b = {tier_floordiv(ts, SERIES_T1_WIDTH_US), v, v, v, 1};
    return b;
}

void series_tiers_settle(tiers *t)
{
    if (!t->nrun)
        return;
    deque_prepend(&t->raw, t->run, t->nrun);
    t->nrun = 0;
}

/* Appends (ts, v) to the staged run when that is where series_tiers_add
 * would put it in run + raw: after every run sample (equal times keep
 * arrival order), before every raw one, with no eviction due. 1 when
 * staged, 0 when not applicable, -1 on OOM (t unchanged). */
static int stage(tiers *t, int64_t ts, double v)
{
    deque *raw = &t->raw;
    /* Older than the run's last sample: the next older file begins. The
     * run joins raw, and this sample may start a new one before it. */
    if (t->nrun && ts < t->run[t->nrun - 1].ts)
        series_tiers_settle(t);
    if (!raw->len || raw->len + t->nrun + 1 > raw->max_len ||
        ts >= ((raw_pt *)deque_at(raw, 0))->ts)
        return 0;
    if (t->nrun == t->caprun) {
        size_t cap = t->caprun ? t->caprun * 2 : 64;
        raw_pt *r = realloc(t->run, cap * sizeof *r);
        if (!r)
            return -1;
        t->run = r;
        t->caprun = cap;
    }
    if (deque_reserve(raw, raw->len + t->nrun + 1) != 0)
        return -1;
    t->run[t->nrun++] = (raw_pt){ts, v};
    return 1;
}

/* Merges one sample into tier 1 (and on into tier 2). */
static int bucket_add(tiers *t, int64_t ts, double v)
{
    /* Most samples land in the bucket the previous one did: series_tier_put's
     * merge, without building a bucket to pass by value. */
    int64_t key = tier_floordiv(ts, SERIES_T1_WIDTH_US);
    if (t->hint[0] < t->t1.len) {
        bucket *at = deque_at(&t->t1, t->hint[0]);
        if (at->key == key) {
            if (v < at->min)
                at->min = v;
            if (v > at->max)
                at->max = v;
            at->sum += v;
            at->count += 1;
            return 0;
        }
    }
    return series_tier_put(t, 1, point_bucket(ts, v));
}

int series_tiers_make_lean(tiers *t)
{
    series_tiers_settle(t);
    /* Newest first, so that each raw sample is only removed once placed. */
    while (t->raw.len) {
        const raw_pt *p = deque_at(&t->raw, t->raw.len - 1);
        if (bucket_add(t, p->ts, p->v) != 0)
            return -1;
        t->raw.len--;
    }
    deque_free(&t->raw);
    free(t->run);
    t->run = NULL;
    t->caprun = 0;
    while (t->t1.len > SERIES_LEAN_T1_CAP) {
        if (series_tier_put(t, 2, *(bucket *)deque_at(&t->t1, 0)) != 0)
            return -1;
        deque_pop_front(&t->t1);
    }
    t->t1.max_len = SERIES_LEAN_T1_CAP;
    t->hint[0] = 0;
    t->lean = 1;
    return 0;
}

int series_tiers_add(tiers *t, int64_t ts, double v)
{
    deque *raw = &t->raw;
    if (t->lean)
        return bucket_add(t, ts, v);
    int st = stage(t, ts, v);
    if (st != 0)
        return st < 0 ? -1 : 0;
    series_tiers_settle(t);
    if (raw->len == raw->max_len && ts < ((raw_pt *)deque_at(raw, 0))->ts) {
        return bucket_add(t, ts, v);
    }
    size_t i = raw->len;
    if (i && ((raw_pt *)deque_at(raw, i - 1))->ts > ts) {
        /* Equal times go after the existing ones: keeps arrival order. */
        i = series_tier_raw_lower(raw, ts + 1);
    }
    raw_pt p = {ts, v};
    if (deque_insert(raw, i, &p) != 0)
        return -1;
    if (raw->len > raw->max_len) {
        raw_pt old = *(raw_pt *)deque_at(raw, 0);
        if (series_tier_put(t, 1, point_bucket(old.ts, old.v)) != 0) {
            deque_remove(raw, i);
            return -1;
        }
        deque_pop_front(raw);
    }
    return 0;
}
