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

#include "model/series/quantile.h"

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
        quant *q = quantile_new(1024);
        double *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; i++) {
            x[i] = normal() * 10 + (i % 3 == 0 ? -5 : 5);
            assert_int_equal(quantile_add(q, x[i]), 0);
        }
        assert_true(quantile_is_exact(q));
        assert_int_equal(quantile_count(q), (int64_t)n);
        for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
            assert_close(quantile_get(q, pcts[k]), np_percentile(x, n, pcts[k]), 1e-12);
        /* Adding after a sorted read must still be right. */
        assert_int_equal(quantile_add(q, -1000), 0);
        assert_close(quantile_get(q, 0), -1000, 0);
        free(x);
        quantile_free(q);
    }
}

static void check_sketch(double (*gen)(void), size_t n)
{
    quant *q = quantile_new(1024);
    double *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        x[i] = gen();
        assert_int_equal(quantile_add(q, x[i]), 0);
    }
    assert_false(quantile_is_exact(q));
    assert_int_equal(quantile_count(q), (int64_t)n);
    qsort(x, n, sizeof *x, cmp_d);
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++) {
        double want = np_percentile(x, n, pcts[k]), got = quantile_get(q, pcts[k]);
        assert_true(fabs(got - want) <= QUANT_REL_ERR * fabs(want) + 1e-12);
    }
    assert_true(quantile_memory_bytes(q) < 64 * 1024);
    free(x);
    quantile_free(q);
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

/* Utilization as smdebug reports it: two decimals, busy near 100, idle
 * at 0, some of it exactly 100. */
static double gen_util(void)
{
    double u = urand(), v;
    if (u < 0.4)
        v = urand() * 100;
    else if (u < 0.7)
        v = 90 + 5 * normal();
    else if (u < 0.9)
        v = 100 - fabs(normal()) * 0.3;
    else
        v = u < 0.95 ? 100 : 0;
    v = v < 0 ? 0 : v > 100 ? 100 : v;
    return round(v * 100) / 100;
}

/* numpy.percentile of already sorted values. */
static double np_percentile_sorted(const double *s, size_t n, double p)
{
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank), hi = (size_t)ceil(rank);
    return s[lo] + (rank - (double)lo) * (s[hi] - s[lo]);
}

/* Largest |quant - numpy| (less rel * |numpy|) over percentiles 0, 0.5,
 * ..., 100. Sorts x. */
static double worst_error(quant *q, double *x, size_t n, double rel)
{
    qsort(x, n, sizeof *x, cmp_d);
    double worst = 0;
    for (double p = 0; p <= 100; p += 0.5) {
        double want = np_percentile_sorted(x, n, p), err = fabs(quantile_get(q, p) - want);
        err -= rel * fabs(want);
        if (err > worst)
            worst = err;
    }
    return worst;
}

static void test_linear_within_a_tenth_of_a_point(void **state)
{
    (void)state;
    static const size_t counts[] = {1200, 5000, 100000, 1000000};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        size_t n = counts[c];
        quant *q = quantile_new_linear(1024, 100, 0.1), *old = quantile_new(1024);
        double *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; i++) {
            x[i] = gen_util();
            assert_int_equal(quantile_reserve(q, x[i]), 0);
            assert_int_equal(quantile_add(q, x[i]), 0);
            quantile_add(old, x[i]);
        }
        assert_false(quantile_is_exact(q));
        double e = worst_error(q, x, n, 0), e_old = worst_error(old, x, n, 0);
        print_message("%zu samples: worst error %.4f points (log sketch alone: %.3f)\n", n, e,
                      e_old);
        assert_true(e <= 0.05 + 1e-9);
        double abs_err, rel_err;
        quantile_error_bound(q, &abs_err, &rel_err);
        assert_close(abs_err, 0.05, 1e-12);
        assert_close(rel_err, 0, 0);
        /* at most 1001 bins of 4 bytes, the exact buffer gone */
        assert_true(quantile_memory_bytes(q) <= 4096 + 256);
        free(x);
        quantile_free(q);
        quantile_free(old);
    }
}

