/* quantile: exact buffer, then a DDSketch-style log-bucket sketch.
 *
 * Sketch: a positive value v goes to bucket i = ceil(log(v) / log(gamma))
 * with gamma = (1 + a) / (1 - a); every value in bucket i lies in
 * (gamma^(i-1), gamma^i], and the estimate 2 gamma^i / (gamma + 1) is
 * within relative error a of all of them. Negative values use a mirrored
 * store, exact zeros (and magnitudes too small to index) a zero counter.
 * A store (logstore.h) spans at most LOGSTORE_MAX buckets; past that the
 * lowest-magnitude buckets are folded together (DDSketch's collapsing
 * store), which only costs accuracy for the smallest magnitudes.
 *
 * A linear quant (quantile_new_linear) keeps the values in [0, hi] in a
 * linear histogram instead (linhist.h: absolute error step / 2) and only
 * the others in the stores; in value order the approximate state reads
 * negative store, zeros, histogram, positive store (> hi).
 *
 * Non-finite values are rejected (-1, q unchanged): one NaN would poison
 * every percentile and inf has no bucket. */
#include "model/series/quantile.h"
#include "model/series/linhist.h"
#include "model/series/logstore.h"
#include "model/series/narrow.h"
#include "model/util/sort_doubles.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_INDEXABLE 1e-300

struct quant {
    size_t exact_cap;
    double lin_hi, lin_step;  /* linear quant: histogram over [0, lin_hi] */
    linhist *lin;       /* the histogram, once past the exact range */
    /* Exact mode: every value, grown on demand, in 4 bytes while each one
     * round-trips through them — as a float (durations in µs below 2^24)
     * or as hundredths in an int32 (a utilization of 12.37 %) — else as
     * doubles: 4 bytes where 8 bought nothing. */
    double *vals;
    uint32_t *nbuf;     /* used instead of vals while narrow */
    int narrow;         /* NARROW_F32, NARROW_DEC2, or 0 (doubles) */
    size_t nvals, vals_alloc;
    int sorted;
    int sketch;         /* 1 once the values live in the stores */
    double reserved_v;  /* last value quantile_reserve indexed, so that */
    int reserved_idx;   /* the following quantile_add need not log() again */
    int reserved_lin;   /* ... or find its histogram bin again: reserved_idx
                         * is then that bin, for the next add only */
    logstore pos, neg;
    uint64_t zeros;
    int64_t count;
    double min, max;
};

/* The sketch part of a quant, so that a merge can build a new one aside. */
typedef struct sketch {
    logstore pos, neg;
    uint64_t zeros;
    linhist *lin;       /* in-range values of a linear quant, else NULL */
} sketch;

/* Adds n copies of v. 0, or -1 on OOM (k unchanged). */
static int sketch_add_n(sketch *k, double v, uint64_t n)
{
    int r = k->lin ? linhist_add(k->lin, v, n) : 0;
    if (r != 0)
        return r < 0 ? -1 : 0;
    double mag = fabs(v);
    if (mag < MIN_INDEXABLE) {
        k->zeros += n;
        return 0;
    }
    return logstore_add(v > 0 ? &k->pos : &k->neg, logstore_index(mag), n);
}

static int sketch_add(sketch *k, double v)
{
    return sketch_add_n(k, v, 1);
}

static void sketch_free(sketch *k)
{
    free(k->pos.counts);
    free(k->neg.counts);
    linhist_free(k->lin);
    memset(k, 0, sizeof *k);
}

static void sketch_set(quant *q, const sketch *k)
{
    if (q->reserved_lin) {   /* a bin of the histogram replaced here */
        q->reserved_lin = 0;
        q->reserved_v = NAN;
    }
    q->pos = k->pos;
    q->neg = k->neg;
    q->zeros = k->zeros;
    q->lin = k->lin;
}

/* An empty sketch of q's kind. 0, or -1 on OOM. */
static int sketch_init(const quant *q, sketch *k)
{
    memset(k, 0, sizeof *k);
    if (q->lin_hi > 0 && !(k->lin = linhist_new(q->lin_hi, q->lin_step)))
        return -1;
    return 0;
}

quant *quantile_new(size_t exact_cap)
{
    quant *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->exact_cap = exact_cap;
    q->narrow = NARROW_F32;
    q->reserved_v = NAN;    /* equal to no value */
    q->min = INFINITY;
    q->max = -INFINITY;
    return q;
}

