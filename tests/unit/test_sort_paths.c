/* The hand-written sorts behind quantile_get (exact mode), rule_percentile
 * and rule_sample_interval give the answers qsort gave: random data with
 * many ties, -0.0 next to 0.0, and sizes around the insertion-run, radix
 * and merge bounds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/series/quantile.h"
#include "model/rules/rule_impl.h"
#include "model/series/series.h"

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

/* quantile_get's exact-mode formula over a qsort-ed copy. */
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
    static const size_t sizes[] = {1, 2, 15, 16, 17, 31, 32, 33, 100, 511, 512, 1000, 1024,
                                   1025, 4097, 60000};
    uint64_t rng = 99;
    /* round 0: both zeros occur (merge sort); 1: no -0.0 (radix sort from
     * 512 values); 2: durations-like positive values */
    for (int round = 0; round < 3; round++) {
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            size_t n = sizes[si];
            quant *q = quantile_new(65536);
            double *v = malloc(n * sizeof *v);
            double lo = INFINITY, hi = -INFINITY;
            for (size_t i = 0; i < n; i++) {
                v[i] = random_value(&rng);
                if (round == 1 && v[i] == 0)
                    v[i] = 0.0;
                if (round == 2)
                    v[i] = (double)(1000 + next_rand(&rng) % 90000);
                assert_int_equal(quantile_add(q, v[i]), 0);
                lo = v[i] < lo ? v[i] : lo;
                hi = v[i] > hi ? v[i] : hi;
            }
            for (double p = 0; p <= 100; p += 2.5)
                same_bits(quantile_get(q, p), ref_quant(v, n, p, lo, hi));
            free(v);
            quantile_free(q);
        }
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
    static const size_t sizes[] = {1, 2, 3, 16, 17, 33, 257, 500, 1000, 7200};
    uint64_t rng = 7;
    /* round 0: both zeros; 1: no -0.0; 2: a fractional weight */
    for (int round = 0; round < 3; round++) {
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            size_t n = sizes[si];
            rule_vw *in = malloc(n * sizeof *in), *work = malloc(n * sizeof *work);
            for (size_t i = 0; i < n; i++) {
                in[i].v = random_value(&rng);
                if (round > 0 && in[i].v == 0)
                    in[i].v = 0.0;
                in[i].w = (double)(1 + next_rand(&rng) % 3);
            }
            if (round == 0 && n >= 2) {   /* make sure both zeros occur */
                in[0].v = -0.0;
                in[n - 1].v = 0.0;
            }
            if (round == 2)
                in[n / 2].w = 1.5;
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
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* rule_sample_interval as first written: the newest 255 raw gaps sorted
 * with qsort, the median snapped to SageMaker's intervals by ratio. */
static int64_t ref_interval(const int64_t *ts, size_t n)
{
    static const int64_t allowed[] = {100000, 200000, 500000, 1000000, 5000000, 60000000};
    int64_t g[255];
    size_t k = 0;
    for (size_t i = n; i-- > 1 && k < 255;)
        if (ts[i] > ts[i - 1])
            g[k++] = ts[i] - ts[i - 1];
    if (k == 0)
        return 0;
    qsort(g, k, sizeof *g, cmp_i64);
    double med = (double)g[k / 2];
    if (med < allowed[0] * 0.75)
        return (int64_t)med;
    size_t best = 0;
    for (size_t i = 1; i < 6; i++)
        if (fabs(log(med / (double)allowed[i])) < fabs(log(med / (double)allowed[best])))
            best = i;
    return allowed[best];
}

/* The median gap by selection (and from the last minutes only, when they
 * hold enough gaps) against the sorted reference, on jittery, paused and
 * duplicated timestamps, with fewer and more than 255 gaps. */
static void test_sample_interval(void **state)
{
    (void)state;
    static const int64_t steps[] = {100000, 200000, 500000, 1000000, 5000000, 60000000, 37000};
    uint64_t rng = 5;
    int64_t *ts = malloc(1800 * sizeof *ts);
    for (int round = 0; round < 300; round++) {
        size_t n = 2 + next_rand(&rng) % 1700;
        int64_t step = steps[round % 7], t = 1591748100000000LL;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = next_rand(&rng);
            ts[i] = t;
            t += r % 11 == 0 ? 0                      /* duplicate time */
                 : r % 13 == 0 ? step * 40            /* a pause */
                 : step + (int64_t)(r >> 40) % (step / 4 + 1) - step / 8;
        }
        series *s = series_new("gpu", "GPUUtilization", "gpu0");
        for (size_t i = 0; i < n; i++)
            assert_int_equal(series_add(s, ts[i], (double)(i % 100)), 0);
        /* only raw points count: compare on what raw still holds */
        size_t first = n > 2048 ? n - 2048 : 0;
        assert_int_equal(rule_sample_interval(s), ref_interval(ts + first, n - first));
        series_free(s);
    }
    free(ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quant_exact_sort),
        cmocka_unit_test(test_rule_percentile_sort),
        cmocka_unit_test(test_sample_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