static void test_linear_at_100_is_100(void **state)
{
    (void)state;
    quant *q = quantile_new_linear(1024, 100, 0.1);
    for (int i = 0; i < 5000; i++)
        assert_int_equal(quantile_add(q, 100.0), 0);
    assert_false(quantile_is_exact(q));
    assert_true(quantile_get(q, 5) == 100.0 && quantile_get(q, 95) == 100.0 && quantile_get(q, 99) == 100);
    quantile_free(q);
}

/* Values outside [0, hi] (a custom metric on its own scale, a CPU total
 * over 100) keep the log sketch's bound; the rest keep the histogram's. */
static void test_linear_out_of_range(void **state)
{
    (void)state;
    size_t n = 60000;
    quant *q = quantile_new_linear(1024, 100, 0.1);
    double *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        double u = urand();
        x[i] = u < 0.05 ? 100 + urand() * 300 : u < 0.08 ? -urand() * 10 : gen_util();
        assert_int_equal(quantile_reserve(q, x[i]), 0);
        assert_int_equal(quantile_add(q, x[i]), 0);
    }
    assert_true(worst_error(q, x, n, QUANT_REL_ERR) <= 0.05 + 1e-9);
    double abs_err, rel_err;
    quantile_error_bound(q, &abs_err, &rel_err);
    assert_close(abs_err, 0.05, 1e-12);
    assert_close(rel_err, QUANT_REL_ERR, 0);
    free(x);
    quantile_free(q);
    assert_null(quantile_new_linear(10, 100, 0));
    assert_null(quantile_new_linear(10, 0, 0.1));
}

static void test_error_bounds(void **state)
{
    (void)state;
    quant *a = quantile_new(4), *b = quantile_new_linear(4, 100, 0.1);
    double abs_err, rel_err;
    for (int i = 0; i < 4; i++) {
        quantile_add(a, i);
        quantile_add(b, i);
    }
    quantile_error_bound(a, &abs_err, &rel_err);
    assert_true(abs_err == 0 && rel_err == 0);
    quantile_error_bound(b, &abs_err, &rel_err);
    assert_true(abs_err == 0 && rel_err == 0);
    quantile_add(a, 5);
    quantile_add(b, 5);
    quantile_error_bound(a, &abs_err, &rel_err);
    assert_true(abs_err == 0 && rel_err == QUANT_REL_ERR);
    quantile_error_bound(b, &abs_err, &rel_err);
    assert_true(abs_err == 0.05 && rel_err == 0);
    quantile_free(a);
    quantile_free(b);
}

/* Merging linear quants gives what adding every value to one gives. */
static void test_linear_merge(void **state)
{
    (void)state;
    quant *a = quantile_new_linear(100, 100, 0.1), *b = quantile_new_linear(100, 100, 0.1);
    quant *all = quantile_new_linear(100, 100, 0.1), *lg = quantile_new(100);
    for (int i = 0; i < 3000; i++) {
        double v = i % 7 == 0 ? 150 + i : gen_util();
        quantile_add(i % 2 ? a : b, v);
        quantile_add(all, v);
        quantile_add(lg, v);
    }
    assert_int_equal(quantile_merge(a, b), 0);
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
        assert_close(quantile_get(a, pcts[k]), quantile_get(all, pcts[k]), 1e-9);
    /* a log quant merged into a linear one: its estimates, within bounds */
    assert_int_equal(quantile_merge(b, lg), 0);
    assert_int_equal(quantile_count(b), 3000 + 1500);
    quantile_free(a);
    quantile_free(b);
    quantile_free(all);
    quantile_free(lg);
}

static void test_zeros_and_extremes(void **state)
{
    (void)state;
    quant *q = quantile_new(4);
    double v[] = {0, 0, 0, 1e-320, 1e300, -1e300, 5, 0};
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(quantile_add(q, v[i]), 0);
    assert_false(quantile_is_exact(q));
    assert_close(quantile_get(q, 0), -1e300, 0);
    assert_close(quantile_get(q, 100), 1e300, 0);
    assert_close(quantile_get(q, 50), 0, 1e-300);
    quantile_free(q);
}

