/* The status of a job found by its PyTorch profiler traces alone
 * (`smtop jobs DIR`): the cadence of its traces (trace_cadence) and what
 * a trace's age means against it (jobs_scan_trace_status), and the
 * faults view's "stale" for such a row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "io/jobs/jobs_scan.h"
#include "io/jobs/trace_cadence.h"

#define NOW 1.7e9

/* Two writers 5 minutes apart in phase, each tracing every 10 minutes
 * but one 14-minute cycle: the longest gap of one writer is 14 minutes,
 * never a gap between two writers (5 minutes). */
static void test_gap_per_writer(void **state)
{
    (void)state;
    trace_cadence *c = trace_cadence_new();
    assert_non_null(c);
    assert_true(trace_cadence_gap(c) == 0);
    static const double a[] = {0, 600, 1200, 2040, 2640}, b[] = {300, 900, 1500};
    for (size_t i = 0; i < 5; i++)   /* out of order, as a listing may give */
        assert_int_equal(trace_cadence_add(c, "tb/algo-1_11", NOW - a[4 - i]), 0);
    assert_true(trace_cadence_gap(c) == 840);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(trace_cadence_add(c, "tb/algo-2_12", NOW - b[i]), 0);
    assert_true(trace_cadence_gap(c) == 840);
    trace_cadence_free(c);

    /* one cycle of many ranks: no writer twice, the cadence unknown */
    c = trace_cadence_new();
    assert_int_equal(trace_cadence_add(c, "algo-1_1", NOW), 0);
    assert_int_equal(trace_cadence_add(c, "algo-2_1", NOW - 30), 0);
    assert_true(trace_cadence_gap(c) == 0);
    trace_cadence_free(c);
}

static jobrow status(int marker, double age, double gap)
{
    jobrow r;
    jobrow_init(&r, "j");
    jobs_scan_trace_status(&r, marker, NOW - 60, NOW - age, gap, NOW);
    return r;
}

static void expect(int marker, double age, double gap, const char *st, const char *sec)
{
    jobrow r = status(marker, age, gap);
    if (strcmp(r.status, st) || strcmp(r.secondary, sec))
        fail_msg("age %.0f s, gap %.0f s: '%s' '%s', want '%s' '%s'", age, gap, r.status,
                 r.secondary, st, sec);
}

static void test_status_from_cadence(void **state)
{
    (void)state;
    /* a trace every 15 minutes, the last 10 minutes ago: training, not stale */
    expect(0, 600, 900, "InProgress", "Training");
    expect(0, 1350, 900, "InProgress", "Training");    /* 1.5 gaps */
    expect(0, 1351, 900, "InProgress", "Stale");
    expect(0, 3599, 900, "InProgress", "Stale");
    expect(0, 3601, 900, "", "trace 1 h ago");   /* 4 gaps, at least an hour */
    expect(0, 4 * 3000 - 1, 3000, "InProgress", "Stale");
    /* a short cadence still gives 2 minutes */
    expect(0, 110, 20, "InProgress", "Training");
    expect(0, 130, 20, "InProgress", "Stale");
    /* one cycle seen: its age, never a false Stale */
    expect(0, 100, 0, "InProgress", "Training");
    expect(0, 7 * 60 + 5, 0, "InProgress", "trace 7 m ago");
    expect(0, 3 * 3600 + 1, 0, "", "trace 3 h ago");
    expect(0, 3 * 86400, 0, "", "trace 3 d ago");
    /* an end marker wins */
    jobrow r = status(1, 600, 900);
    assert_string_equal(r.status, "Completed");
    assert_true(r.end_s == NOW - 60);
}

static void test_faults_view(void **state)
{
    (void)state;
    /* 12 minutes without a trace: past the list's 10, within the cadence */
    jobrow r = status(0, 720, 900);
    assert_false(jobrow_is_fault(&r, NOW, 600));
    r = status(0, 1400, 900);
    assert_true(jobrow_is_fault(&r, NOW, 600));
    r = status(0, 1800, 0);   /* cadence unknown: not a fault while it may run */
    assert_false(jobrow_is_fault(&r, NOW, 600));
    jobrow d;   /* a Debugger row keeps the list's limit */
    jobrow_init(&d, "d");
    jobs_scan_status(&d, 0, 0, NOW - 700, NOW);
    assert_true(jobrow_is_fault(&d, NOW, 600));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gap_per_writer),
        cmocka_unit_test(test_status_from_cadence),
        cmocka_unit_test(test_faults_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
