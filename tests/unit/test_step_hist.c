/* Unit tests for model/steps/step_hist: the Steps pane's histogram rows,
 * the bulk of the steps in equal bars and the outliers apart. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/series/quantile.h"
#include "model/steps/step_hist.h"

static uint64_t row_sum(const step_hist *h)
{
    uint64_t n = 0;
    for (size_t r = 0; r < h->nrows; r++)
        n += h->row[r].count;
    return n;
}

/* Steps that differ by a few percent with a few stalls among them: the
 * case where the log buckets put p50 and p95 in one bar. 97 steps of
 * 150.0..159.6 ms, 3 of 9 s. */
static size_t tight_with_stalls(int64_t *d)
{
    size_t n = 0;
    for (int i = 0; i < 97; i++)
        d[n++] = 150000 + 100 * i;
    for (int i = 0; i < 3; i++)
        d[n++] = 9000000 + i;
    return n;
}

static void test_stalls_in_overflow(void **state)
{
    (void)state;
    int64_t d[100];
    size_t n = tight_with_stalls(d);
    step_hist_bounds b;
    assert_int_equal(step_hist_bounds_of(d, n, &b), 0);
    assert_true(b.exact);
    assert_true(b.min_us == 150000 && b.max_us == 9000002);
    /* p99 is a stall; the bulk ends at the far fence, below the stalls. */
    assert_true(b.hi_us < 200000 && b.hi_us >= 159000);
    step_hist h;
    assert_int_equal(step_hist_build(d, n, &b, 12, &h), 12);
    assert_int_equal(row_sum(&h), n);
    assert_int_equal(h.first_bar, 0);
    assert_int_equal(h.nbars, 11);
    const step_hist_row *over = &h.row[11];
    assert_int_equal(over->kind, STEP_HIST_OVER);
    assert_int_equal(over->count, 3);
    assert_true(over->hi_us == 9000002);
    /* p50 (154.8 ms) and p95 (159.1 ms) in bars of their own. */
    size_t r50 = step_hist_row_of(&h, 154800), r95 = step_hist_row_of(&h, 159120);
    assert_true(r50 < h.nbars && r95 < h.nbars && r50 != r95);
    assert_int_equal(step_hist_row_of(&h, 9000000), 11);
    for (size_t r = 0; r < h.nbars; r++)
        assert_int_equal(h.row[r].kind, STEP_HIST_BAR);
}

/* Evenly spread steps: no under or over row, every bar as wide. */
static void test_no_outliers(void **state)
{
    (void)state;
    int64_t d[1000];
    for (int i = 0; i < 1000; i++)
        d[i] = 100000 + 10 * i;
    step_hist_bounds b;
    assert_int_equal(step_hist_bounds_of(d, 1000, &b), 0);
    step_hist h;
    assert_int_equal(step_hist_build(d, 1000, &b, 10, &h), 10);
    assert_int_equal(h.nbars, 10);
    assert_int_equal(row_sum(&h), 1000);
    for (size_t r = 0; r < 10; r++) {
        assert_int_equal(h.row[r].kind, STEP_HIST_BAR);
        assert_true(h.row[r].count >= 99 && h.row[r].count <= 101);
    }
    assert_true(h.row[0].lo_us == 100000 && h.row[9].hi_us == 109990);
    assert_int_equal(step_hist_row_of(&h, 109990), 9);
    assert_int_equal(step_hist_row_of(&h, 100000), 0);
    assert_int_equal(step_hist_row_of(&h, 99999), 10);
    assert_int_equal(step_hist_row_of(&h, NAN), 10);
}

/* A fast tail far below the bulk goes to an under row. */
static void test_under_row(void **state)
{
    (void)state;
    int64_t d[200];
    for (int i = 0; i < 195; i++)
        d[i] = 500000 + 100 * (i % 50);
    for (int i = 195; i < 200; i++)
        d[i] = 1000;   /* cached steps */
    step_hist_bounds b;
    assert_int_equal(step_hist_bounds_of(d, 200, &b), 0);
    step_hist h;
    assert_int_equal(step_hist_build(d, 200, &b, 8, &h), 8);
    assert_int_equal(h.row[0].kind, STEP_HIST_UNDER);
    assert_int_equal(h.row[0].count, 5);
    assert_true(h.row[0].lo_us == 1000);
    assert_int_equal(h.first_bar, 1);
    assert_int_equal(h.row[7].kind, STEP_HIST_BAR);
    assert_int_equal(row_sum(&h), 200);
    assert_int_equal(step_hist_row_of(&h, 1000), 0);
    assert_int_equal(step_hist_row_of(&h, 999), 8);
}

/* Few rows: the over row keeps its place before the under row, and one
 * row holds every step. Equal steps make one bar. */
