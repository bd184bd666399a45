/* Unit tests for model/quantile: exact mode against a brute-force numpy
 * definition, sketch accuracy, merge, bad inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/quantile.h"

/* This cmocka predates assert_double_equal. */
#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static uint64_t rng_state = 88172645463325252ULL;

static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static double normal(void)
{
    double u = urand(), v = urand();
    return sqrt(-2.0 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* numpy.percentile(x, p), default 'linear' method. */
static double np_percentile(const double *x, size_t n, double p)
{
    double *s = malloc(n * sizeof *s);
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_d);
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank), hi = (size_t)ceil(rank);
    double r = s[lo] + (rank - (double)lo) * (s[hi] - s[lo]);
    free(s);
    return r;
}

static const double pcts[] = {0, 1, 5, 25, 50, 75, 90, 95, 99, 99.9, 100};

static void test_exact_matches_numpy(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 300; n += 37) {
        quant *q = quant_new(1024);
        double *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; i++) {
            x[i] = normal() * 10 + (i % 3 == 0 ? -5 : 5);
            assert_int_equal(quant_add(q, x[i]), 0);
        }
        assert_true(quant_is_exact(q));
        assert_int_equal(quant_count(q), (int64_t)n);
        for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
            assert_close(quant_get(q, pcts[k]), np_percentile(x, n, pcts[k]), 1e-12);
        /* Adding after a sorted read must still be right. */
        assert_int_equal(quant_add(q, -1000), 0);
        assert_close(quant_get(q, 0), -1000, 0);
        free(x);
        quant_free(q);
    }
}

static void check_sketch(double (*gen)(void), size_t n)
{
    quant *q = quant_new(1024);
    double *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        x[i] = gen();
        assert_int_equal(quant_add(q, x[i]), 0);
    }
    assert_false(quant_is_exact(q));
    assert_int_equal(quant_count(q), (int64_t)n);
    qsort(x, n, sizeof *x, cmp_d);
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++) {
        double want = np_percentile(x, n, pcts[k]), got = quant_get(q, pcts[k]);
        assert_true(fabs(got - want) <= QUANT_REL_ERR * fabs(want) + 1e-12);
    }
    assert_true(quant_memory_bytes(q) < 64 * 1024);
    free(x);
    quant_free(q);
}

static double gen_lognormal(void) { return exp(normal() * 2.0 + 3.0); }
static double gen_uniform(void) { return urand() * 1000.0; }
static double gen_signed(void) { return (urand() < 0.3 ? -1 : 1) * gen_lognormal(); }

static void test_sketch_lognormal(void **state)
{
    (void)state;
    check_sketch(gen_lognormal, 200000);
}

static void test_sketch_uniform(void **state)
{
    (void)state;
    check_sketch(gen_uniform, 200000);
}

static void test_sketch_signed(void **state)
{
    (void)state;
    check_sketch(gen_signed, 50000);
}

static void test_zeros_and_extremes(void **state)
{
    (void)state;
    quant *q = quant_new(4);
    double v[] = {0, 0, 0, 1e-320, 1e300, -1e300, 5, 0};
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(quant_add(q, v[i]), 0);
    assert_false(quant_is_exact(q));
    assert_close(quant_get(q, 0), -1e300, 0);
    assert_close(quant_get(q, 100), 1e300, 0);
    assert_close(quant_get(q, 50), 0, 1e-300);
    quant_free(q);
}

static void test_merge(void **state)
{
    (void)state;
    quant *a = quant_new(1000), *b = quant_new(1000), *all = quant_new(100000);
    /* exact + exact staying exact */
    for (int i = 0; i < 300; i++) {
        double x = gen_uniform(), y = gen_lognormal();
        quant_add(a, x);
        quant_add(b, y);
        quant_add(all, x);
        quant_add(all, y);
    }
    assert_int_equal(quant_merge(a, b), 0);
    assert_true(quant_is_exact(a));
    assert_int_equal(quant_count(a), 600);
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
        assert_close(quant_get(a, pcts[k]), quant_get(all, pcts[k]), 1e-12);
    /* sketch + sketch */
    for (int i = 0; i < 5000; i++) {
        double x = gen_lognormal(), y = gen_uniform();
        quant_add(a, x);
        quant_add(b, y);
        quant_add(all, x);
        quant_add(all, y);
    }
    assert_int_equal(quant_merge(a, b), 0);
    assert_false(quant_is_exact(a));
    assert_int_equal(quant_count(a), quant_count(all) + 300);  /* b's first 300 twice */
    quant *c = quant_new(10);
    assert_int_equal(quant_merge(c, all), 0);
    assert_int_equal(quant_count(c), quant_count(all));
    for (size_t k = 1; k < sizeof pcts / sizeof *pcts - 1; k++) {
        double want = quant_get(all, pcts[k]);
        assert_true(fabs(quant_get(c, pcts[k]) - want) <= QUANT_REL_ERR * fabs(want));
    }
    quant_free(a);
    quant_free(b);
    quant_free(c);
    quant_free(all);
}

static void test_rejects_nonfinite(void **state)
{
    (void)state;
    quant *q = quant_new(8);
    assert_true(isnan(quant_get(q, 50)));
    quant_add(q, 1);
    quant_add(q, 3);
    assert_int_equal(quant_add(q, NAN), -1);
    assert_int_equal(quant_add(q, INFINITY), -1);
    assert_int_equal(quant_add(q, -INFINITY), -1);
    assert_int_equal(quant_reserve(q, NAN), -1);
    assert_int_equal(quant_count(q), 2);
    assert_close(quant_get(q, 50), 2, 0);
    assert_close(quant_get(q, 100), 3, 0);
    quant_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_matches_numpy),
        cmocka_unit_test(test_sketch_lognormal),
        cmocka_unit_test(test_sketch_uniform),
        cmocka_unit_test(test_sketch_signed),
        cmocka_unit_test(test_zeros_and_extremes),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_rejects_nonfinite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
