/* Unit tests for model/gpu's far-off clock check (gpu_clock): against the
 * system metrics' span, and among the traces alone (the chain with the
 * most traces is the job's; a tie or a single chain names nothing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/gpu/gpu_clock.h"

#define MIN_US (60LL * 1000000)
#define DAY_US (24LL * 3600 * 1000000)
#define T0 1795813341000000LL

/* Against system metrics over [T0, T0 + 60 min]: a trace inside, one 50
 * minutes after the end (within the hour), one 2 h before the start and
 * one 5 days after are judged by their distance to it. */
static void test_against_system(void **state)
{
    (void)state;
    gpu_span sys = {T0, T0 + 60 * MIN_US};
    gpu_span sp[] = {
        {T0 + 5 * MIN_US, T0 + 6 * MIN_US},
        {T0 + 110 * MIN_US, T0 + 111 * MIN_US},
        {T0 - 122 * MIN_US, T0 - 120 * MIN_US},
        {T0 + 5 * DAY_US, T0 + 5 * DAY_US + MIN_US},
    };
    uint8_t far[4];
    memset(far, 7, sizeof far);
    gpu_span job = {0, 0};
    assert_int_equal(gpu_clock_far_off(sp, 4, &sys, far, &job), 2);
    assert_int_equal(far[0], 0);
    assert_int_equal(far[1], 0);
    assert_int_equal(far[2], 1);
    assert_int_equal(far[3], 1);
    assert_true(job.t0_us == sys.t0_us && job.t1_us == sys.t1_us);
    /* a trace that straddles the job's start is on its clock */
    gpu_span straddle = {T0 - 3 * DAY_US, T0 + MIN_US};
    assert_int_equal(gpu_clock_far_off(&straddle, 1, &sys, far, &job), 0);
    assert_int_equal(far[0], 0);
}

/* No system metrics: six cycles an hour apart (one chain, the job's) and
 * one trace four days before them, given out of order. */
static void test_among_traces(void **state)
{
    (void)state;
    gpu_span sp[7];
    for (int i = 0; i < 6; i++)
        sp[i] = (gpu_span){T0 + i * 60 * MIN_US, T0 + i * 60 * MIN_US + 2 * MIN_US};
    sp[6] = sp[3];
    sp[3] = (gpu_span){T0 - 4 * DAY_US, T0 - 4 * DAY_US + MIN_US};
    uint8_t far[7];
    gpu_span job = {0, 0};
    assert_int_equal(gpu_clock_far_off(sp, 7, NULL, far, &job), 1);
    for (int i = 0; i < 7; i++)
        assert_int_equal(far[i], i == 3);
    assert_true(job.t0_us == T0 && job.t1_us == T0 + 5 * 60 * MIN_US + 2 * MIN_US);
}

/* Two traces days apart, or one chain: no other clock tells which is
 * the job's, so nothing is named. */
static void test_no_other_clock(void **state)
{
    (void)state;
    gpu_span two[] = {{T0, T0 + MIN_US}, {T0 + 3 * DAY_US, T0 + 3 * DAY_US + MIN_US}};
    uint8_t far[2] = {9, 9};
    gpu_span job = {1, 2};
    assert_int_equal(gpu_clock_far_off(two, 2, NULL, far, &job), 0);
    assert_int_equal(far[0], 0);
    assert_int_equal(far[1], 0);
    assert_true(job.t0_us == 1 && job.t1_us == 2);
    assert_int_equal(gpu_clock_far_off(two, 1, NULL, far, &job), 0);
    assert_int_equal(gpu_clock_far_off(two, 0, NULL, far, &job), 0);
    /* 23 h apart: one chain */
    gpu_span near[] = {{T0, T0 + MIN_US}, {T0 + DAY_US - 2 * MIN_US, T0 + DAY_US}};
    assert_int_equal(gpu_clock_far_off(near, 2, NULL, far, &job), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_system),
        cmocka_unit_test(test_among_traces),
        cmocka_unit_test(test_no_other_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
