/* jobsum, jobrow_add_cw_idle and cw_idle_window: the job's figures every
 * surface shows, from its model — means over the newest 5 whole minutes,
 * idle GPU-hours as the report counts them, the step p50 as the median of
 * the nodes' TRAIN p50, the rules that fired and the verdict's worst, the
 * data's time range — and the list's figures from CloudWatch's points,
 * whose windows never count a minute twice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jobs/cw_idle.h"
#include "model/rules/device_usage.h"
#include "model/view/jobsum.h"
#include "model_fixture.h"

#define MIN_US 60000000LL

/* jobsum_build over m with default rules evaluated on it. */
static void summed(model *m, jobsum *s)
{
    rules *r = rules_new();
    verdict *v = calloc(1, sizeof *v);
    assert_non_null(r);
    assert_non_null(v);
    assert_true(rules_evaluate(r, m) >= 0);
    assert_int_equal(verdict_build(m, r, v), 0);
    assert_int_equal(jobsum_build(m, r, v, s), 0);
    assert_int_equal(s->alerts, rules_triggered_count(r));
    assert_int_equal(s->worst, verdict_worst(v));
    free(v);
    rules_free(r);
}

static void test_means_newest_minutes(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    jobsum s;
    summed(m, &s);
    assert_true(isnan(s.gpu_pct) && isnan(s.cpu_pct) && isnan(s.mem_pct));
    assert_true(isnan(s.idle_gpu_hours) && isnan(s.step_p50_us));
    assert_int_equal(s.nodes, 0);
    int64_t t0 = 1700000000LL * 1000000 / MIN_US * MIN_US;
    /* minutes 0..9: GPU at 10*minute, CPU at 1, memory only in minute 2 */
    for (int64_t k = 0; k < 10; k++) {
        fx_sample(m, "algo-1", "gpu", "GPUUtilization", "gpu0", t0 + k * MIN_US, 10.0 * (double)k);
        fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu0", t0 + k * MIN_US + 5, 1);
    }
    fx_sample(m, "algo-1", "memory", "MemoryUsedPercent", "MemoryUsedPercent", t0 + 2 * MIN_US, 42);
    fx_sample(m, "algo-1", "gpu", "GPUMemoryUtilization", "gpu0", t0 + 9 * MIN_US, 99);
    model_flush(m, 1);   /* the CPU total of the node's cores */
    summed(m, &s);
    assert_true(fabs(s.gpu_pct - (50 + 60 + 70 + 80 + 90) / 5.0) < 1e-9);   /* minutes 5..9 */
    assert_true(fabs(s.cpu_pct - 1) < 1e-12);
    assert_true(isnan(s.mem_pct));   /* minute 2 is outside the newest five */
    assert_int_equal(s.nodes, 1);
    assert_int_equal(s.first_us, t0);
    assert_int_equal(s.last_us, t0 + 9 * MIN_US + 5);
    model_free(m);
}

static void test_idle_as_report(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    int64_t t0 = 1700000000000000LL;
    /* gpu0 every 500 ms, idle 100 of 400; algo-2's gpu0 idle 20 of 40 */
    for (int i = 0; i < 400; i++)
        fx_sample(m, "algo-1", "gpu", "GPUUtilization", "gpu0", t0 + i * 500000, i < 100 ? 3 : 80);
    for (int i = 0; i < 40; i++)
        fx_sample(m, "algo-2", "gpu", "GPUUtilization", "gpu0", t0 + i * 500000, i < 20 ? 3 : 80);
    jobsum s;
    summed(m, &s);
    idle_gpu_hours ih[2];
    assert_int_equal(device_usage_idle_gpu(m, ih, 2), 2);
    assert_true(fabs(s.idle_gpu_hours - (ih[0].idle_gpu_hours + ih[1].idle_gpu_hours)) < 1e-12);
    assert_true(fabs(s.idle_gpu_hours - 120 * 0.5 / 3600) < 1e-12);
    assert_true(fabs(s.gpu_hours - 440 * 0.5 / 3600) < 1e-12);
    model_free(m);
}

static void test_step_p50_median_of_nodes(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    int64_t t0 = 1700000000000000LL;
    /* three nodes with TRAIN p50s of 100, 300 and 200 ms: the job's is 200 */
    const char *node[3] = {"algo-1", "algo-2", "algo-3"};
    const int64_t dur[3] = {100000, 300000, 200000};
    for (int n = 0; n < 3; n++)
        for (int i = 0; i < 11; i++)
            fx_step(m, node[n], i, t0 + i * 1000000LL, dur[n] + (i % 2) * 1000);
    jobsum s;
    summed(m, &s);
    assert_int_equal(s.step_nodes, 3);
    assert_true(fabs(s.step_p50_us - 200000) < 1e-9);
    assert_int_equal(s.nodes, 3);
    model_free(m);
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
        cmocka_unit_test(test_means_newest_minutes), cmocka_unit_test(test_idle_as_report),
        cmocka_unit_test(test_step_p50_median_of_nodes), cmocka_unit_test(test_cw_idle),
        cmocka_unit_test(test_cw_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
