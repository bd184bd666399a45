/* quantile: exact buffer, then a DDSketch-style log-bucket sketch.
 *
 * Sketch: a positive value v goes to bucket i = ceil(log(v) / log(gamma))
 * with gamma = (1 + a) / (1 - a); every value in bucket i lies in
 * (gamma^(i-1), gamma^i], and the estimate 2 gamma^i / (gamma + 1) is
 * within relative error a of all of them. Negative values use a mirrored
 * store, exact zeros (and magnitudes too small to index) a zero counter.
 * A store spans at most STORE_MAX buckets; past that the lowest-magnitude
 * buckets are folded together (DDSketch's collapsing store), which only
 * costs accuracy for the smallest magnitudes.
 *
 * A linear quant (quantile_new_linear) keeps the values in [0, hi] in a
 * linear histogram instead (linhist.h: absolute error step / 2) and only
 * the others in the stores; in value order the approximate state reads
 * negative store, zeros, histogram, positive store (> hi).
 *
 * Non-finite values are rejected (-1, q unchanged): one NaN would poison
 * every percentile and inf has no bucket. */
#include "model/quantile.h"
#include "model/linhist.h"
#include "model/stable_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STORE_MAX 2048
/* A hair below the promised bound so rounding in log/exp cannot exceed it. */
#define SKETCH_ALPHA (QUANT_REL_ERR * 0.98)
#define MIN_INDEXABLE 1e-300

typedef struct store {
    uint64_t *counts;   /* counts[k] is bucket base + k */
    int base, alloc;
    int lo, hi;         /* live bucket range, valid when total > 0 */
    uint64_t total;
} store;

struct quant {
    size_t exact_cap;
    double lin_hi, lin_step;  /* linear quant: histogram over [0, lin_hi] */
    linhist *lin;       /* the histogram, once past the exact range */
    double *vals;       /* exact mode: every value, grown on demand */
    size_t nvals, vals_alloc;
    int sorted;
    int sketch;         /* 1 once the values live in the stores */
    double reserved_v;  /* last value quantile_reserve indexed, so that */
    int reserved_idx;   /* the following quantile_add need not log() again */
    store pos, neg;
    uint64_t zeros;
    int64_t count;
    double min, max;
};

static double lgamma_(void)
{
    return log1p(SKETCH_ALPHA) - log1p(-SKETCH_ALPHA);
}

static int bucket_index(double mag)
{
    return (int)ceil(log(mag) / lgamma_());
}

static double bucket_value(int i)
{
    double lg = lgamma_();
    return 2.0 * exp((double)i * lg) / (exp(lg) + 1.0);
}

/* Moves the live counts into storage covering [lo, hi], folding buckets
 * below lo into lo. 0, or -1 on OOM (s unchanged). */
static int store_rebase(store *s, int lo, int hi)
{
    int n = hi - lo + 1, pad = n / 2 + 8;
    int base = lo - pad, alloc = n + 2 * pad;
    uint64_t *c = calloc((size_t)alloc, sizeof *c);
    if (!c)
        return -1;
    for (int i = s->lo; s->total && i <= s->hi; i++)
        c[(i < lo ? lo : i) - base] += s->counts[i - s->base];
    free(s->counts);
    s->counts = c;
    s->base = base;
    s->alloc = alloc;
    return 0;
}

/* Adds c to bucket i. 0, or -1 on OOM (s unchanged). */
static int store_add(store *s, int i, uint64_t c)
{
    if (s->total && i >= s->lo && i <= s->hi) {
        /* The usual case, and what the code below does for it. */
        s->counts[i - s->base] += c;
        s->total += c;
        return 0;
    }
    int lo = s->total ? s->lo : i, hi = s->total ? s->hi : i;
    if (i < lo) {
        if (hi - i >= STORE_MAX)
            i = hi - STORE_MAX + 1;
        lo = i;
    } else if (i > hi) {
        hi = i;
        if (hi - lo >= STORE_MAX)
            lo = hi - STORE_MAX + 1;
    }
    if (!s->counts || lo < s->base || hi >= s->base + s->alloc) {
        if (store_rebase(s, lo, hi) != 0)
            return -1;
    } else if (s->total && lo > s->lo) {
        for (int k = s->lo; k < lo; k++) {
            s->counts[lo - s->base] += s->counts[k - s->base];
            s->counts[k - s->base] = 0;
        }
    }
    s->counts[i - s->base] += c;
    s->lo = lo;
    s->hi = hi;
    s->total += c;
    return 0;
}

