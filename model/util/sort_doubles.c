/* sort_doubles: see sort_doubles.h. */
#include "model/util/sort_doubles.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/stable_sort.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

void sort_doubles_array(double *a, size_t n)
{
    double small[1024];
    double *tmp = n <= 1024 ? small : malloc(n * sizeof *tmp);
    if (!tmp) {
        qsort(a, n, sizeof *a, cmp_double);   /* same order */
        return;
    }
    if (n < 512 || radix_doubles(a, tmp, n) != 0)
        sort_doubles(a, tmp, n);
    if (tmp != small)
        free(tmp);
}

