/* jobfig, jobrow_add_cw_idle and cw_idle_window: the job list's figures
 * from a job's own samples and steps, and from CloudWatch's points —
 * means over the newest 5 whole minutes, idle GPU time by each series'
 * snapped interval, a file's samples counted once whatever their order,
 * step p50 over the newest window (Kineto's last step left out), and
 * CloudWatch windows that never count a minute twice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/jobs/cw_idle.h"
#include "model/jobs/jobfig.h"

#define MIN_US 60000000LL

static void add(jobfig_sys *s, const char *type, const char *dim, const char *name,
                const char *node, double v, int64_t ts)
{
    sm_sample x = {sm_str_c(type), sm_str_c(dim), sm_str_c(name), sm_str_c(node), v, ts,
                   {NULL, 0}};
    assert_int_equal(jobfig_sys_add(s, &x), 0);
}

static void test_means_newest_minutes(void **state)
{
    (void)state;
    jobfig_sys *s = jobfig_sys_new();
    double g, c, m;
    jobfig_sys_means(s, &g, &c, &m);
    assert_true(isnan(g) && isnan(c) && isnan(m));
    assert_true(isnan(jobfig_sys_idle_hours(s)));
    int64_t t0 = 1700000000LL * 1000000 / MIN_US * MIN_US;
    /* minutes 0..9: GPU at 10*minute, CPU at 1, memory only in minute 2 */
    for (int64_t k = 0; k < 10; k++) {
        add(s, "gpu", "GPUUtilization", "gpu0", "algo-1", 10.0 * (double)k, t0 + k * MIN_US);
        add(s, "cpu", "CPUUtilization", "cpu0", "algo-1", 1, t0 + k * MIN_US + 5);
    }
    add(s, "memory", "MemoryUsedPercent", "MemoryUsedPercent", "algo-1", 42, t0 + 2 * MIN_US);
    add(s, "gpu", "GPUMemoryUtilization", "gpu0", "algo-1", 99, t0 + 9 * MIN_US);   /* ignored */
    jobfig_sys_means(s, &g, &c, &m);
    assert_true(fabs(g - (50 + 60 + 70 + 80 + 90) / 5.0) < 1e-9);   /* minutes 5..9 */
    assert_true(fabs(c - 1) < 1e-12);
    assert_true(isnan(m));   /* minute 2 is outside the newest five */
    /* an old sample arriving late does not move the window */
    add(s, "gpu", "GPUUtilization", "gpu0", "algo-2", 0, t0);
    jobfig_sys_means(s, &g, &c, &m);
    assert_true(fabs(g - 70) < 1e-9);
    assert_int_equal(jobfig_sys_newest_us(s), t0 + 9 * MIN_US + 5);
    jobfig_sys_free(s);
}

static void test_idle_interval(void **state)
{
    (void)state;
    jobfig_sys *s = jobfig_sys_new();
    int64_t t0 = 1700000000000000LL;
    /* gpu0 every 499.7..500.3 ms (snaps to 500 ms), idle 100 of 400 */
    for (int i = 0; i < 400; i++)
        add(s, "gpu", "GPUUtilization", "gpu0", "algo-1", i < 100 ? 3 : 80,
            t0 + i * 500000 + (i % 2 ? 300 : -300));
    /* gpu1 every 60 s, all idle but one 10 % sample (not below 10) */
    for (int i = 0; i < 10; i++)
        add(s, "gpu", "GPUUtilization", "gpu1", "algo-1", i == 4 ? 10 : 9.99, t0 + i * MIN_US);
    /* the same name on another node is another GPU: one sample, no gap */
    add(s, "gpu", "GPUUtilization", "gpu0", "algo-2", 0, t0);
    double want = (100 * 0.5 + 9 * 60.0) / 3600;
    assert_true(fabs(jobfig_sys_idle_hours(s) - want) < 1e-12);
    jobfig_sys_free(s);
}