static void test_merge(void **state)
{
    (void)state;
    quant *a = quantile_new(1000), *b = quantile_new(1000), *all = quantile_new(100000);
    /* exact + exact staying exact */
    for (int i = 0; i < 300; i++) {
        double x = gen_uniform(), y = gen_lognormal();
        quantile_add(a, x);
        quantile_add(b, y);
        quantile_add(all, x);
        quantile_add(all, y);
    }
    assert_int_equal(quantile_merge(a, b), 0);
    assert_true(quantile_is_exact(a));
    assert_int_equal(quantile_count(a), 600);
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
        assert_close(quantile_get(a, pcts[k]), quantile_get(all, pcts[k]), 1e-12);
    /* sketch + sketch */
    for (int i = 0; i < 5000; i++) {
        double x = gen_lognormal(), y = gen_uniform();
        quantile_add(a, x);
        quantile_add(b, y);
        quantile_add(all, x);
        quantile_add(all, y);
    }
    assert_int_equal(quantile_merge(a, b), 0);
    assert_false(quantile_is_exact(a));
    assert_int_equal(quantile_count(a), quantile_count(all) + 300);  /* b's first 300 twice */
    quant *c = quantile_new(10);
    assert_int_equal(quantile_merge(c, all), 0);
    assert_int_equal(quantile_count(c), quantile_count(all));
    for (size_t k = 1; k < sizeof pcts / sizeof *pcts - 1; k++) {
        double want = quantile_get(all, pcts[k]);
        assert_true(fabs(quantile_get(c, pcts[k]) - want) <= QUANT_REL_ERR * fabs(want));
    }
    quantile_free(a);
    quantile_free(b);
    quantile_free(c);
    quantile_free(all);
}

static void test_rejects_nonfinite(void **state)
{
    (void)state;
    quant *q = quantile_new(8);
    assert_true(isnan(quantile_get(q, 50)));
    quantile_add(q, 1);
    quantile_add(q, 3);
    assert_int_equal(quantile_add(q, NAN), -1);
    assert_int_equal(quantile_add(q, INFINITY), -1);
    assert_int_equal(quantile_add(q, -INFINITY), -1);
    assert_int_equal(quantile_reserve(q, NAN), -1);
    assert_int_equal(quantile_count(q), 2);
    assert_close(quantile_get(q, 50), 2, 0);
    assert_close(quantile_get(q, 100), 3, 0);
    quantile_free(q);
}


/* The sketch's bucket index from exponent and mantissa (issue 17) equals
 * ceil(log(m) / log(gamma)) for every value tried: random magnitudes over
 * the whole indexed range, integers (durations in µs), and the values
 * nearest every bucket boundary, where a wrong rounding would show. */
static int log_index_ref(double m)
{
    return (int)ceil(log(m) / logstore_log_gamma());
}

static void test_log_index_equals_log(void **state)
{
    (void)state;
    long checked = 0;
    for (int i = 0; i < 2000000; i++) {
        double m = exp((urand() * 2 - 1) * 690);
        assert_int_equal(logstore_index(m), log_index_ref(m));
        checked++;
    }
    for (double m = 1; m <= 2e6; m += 1, checked++)
        assert_int_equal(logstore_index(m), log_index_ref(m));
    double lg = logstore_log_gamma();
    for (int k = -35000; k <= 36000; k++) {
        double b = exp(k * lg);
        if (!(b >= 1e-300) || !isfinite(b))
            continue;
        double around[] = {b, nextafter(b, 0), nextafter(b, INFINITY),
                           nextafter(nextafter(b, 0), 0), b * (1 + 1e-9), b * (1 - 1e-9)};
        for (size_t j = 0; j < sizeof around / sizeof *around; j++, checked++)
            assert_int_equal(logstore_index(around[j]), log_index_ref(around[j]));
    }
    for (int e = -996; e <= 1023; e++, checked++)
        assert_int_equal(logstore_index(ldexp(1, e)), log_index_ref(ldexp(1, e)));
    print_message("%ld magnitudes: same bucket as log()\n", checked);
}

/* A linear histogram stores only the bins its values reach, 1 byte a
 * count until a bin passes 255, and answers as before when it widens. */