static int store_copy(store *dst, const store *src)
{
    memset(dst, 0, sizeof *dst);
    if (!src->total)
        return 0;
    dst->counts = malloc((size_t)src->alloc * sizeof *dst->counts);
    if (!dst->counts)
        return -1;
    memcpy(dst->counts, src->counts, (size_t)src->alloc * sizeof *dst->counts);
    dst->base = src->base;
    dst->alloc = src->alloc;
    dst->lo = src->lo;
    dst->hi = src->hi;
    dst->total = src->total;
    return 0;
}

static int store_merge(store *dst, const store *src)
{
    for (int i = src->lo; src->total && i <= src->hi; i++) {
        uint64_t c = src->counts[i - src->base];
        if (c && store_add(dst, i, c) != 0)
            return -1;
    }
    return 0;
}

/* The sketch part of a quant, so that a merge can build a new one aside. */
typedef struct sketch {
    store pos, neg;
    uint64_t zeros;
    linhist *lin;       /* in-range values of a linear quant, else NULL */
} sketch;

/* Adds n copies of v. 0, or -1 on OOM (k unchanged). */
static int sketch_add_n(sketch *k, double v, uint64_t n)
{
    if (k->lin && linhist_takes(k->lin, v)) {
        linhist_add(k->lin, v, n);
        return 0;
    }
    double mag = fabs(v);
    if (mag < MIN_INDEXABLE) {
        k->zeros += n;
        return 0;
    }
    return store_add(v > 0 ? &k->pos : &k->neg, bucket_index(mag), n);
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
    free(q->pos.counts);
    free(q->neg.counts);
    linhist_free(q->lin);
    free(q);
}

static int vals_reserve(quant *q, size_t need)
{
    if (need <= q->vals_alloc)
        return 0;
    size_t n = q->vals_alloc ? q->vals_alloc * 2 : 16;
    while (n < need)
        n *= 2;
    if (n > q->exact_cap)
        n = q->exact_cap;
    double *nv = realloc(q->vals, n * sizeof *nv);
    if (!nv)
        return -1;
    q->vals = nv;
    q->vals_alloc = n;
    return 0;
}