static void test_steps_window(void **state)
{
    (void)state;
    jobfig_steps *st = jobfig_steps_new();
    assert_true(isnan(jobfig_steps_p50_ms(st, JOBFIG_WINDOW_US, 0)));
    int64_t t0 = 1700000000000000LL;
    /* 10 minutes of 1 s steps lasting 100 ms, then the newest 5 min at 200 ms */
    for (int i = 0; i < 600; i++)
        assert_int_equal(jobfig_steps_add(st, i, t0 + i * 1000000LL, i < 300 ? 100000 : 200000),
                         0);
    assert_true(fabs(jobfig_steps_p50_ms(st, JOBFIG_WINDOW_US, 0) - 200) < 1e-9);
    assert_int_equal(jobfig_steps_newest_us(st), t0 + 599 * 1000000LL + 200000);
    jobfig_steps_clear(st);
    /* a Kineto trace: 4 steps, the last (highest number) the profiler's stop */
    jobfig_steps_add(st, 12, t0 + 3000, 9000000);
    jobfig_steps_add(st, 10, t0, 1000);
    jobfig_steps_add(st, 11, t0 + 1000, 2000);
    jobfig_steps_add(st, 9, t0 - 5000, 4000);
    assert_true(fabs(jobfig_steps_p50_ms(st, INT64_MAX / 4, 1) - 2.0) < 1e-12);   /* 1,2,4 ms */
    assert_true(fabs(jobfig_steps_p50_ms(st, INT64_MAX / 4, 0) - 3.0) < 1e-12);   /* even: mean */
    jobfig_steps_free(st);
}

static void test_cw_idle(void **state)
{
    (void)state;
    jobrow r;
    jobrow_init(&r, "j");
    snprintf(r.instance_type, sizeof r.instance_type, "ml.g5.12xlarge");   /* 4 GPUs */
    r.instance_count = 2;
    double pts[4] = {4 * 9.9, 4 * 10.0, NAN, 0};
    assert_int_equal(jobrow_add_cw_idle(&r, pts, 4, 60), 1);
    assert_true(fabs(r.idle_gpu_h - 2 * 60 * 4 / 3600.0) < 1e-12);
    assert_int_equal(r.idle_source, JOBROW_METRICS_CLOUDWATCH);
    jobrow u = r;
    snprintf(u.instance_type, sizeof u.instance_type, "ml.zz9.plural");
    u.idle_gpu_h = NAN;
    assert_int_equal(jobrow_add_cw_idle(&u, pts, 4, 60), 0);
    assert_true(isnan(u.idle_gpu_h));
}

static void test_cw_window(void **state)
{
    (void)state;
    jobrow r;
    jobrow_init(&r, "j");
    snprintf(r.status, sizeof r.status, "InProgress");
    snprintf(r.instance_type, sizeof r.instance_type, "ml.g5.xlarge");
    r.instance_count = 1;
    r.described = 1;
    r.start_s = 1000030;   /* mid-minute: counted from its minute */
    double lo, hi, now = 1000000 + 3600;
    int per;
    assert_int_equal(cw_idle_window(&r, now, &lo, &hi, &per), 1);
    assert_true(lo == 1000020 && per == 60 && hi <= now - 120 && hi > now - 180);
    assert_true(cw_idle_due(&r, now));
    r.idle_through_s = hi;   /* the next window starts where this one ended */
    assert_false(cw_idle_due(&r, now + 60));
    assert_true(cw_idle_due(&r, now + 300));
    assert_int_equal(cw_idle_window(&r, now + 300, &lo, &hi, &per), 1);
    assert_true(lo == r.idle_through_s);
    /* an ended job of 30 days: one call, at most 1,440 points */
    snprintf(r.status, sizeof r.status, "Completed");
    r.idle_through_s = 0;
    r.end_s = r.start_s + 30 * 86400.0;
    assert_int_equal(cw_idle_window(&r, r.end_s + 9999, &lo, &hi, &per), 1);
    assert_true((hi - lo) / per <= 1440 && hi >= r.end_s && per % 60 == 0);
    r.idle_through_s = hi;   /* counted to its end: never asked again */
    assert_false(cw_idle_due(&r, r.end_s + 99999));
    /* no GPUs, or instance groups: never asked */
    r.idle_through_s = 0;
    r.groups = 2;
    assert_false(cw_idle_due(&r, r.end_s + 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_means_newest_minutes), cmocka_unit_test(test_idle_interval),
        cmocka_unit_test(test_steps_window),         cmocka_unit_test(test_cw_idle),
        cmocka_unit_test(test_cw_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
