/* Unit tests for series_hold_gaps: chart columns narrower than the
 * sampling interval show the sample that held (no notch between two
 * samples), a real gap stays empty, and the newest sample holds for one
 * interval. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/series/series.h"

#define T0 1700000000000000LL
#define IV 500000LL   /* a sample every 500 ms */

/* Samples every 500 ms over [0, 20 s) with value i (i-th sample), none in
 * [8 s, 14 s) (a real gap), and the one at 3 s missing (a missed sample). */
static series *with_gap(void)
{
    series *s = series_new("cpu", "CPUUtilization", "total");
    assert_non_null(s);
    for (int64_t i = 0; i < 40; i++) {
        int64_t t = i * IV;
        if ((t >= 8000000 && t < 14000000) || t == 3000000)
            continue;
        assert_int_equal(series_add(s, T0 + t, (double)i), 0);
    }
    return s;
}

/* Bins of 125 ms (four per interval) over [0, 20 s), with holding. */
static size_t held_bins(series *s, double *vals, size_t *filled)
{
    enum { NB = 160 };
    series_bin bins[NB];
    series_query(s, T0, T0 + 20000000, NB, bins);
    for (size_t i = 0; i < NB; i++)
        vals[i] = bins[i].count ? bins[i].mean : NAN;
    *filled = series_hold_gaps(s, T0, T0 + 20000000, NB, vals);
    return NB;
}

static void test_hold_between_samples(void **state)
{
    (void)state;
    series *s = with_gap();
    double v[160];
    size_t filled, nb = held_bins(s, v, &filled);
    assert_true(filled > 0);
    for (size_t b = 0; b < nb; b++) {
        double t = (double)b * 125000;
        int in_gap = t >= 7500000 + IV && t < 14000000;   /* after the last one held */
        if (t >= 19500000 + IV)
            assert_true(isnan(v[b]));   /* past the newest sample's interval */
        else if (in_gap)
            assert_true(isnan(v[b]));
        else {
            /* The sample at or before the bin: its index. */
            double want = floor(t / IV);
            if (want == 6)
                want = 5;   /* the missed sample at 3 s: the 2.5 s one held */
            if (t >= 7500000 && t < 8000000)
                want = 15;
            assert_true(!isnan(v[b]));
            assert_true(v[b] == want);
        }
    }
    series_free(s);
}

/* Bins as wide as several samples have no empty bin: nothing to hold. A
 * window inside the gap stays empty; one narrower than an interval
 * between two samples holds the earlier. */
static void test_hold_edges(void **state)
{
    (void)state;
    series *s = with_gap();
    series_bin bins[10];
    double v[10];
    series_query(s, T0, T0 + 20000000, 10, bins);
    for (size_t i = 0; i < 10; i++)
        v[i] = bins[i].count ? bins[i].mean : NAN;
    assert_int_equal(series_hold_gaps(s, T0, T0 + 20000000, 10, v), 0);

    for (size_t i = 0; i < 10; i++)
        v[i] = NAN;
    assert_int_equal(series_hold_gaps(s, T0 + 9000000, T0 + 12000000, 10, v), 0);
    for (size_t i = 0; i < 10; i++)
        assert_true(isnan(v[i]));

    for (size_t i = 0; i < 4; i++)
        v[i] = NAN;
    assert_int_equal(series_hold_gaps(s, T0 + 1100000, T0 + 1400000, 4, v), 4);
    for (size_t i = 0; i < 4; i++)
        assert_true(v[i] == 2);
    assert_int_equal(series_hold_gaps(s, T0, T0, 4, v), 0);
    series_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hold_between_samples),
        cmocka_unit_test(test_hold_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