quant *quantile_new_linear(size_t exact_cap, double hi, double step)
{
    linhist *probe = linhist_new(hi, step);   /* checks the shape once */
    if (!probe)
        return NULL;
    linhist_free(probe);
    quant *q = quantile_new(exact_cap);
    if (q) {
        q->lin_hi = hi;
        q->lin_step = step;
    }
    return q;
}

void quantile_free(quant *q)
{
    if (!q)
        return;
    free(q->vals);
    free(q->nbuf);
    free(q->pos.counts);
    free(q->neg.counts);
    linhist_free(q->lin);
    free(q);
}

static double val_at(const quant *q, size_t i)
{
    return q->narrow ? narrow_decode(q->narrow, q->nbuf[i]) : q->vals[i];
}

/* Switches the exact buffer to doubles. 0, or -1 on OOM (q unchanged). */
static int widen(quant *q)
{
    if (!q->narrow)
        return 0;
    double *d = q->vals_alloc ? malloc(q->vals_alloc * sizeof *d) : NULL;
    if (q->vals_alloc && !d)
        return -1;
    for (size_t i = 0; i < q->nvals; i++)
        d[i] = val_at(q, i);
    free(q->nbuf);
    q->nbuf = NULL;
    q->vals = d;
    q->narrow = 0;
    return 0;
}

/* Makes the buffer hold v: the other 4-byte form when v and every value
 * so far fit it (in place: cannot fail), else doubles. 0, or -1 on OOM. */
static int make_fit(quant *q, double v)
{
    if (!q->narrow || narrow_fits(q->narrow, v))
        return 0;
    int other = narrow_other(q->narrow);
    int ok = narrow_fits(other, v);
    for (size_t i = 0; ok && i < q->nvals; i++)
        ok = narrow_fits(other, val_at(q, i));
    if (!ok)
        return widen(q);
    for (size_t i = 0; i < q->nvals; i++)
        q->nbuf[i] = narrow_encode(other, narrow_decode(q->narrow, q->nbuf[i]));
    q->narrow = other;
    return 0;
}

/* Makes room for v (and need values in all) in the exact buffer. 0, or -1
 * on OOM (q unchanged but for a change of form, which changes no
 * answer). */
static int vals_reserve(quant *q, size_t need, double v)
{
    if (make_fit(q, v) != 0)
        return -1;
    if (need <= q->vals_alloc)
        return 0;
    /* Grows by half: the buffer stops at whatever count the data reaches. */
    size_t n = q->vals_alloc ? q->vals_alloc + q->vals_alloc / 2 : 16;
    if (n < need)
        n = need;
    if (n > q->exact_cap)
        n = q->exact_cap;
    void *nv = q->narrow ? realloc(q->nbuf, n * sizeof *q->nbuf)
                         : realloc(q->vals, n * sizeof *q->vals);
    if (!nv)
        return -1;
    if (q->narrow)
        q->nbuf = nv;
    else
        q->vals = nv;
    q->vals_alloc = n;
    return 0;
}

static void vals_put(quant *q, double v)
{
    if (q->narrow)
        q->nbuf[q->nvals++] = narrow_encode(q->narrow, v);
    else
        q->vals[q->nvals++] = v;
}

static void vals_drop(quant *q)
{
    free(q->vals);
    free(q->nbuf);
    q->vals = NULL;
    q->nbuf = NULL;
    q->nvals = q->vals_alloc = 0;
}

/* Builds a sketch from the exact values; on OOM *out is left empty. */
static int sketch_from_vals(const quant *q, sketch *out)
{
    if (sketch_init(q, out) != 0)
        return -1;
    for (size_t i = 0; i < q->nvals; i++)
        if (sketch_add(out, val_at(q, i)) != 0) {
            sketch_free(out);
            return -1;
        }
    return 0;
}

static void note_minmax(quant *q, double lo, double hi, int64_t n)
{
    if (lo < q->min)
        q->min = lo;
    if (hi > q->max)
        q->max = hi;
    q->count += n;
}

/* Adds v to a quant in sketch mode, in place (a copy of the stores out
 * and back cost more than the add). 0, or -1 on OOM (q unchanged). */
