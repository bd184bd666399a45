/* Unit tests for model/phase_window: a phase's statistics over a time
 * window, checked against numbers worked out by hand and against the
 * phase's own statistics when the window holds every step. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/steps/phase_window.h"

/* Ten steps, one a second, step i lasting (i + 1) * 100 ms. */
static phase_stats *ten_steps(size_t recent_cap)
{
    phase_stats *p = phase_stats_new_bounded("Step:ModeKeys.TRAIN", PHASE_STEP, 64, recent_cap);
    assert_non_null(p);
    for (int64_t i = 0; i < 10; i++)
        assert_int_equal(phase_stats_add(p, i, 1000000 * i, 100000 * (i + 1)), 0);
    return p;
}

static void test_window_summary(void **state)
{
    (void)state;
    phase_stats *p = ten_steps(16);
    phase_event ev[16];
    size_t n = phase_stats_recent(p, ev, 16);
    phase_summary all, w;
    uint32_t hist[PHASE_HIST_BUCKETS];
    phase_stats_get_summary(p, &all);
    /* [2 s, 5 s): steps 2, 3, 4 (300, 400, 500 ms) */
    assert_int_equal(phase_window_scope_of(&all, ev, n, 2000000, 5000000), PHASE_WINDOW_ALL);
    assert_int_equal(phase_window_summary(ev, n, 2000000, 5000000, &w, hist), 0);
    assert_int_equal(w.count, 3);
    assert_int_equal(w.min_us, 300000);
    assert_int_equal(w.max_us, 500000);
    assert_true(fabs(w.mean_us - 400000) < 1e-6);
    assert_true(fabs(w.p50_us - 400000) < 1e-6);
    assert_true(fabs(w.p95_us - 490000) < 1e-6);   /* numpy's linear interpolation */
    assert_true(fabs(w.stddev_us - sqrt(2e10 / 3)) < 1e-3);
    assert_int_equal(w.first_start_us, 2000000);
    assert_int_equal(w.last_end_us, 4500000);
    uint32_t sum = 0;
    for (size_t i = 0; i < PHASE_HIST_BUCKETS; i++)
        sum += hist[i];
    assert_int_equal(sum, 3);
    assert_true(hist[phase_hist_bucket(400000)] >= 1);
    /* Every step: the phase's own statistics, and the same numbers. */
    assert_int_equal(phase_window_scope_of(&all, ev, n, 0, 9000001), PHASE_WINDOW_WHOLE);
    assert_int_equal(phase_window_summary(ev, n, 0, 9000001, &w, hist), 0);
    assert_int_equal(w.count, all.count);
    assert_true(fabs(w.p99_us - all.p99_us) < 1e-6);
    assert_true(fabs(w.stddev_us - all.stddev_us) < 1e-6);
    assert_memory_equal(hist, phase_stats_histogram(p), sizeof hist);
    /* An empty window. */
    assert_int_equal(phase_window_summary(ev, n, 20000000, 30000000, &w, hist), 0);
    assert_int_equal(w.count, 0);
    assert_true(isnan(w.p50_us));
    phase_stats_free(p);
}

/* With only the newest 8 steps retained (steps 2..9), a window starting
 * at or before step 2 cannot know every step it holds. */
static void test_scope_with_dropped_steps(void **state)
{
    (void)state;
    phase_stats *p = ten_steps(8);
    phase_event ev[16];
    size_t n = phase_stats_recent(p, ev, 16);
    assert_int_equal(n, 8);
    phase_summary all;
    phase_stats_get_summary(p, &all);
    assert_int_equal(phase_window_scope_of(&all, ev, n, 2500000, 6000000), PHASE_WINDOW_ALL);
    assert_int_equal(phase_window_scope_of(&all, ev, n, 1000000, 6000000), PHASE_WINDOW_NEWEST);
    assert_int_equal(phase_window_scope_of(&all, ev, n, 0, 2000000), PHASE_WINDOW_WHOLE);
    assert_int_equal(phase_window_scope_of(&all, ev, n, 0, 20000000), PHASE_WINDOW_WHOLE);
    phase_stats_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_summary),
        cmocka_unit_test(test_scope_with_dropped_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
