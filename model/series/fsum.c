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

void fsum_add(fsum *s, double x)
{
    s->naive += x;
    if (s->n >= FSUM_MAX)
        s->inexact = 1;
    if (s->inexact)
        return;
    double *p = parts(s);
    size_t i = 0;
    for (size_t j = 0; j < s->n; j++) {
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
    if (!isfinite(x))
        s->inexact = 1;
    p[i++] = x;   /* i <= n + 1: the room fsum_reserve made */
    s->n = (uint8_t)i;
}

double fsum_value(const fsum *s)
{
    if (s->inexact)
        return s->naive;
    const double *p = parts_c(s);
    size_t n = s->n;
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