static int sketch_put_one(quant *q, double v)
{
    if (q->reserved_lin && v == q->reserved_v) {
        q->reserved_lin = 0;   /* the room is spent: a later add checks again */
        q->reserved_v = NAN;
        linhist_add_bin(q->lin, (size_t)q->reserved_idx, 1);
        return 0;
    }
    int r = q->lin ? linhist_add(q->lin, v, 1) : 0;
    if (r != 0)
        return r < 0 ? -1 : 0;
    double mag = fabs(v);
    if (mag < MIN_INDEXABLE) {
        q->zeros++;
        return 0;
    }
    int idx = v == q->reserved_v ? q->reserved_idx : logstore_index(mag);
    return logstore_add(v > 0 ? &q->pos : &q->neg, idx, 1);
}

int quantile_add(quant *q, double v)
{
    if (!isfinite(v))
        return -1;
    if (!q->sketch && q->nvals < q->exact_cap) {
        if (vals_reserve(q, q->nvals + 1, v) != 0)
            return -1;
        vals_put(q, v);
        q->sorted = 0;
    } else if (!q->sketch) {
        sketch k;
        if (sketch_from_vals(q, &k) != 0 || sketch_add(&k, v) != 0) {
            sketch_free(&k);
            return -1;
        }
        sketch_set(q, &k);
        vals_drop(q);
        q->sketch = 1;
    } else if (sketch_put_one(q, v) != 0) {
        return -1;
    }
    note_minmax(q, v, v, 1);
    return 0;
}

int64_t quantile_count(const quant *q)
{
    return q->count;
}

int quantile_is_exact(const quant *q)
{
    return !q->sketch;
}