/* Builds a sketch from the exact values; on OOM *out is left empty. */
static int sketch_from_vals(const quant *q, sketch *out)
{
    if (sketch_init(q, out) != 0)
        return -1;
    for (size_t i = 0; i < q->nvals; i++)
        if (sketch_add(out, q->vals[i]) != 0) {
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

int quantile_add(quant *q, double v)
{
    if (!isfinite(v))
        return -1;
    if (!q->sketch && q->nvals < q->exact_cap) {
        if (vals_reserve(q, q->nvals + 1) != 0)
            return -1;
        q->vals[q->nvals++] = v;
        q->sorted = 0;
    } else if (!q->sketch) {
        sketch k;
        if (sketch_from_vals(q, &k) != 0 || sketch_add(&k, v) != 0) {
            sketch_free(&k);
            return -1;
        }
        sketch_set(q, &k);
        free(q->vals);
        q->vals = NULL;
        q->nvals = q->vals_alloc = 0;
        q->sketch = 1;
    } else if (!(q->lin && linhist_add(q->lin, v, 1))) {
        /* In place (a copy of the stores out and back cost more than the
         * add): store_add leaves the store as it was on OOM. */
        double mag = fabs(v);
        if (mag < MIN_INDEXABLE) {
            q->zeros++;
        } else {
            int idx = v == q->reserved_v ? q->reserved_idx : bucket_index(mag);
            if (store_add(v > 0 ? &q->pos : &q->neg, idx, 1) != 0)
                return -1;
        }
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Value of the k-th smallest element (0-based) as the sketch sees it. */
static double sketch_kth(const quant *q, uint64_t k)
{
    const store *n = &q->neg, *p = &q->pos;
    if (k == 0)
        return q->min;  /* the extremes are known exactly */
    if (k + 1 >= (uint64_t)q->count)
        return q->max;
    if (k < n->total) {
        for (int i = n->hi; i >= n->lo; i--) {
            uint64_t c = n->counts[i - n->base];
            if (k < c)
                return -bucket_value(i);
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
            return bucket_value(i);
        k -= c;
    }
    return q->max;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Equal doubles keep their order (matters only for -0.0 vs 0.0). */
STABLE_SORT_DEFINE(sort_doubles, double, A < B)

/* Unsigned key in the doubles' order (-0.0 just below 0.0). */
static uint64_t sort_key(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | (1ULL << 63);
}

/* LSD radix sort by sort_key, bytewise, skipping bytes all values share:
 * linear where a phase's up to PHASE_EXACT_CAP durations made the merge
 * sort a sixth of a trace report. Equal values are then identical bits
 * unless both zeros occur — the one case where the stable order could
 * differ — so it declines that (-1, a untouched). */
static int radix_doubles(double *a, double *tmp, size_t n)
{
    size_t cnt[8][256];
    memset(cnt, 0, sizeof cnt);
    int negz = 0, posz = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = sort_key(a[i]);
        if (a[i] == 0) {
            negz |= signbit(a[i]) != 0;
            posz |= signbit(a[i]) == 0;
        }
        for (int d = 0; d < 8; d++)
            cnt[d][(k >> (8 * d)) & 255]++;
    }
    if (negz && posz)
        return -1;
    double *src = a, *dst = tmp;
    for (int d = 0; d < 8; d++) {
        size_t *c = cnt[d];
        if (c[(sort_key(src[0]) >> (8 * d)) & 255] == n)
            continue;   /* every value has this byte */
        size_t sum = 0;
        for (int b = 0; b < 256; b++) {
            size_t t = c[b];
            c[b] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(sort_key(src[i]) >> (8 * d)) & 255]++] = src[i];
        double *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    return 0;
}

static void sort_vals(quant *q)
{
    double small[1024];
    size_t n = q->nvals;
    double *tmp = n <= 1024 ? small : malloc(n * sizeof *tmp);
    if (!tmp) {
        qsort(q->vals, n, sizeof *q->vals, cmp_double);   /* same order */
        return;
    }
    if (n < 512 || radix_doubles(q->vals, tmp, n) != 0)
        sort_doubles(q->vals, tmp, n);
    if (tmp != small)
        free(tmp);
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
        a = q->vals[k];
        b = k + 1 < q->nvals ? q->vals[k + 1] : a;
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
        return store_merge(&k->pos, &src->pos) != 0 || store_merge(&k->neg, &src->neg) != 0
                   ? -1 : 0;
    for (int s = 0; s < 2; s++) {
        const store *st = s ? &src->neg : &src->pos;
        for (int i = st->lo; st->total && i <= st->hi; i++) {
            uint64_t c = st->counts[i - st->base];
            if (c && sketch_add_n(k, s ? -bucket_value(i) : bucket_value(i), c) != 0)
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
    if (store_copy(&k->pos, &dst->pos) != 0 || store_copy(&k->neg, &dst->neg) != 0)
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
        if (vals_reserve(dst, dst->nvals + src->nvals) != 0)
            return -1;
        memcpy(dst->vals + dst->nvals, src->vals, src->nvals * sizeof *src->vals);
        dst->nvals += src->nvals;
        dst->sorted = 0;
        note_minmax(dst, src->min, src->max, src->count);
        return 0;
    }
    sketch k;
    int rc = sketch_copy(dst, &k);
    for (size_t i = 0; rc == 0 && i < src->nvals; i++)
        rc = sketch_add(&k, src->vals[i]);
    if (rc == 0 && src->sketch)
        rc = sketch_merge(&k, src);
    if (rc != 0 || k.zeros == UINT64_MAX) {
        sketch_free(&k);
        return -1;
    }
    free(dst->pos.counts);
    free(dst->neg.counts);
    linhist_free(dst->lin);
    free(dst->vals);
    dst->vals = NULL;
    dst->nvals = dst->vals_alloc = 0;
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
    free(q->vals);
    q->vals = NULL;
    q->nvals = q->vals_alloc = 0;
    q->sketch = 1;
    return 0;
}

int quantile_reserve(quant *q, double v)
{
    if (!isfinite(v))
        return -1;
    if (!q->sketch && q->nvals < q->exact_cap)
        return vals_reserve(q, q->nvals + 1);
    if (!q->sketch && to_sketch(q) != 0)
        return -1;
    if (q->lin && linhist_takes(q->lin, v))
        return 0;   /* the histogram has room: nothing to allocate */
    double mag = fabs(v);
    if (mag < MIN_INDEXABLE)
        return 0;
    /* Adding then removing a zero count makes the store cover v's index. */
    store *s = v > 0 ? &q->pos : &q->neg;
    int idx = bucket_index(mag);
    /* Inside the live range the add cannot fail: no need to touch it. */
    if (!(s->total && idx >= s->lo && idx <= s->hi) && store_add(s, idx, 0) != 0)
        return -1;
    q->reserved_v = v;
    q->reserved_idx = idx;
    return 0;
}

size_t quantile_memory_bytes(const quant *q)
{
    return sizeof *q + q->vals_alloc * sizeof *q->vals +
           (size_t)(q->pos.alloc + q->neg.alloc) * sizeof(uint64_t) +
           linhist_memory_bytes(q->lin);
}

void quantile_error_bound(const quant *q, double *abs_err, double *rel_err)
{
    *abs_err = q->sketch && q->lin ? linhist_step(q->lin) / 2 : 0;
    *rel_err = q->sketch && (q->pos.total || q->neg.total) ? QUANT_REL_ERR : 0;
}
