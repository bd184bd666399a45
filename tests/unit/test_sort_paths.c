/* The hand-written stable sorts behind quant_get (exact mode) and
 * rule_percentile give the answers qsort gave: random data with many ties,
 * -0.0 next to 0.0, and sizes around the insertion-run and merge bounds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/quantile.h"
#include "model/rule_impl.h"

static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static double random_value(uint64_t *rng)
{
    uint64_t r = next_rand(rng);
    switch (r % 5) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return (double)(r >> 8 & 7);            /* ties */
    case 3: return -(double)(r >> 8 & 1023) / 7.0;
    default: return (double)(r >> 8 & 0xfffff) / 13.0;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void same_bits(double a, double b)
{
    if (memcmp(&a, &b, sizeof a) != 0)
        fail_msg("%.17g != %.17g", a, b);
}

/* quant_get's exact-mode formula over a qsort-ed copy. */
static double ref_quant(const double *v, size_t n, double p, double lo, double hi)
{
    double *c = malloc(n * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double rank = p / 100.0 * (double)(n - 1);
    uint64_t k = (uint64_t)floor(rank);
    double frac = rank - (double)k;
    double a = c[k], b = k + 1 < n ? c[k + 1] : a;
    double r = a + frac * (b - a);
    free(c);
    return r < lo ? lo : r > hi ? hi : r;
}

static void test_quant_exact_sort(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 15, 16, 17, 31, 32, 33, 100, 1000, 1024, 1025,
                                   4097, 60000};
    uint64_t rng = 99;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        quant *q = quant_new(65536);
        double *v = malloc(n * sizeof *v);
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            v[i] = random_value(&rng);
            assert_int_equal(quant_add(q, v[i]), 0);
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        for (double p = 0; p <= 100; p += 2.5)
            same_bits(quant_get(q, p), ref_quant(v, n, p, lo, hi));
        free(v);
        quant_free(q);
    }
}

static int cmp_vw(const void *a, const void *b)
{
    double x = ((const rule_vw *)a)->v, y = ((const rule_vw *)b)->v;
    return (x > y) - (x < y);
}

/* rule_percentile's formula over a qsort-ed copy. */
static double ref_pct(const rule_vw *in, size_t n, double p)
{
    rule_vw *c = malloc(n * sizeof *c);
    memcpy(c, in, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_vw);
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += c[i].w;
    double rank = p / 100.0 * (total - 1);
    if (rank < 0)
        rank = 0;
    double lo = floor(rank), cum = 0, a = c[n - 1].v, b = c[n - 1].v;
    double want_b = lo + 1 < total ? lo + 1 : lo;
    int got_a = 0;
    for (size_t i = 0; i < n; i++) {
        cum += c[i].w;
        if (!got_a && lo < cum) {
            a = c[i].v;
            got_a = 1;
        }
        if (want_b < cum) {
            b = c[i].v;
            break;
        }
    }
    free(c);
    return a + (b - a) * (rank - lo);
}

static void test_rule_percentile_sort(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 16, 17, 33, 257, 1000, 7200};
    uint64_t rng = 7;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        rule_vw *in = malloc(n * sizeof *in), *work = malloc(n * sizeof *work);
        for (size_t i = 0; i < n; i++) {
            in[i].v = random_value(&rng);
            in[i].w = (double)(1 + next_rand(&rng) % 3);
        }
        for (double p = 0; p <= 100; p += 5) {
            memcpy(work, in, n * sizeof *in);
            same_bits(rule_percentile(work, n, p), ref_pct(in, n, p));
            /* A second p of the same, now sorted, window. */
            same_bits(rule_percentile_sorted(work, n, 100 - p), ref_pct(in, n, 100 - p));
        }
        free(in);
        free(work);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quant_exact_sort),
        cmocka_unit_test(test_rule_percentile_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