/* Value of the k-th smallest element (0-based) as the sketch sees it. */
static double sketch_kth(const quant *q, uint64_t k)
{
    const logstore *n = &q->neg, *p = &q->pos;
    if (k == 0)
        return q->min;  /* the extremes are known exactly */
    if (k + 1 >= (uint64_t)q->count)
        return q->max;
    if (k < n->total) {
        for (int i = n->hi; i >= n->lo; i--) {
            uint64_t c = n->counts[i - n->base];
            if (k < c)
                return -logstore_value(i);
            k -= c;
        }
    }
    k -= n->total;
    if (k < q->zeros)
        return 0.0;
    k -= q->zeros;
    uint64_t lt = q->lin ? linhist_total(q->lin) : 0;
    if (k < lt)
        return linhist_kth(q->lin, k);
    k -= lt;
    for (int i = p->lo; p->total && i <= p->hi; i++) {
        uint64_t c = p->counts[i - p->base];
        if (k < c)
            return logstore_value(i);
        k -= c;
    }
    return q->max;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void sort_vals(quant *q)
{
    size_t n = q->nvals;
    if (!q->narrow) {
        sort_doubles_array(q->vals, n);
        return;
    }
    /* Sorted as doubles in a scratch copy (exact both ways): one sort. On
     * OOM, doubles for good: the buffer is needed sorted either way. */
    double *d = malloc(n * sizeof *d);
    if (!d) {
        if (widen(q) == 0)
            sort_doubles_array(q->vals, n);
        else
            for (size_t i = 1; i < n; i++)   /* insertion sort: no memory at all */
                for (size_t j = i; j > 0 && val_at(q, j) < val_at(q, j - 1); j--) {
                    uint32_t t = q->nbuf[j];
                    q->nbuf[j] = q->nbuf[j - 1];
                    q->nbuf[j - 1] = t;
                }
        return;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = val_at(q, i);
    sort_doubles_array(d, n);
    for (size_t i = 0; i < n; i++)
        q->nbuf[i] = narrow_encode(q->narrow, d[i]);
    free(d);
}

double quantile_get(quant *q, double p)
{
    if (q->count == 0 || isnan(p))
        return NAN;
    p = clampd(p, 0.0, 100.0);
    double rank = p / 100.0 * (double)(q->count - 1);
    uint64_t k = (uint64_t)floor(rank);
    double frac = rank - (double)k;
    double a, b;
    if (!q->sketch) {
        if (!q->sorted) {
            if (q->nvals)
                sort_vals(q);
            q->sorted = 1;
        }
        a = val_at(q, k);
        b = k + 1 < q->nvals ? val_at(q, k + 1) : a;
    } else {
        a = sketch_kth(q, k);
        b = frac > 0 ? sketch_kth(q, k + 1) : a;
    }
    return clampd(a + frac * (b - a), q->min, q->max);
}

static void add_bin(void *ud, double v, uint64_t n)
{
    sketch *k = ud;
    if (sketch_add_n(k, v, n) != 0)
        k->zeros = UINT64_MAX;   /* OOM marker, checked by the caller */
}

/* Adds src's approximate state to k: store buckets as they are when both
 * index alike (no histogram on k's side), else as their estimates. */
static int sketch_merge(sketch *k, const quant *src)
{
    uint64_t zeros = k->zeros;
    if (src->lin)
        linhist_visit(src->lin, add_bin, k);
    if (k->zeros == UINT64_MAX)
        return -1;
    k->zeros = zeros + src->zeros;
    if (!k->lin)
        return logstore_merge(&k->pos, &src->pos) != 0 || logstore_merge(&k->neg, &src->neg) != 0
                   ? -1 : 0;
    for (int s = 0; s < 2; s++) {
        const logstore *st = s ? &src->neg : &src->pos;
        for (int i = st->lo; st->total && i <= st->hi; i++) {
            uint64_t c = st->counts[i - st->base];
            if (c && sketch_add_n(k, s ? -logstore_value(i) : logstore_value(i), c) != 0)
                return -1;
        }
    }
    return 0;
}

/* dst's approximate state as a new sketch k (dst unchanged). */
static int sketch_copy(const quant *dst, sketch *k)
{
    if (!dst->sketch)
        return sketch_from_vals(dst, k);
    if (sketch_init(dst, k) != 0)
        return -1;
    k->zeros = dst->zeros;
    if (logstore_copy(&k->pos, &dst->pos) != 0 || logstore_copy(&k->neg, &dst->neg) != 0)
        return -1;
    if (dst->lin)
        linhist_visit(dst->lin, add_bin, k);
    return 0;
}

int quantile_merge(quant *dst, const quant *src)
{
    if (src->count == 0)
        return 0;
    if (!dst->sketch && !src->sketch && dst->nvals + src->nvals <= dst->exact_cap) {
        /* dst takes a form every src value fits (or doubles) */
        for (size_t i = 0; i < src->nvals; i++)
            if (make_fit(dst, val_at(src, i)) != 0)
                return -1;
        if (vals_reserve(dst, dst->nvals + src->nvals, 0.0) != 0)
            return -1;
        for (size_t i = 0; i < src->nvals; i++)
            vals_put(dst, val_at(src, i));
        dst->sorted = 0;
        note_minmax(dst, src->min, src->max, src->count);
        return 0;
    }
    sketch k;
    int rc = sketch_copy(dst, &k);
    for (size_t i = 0; rc == 0 && i < src->nvals; i++)
        rc = sketch_add(&k, val_at(src, i));
    if (rc == 0 && src->sketch)
        rc = sketch_merge(&k, src);
    if (rc != 0 || k.zeros == UINT64_MAX) {
        sketch_free(&k);
        return -1;
    }
    free(dst->pos.counts);
    free(dst->neg.counts);
    linhist_free(dst->lin);
    vals_drop(dst);
    sketch_set(dst, &k);
    dst->sketch = 1;
    note_minmax(dst, src->min, src->max, src->count);
    return 0;
}

static int to_sketch(quant *q)
{
    sketch k;
    if (sketch_from_vals(q, &k) != 0)
        return -1;
    sketch_set(q, &k);
    vals_drop(q);
    q->sketch = 1;
    return 0;
}

int quantile_reserve(quant *q, double v)
{
    if (!isfinite(v))
        return -1;
    if (!q->sketch && q->nvals < q->exact_cap)
        return vals_reserve(q, q->nvals + 1, v);
    if (!q->sketch && to_sketch(q) != 0)
        return -1;
    if (q->reserved_lin) {
        q->reserved_lin = 0;
        q->reserved_v = NAN;
    }
    size_t bin = q->lin ? linhist_bin(q->lin, v) : LINHIST_NOT_TAKEN;
    if (bin != LINHIST_NOT_TAKEN) {
        /* The histogram takes v: make room, and keep the bin for the add. */
        if (linhist_reserve_bin(q->lin, bin, 1) != 0)
            return -1;
        q->reserved_v = v;
        q->reserved_idx = (int)bin;   /* < 1e6 + 1: linhist_new's bound */
        q->reserved_lin = 1;
        return 0;
    }
    double mag = fabs(v);
    if (mag < MIN_INDEXABLE)
        return 0;
    /* Adding then removing a zero count makes the store cover v's index. */
    logstore *s = v > 0 ? &q->pos : &q->neg;
    int idx = logstore_index(mag);
    /* Inside the live range the add cannot fail: no need to touch it. */
    if (!(s->total && idx >= s->lo && idx <= s->hi) && logstore_add(s, idx, 0) != 0)
        return -1;
    q->reserved_v = v;
    q->reserved_idx = idx;
    return 0;
}

enum { PLAN_EXACT, PLAN_LIN, PLAN_ZERO, PLAN_POS, PLAN_NEG };

int quantile_plan(const quant *q, double v, quant_plan *p)
{
    if (!isfinite(v))
        return 0;
    if (!q->sketch) {
        /* vals_reserve would neither grow the buffer nor change its form */
        p->kind = PLAN_EXACT;
        return q->nvals < q->exact_cap && q->nvals < q->vals_alloc &&
               (!q->narrow || narrow_fits(q->narrow, v));
    }
    if (q->lin) {
        int r = linhist_slot(q->lin, v, &p->at);
        p->kind = PLAN_LIN;
        if (r >= 0)
            return r;
    }
    double mag = fabs(v);
    if (mag < MIN_INDEXABLE) {
        p->kind = PLAN_ZERO;
        return 1;
    }
    /* sketch_put_one's index: the reserve's cached one for this v */
    int idx = !q->reserved_lin && v == q->reserved_v ? q->reserved_idx : logstore_index(mag);
    const logstore *st = v > 0 ? &q->pos : &q->neg;
    if (!(st->total && idx >= st->lo && idx <= st->hi))
        return 0;   /* store_add would widen the live range */
    p->kind = v > 0 ? PLAN_POS : PLAN_NEG;
    p->at = (size_t)(idx - st->base);
    return 1;
}

void quantile_apply(quant *q, const quant_plan *p, double v)
{
    switch (p->kind) {
    case PLAN_EXACT:
        vals_put(q, v);
        q->sorted = 0;
        break;
    case PLAN_LIN:
        /* A bin a failed add left reserved may have taken this value's
         * room: forget the reservation, as the add would have. */
        q->reserved_lin = 0;
        q->reserved_v = NAN;
        linhist_bump(q->lin, p->at);
        break;
    case PLAN_ZERO:
        q->zeros++;
        break;
    default: {
        logstore *st = p->kind == PLAN_POS ? &q->pos : &q->neg;
        st->counts[p->at]++;
        st->total++;
        break;
    }
    }
    note_minmax(q, v, v, 1);
}

int quantile_add_all(quant *q, quant_value_fn at, const void *ctx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = at(ctx, i);
        quant_plan p;
        if (quantile_plan(q, v, &p))
            quantile_apply(q, &p, v);   /* quantile_add's result, inline */
        else if (quantile_add(q, v) != 0)
            return -1;
    }
    return 0;
}

int quantile_exact_of(quant_value_fn at, const void *ctx, size_t n, const double *p,
                      size_t k, double *out)
{
    quant *q = quantile_new(n);
    int rc = q && quantile_add_all(q, at, ctx, n) == 0 ? 0 : -1;
    for (size_t i = 0; i < k; i++)
        out[i] = rc == 0 ? quantile_get(q, p[i]) : NAN;
    quantile_free(q);
    return rc;
}

size_t quantile_memory_bytes(const quant *q)
{
    return sizeof *q + q->vals_alloc * (q->narrow ? sizeof *q->nbuf : sizeof *q->vals) +
           (size_t)(q->pos.alloc + q->neg.alloc) * sizeof(uint64_t) +
           linhist_memory_bytes(q->lin);
}

void quantile_error_bound(const quant *q, double *abs_err, double *rel_err)
{
    *abs_err = q->sketch && q->lin ? linhist_step(q->lin) / 2 : 0;
    *rel_err = q->sketch && (q->pos.total || q->neg.total) ? QUANT_REL_ERR : 0;
}
