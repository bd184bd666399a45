/* lbound: the one binary search — the partition point of a sorted range.
 * before(ctx, i) says whether item i lies before what is searched for
 * (true for a prefix of [0, n), false after it); lbound returns the first
 * i for which it is false, n when none. With "item < key" that is the
 * lower bound, with "item <= key" the upper bound. Inline, so the
 * predicate inlines too where it is visible. */
#ifndef SMTOP_MODEL_LBOUND_H
#define SMTOP_MODEL_LBOUND_H

#include <stddef.h>

static inline size_t lbound(size_t n, int (*before)(const void *ctx, size_t i),
                            const void *ctx)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(ctx, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
