/* fsum: the exact sum behind every series mean. Any order of the same
 * values gives the same double, and it is the correctly rounded sum
 * (values from CPython's math.fsum tests); an overflowing sum falls back
 * to the naive one; the heap spill for many partials keeps the answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "model/series/fsum.h"

static double sum_of(const double *v, size_t n)
{
    fsum s;
    fsum_init(&s);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(fsum_reserve(&s), 0);
        fsum_add(&s, v[i]);
    }
    double r = fsum_value(&s);
    fsum_free(&s);
    return r;
}

static void test_correctly_rounded(void **state)
{
    (void)state;
    double tenths[10];
    for (int i = 0; i < 10; i++)
        tenths[i] = 0.1;
    assert_true(sum_of(tenths, 10) == 1.0);   /* a naive loop gives 0.9999999999999999 */
    const double cancel[] = {1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50};
    assert_true(sum_of(cancel, 7) == 1e-100);
    const double half[] = {1.0, 1e-16, 1e-16};   /* 1 + 2e-16, not 1 */
    assert_true(sum_of(half, 3) == 1.0000000000000002);
    const double tie[] = {pow(2, 53), 1.0, pow(2, -100)};   /* just past half: round up */
    assert_true(sum_of(tie, 3) == pow(2, 53) + 2.0);
    assert_true(sum_of(NULL, 0) == 0.0);
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The property the live-vs-final harness needs: order does not matter,
 * with values of every magnitude (many partials, heap spill). */
static void test_any_order_same_double(void **state)
{
    (void)state;
    enum { N = 2000 };
    static double v[N];
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < N; i++) {
            double m = (double)(next() >> 11) / 9007199254740992.0;
            int e = round < 10 ? (int)(next() % 600) - 300 : (int)(next() % 8);
            v[i] = ((next() & 1) ? -m : m) * pow(10, e);
        }
        double first = sum_of(v, N);
        for (int k = 0; k < 5; k++) {
            for (int i = N - 1; i > 0; i--) {
                int j = (int)(next() % (uint64_t)(i + 1));
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
            assert_true(sum_of(v, N) == first);
        }
    }
}

/* The fixed-point path (fsum_add_fast, a series' block of samples) gives
 * the same double as value-by-value fsum_add, mixed with values it does
 * not take (tiny, huge, zero, of both signs) in any interleaving. */
static void test_fast_path_same_double(void **state)
{
    (void)state;
    enum { N = 5000 };
    static double v[N];
    for (int round = 0; round < 40; round++) {
        fsum a, b;
        fsum_init(&a);
        fsum_init(&b);
        int fast = 0;
        for (int i = 0; i < N; i++) {
            uint64_t r = next();
            double m = (double)(r >> 11) / 9007199254740992.0;
            int e = round % 4 == 0 ? (int)(next() % 40) - 20 : (int)(next() % 9) - 3;
            v[i] = r % 23 == 0 ? 0.0 : round % 2 ? (double)(r % 10001) / 100.0 : m * pow(10, e);
            if (round % 3 == 0 && (r & 2))
                v[i] = -v[i];
            assert_int_equal(fsum_reserve(&a), 0);
            fsum_add(&a, v[i]);
            if (fsum_fast_takes(&b, v[i])) {
                fsum_add_fast(&b, v[i]);
                fast++;
            } else {
                assert_int_equal(fsum_reserve(&b), 0);
                fsum_add(&b, v[i]);
            }
            if (i % 997 == 0)
                assert_true(fsum_value(&a) == fsum_value(&b));
        }
        assert_true(fsum_value(&a) == fsum_value(&b));
        assert_true(fsum_value(&a) == sum_of(v, N));
        if (FSUM_FIX && round % 4 != 0)
            assert_true(fast > N / 2);   /* the path under test was taken */
        fsum_free(&a);
        fsum_free(&b);
    }
}

static void test_overflow_falls_back(void **state)
{
    (void)state;
    const double big[] = {DBL_MAX, DBL_MAX, 1.0};
    assert_true(isinf(sum_of(big, 3)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correctly_rounded),
        cmocka_unit_test(test_any_order_same_double),
        cmocka_unit_test(test_fast_path_same_double),
        cmocka_unit_test(test_overflow_falls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
