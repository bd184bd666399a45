/* cw_metrics and jobrow_set_cloudwatch: the queries a job asks (hosts,
 * metrics, its window), an answer read back into means of host means,
 * normalised by the type's GPUs and vCPUs; unknown types and instance
 * groups stay raw; a CPU type has no GPU figure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/aws/cloudwatch.h"
#include "io/jobs/cw_metrics.h"

static jobrow job(const char *type, int count, const char *status)
{
    jobrow r;
    jobrow_init(&r, "j1");
    snprintf(r.instance_type, sizeof r.instance_type, "%s", type);
    snprintf(r.status, sizeof r.status, "%s", status);
    r.instance_count = count;
    r.start_s = 1000;
    r.end_s = strcmp(status, "InProgress") ? 5000 : 0;
    r.described = 1;
    return r;
}

static void test_params(void **state)
{
    (void)state;
    jobrow r = job("ml.p4d.24xlarge", 2, "Completed");
    s3_param *p = NULL;
    char start[32], end[32];
    long n = cw_metrics_params(&r, 9000, &p, start, end, sizeof start);
    assert_int_equal(n, 2 * 3 * 8);
    assert_string_equal(end, "1970-01-01T01:23:20Z");      /* the job's end, not now */
    assert_string_equal(start, "1970-01-01T01:17:20Z");    /* 6 minutes before */
    int hosts2 = 0;
    for (long i = 0; i < n; i++)
        hosts2 += !strcmp(p[i].value, "j1/algo-2");
    assert_int_equal(hosts2, 3);
    assert_string_equal(p[0].name, "MetricDataQueries.member.1.Id");
    cloudwatch_params_free(p, n);
    r.start_s = 0;   /* never started: no window */
    assert_int_equal(cw_metrics_params(&r, 9000, &p, start, end, sizeof start), 0);
}

static const char *answer =
    "<GetMetricDataResponse><GetMetricDataResult><MetricDataResults>"
    "<member><Id>m1_0</Id><Label>GPUUtilization</Label><Timestamps><member>x</member>"
    "</Timestamps><Values><member>600</member><member>700</member></Values></member>"
    "<member><Id>m2_0</Id><Values><member>400</member></Values></member>"
    "<member><Id>m1_1</Id><Values><member>4800</member></Values></member>"
    "<member><Id>m2_1</Id><Values></Values></member>"
    "<member><Id>m1_2</Id><Values><member>50</member><member>nan</member></Values></member>"
    "</MetricDataResults></GetMetricDataResult></GetMetricDataResponse>";

static void test_read_normalised(void **state)
{
    (void)state;
    jobrow r = job("ml.p4d.24xlarge", 2, "InProgress");
    assert_int_equal(cw_metrics_read(answer, &r, 7), 1);
    /* GPU: hosts 650 and 400 -> 525 / 8 GPUs; CPU: host 1 only, 4800 / 96 */
    assert_true(fabs(r.gpu_pct - 525.0 / 8) < 1e-9);
    assert_true(fabs(r.cpu_pct - 50.0) < 1e-9);
    assert_true(fabs(r.mem_pct - 50.0) < 1e-9);
    assert_int_equal(r.raw_metrics, 0);
    assert_int_equal(r.metrics_source, JOBROW_METRICS_CLOUDWATCH);
    assert_true(r.metrics_s == 7);
}

static void test_raw_and_cpu_only(void **state)
{
    (void)state;
    jobrow r = job("ml.zz9.plural", 2, "InProgress");
    cw_metrics_read(answer, &r, 7);
    assert_int_equal(r.raw_metrics, 1);
    assert_true(fabs(r.gpu_pct - 525.0) < 1e-9);
    r = job("ml.p4d.24xlarge", 2, "InProgress");
    r.groups = 2;
    cw_metrics_read(answer, &r, 7);
    assert_int_equal(r.raw_metrics, 1);
    r = job("ml.m5.2xlarge", 2, "InProgress");
    cw_metrics_read(answer, &r, 7);
    assert_true(isnan(r.gpu_pct));
    assert_true(fabs(r.cpu_pct - 600.0) < 1e-9);
    r = job("ml.p4d.24xlarge", 2, "InProgress");
    assert_int_equal(cw_metrics_read("<x/>", &r, 7), 0);
    assert_true(isnan(r.gpu_pct));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_read_normalised),
        cmocka_unit_test(test_raw_and_cpu_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
