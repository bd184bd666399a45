/* CloudWatch as a job's system source: the GetMetricData answer read in
 * any member order, newest first and paged; points turned into samples
 * normalised by the instance type (raw sums, named so, when unknown);
 * the period by age; the job name in a profiler path; and the rules
 * counting their sample windows over the same time span on a
 * once-a-minute source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/aws/cloudwatch.h"
#include "io/aws/cw_host.h"
#include "io/run/job_watch.h"
#include "model/rules/rules.h"

typedef struct got {
    int host[16], metric[16];
    int64_t ts[16];
    double v[16];
    int n;
} got;

static void on_point(void *ud, int host, int metric, int64_t ts_us, double v)
{
    got *g = ud;
    if (g->n < 16) {
        g->host[g->n] = host;
        g->metric[g->n] = metric;
        g->ts[g->n] = ts_us;
        g->v[g->n++] = v;
    }
}

/* Id after the lists (as AWS may order them), newest first, a result
 * without points, and the answer's NextToken after the results. */
static const char answer[] =
    "<GetMetricDataResponse><GetMetricDataResult><MetricDataResults>"
    "<member><Timestamps><member>2026-11-27T10:02:00Z</member>"
    "<member>2026-11-27T10:01:00Z</member></Timestamps>"
    "<Values><member>240.5</member><member>16</member></Values>"
    "<StatusCode>Complete</StatusCode><Label>GPUUtilization</Label><Id>h2_0</Id></member>"
    "<member><Id>h1_3</Id><Label>MemoryUtilization</Label><Timestamps></Timestamps>"
    "<Values></Values><StatusCode>Complete</StatusCode></member>"
    "<member><Id>h1_2</Id><Timestamps><member>2026-11-27T10:00:00Z</member></Timestamps>"
    "<Values><member>1920</member></Values></member>"
    "</MetricDataResults><NextToken>page-2</NextToken><Messages/></GetMetricDataResult>"
    "</GetMetricDataResponse>";

static void test_read_answer(void **state)
{
    (void)state;
    got g = {0};
    char next[64];
    assert_int_equal(cw_host_read(answer, strlen(answer), on_point, &g, next, sizeof next), 3);
    assert_string_equal(next, "page-2");
    assert_int_equal(g.n, 3);
    /* host 2's GPU, oldest first */
    assert_int_equal(g.host[0], 2);
    assert_int_equal(g.metric[0], 0);
    assert_true(g.ts[0] < g.ts[1]);
    assert_true(g.v[0] == 16.0 && g.v[1] == 240.5);
    assert_int_equal(g.host[2], 1);
    assert_int_equal(g.metric[2], 2);
    assert_true(g.v[2] == 1920.0);
    const char none[] = "<GetMetricDataResponse/>";
    assert_int_equal(cw_host_read(none, strlen(none), on_point, &g, next, sizeof next), 0);
    assert_string_equal(next, "");
}

static void test_samples(void **state)
{
    (void)state;
    cw_host_job j = {.name = "job", .hosts = 2};
    char node[32];
    sm_sample s;
    cw_host_job_type(&j, "ml.p4d.24xlarge", 0);   /* 8 GPUs, 96 vCPUs */
    assert_int_equal(j.known, 1);
    assert_int_equal(cw_host_sample(&j, 2, 0, 1, 240.0, node, sizeof node, &s), 0);
    assert_true(sm_str_eq(s.type, "gpu") && sm_str_eq(s.name, "gpu") &&
                sm_str_eq(s.dimension, "GPUUtilization") && sm_str_eq(s.node, "algo-2"));
    assert_true(s.value == 30.0);
    assert_int_equal(cw_host_sample(&j, 1, 2, 1, 1920.0, node, sizeof node, &s), 0);
    assert_true(sm_str_eq(s.type, "cpu") && s.value == 20.0);
    assert_int_equal(cw_host_sample(&j, 1, 3, 1, 41.5, node, sizeof node, &s), 0);
    assert_true(sm_str_eq(s.type, "memory") && s.value == 41.5);
    assert_int_equal(cw_host_sample(&j, 1, 4, 1, 12.0, node, sizeof node, &s), 0);
    assert_true(sm_str_eq(s.dimension, "DiskUtilization") && s.value == 12.0);
    /* no GPUs: no GPU samples */
    cw_host_job_type(&j, "ml.m5.2xlarge", 0);
    assert_int_equal(cw_host_sample(&j, 1, 0, 1, 0.0, node, sizeof node, &s), -1);
    assert_int_equal(cw_host_sample(&j, 1, 2, 1, 80.0, node, sizeof node, &s), 0);
    assert_true(s.value == 10.0);
    /* unknown type, instance groups: raw sums, under names that say so */
    cw_host_job_type(&j, "ml.zz9.plural", 0);
    assert_int_equal(j.known, 0);
    assert_int_equal(cw_host_sample(&j, 1, 0, 1, 140.0, node, sizeof node, &s), 0);
    assert_true(sm_str_eq(s.type, "cloudwatch") && sm_str_eq(s.name, "gpu raw") &&
                s.value == 140.0);
    cw_host_job_type(&j, "ml.p4d.24xlarge", 2);
    assert_int_equal(j.known, 0);
    assert_int_equal(cw_host_sample(&j, 1, 5, 1, 1.0, node, sizeof node, &s), -1);
}

