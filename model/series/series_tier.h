/* series_tier: the storage tiers behind series.c (internal to model/).
 *
 * tier 0 is a deque of raw points sorted by time; tiers 1 and 2 are deques
 * of buckets sorted by key = floor(ts / width). Each sample lives in
 * exactly one tier, so aggregates over tiers never double-count. */
#ifndef SMTOP_SERIES_TIER_H
#define SMTOP_SERIES_TIER_H

#include <stdint.h>
#include <string.h>

#include "model/series/deque.h"
#include "model/series/narrow.h"

/* A raw sample as readers see it. */
typedef struct raw_pt {
    int64_t ts;
    double v;
} raw_pt;

/* A raw sample as stored while every one fits: its time as an offset
 * from the tier's base and its value in a narrow form (model/series/narrow.h),
 * 8 bytes instead of 16 and exactly the same values when read back. */
typedef struct raw_c {
    int32_t dt;
    uint32_t v;
} raw_c;

/* While every value is hundredths in 0..655.35 (NARROW_H16: utilization),
 * a raw sample takes 6 bytes, unaligned: dt as in raw_c, then the value's
 * hundredths in a uint16. Three quarters of a node's raw samples are
 * utilizations, and the raw tier is the largest part of a node's model. */
#define RAW_H16_BYTES 6

/* A bucket as readers see it. */
typedef struct bucket {
    int64_t key;        /* floor(ts / tier width) */
    double min, max, sum;
    uint32_t count;
} bucket;

/* A bucket as stored while every one of its tier fits: its key in 32 bits
 * (a 10 s key does for +-680 years around 1970), min and max in a narrow
 * form (they are sample values, model/series/narrow.h), the sum still a double:
 * 24 bytes instead of 40, and exactly the same values when read back. */
typedef struct bucket_c {
    int32_t key;
    uint32_t min, max;
    uint32_t count;
    double sum;
} bucket_c;

/* While every bucket of a tier has hundredths in 0..655.35 for its min
 * and max (NARROW_H16: utilization) and at most 65,535 samples, it takes
 * 18 bytes, unaligned: key as in bucket_c, min, max and count in uint16s,
 * then the sum's double. Buckets are most of a long job's memory. */
#define BUCKET_H16_BYTES 18

/* `run` stages an ascending run of samples that all precede raw[0] while
 * raw has room for them: the scanner reads files newest first, so each
 * older file arrives as such a run, and inserting it point by point at the
 * front of raw would shift the run so far once per sample (quadratic per
 * file). The run joins raw in one copy when anything else happens or
 * when the tiers are read (series_tiers_settle). */
typedef struct tiers {
    deque raw, t1, t2;
    unsigned char *run;     /* staged samples, stored as raw's are */
    size_t nrun, caprun;
    /* raw and run hold 6-byte samples while `form` is NARROW_H16, raw_c
     * relative to `base` while it is a 4-byte NARROW_* form; a value out
     * of H16 widens them to a 4-byte form, one that fits no 4-byte form,
     * or a tier spanning more than 2^31 us (35 min: samples 1 s apart or
     * more), turns them into raw_pt for good (form 0). */
    int form;
    int64_t base;
    /* t1's and t2's bucket form: NARROW_H16 (18 bytes) or a 4-byte
     * NARROW_* form (bucket_c) while every bucket of that tier fits it,
     * else 0 (bucket) for good; forms only widen. */
    int bform[2];
    size_t hint[2];     /* t1/t2 index of the bucket last merged into:
                         * consecutive samples mostly share a bucket */
    int lean;           /* no raw tier: samples go straight to tier 1 */
} tiers;

void series_tiers_init(tiers *t);
void series_tiers_free(tiers *t);
/* Places one sample, cascading evictions. 0, or -1 on OOM (t unchanged). */
int series_tiers_add(tiers *t, int64_t ts, double v);
/* Places one sample as series_tiers_add would when that takes no
 * allocation, no re-encoding and no eviction (issue 28: a series' block
 * of samples goes this way one at a time): merged into the bucket a hint
 * holds, staged into room already there, or appended where raw has
 * room. 1 when placed, 0 when the caller must use series_tiers_add
 * (t unchanged). Cannot fail. */
int series_tiers_add_fast(tiers *t, int64_t ts, double v);

/* The bucket the last samples of a block merged into, decoded once and
 * merged into in registers until a sample lands elsewhere: what
 * series_tiers_add_fast's merge does per sample (decoding min and max
 * takes two divisions) done once per bucket. Valid only while nothing
 * else changes t: flush before any other write and before a read. */
