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

#define FSUM_INLINE 3

typedef struct fsum {
    double inl[FSUM_INLINE];
    double *heap;           /* all partials once more than FSUM_INLINE, or NULL */
    uint8_t n, cap;         /* partials in use; heap capacity */
    uint8_t inexact;        /* overflow or too many partials: naive is the answer */
    double naive;
} fsum;

void fsum_init(fsum *s);
void fsum_free(fsum *s);

/* Makes room so that the next fsum_add cannot fail (as quantile_reserve).
 * 0, or -1 on OOM (the sum unchanged). */
int fsum_reserve(fsum *s);
/* Adds v; requires a successful fsum_reserve since the last add. */
void fsum_add(fsum *s, double v);

/* The correctly rounded sum of everything added. */
double fsum_value(const fsum *s);

#endif