static void test_params_period_name(void **state)
{
    (void)state;
    cw_host_job j = {.name = "job-1", .hosts = 3};
    s3_param *p = NULL;
    long n = cw_host_params(&j, 1, 2, 60, 1.7e9, 1.7e9 + 600, "tok", &p);
    assert_int_equal(n, 2 * CW_HOST_METRICS * 8 + 3);
    assert_string_equal(p[0].name, "MetricDataQueries.member.1.Id");
    assert_string_equal(p[0].value, "h2_0");   /* hosts first+1 .. */
    assert_string_equal(p[4].value, "job-1/algo-2");
    assert_string_equal(p[n - 1].name, "NextToken");
    cloudwatch_params_free(p, n);
    assert_int_equal(cw_host_period(1000.0, 1000.0 + 86400), 60);
    assert_int_equal(cw_host_period(0, 20 * 86400.0), 300);
    assert_int_equal(cw_host_period(0, 70 * 86400.0), 3600);
    char name[64];
    assert_int_equal(job_watch_name_from("s3://b/prof/my-job-7/profiler-output/", name,
                                         sizeof name), 1);
    assert_string_equal(name, "my-job-7");
    assert_int_equal(job_watch_name_from("s3://b/x/my-job/", name, sizeof name), 1);
    assert_string_equal(name, "my-job");
    assert_int_equal(job_watch_name_from("s3://b/x/not_a.job/profiler-output", name,
                                         sizeof name), 0);
}

/* 20 minutes of one idle GPU, once a minute: Debugger's sample counts
 * (a 500-sample window after 1000) never fill; declared as CloudWatch's,
 * the same time span does, and LowGPUUtilization fires. */
static void test_rules_on_minutes(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    rules *r = rules_new();
    assert_non_null(m);
    assert_non_null(r);
    for (int i = 0; i < 20; i++) {
        sm_sample s = {.type = sm_str_c("gpu"), .dimension = sm_str_c("GPUUtilization"),
                       .name = sm_str_c("gpu"), .node = sm_str_c("algo-1"), .value = 3.0,
                       .ts_us = 1764000000000000LL + i * 60000000LL};
        assert_int_equal(model_add_sample(m, &s), 0);
    }
    size_t low = (size_t)rules_find("LowGPUUtilization");
    assert_true(rules_evaluate(r, m) >= 0);
    assert_int_equal(rules_result_at(r, low)->status, RULE_NO_DATA);
    model_set_system_source(m, "CloudWatch", 60000000LL);
    int64_t iv = 0;
    assert_string_equal(model_system_source(m, &iv), "CloudWatch");
    assert_true(iv == 60000000LL);
    assert_true(rules_evaluate(r, m) >= 0);
    assert_int_equal(rules_result_at(r, low)->status, RULE_TRIGGERED);
    rules_free(r);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_answer),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_params_period_name),
        cmocka_unit_test(test_rules_on_minutes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