static void test_linear_sized_to_data(void **state)
{
    (void)state;
    quant *q = quantile_new_linear(16, 100, 0.1);
    for (int i = 0; i < 20000; i++)
        assert_int_equal(quantile_add(q, 95 + (i % 50) * 0.1), 0);  /* 95.0 .. 99.9 */
    /* 50 bins reached, 400 values each: 2 bytes a count, not 1001 x 4 */
    size_t bytes = quantile_memory_bytes(q);
    print_message("busy GPU, 20000 samples: %zu bytes\n", bytes);
    assert_true(bytes < 1024);
    assert_close(quantile_get(q, 50), 97.4, 0.05 + 1e-9);
    assert_close(quantile_get(q, 99), 99.9, 0.05 + 1e-9);
    assert_true(quantile_get(q, 0) == 95.0 && quantile_get(q, 100) == 99.9);
    /* a value far below the window widens it; counts survive */
    for (int i = 0; i < 20000; i++)
        assert_int_equal(quantile_add(q, 1.0), 0);
    assert_close(quantile_get(q, 25), 1.0, 0.05 + 1e-9);
    assert_close(quantile_get(q, 75), 97.4, 0.05 + 1e-9);
    assert_int_equal(quantile_count(q), 40000);
    quantile_free(q);
}

/* Exact values are kept as floats while each is one (durations in µs),
 * with the same answers as doubles; a value no float holds switches the
 * buffer to doubles without losing one. */
static void test_exact_narrow_then_wide(void **state)
{
    (void)state;
    enum { N = 5000 };
    quant *q = quantile_new(65536);
    double x[N + 1];
    for (int i = 0; i < N; i++) {
        x[i] = (double)(100000 + (int)(urand() * 50000));
        assert_int_equal(quantile_reserve(q, x[i]), 0);
        assert_int_equal(quantile_add(q, x[i]), 0);
    }
    assert_true(quantile_is_exact(q));
    size_t narrow = quantile_memory_bytes(q);
    assert_true(narrow < N * sizeof(double));
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
        assert_true(quantile_get(q, pcts[k]) == np_percentile(x, N, pcts[k]));
    x[N] = 123456.789;   /* not a float */
    assert_int_equal(quantile_reserve(q, x[N]), 0);
    assert_int_equal(quantile_add(q, x[N]), 0);
    assert_true(quantile_memory_bytes(q) > narrow);
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
        assert_true(quantile_get(q, pcts[k]) == np_percentile(x, N + 1, pcts[k]));
    /* utilization with two decimals: hundredths in 4 bytes, also after
     * integers (floats) came first; exact as doubles would be */
    quant *u = quantile_new(4096);
    double y[3000];
    for (int i = 0; i < 3000; i++) {
        y[i] = i < 100 ? (double)(i % 100) : (double)(int)(urand() * 10000) / 100.0;
        assert_int_equal(quantile_reserve(u, y[i]), 0);
        assert_int_equal(quantile_add(u, y[i]), 0);
    }
    assert_true(quantile_memory_bytes(u) < 3000 * sizeof(double));
    for (size_t k = 0; k < sizeof pcts / sizeof *pcts; k++)
        assert_true(quantile_get(u, pcts[k]) == np_percentile(y, 3000, pcts[k]));
    quantile_free(u);
    /* a narrow source merges into a wide destination and back */
    quant *a = quantile_new(65536), *b = quantile_new(65536);
    assert_int_equal(quantile_add(a, 2.5), 0);
    assert_int_equal(quantile_add(b, 0.1), 0);
    assert_int_equal(quantile_merge(b, a), 0);
    assert_int_equal(quantile_merge(a, b), 0);
    assert_true(quantile_get(a, 0) == 0.1 && quantile_get(a, 100) == 2.5 && quantile_count(a) == 3);
    assert_true(quantile_get(a, 50) == 2.5);
    quantile_free(a);
    quantile_free(b);
    quantile_free(q);
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
        cmocka_unit_test(test_linear_within_a_tenth_of_a_point),
        cmocka_unit_test(test_linear_at_100_is_100),
        cmocka_unit_test(test_linear_out_of_range),
        cmocka_unit_test(test_error_bounds),
        cmocka_unit_test(test_linear_merge),
        cmocka_unit_test(test_rejects_nonfinite),
        cmocka_unit_test(test_log_index_equals_log),
        cmocka_unit_test(test_linear_sized_to_data),
        cmocka_unit_test(test_exact_narrow_then_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
