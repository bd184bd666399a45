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
        cmocka_unit_test(test_overflow_falls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