typedef struct tier_cursor {
    unsigned char *at;      /* the bucket's slot; NULL: none held */
    int level, form;
    int64_t key;            /* in its tier's units */
    int64_t t1_first;       /* level 2: tier 1's oldest key */
    int64_t raw_first;      /* raw's oldest time (raw full), else INT64_MAX */
    double mn, mx, sum;
    uint32_t count;
} tier_cursor;
/* As series_tiers_add_fast, through c (zeroed before the block's first
 * sample): 1 when placed, 0 with t and c's bucket unchanged. */
int series_tiers_add_cursor(tiers *t, tier_cursor *c, int64_t ts, double v);
/* Writes c's bucket back into t and forgets it. */
void series_tiers_cursor_flush(tiers *t, tier_cursor *c);
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

/* Bytes a raw sample takes in `form`. */
static inline size_t series_tier_raw_elem(int form)
{
    return form == NARROW_H16 ? RAW_H16_BYTES : form ? sizeof(raw_c) : sizeof(raw_pt);
}

/* The raw sample stored at `slot` in form `form` relative to `base`. */
static inline raw_pt series_tier_raw_decode(int form, int64_t base, const void *slot)
{
    raw_pt p;
    if (!form) {
        memcpy(&p, slot, sizeof p);
        return p;
    }
    int32_t dt;
    memcpy(&dt, slot, sizeof dt);
    p.ts = base + dt;
    if (form == NARROW_H16) {
        uint16_t u;
        memcpy(&u, (const unsigned char *)slot + sizeof dt, sizeof u);
        p.v = narrow_decode_h16(u);
    } else {
        uint32_t u;
        memcpy(&u, (const unsigned char *)slot + sizeof dt, sizeof u);
        p.v = narrow_decode(form, u);
    }
    return p;
}

/* Raw sample i (i < raw.len) of a settled tier. */
static inline raw_pt series_tier_raw_at(const tiers *t, size_t i)
{
    return series_tier_raw_decode(t->form, t->base, deque_at(&t->raw, i));
}

static inline int64_t series_tier_raw_ts(const tiers *t, size_t i)
{
    const void *slot = deque_at(&t->raw, i);
    if (!t->form)
        return ((const raw_pt *)slot)->ts;
    int32_t dt;
    memcpy(&dt, slot, sizeof dt);
    return t->base + dt;
}

/* Tier `level` (1: 10 s buckets, 2: 5 min buckets). */
static inline const deque *series_tier_buckets(const tiers *t, int level)
{
    return level == 1 ? &t->t1 : &t->t2;
}

/* Bytes a bucket takes in `form`. */
static inline size_t series_tier_bucket_elem(int form)
{
    return form == NARROW_H16 ? BUCKET_H16_BYTES : form ? sizeof(bucket_c) : sizeof(bucket);
}

/* The bucket stored at `slot` in form `form`. */
static inline bucket series_tier_bucket_decode(int form, const void *slot)
{
    bucket b;
    if (!form) {
        memcpy(&b, slot, sizeof b);
        return b;
    }
    if (form == NARROW_H16) {
        const unsigned char *at = slot;
        int32_t key;
        uint16_t u[3];
        memcpy(&key, at, sizeof key);
        memcpy(u, at + 4, sizeof u);
        b.key = key;
        b.min = narrow_decode_h16(u[0]);
        b.max = narrow_decode_h16(u[1]);
        b.count = u[2];
        memcpy(&b.sum, at + 10, sizeof b.sum);
        return b;
    }
    bucket_c c;
    memcpy(&c, slot, sizeof c);
    return (bucket){c.key, narrow_decode(form, c.min), narrow_decode(form, c.max), c.sum,
                    c.count};
}

/* Bucket i (i < len) of tier `level`. */
static inline bucket series_tier_bucket_at(const tiers *t, int level, size_t i)
{
    return series_tier_bucket_decode(t->bform[level - 1],
                                     deque_at(series_tier_buckets(t, level), i));
}

static inline int64_t series_tier_bucket_key(const tiers *t, int level, size_t i)
{
    const void *slot = deque_at(series_tier_buckets(t, level), i);
    if (!t->bform[level - 1])
        return ((const bucket *)slot)->key;
    int32_t key;
    memcpy(&key, slot, sizeof key);   /* first in bucket_c and in H16 */
    return key;
}

