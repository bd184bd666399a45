/* logstore: the cold half of the collapsing store; see logstore.h. */
#include "model/series/logstore.h"

#include <stdlib.h>

double logstore_log_gamma(void)
{
    return log1p(LOGSTORE_ALPHA) - log1p(-LOGSTORE_ALPHA);
}

double logstore_value(int i)
{
    double lg = logstore_log_gamma();
    return 2.0 * exp((double)i * lg) / (exp(lg) + 1.0);
}

/* Moves the live counts into storage covering [lo, hi], folding buckets
 * below lo into lo. 0, or -1 on OOM (s unchanged). */
int logstore_rebase(logstore *s, int lo, int hi)
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

int logstore_copy(logstore *dst, const logstore *src)
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

int logstore_merge(logstore *dst, const logstore *src)
{
    for (int i = src->lo; src->total && i <= src->hi; i++) {
        uint64_t c = src->counts[i - src->base];
        if (c && logstore_add(dst, i, c) != 0)
            return -1;
    }
    return 0;
}

