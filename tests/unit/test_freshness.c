/* Unit tests for model/freshness: when the header may say LIVE, when the
 * data is STALE and when the job has ENDED; the sampling interval it
 * scales with, read from the data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/view/freshness.h"

#define S 1000000LL
static const int64_t NOW = 1767225600LL * S;   /* 2026-01-01 00:00:00 UTC */

static void test_live_limit(void **state)
{
    (void)state;
    /* 500 ms sampling, 5 s scans: the grace floor dominates */
    assert_int_equal(freshness_live_limit_us(500000, 5 * S), 15 * S);
    /* unknown interval = SageMaker's default */
    assert_int_equal(freshness_live_limit_us(0, 5 * S), 15 * S);
    /* 60 s sampling: four intervals plus the scan */
    assert_int_equal(freshness_live_limit_us(60 * S, 5 * S), 245 * S);
    assert_int_equal(freshness_live_limit_us(5 * S, 1 * S), 21 * S);
}

static void test_states(void **state)
{
    (void)state;
    assert_int_equal(freshness_of(NOW, 0, 500000, 5 * S), FRESH_NONE);
    assert_int_equal(freshness_of(NOW, NOW - 2 * S, 500000, 5 * S), FRESH_LIVE);
    assert_int_equal(freshness_of(NOW, NOW - 15 * S, 500000, 5 * S), FRESH_LIVE);
    /* the case: 44 s after the writer stopped is not LIVE */
    assert_int_equal(freshness_of(NOW, NOW - 44 * S, 500000, 5 * S), FRESH_STALE);
    assert_int_equal(freshness_of(NOW, NOW - 16 * S, 500000, 5 * S), FRESH_STALE);
    /* ...but is with minute sampling */
    assert_int_equal(freshness_of(NOW, NOW - 44 * S, 60 * S, 5 * S), FRESH_LIVE);
    assert_int_equal(freshness_of(NOW, NOW - 3599 * S, 500000, 5 * S), FRESH_STALE);
    assert_int_equal(freshness_of(NOW, NOW - 3600 * S, 500000, 5 * S), FRESH_ENDED);
    /* data from 2020 */
    assert_int_equal(freshness_of(NOW, 1591748109LL * S, 500000, 5 * S), FRESH_ENDED);
    /* a writer whose clock runs ahead of ours */
    assert_int_equal(freshness_of(NOW, NOW + 30 * S, 500000, 5 * S), FRESH_LIVE);
}

static void add_cpu(model *m, const char *node, int64_t ts)
{
    sm_sample s = {.type = sm_str_c("cpu"), .dimension = sm_str_c("CPUUtilization"),
                   .name = sm_str_c("cpu0"), .node = sm_str_c(node), .value = 5,
                   .ts_us = ts};
    assert_true(model_add_sample(m, &s) >= 0);
}

static void test_sample_interval(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    assert_non_null(m);
    assert_int_equal(freshness_sample_interval(m), 0);
    for (int i = 0; i < 40; i++)
        add_cpu(m, "algo-1", NOW - 60 * S + i * 500000);
    assert_int_equal(freshness_sample_interval(m), 500000);
    model_free(m);

    m = model_new(NULL);
    for (int i = 0; i < 10; i++)
        add_cpu(m, "algo-1", NOW - 600 * S + i * 60 * S);
    assert_int_equal(freshness_sample_interval(m), 60 * S);
    /* the LIVE limit follows: 4 minutes and the scan */
    int64_t limit = freshness_live_limit_us(freshness_sample_interval(m), 5 * S);
    assert_int_equal(limit, 245 * S);
    model_free(m);
}

/* A traces-only job: limits follow its profiling cycle. */
static void test_traces(void **state)
{
    (void)state;
    int64_t gap = 600 * S;   /* a trace every 10 minutes */
    assert_int_equal(freshness_of_traces(NOW, 0, gap, 5 * S), FRESH_NONE);
    assert_int_equal(freshness_of_traces(NOW, NOW - 60 * S, gap, 5 * S), FRESH_LIVE);
    /* 1.5 cycles plus the scan */
    assert_int_equal(freshness_of_traces(NOW, NOW - 905 * S, gap, 5 * S), FRESH_LIVE);
    assert_int_equal(freshness_of_traces(NOW, NOW - 906 * S, gap, 5 * S), FRESH_STALE);
    /* four cycles, or an hour if longer */
    assert_int_equal(freshness_of_traces(NOW, NOW - 3599 * S, gap, 5 * S), FRESH_STALE);
    assert_int_equal(freshness_of_traces(NOW, NOW - 3600 * S, gap, 5 * S), FRESH_ENDED);
    assert_int_equal(freshness_of_traces(NOW, NOW - 4000 * S, 1800 * S, 5 * S), FRESH_STALE);
    assert_int_equal(freshness_of_traces(NOW, NOW - 7200 * S, 1800 * S, 5 * S), FRESH_ENDED);
    /* short cycles: still two minutes */
    assert_int_equal(freshness_of_traces(NOW, NOW - 100 * S, 10 * S, 0), FRESH_LIVE);
    assert_int_equal(freshness_of_traces(NOW, NOW - 121 * S, 10 * S, 0), FRESH_STALE);
    /* one cycle seen: never a false STALE, ENDED after the hour */
    assert_int_equal(freshness_of_traces(NOW, NOW - 100 * S, 0, 0), FRESH_LIVE);
    assert_int_equal(freshness_of_traces(NOW, NOW - 600 * S, 0, 0), FRESH_QUIET);
    assert_int_equal(freshness_of_traces(NOW, NOW - 3600 * S, 0, 0), FRESH_ENDED);
    assert_true(freshness_writing(FRESH_QUIET) && freshness_writing(FRESH_LIVE));
    assert_false(freshness_writing(FRESH_STALE) || freshness_writing(FRESH_ENDED));
}

/* The cycle gap: the longest step-to-step gap, once two traces merged. */
static void test_cycle_gap(void **state)
{
    (void)state;
    gpu_step rows[] = {{.start_us = 0}, {.start_us = 100}, {.start_us = 200},
                       {.start_us = 90000}, {.start_us = 90100}, {.start_us = 250000}};
    gpu_summary s = {.traces = 3, .step_rows = rows, .n_steps = 6};
    assert_int_equal(freshness_cycle_gap(&s), 159900);
    s.traces = 1;   /* one trace: its steps are consecutive, no cadence */
    assert_int_equal(freshness_cycle_gap(&s), 0);
    assert_int_equal(freshness_cycle_gap(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_traces),
        cmocka_unit_test(test_cycle_gap),
        cmocka_unit_test(test_live_limit),
        cmocka_unit_test(test_states),
        cmocka_unit_test(test_sample_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
