/* sm_parse: SageMaker answers into rows — summaries, describes with
 * InstanceGroups, unknown types, rule statuses, the profiler URL, and
 * fields missing or of the wrong type. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "io/jobs/sm_parse.h"

static void test_list(void **state)
{
    (void)state;
    json_t *a = json_loads(
        "{\"TrainingJobSummaries\":[{\"TrainingJobName\":\"a\",\"TrainingJobStatus\":"
        "\"Failed\",\"CreationTime\":1700000000.5,\"TrainingEndTime\":1700003600},"
        "{\"TrainingJobStatus\":\"Completed\"},{\"TrainingJobName\":\"b\",\"CreationTime\":"
        "\"2023-11-14T22:13:20Z\"}],\"NextToken\":\"t2\"}", 0, NULL);
    jobrow rows[4];
    const char *next = NULL;
    assert_int_equal(sm_parse_list(a, rows, 4, &next), 2);
    assert_string_equal(next, "t2");
    assert_string_equal(rows[0].status, "Failed");
    assert_true(fabs(rows[0].created_s - 1700000000.5) < 1e-6);
    assert_true(fabs(rows[1].created_s - 1700000000.0) < 1e-6);
    assert_string_equal(rows[1].status, "");
    json_decref(a);
    a = json_loads("{\"TrainingJobSummaries\":[],\"NextToken\":\"\"}", 0, NULL);
    assert_int_equal(sm_parse_list(a, rows, 4, &next), 0);
    assert_null(next);
    json_decref(a);
}

static void test_describe_groups(void **state)
{
    (void)state;
    json_t *a = json_loads(
        "{\"TrainingJobStatus\":\"Failed\",\"FailureReason\":\"bad\\u001b[31m\",\"ResourceConfig\":"
        "{\"VolumeSizeInGB\":1,\"InstanceGroups\":[{\"InstanceType\":\"ml.p4d.24xlarge\","
        "\"InstanceCount\":2,\"InstanceGroupName\":\"g\"},{\"InstanceType\":\"ml.c5.18xlarge\","
        "\"InstanceCount\":1,\"InstanceGroupName\":\"d\"}]},\"BillableTimeInSeconds\":3600,"
        "\"ProfilerConfig\":{\"S3OutputPath\":\"s3://b/p/\"},\"ProfilerRuleEvaluationStatuses\":"
        "[{\"RuleEvaluationStatus\":\"IssuesFound\"},{\"RuleEvaluationStatus\":\"NoIssuesFound\"}],"
        "\"DebugRuleEvaluationStatuses\":[{\"RuleEvaluationStatus\":\"IssuesFound\"}]}", 0, NULL);
    jobrow r;
    jobrow_init(&r, "job-1");
    sm_parse_describe(a, &r);
    assert_int_equal(r.described, 1);
    assert_int_equal(r.groups, 2);
    assert_int_equal(r.instance_count, 3);
    assert_string_equal(r.instance_type, "ml.p4d.24xlarge");
    assert_int_equal(r.alerts, 2);
    assert_string_equal(r.failure, "bad\x1b[31m");   /* raw here: the views sanitize */
    assert_string_equal(r.profiler_url, "s3://b/p/job-1/profiler-output/");
    assert_true(fabs(jobrow_instance_hours(&r, 0) - 3.0) < 1e-9);
    json_decref(a);
}

static void test_describe_odd(void **state)
{
    (void)state;
    json_t *a = json_loads(
        "{\"TrainingJobStatus\":5,\"ResourceConfig\":{\"InstanceType\":\"ml.zz9.plural\","
        "\"InstanceCount\":\"2\"},\"ProfilerConfig\":{\"S3OutputPath\":\"s3://b/p\","
        "\"DisableProfiler\":true},\"ProfilerRuleEvaluationStatuses\":{}}", 0, NULL);
    jobrow r;
    jobrow_init(&r, "x");
    sm_parse_describe(a, &r);
    assert_string_equal(r.status, "");
    assert_string_equal(r.instance_type, "ml.zz9.plural");
    assert_int_equal(r.instance_count, 0);
    assert_string_equal(r.profiler_url, "");
    assert_int_equal(r.alerts, 0);
    json_decref(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_describe_groups),
        cmocka_unit_test(test_describe_odd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