/* First raw index with ts >= ts (raw.len when none). */
size_t series_tier_raw_lower(const tiers *t, int64_t ts);
/* First bucket index of tier `level` with key >= k (len when none). */
size_t series_tier_bucket_lower(const tiers *t, int level, int64_t k);

/* ---- encoding: a sample or a bucket into a slot of its tier's form. */

static inline int series_tier_bucket_fits(int form, const bucket *b)
{
    if (b->key < INT32_MIN || b->key > INT32_MAX)
        return 0;
    if (form == NARROW_H16)
        return narrow_fits_h16(b->min) && narrow_fits_h16(b->max) && b->count <= UINT16_MAX;
    return narrow_fits(form, b->min) && narrow_fits(form, b->max);
}

/* b in `form`, into slot; b must fit that form. */
static inline void series_tier_bucket_encode(int form, const bucket *b, void *slot)
{
    if (!form) {
        memcpy(slot, b, sizeof *b);
        return;
    }
    int32_t key = (int32_t)b->key;
    if (form == NARROW_H16) {
        unsigned char *at = slot;
        uint16_t u[3] = {narrow_encode_h16(b->min), narrow_encode_h16(b->max),
                         (uint16_t)b->count};
        memcpy(at, &key, sizeof key);
        memcpy(at + 4, u, sizeof u);
        memcpy(at + 10, &b->sum, sizeof b->sum);
        return;
    }
    bucket_c c = {key, narrow_encode(form, b->min), narrow_encode(form, b->max), b->count,
                  b->sum};
    memcpy(slot, &c, sizeof c);
}

/* Slot i of the staged run, decoded. */
static inline raw_pt series_tier_run_at(const tiers *t, size_t i)
{
    return series_tier_raw_decode(t->form, t->base, t->run + i * t->raw.elem);
}

/* Stores (ts, v) into a slot of raw's element form; it must fit. */
static inline void series_tier_raw_put(const tiers *t, void *slot, int64_t ts, double v)
{
    if (!t->form) {
        raw_pt p = {ts, v};
        memcpy(slot, &p, sizeof p);
        return;
    }
    int32_t dt = (int32_t)(ts - t->base);
    memcpy(slot, &dt, sizeof dt);
    unsigned char *at = (unsigned char *)slot + sizeof dt;
    if (t->form == NARROW_H16) {
        uint16_t u = narrow_encode_h16(v);
        memcpy(at, &u, sizeof u);
    } else {
        uint32_t u = narrow_encode(t->form, v);
        memcpy(at, &u, sizeof u);
    }
}

static inline int series_tier_dt_fits(int64_t ts, int64_t base)
{
    int64_t d;
    return !__builtin_sub_overflow(ts, base, &d) && d >= INT32_MIN && d <= INT32_MAX;
}

/* Whether v fits raw form `form` (0 holds any). */
static inline int series_tier_raw_fits(int form, double v)
{
    return !form || (form == NARROW_H16 ? narrow_fits_h16(v) : narrow_fits(form, v));
}

/* The rare paths of series_tier_form.c: re-store tier `level` (1, 2) in
 * a form that holds b too (a wider one when every bucket fits it, else
 * full width), or raw and the staged run in a form and base that hold
 * (ts, v) (vfit: v fits the form; tfit: ts fits the base). 0, or -1 on
 * OOM with nothing lost. */
int series_tier_bucket_widen(tiers *t, int level, const bucket *b);
int series_tier_raw_widen(tiers *t, int64_t ts, double v, int vfit, int tfit);

/* Makes tier `level`'s form able to hold b. 0, or -1 on OOM (nothing
 * lost). */
static inline int series_tier_bucket_make_fit(tiers *t, int level, const bucket *b)
{
    int form = t->bform[level - 1];
    if (!form || series_tier_bucket_fits(form, b))
        return 0;
    return series_tier_bucket_widen(t, level, b);
}

/* Makes raw's form and base able to hold (ts, v): a wider form when
 * every sample fits it, a base centred on the samples' span when it is
 * under 2^31 us, else raw_pt. 0, or -1 on OOM (nothing lost). */
static inline int series_tier_raw_make_fit(tiers *t, int64_t ts, double v)
{
    if (!t->form)
        return 0;
    if (t->raw.len + t->nrun == 0)
        t->base = ts;
    int vfit = series_tier_raw_fits(t->form, v), tfit = series_tier_dt_fits(ts, t->base);
    if (vfit && tfit)
        return 0;
    return series_tier_raw_widen(t, ts, v, vfit, tfit);
}

#endif
