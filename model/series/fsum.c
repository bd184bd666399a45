/* fsum: Shewchuk's partials (see fsum.h), following CPython's msum. */
#include "model/series/fsum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Partials kept at most. Real metric streams need under 16 (200,000
 * random 2-decimal percentages: 9); random signs over 600 decades: ~90. */
#define FSUM_MAX 255

void fsum_init(fsum *s)
{
    memset(s, 0, sizeof *s);
}

void fsum_free(fsum *s)
{
    free(s->heap);
    fsum_init(s);
}

static double *parts(fsum *s)
{
    return s->heap ? s->heap : s->inl;
}

static const double *parts_c(const fsum *s)
{
    return s->heap ? s->heap : s->inl;
}

int fsum_reserve(fsum *s)
{
    if (s->n < FSUM_INLINE || (s->heap && s->n < s->cap) || s->n >= FSUM_MAX)
        return 0;   /* at FSUM_MAX, fsum_add gives up exactness instead */
    unsigned want = s->heap ? 2u * s->cap : 8u;
    uint8_t cap = (uint8_t)(want > FSUM_MAX ? FSUM_MAX : want);
    double *h = realloc(s->heap, cap * sizeof *h);
    if (!h)
        return -1;
    if (!s->heap)
        memcpy(h, s->inl, s->n * sizeof *h);
    s->heap = h;
    s->cap = cap;
    return 0;
}

/* Adds x to the n partials p (room for n + 1), exactly: Shewchuk's step.
 * Returns the new count; *fin is 0 when the running sum overflowed. */
static size_t partials_add(double *p, size_t n, double x, int *fin)
{
    size_t i = 0;
    for (size_t j = 0; j < n; j++) {
        double y = p[j];
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        double hi = x + y;
        double lo = y - (hi - x);
        if (lo != 0.0)
            p[i++] = lo;
        x = hi;
    }
    *fin = isfinite(x);
    p[i++] = x;
    return i;
}

void fsum_add(fsum *s, double x)
{
    s->naive += x;
    if (s->n >= FSUM_MAX)
        s->inexact = 1;
    if (s->inexact)
        return;
    int fin;
    s->n = (uint8_t)partials_add(parts(s), s->n, x, &fin);   /* <= n + 1: fsum_reserve's room */
    if (!fin)
        s->inexact = 1;
}

/* The correctly rounded sum of the n partials p. */
static double partials_round(const double *p, size_t n)
{
    double hi = 0.0, lo = 0.0;
    if (n == 0)
        return 0.0;
    hi = p[--n];
    /* Add from the top down until the sum becomes inexact. */
    while (n > 0) {
        double x = hi, y = p[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0)
            break;
    }
    /* Round half-even correctly when the rest lies exactly half-way. */
    if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
        double y = lo * 2.0, x = hi + y;
        if (y == x - hi)
            hi = x;
    }
    return hi;
}

double fsum_value(const fsum *s)
{
    if (s->inexact)
        return s->naive;
#if FSUM_FIX
    if (s->fix != 0) {
        /* The fixed-point part as three doubles of 52 bits each (|fix| <
         * 2^118), each exact, added exactly to a copy of the partials: the
         * rounding below then sees the same exact total. */
        double p[FSUM_MAX + 3];
        size_t n = s->n;
        memcpy(p, parts_c(s), n * sizeof *p);
        fsum_ufix m = s->fix < 0 ? -(fsum_ufix)s->fix : (fsum_ufix)s->fix;
        double sign = s->fix < 0 ? -1.0 : 1.0;
        const uint64_t mask = (1ULL << 52) - 1;
        double c[3] = {(double)(uint64_t)(m & mask) * 0x1p-62,
                       (double)(uint64_t)((m >> 52) & mask) * 0x1p-10,
                       (double)(uint64_t)(m >> 104) * 0x1p42};
        for (int k = 0; k < 3; k++) {
            int fin;
            if (c[k] != 0)
                n = partials_add(p, n, sign * c[k], &fin);
        }
        return partials_round(p, n);
    }
#endif
    return partials_round(parts_c(s), s->n);
}
