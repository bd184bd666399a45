/* fsum: the exact sum of a stream of doubles, rounded once when read.
 *
 * A running `sum += v` rounds after every add, so its result depends on
 * the order of the values. The scanner's order depends on when its passes
 * ran (newest files first, a growing file in pieces), and a mean must not:
 * the dashboard's live totals have to equal `smtop report` on the finished
 * files to the last bit. Shewchuk's algorithm (as Python's math.fsum)
 * keeps the sum as non-overlapping partials whose total is exact, and
 * rounds it correctly on read, so any order gives the same double. Hand-
 * written: no small C library here offers it. A few partials live
 * inline, more on the heap: real metric streams need under 16.
 *
 * Two cases fall back to the naive running sum, kept alongside: a sum
 * that overflows (values near DBL_MAX: +-inf, as before), and a stream
 * that would need more than 255 partials (only values of wildly mixed
 * sign and magnitude do). The sum is then as good as before, but no
 * longer independent of the order. */
#ifndef SMTOP_FSUM_H
#define SMTOP_FSUM_H

#include <stdint.h>
#include <string.h>

#define FSUM_INLINE 3

/* The fast path (fsum_add_fast): a value of magnitude in [2^-10, 2^24)
 * is a whole multiple of 2^-62, so its exact sum with others of its kind
 * is an integer count of 2^-62 in 128 bits: two instructions a value
 * where the partials take a hundred (issue 28: a worker's exact sums were
 * 7 % of its time). fsum_value folds that integer into the partials, and
 * as it rounds the exact total, the answer is the same double. */
#if defined(__SIZEOF_INT128__)
#define FSUM_FIX 1
__extension__ typedef __int128 fsum_fix;
__extension__ typedef unsigned __int128 fsum_ufix;
#else
#define FSUM_FIX 0
#endif

typedef struct fsum {
    double inl[FSUM_INLINE];
    double *heap;           /* all partials once more than FSUM_INLINE, or NULL */
    uint8_t n, cap;         /* partials in use; heap capacity */
    uint8_t inexact;        /* overflow or too many partials: naive is the answer */
    double naive;
#if FSUM_FIX
    fsum_fix fix;           /* fast-path values, in units of 2^-62 */
    uint32_t nfix;          /* how many: bounds |fix| below 2^118 */
#endif
} fsum;

void fsum_init(fsum *s);
void fsum_free(fsum *s);

/* Makes room so that the next fsum_add cannot fail (as quantile_reserve).
 * 0, or -1 on OOM (the sum unchanged). */
int fsum_reserve(fsum *s);
/* Adds v; requires a successful fsum_reserve since the last add. */
void fsum_add(fsum *s, double v);

/* Whether fsum_add_fast takes v: a value in the fast range, while the
 * partials are few (under 32, far from FSUM_MAX, so the sum stays exact
 * wherever a value by value fsum_add would have kept it exact). Else the
 * caller reserves and uses fsum_add. */
static inline int fsum_fast_takes(const fsum *s, double v)
{
#if FSUM_FIX
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    unsigned sh = (unsigned)((u >> 52) & 0x7ff) - (1023u - 10u);
    return !s->inexact && s->n < 32 && s->nfix < UINT32_MAX && (sh <= 33 || v == 0);
#else
    (void)s;
    (void)v;
    return 0;
#endif
}

/* Adds v, which fsum_fast_takes, in fixed point (the naive sum as
 * fsum_add keeps it, for the fallback). Cannot fail. */
static inline void fsum_add_fast(fsum *s, double v)
{
#if FSUM_FIX
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    s->naive += v;
    if (v == 0)
        return;   /* a zero changes no partial's value */
    unsigned sh = (unsigned)((u >> 52) & 0x7ff) - (1023u - 10u);
    fsum_fix m = (fsum_fix)((u & ((1ULL << 52) - 1)) | (1ULL << 52)) << sh;
    s->fix += (u >> 63) ? -m : m;
    s->nfix++;
#else
    (void)s;
    (void)v;
#endif
}

/* The correctly rounded sum of everything added. */
double fsum_value(const fsum *s);

#endif