static void test_few_rows(void **state)
{
    (void)state;
    int64_t d[100];
    size_t n = tight_with_stalls(d);
    step_hist_bounds b;
    assert_int_equal(step_hist_bounds_of(d, n, &b), 0);
    step_hist h;
    assert_int_equal(step_hist_build(d, n, &b, 2, &h), 2);
    assert_int_equal(h.row[1].kind, STEP_HIST_OVER);
    assert_int_equal(h.row[0].count, 97);
    assert_int_equal(step_hist_build(d, n, &b, 1, &h), 1);
    assert_int_equal(h.row[0].count, 100);
    assert_true(h.row[0].hi_us == 9000002);
    assert_int_equal(step_hist_build(d, n, &b, 0, &h), 0);

    int64_t same[5] = {7, 7, 7, 7, 7};
    assert_int_equal(step_hist_bounds_of(same, 5, &b), 0);
    assert_int_equal(step_hist_build(same, 5, &b, 20, &h), 1);
    assert_int_equal(h.row[0].count, 5);
    assert_int_equal(step_hist_row_of(&h, 7), 0);
    assert_int_equal(step_hist_bounds_of(same, 0, &b), -1);
    assert_true(isnan(b.lo_us));
}

/* More steps than a phase retains: the rows come from its quantile
 * table, sum to every step, and still part p50 from p95 and the stalls
 * from the bulk (the log histogram's buckets could not: the bulk lies in
 * one). */
static void test_from_quantile_table(void **state)
{
    (void)state;
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    assert_non_null(p);
    int64_t t = 0;
    for (int i = 0; i < 20000; i++) {
        int64_t dur = i % 500 == 0 ? 8000000 : 150000 + (i * 7919) % 10000;
        assert_int_equal(phase_stats_add(p, i, t, dur), 0);
        t += dur;
    }
    phase_summary s;
    phase_stats_get_summary(p, &s);
    assert_false(s.exact);
    step_hist_table qt;
    step_hist_table_pcts(&qt);
    assert_int_equal(qt.n, STEP_HIST_TABLE);
    assert_int_equal(phase_stats_quantiles(p, qt.pct, qt.n, qt.us), 0);
    step_hist_table_fix(&qt, (double)s.min_us, (double)s.max_us, s.err_rel);
    for (size_t i = 1; i < qt.n; i++)
        assert_true(qt.pct[i] > qt.pct[i - 1] && qt.us[i] >= qt.us[i - 1]);
    step_hist_bounds b;
    step_hist_bounds_table(&qt, &s, &b);
    assert_false(b.exact);
    assert_true(b.lo_us >= s.min_us && b.hi_us < 1000000 && b.hi_us >= s.p95_us);
    step_hist h;
    assert_int_equal(step_hist_build_table(&qt, 20000, &b, 16, &h), 16);
    assert_int_equal(row_sum(&h), 20000);
    assert_int_equal(h.row[15].kind, STEP_HIST_OVER);
    /* 40 stalls, within the table's half-percent steps. */
    assert_true(h.row[15].count >= 30 && h.row[15].count <= 100);
    size_t r50 = step_hist_row_of(&h, s.p50_us), r95 = step_hist_row_of(&h, s.p95_us);
    assert_true(r50 < 15 && r95 < 15 && r50 != r95);
    /* The bulk is spread evenly: no bar holds more than twice its share. */
    for (size_t r = 0; r < h.nbars; r++)
        assert_true(h.row[r].count < 2 * 20000 / h.nbars);
    phase_stats_free(p);
}

static double dur_at(const void *ctx, size_t i) { return (double)((const int64_t *)ctx)[i]; }

/* The bounds (a radix sort) equal those from quantile.h's exact percentiles
 * (a sort), on random inputs with many ties, and the rows still count
 * every step. */
static void test_bounds_match_quantile(void **state)
{
    (void)state;
    static const double pct[6] = {1, 5, 25, 75, 95, 99};
    uint64_t x = 88172645463325252ULL;
    int64_t d[600], copy[600];
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + (size_t)(round * 7) % 600;
        int64_t spread = round % 3 == 0 ? 5 : 100000;
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            d[i] = 1000 + (int64_t)(x % (uint64_t)spread) + (x % 50 == 0 ? 9000000 : 0);
            copy[i] = d[i];
        }
        double q[6];
        assert_int_equal(quantile_exact_of(dur_at, copy, n, pct, 6, q), 0);
        double iqr = q[3] - q[2];
        double hi = fmax(fmin(q[5], q[3] + 3 * iqr), q[4]);
        double lo = fmin(fmax(q[0], q[2] - 3 * iqr), q[1]);
        step_hist_bounds b;
        assert_int_equal(step_hist_bounds_of(d, n, &b), 0);
        assert_true(fabs(b.hi_us - hi) <= 1e-9 * hi && fabs(b.lo_us - lo) <= 1e-9 * lo);
        step_hist h;
        step_hist_build(d, n, &b, 20, &h);
        assert_int_equal(row_sum(&h), n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stalls_in_overflow),
        cmocka_unit_test(test_no_outliers),
        cmocka_unit_test(test_under_row),
        cmocka_unit_test(test_few_rows),
        cmocka_unit_test(test_from_quantile_table),
        cmocka_unit_test(test_bounds_match_quantile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
