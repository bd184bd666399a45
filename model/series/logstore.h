/* logstore: DDSketch's collapsing store of log-scale buckets, the sketch
 * half of a quant (quantile.h). A positive magnitude v goes to bucket
 * i = ceil(log(v) / log(gamma)) with gamma = (1 + a) / (1 - a); every
 * value in bucket i lies in (gamma^(i-1), gamma^i], and the estimate
 * 2 gamma^i / (gamma + 1) is within relative error a of all of them. A
 * store counts values per bucket over at most LOGSTORE_MAX buckets; past
 * that the lowest buckets fold together, which only costs accuracy for
 * the smallest magnitudes. The index and the add are inline: they run
 * once per value a quant takes in sketch mode. */
#ifndef SMTOP_LOGSTORE_H
#define SMTOP_LOGSTORE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define LOGSTORE_MAX 2048
/* The relative error every estimate keeps within (quantile.h's
 * QUANT_REL_ERR), and the a buckets are sized with: a hair below, so
 * rounding in log/exp cannot exceed the promised bound. */
#define LOGSTORE_REL_ERR 0.01
#define LOGSTORE_ALPHA (LOGSTORE_REL_ERR * 0.98)
/* log(gamma) as a constant (test_quantile checks it against
 * logstore_log_gamma()). */
#define LOGSTORE_LG 0x1.4122fd854cbf2p-6
/* How near a bucket boundary the fast index defers to log(): far above
 * its error (< 1e-10 in log units, so < 1e-8 in buckets). */
#define LOGSTORE_INDEX_MARGIN 1e-6

typedef struct logstore {
    uint64_t *counts;   /* counts[k] is bucket base + k */
    int base, alloc;
    int lo, hi;         /* live bucket range, valid when total > 0 */
    uint64_t total;
} logstore;

/* log(gamma), gamma = (1 + a) / (1 - a). */
double logstore_log_gamma(void);

/* The value bucket i stands for: 2 gamma^i / (gamma + 1). */
double logstore_value(int i);

/* Moves the live counts into storage covering [lo, hi], folding buckets
 * below lo into lo. 0, or -1 on OOM (s unchanged). */
int logstore_rebase(logstore *s, int lo, int hi);

/* dst = a copy of src (dst's old storage is not freed). 0, or -1 on OOM
 * (dst empty). */
int logstore_copy(logstore *dst, const logstore *src);

/* Adds every bucket of src to dst. 0, or -1 on OOM. */
int logstore_merge(logstore *dst, const logstore *src);

/* The bucket of magnitude mag > 0: ceil(log(mag) / log(gamma)), computed
 * from mag's exponent and mantissa, the same bucket log() gives. */
static inline int logstore_index(double mag)
{
    /* ceil(log(mag) / LOGSTORE_LG) without a log() per sample (issue 17): mag
     * = f * 2^e with f in [sqrt(1/2), sqrt(2)) from its bits, log(f) =
     * 2 atanh(s) with s = (f - 1) / (f + 1), |s| < 0.172, by its series to
     * s^13 (error < 2e-11). Within LOGSTORE_INDEX_MARGIN of an integer the ceil
     * could round either way, so there (about one value in 10^6) the index
     * comes from log() as before: the same bucket for every value. */
    uint64_t u;
    memcpy(&u, &mag, sizeof u);
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    if (e == -1023 || e == 1024)   /* subnormal, inf or NaN: not indexed here */
        return (int)ceil(log(mag) / LOGSTORE_LG);
    u = (u & ((1ULL << 52) - 1)) | (1023ULL << 52);     /* f in [1, 2) */
    double f;
    memcpy(&f, &u, sizeof f);
    if (f >= M_SQRT2) {
        f *= 0.5;
        e++;
    }
    double s = (f - 1) / (f + 1), s2 = s * s;
    double lf = 2 * s * (1 + s2 * (1 / 3.0 + s2 * (1 / 5.0 + s2 * (1 / 7.0 + s2 * (1 / 9.0 +
                s2 * (1 / 11.0 + s2 * (1 / 13.0)))))));
    double y = (e * M_LN2 + lf) * (1 / LOGSTORE_LG), c = ceil(y);
    if (c - y < LOGSTORE_INDEX_MARGIN || c - y > 1 - LOGSTORE_INDEX_MARGIN)
        return (int)ceil(log(mag) / LOGSTORE_LG);
    return (int)c;
}

/* Adds c to bucket i. 0, or -1 on OOM (s unchanged). */
static inline int logstore_add(logstore *s, int i, uint64_t c)
{
    if (s->total && i >= s->lo && i <= s->hi) {
        /* The usual case, and what the code below does for it. */
        s->counts[i - s->base] += c;
        s->total += c;
        return 0;
    }
    int lo = s->total ? s->lo : i, hi = s->total ? s->hi : i;
    if (i < lo) {
        if (hi - i >= LOGSTORE_MAX)
            i = hi - LOGSTORE_MAX + 1;
        lo = i;
    } else if (i > hi) {
        hi = i;
        if (hi - lo >= LOGSTORE_MAX)
            lo = hi - LOGSTORE_MAX + 1;
    }
    if (!s->counts || lo < s->base || hi >= s->base + s->alloc) {
        if (logstore_rebase(s, lo, hi) != 0)
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

#endif
