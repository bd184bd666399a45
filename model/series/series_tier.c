/* series_tier: placing samples into the raw/10 s/5 min tiers.
 *
 * Invariant (shown by induction): every tier-1 sample is <= every raw
 * sample and every tier-2 sample <= every tier-1 sample, because a tier
 * only receives samples older than its finer neighbour's oldest, or that
 * neighbour's evicted oldest. Boundary buckets may share a time slice with
 * the finer tier; they never share a sample. */
#include "model/series/series_tier.h"

#include <stdlib.h>
#include <string.h>

#include "model/series/series.h"

void series_tiers_init(tiers *t)
{
    /* Slack of 1/32: a full tier re-centres (a 12 KB move) once per ~50
     * appends, and costs 3 % over its samples. */
    deque_init(&t->raw, RAW_H16_BYTES, SERIES_RAW_CAP, SERIES_RAW_CAP / 32);
    t->form = NARROW_H16;   /* system metrics are written in hundredths */
    t->base = 0;
    /* Buckets are inserted about once per 10 s of data: small slack. */
    deque_init(&t->t1, BUCKET_H16_BYTES, SERIES_T1_CAP, 64);
    deque_init(&t->t2, BUCKET_H16_BYTES, SERIES_T2_CAP, 64);
    t->bform[0] = t->bform[1] = NARROW_H16;
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

size_t series_tier_raw_lower(const tiers *t, int64_t ts)
{
    size_t lo = 0, hi = t->raw.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (series_tier_raw_ts(t, mid) < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t series_tier_bucket_lower(const tiers *t, int level, int64_t k)
{
    size_t lo = 0, hi = series_tier_buckets(t, level)->len;
    if (hi && series_tier_bucket_key(t, level, hi - 1) < k)
        return hi;  /* the usual case: a new newest bucket */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (series_tier_bucket_key(t, level, mid) < k)
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
 * 0, or -1 on OOM with every tier's buckets unchanged (perhaps
 * re-stored in another form). */
static int series_tier_put(tiers *t, int level, bucket b)
{
    deque *d = level == 1 ? &t->t1 : &t->t2;
    if (level == 2)
        b.key = tier_floordiv(b.key, SERIES_T2_WIDTH_US / SERIES_T1_WIDTH_US);
    if (series_tier_bucket_make_fit(t, level, &b) != 0)
        return -1;
    /* Keys are unique within a tier, so a hint holding b's key is exactly
     * the lower bound the search would find. */
    size_t *hint = &t->hint[level - 1];
    size_t i = *hint < d->len && series_tier_bucket_key(t, level, *hint) == b.key
                   ? *hint : series_tier_bucket_lower(t, level, b.key);
    if (i < d->len && series_tier_bucket_key(t, level, i) == b.key) {
        bucket at = series_tier_bucket_at(t, level, i);
        bucket_merge(&at, &b);
        /* b fits, but the sum of counts may not (H16) */
        if (series_tier_bucket_make_fit(t, level, &at) != 0)
            return -1;
        series_tier_bucket_encode(t->bform[level - 1], &at, deque_at(d, i));
        *hint = i;
        return 0;
    }
    if (i == 0 && d->len == d->max_len) {
        /* Older than everything a full tier keeps. */
        if (level == 2)
            return 0;   /* dropped: only the whole-series summary keeps it */
        return series_tier_put(t, 2, b);
    }
    unsigned char e[sizeof(bucket)];
    series_tier_bucket_encode(t->bform[level - 1], &b, e);
    if (deque_insert(d, i, e) != 0)
        return -1;
    if (d->len > d->max_len) {
        bucket old = series_tier_bucket_at(t, level, 0);
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
    if (t->nrun && ts < series_tier_run_at(t, t->nrun - 1).ts)
        series_tiers_settle(t);
    if (!raw->len || raw->len + t->nrun + 1 > raw->max_len ||
        ts >= series_tier_raw_ts(t, 0))
        return 0;
    if (series_tier_raw_make_fit(t, ts, v) != 0)
        return -1;
    if (t->nrun == t->caprun) {
        size_t cap = t->caprun ? t->caprun * 2 : 64;
        unsigned char *r = realloc(t->run, cap * raw->elem);
        if (!r)
            return -1;
        t->run = r;
        t->caprun = cap;
    }
    if (deque_reserve(raw, raw->len + t->nrun + 1) != 0)
        return -1;
    series_tier_raw_put(t, t->run + t->nrun++ * raw->elem, ts, v);
    return 1;
}

/* series_tier_put's merge of v into the bucket of tier `level` its hint
 * holds, when that bucket has `key`, without building a bucket to pass by
 * value: 1 when merged, 0 when the caller must go through
 * series_tier_put. */
static int merge_at_hint(tiers *t, int level, int64_t key, double v)
{
    deque *d = level == 1 ? &t->t1 : &t->t2;
    size_t h = t->hint[level - 1];
    int form = t->bform[level - 1];
    if (h >= d->len)
        return 0;
    if (form == NARROW_H16) {
        /* In place, as below: key, min, max, count, then the sum. */
        unsigned char *at = deque_at(d, h);
        int32_t k;
        uint16_t u[3];
        double sum;
        memcpy(&k, at, sizeof k);
        memcpy(u, at + 4, sizeof u);
        if (k != key || u[2] == UINT16_MAX)
            return 0;
        double mn = narrow_decode_h16(u[0]), mx = narrow_decode_h16(u[1]);
        if (v < mn || v > mx) {
            if (!narrow_fits_h16(v))
                return 0;
            u[v < mn ? 0 : 1] = narrow_encode_h16(v);
        }
        u[2]++;
        memcpy(&sum, at + 10, sizeof sum);
        sum += v;
        memcpy(at + 4, u, sizeof u);
        memcpy(at + 10, &sum, sizeof sum);
        return 1;
    }
    if (form) {
        bucket_c *at = deque_at(d, h);
        if (at->key != key)
            return 0;
        /* Only a new minimum or maximum needs encoding (and may not
         * fit: series_tier_put re-stores the tier then). */
        double mn = narrow_decode(form, at->min), mx = narrow_decode(form, at->max);
        if (v < mn || v > mx) {
            if (!narrow_fits(form, v))
                return 0;
            if (v < mn)
                at->min = narrow_encode(form, v);
            else
                at->max = narrow_encode(form, v);
        }
        at->sum += v;
        at->count += 1;
        return 1;
    }
    bucket *at = deque_at(d, h);
    if (at->key != key)
        return 0;
    if (v < at->min)
        at->min = v;
    if (v > at->max)
        at->max = v;
    at->sum += v;
    at->count += 1;
    return 1;
}

/* Merges one sample into tier 1 (and on into tier 2). */
static int bucket_add(tiers *t, int64_t ts, double v)
{
    /* Most samples land in the bucket the previous one did. */
    int64_t key = tier_floordiv(ts, SERIES_T1_WIDTH_US);
    if (merge_at_hint(t, 1, key, v))
        return 0;
    /* Older than everything a full tier 1 keeps (a lean series' history
     * beyond its 10 minutes, read newest file first): series_tier_put
     * would pass it on to tier 2, two searches and two re-encodes per
     * sample (issue 15: the merging thread's largest cost). */
    if (t->t1.len && t->t1.len == t->t1.max_len && key < series_tier_bucket_key(t, 1, 0) &&
        merge_at_hint(t, 2, tier_floordiv(key, SERIES_T2_WIDTH_US / SERIES_T1_WIDTH_US), v))
        return 0;
    return series_tier_put(t, 1, point_bucket(ts, v));
}

int series_tiers_make_lean(tiers *t)
{
    series_tiers_settle(t);
    /* Newest first, so that each raw sample is only removed once placed. */
    while (t->raw.len) {
        raw_pt p = series_tier_raw_at(t, t->raw.len - 1);
        if (bucket_add(t, p.ts, p.v) != 0)
            return -1;
        t->raw.len--;
    }
    deque_free(&t->raw);
    free(t->run);
    t->run = NULL;
    t->caprun = 0;
    while (t->t1.len > SERIES_LEAN_T1_CAP) {
        if (series_tier_put(t, 2, series_tier_bucket_at(t, 1, 0)) != 0)
            return -1;
        deque_pop_front(&t->t1);
    }
    /* A lean tier 1 stays full from its first 10 min on: a little slack
     * (a re-centring per 8 buckets) instead of 64 buckets, 32 times a node. */
    deque_limit(&t->t1, SERIES_LEAN_T1_CAP, 8);
    t->hint[0] = 0;
    t->lean = 1;
    return 0;
}

/* bucket_add's merges, without its fallback to series_tier_put: the
 * tier merged into (1 or 2), or 0. */
static int bucket_add_fast(tiers *t, int64_t ts, double v)
{
    int64_t key = tier_floordiv(ts, SERIES_T1_WIDTH_US);
    if (merge_at_hint(t, 1, key, v))
        return 1;
    return t->t1.len && t->t1.len == t->t1.max_len && key < series_tier_bucket_key(t, 1, 0) &&
                   merge_at_hint(t, 2, tier_floordiv(key, SERIES_T2_WIDTH_US / SERIES_T1_WIDTH_US), v)
               ? 2 : 0;
}

/* Whether (ts, v) fits raw's form and base as they are (raw_make_fit
 * would change nothing; raw is not empty). */
static int raw_fits_now(const tiers *t, int64_t ts, double v)
{
    return !t->form || (series_tier_raw_fits(t->form, v) && series_tier_dt_fits(ts, t->base));
}

/* series_tiers_add_fast's work: 0 when not placed, the tier merged
 * into (1, 2), or 3 when placed in raw or its staged run. */
static int add_fast_where(tiers *t, int64_t ts, double v)
{
    deque *raw = &t->raw;
    if (t->lean)
        return bucket_add_fast(t, ts, v);
    if (!raw->len)
        return 0;
    if (raw->len == raw->max_len) {
        /* series_tiers_add frees a staging buffer first (caprun), and
         * evicts for a sample that is not older than raw's oldest */
        return !t->caprun && ts < series_tier_raw_ts(t, 0) ? bucket_add_fast(t, ts, v) : 0;
    }
    if (ts < series_tier_raw_ts(t, 0)) {
        /* stage(): after the run's last (else it settles first), with
         * staging room and raw's reserve already made */
        if ((t->nrun && ts < series_tier_run_at(t, t->nrun - 1).ts) || t->nrun == t->caprun ||
            raw->len + t->nrun + 1 > raw->max_len || raw->alloc < raw->len + t->nrun + 1 ||
            !raw_fits_now(t, ts, v))
            return 0;
        series_tier_raw_put(t, t->run + t->nrun++ * raw->elem, ts, v);
        return 3;
    }
    /* The newest sample so far: appended at raw's end, where the deque
     * has room (deque_insert would not move or grow it). */
    if (t->nrun || ts < series_tier_raw_ts(t, raw->len - 1) ||
        raw->head + raw->len == raw->alloc || !raw_fits_now(t, ts, v))
        return 0;
    series_tier_raw_put(t, deque_at(raw, raw->len), ts, v);
    raw->len++;
    return 3;
}

int series_tiers_add_fast(tiers *t, int64_t ts, double v)
{
    return add_fast_where(t, ts, v) != 0;
}

void series_tiers_cursor_flush(tiers *t, tier_cursor *c)
{
    if (!c->at)
        return;
    bucket b = {c->key, c->mn, c->mx, c->sum, c->count};
    series_tier_bucket_encode(t->bform[c->level - 1], &b, c->at);
    c->at = NULL;
}

/* Holds the bucket of tier `level` its hint points at, which the sample
 * just merged into (series_tiers_add_fast). */
static void cursor_take(tiers *t, tier_cursor *c, int level)
{
    const deque *d = series_tier_buckets(t, level);
    bucket b = series_tier_bucket_at(t, level, t->hint[level - 1]);
    c->at = deque_at(d, t->hint[level - 1]);
    c->level = level;
    c->form = t->bform[level - 1];
    c->key = b.key;
    c->mn = b.min;
    c->mx = b.max;
    c->sum = b.sum;
    c->count = b.count;
    c->t1_first = t->t1.len ? series_tier_bucket_key(t, 1, 0) : INT64_MIN;
    c->raw_first = !t->lean ? series_tier_raw_ts(t, 0) : INT64_MAX;
}

/* Whether (ts, v) would merge into c's bucket by series_tiers_add_fast's
 * rules, t being as when c took it but for that bucket. */
static int cursor_takes(const tiers *t, const tier_cursor *c, int64_t ts, double v)
{
    if (!t->lean && ts >= c->raw_first)
        return 0;   /* a newer sample goes to raw */
    int64_t k1 = tier_floordiv(ts, SERIES_T1_WIDTH_US);
    if (c->level == 1 ? k1 != c->key
                      : k1 >= c->t1_first ||
                            tier_floordiv(k1, SERIES_T2_WIDTH_US / SERIES_T1_WIDTH_US) != c->key)
        return 0;
    if (c->form == NARROW_H16 && c->count == UINT16_MAX)
        return 0;
    if (v < c->mn || v > c->mx)
        return c->form == NARROW_H16 ? narrow_fits_h16(v)
               : c->form           ? narrow_fits(c->form, v)
                                   : 1;
    return 1;
}

int series_tiers_add_cursor(tiers *t, tier_cursor *c, int64_t ts, double v)
{
    if (c->at && cursor_takes(t, c, ts, v)) {
        c->sum += v;   /* in the samples' order, as merge_at_hint adds */
        c->count++;
        if (v < c->mn)
            c->mn = v;
        if (v > c->mx)
            c->mx = v;
        return 1;
    }
    series_tiers_cursor_flush(t, c);
    int where = add_fast_where(t, ts, v);
    if (where == 1 || where == 2)
        cursor_take(t, c, where);   /* the next samples likely land there too */
    return where != 0;
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
    if (raw->len == raw->max_len && t->caprun) {
        /* Nothing stages into a full tier (stage): a file's worth of
         * staging room per series is dead weight from here on. */
        free(t->run);
        t->run = NULL;
        t->caprun = 0;
    }
    if (raw->len == raw->max_len && ts < series_tier_raw_ts(t, 0)) {
        return bucket_add(t, ts, v);
    }
    size_t i = raw->len;
    if (i && series_tier_raw_ts(t, i - 1) > ts) {
        /* Equal times go after the existing ones: keeps arrival order. */
        i = series_tier_raw_lower(t, ts + 1);
    }
    if (series_tier_raw_make_fit(t, ts, v) != 0)
        return -1;
    unsigned char p[sizeof(raw_pt)];
    series_tier_raw_put(t, p, ts, v);
    if (deque_insert(raw, i, p) != 0)
        return -1;
    if (raw->len > raw->max_len) {
        raw_pt old = series_tier_raw_at(t, 0);
        /* bucket_add, not series_tier_put: the evicted sample mostly lands
         * in the bucket the last one did, and re-encoding that bucket for
         * every sample cost 11-13 % of a long job's CPU. */
        if (bucket_add(t, old.ts, old.v) != 0) {
            deque_remove(raw, i);
            return -1;
        }
        deque_pop_front(raw);
    }
    return 0;
}
