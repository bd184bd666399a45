/* Unit tests for io/rule_report: SageMaker's ProfilerReport rule files are
 * parsed (fields RuleTriggered, Violations, Datapoints, RuleParameters,
 * Details), a malformed one gives a message naming file and problem, and
 * rule_reports_load finds them through a local source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include "io/decode/rule_report.h"

#define KEY "rule-output/ProfilerReport-1608215467/profiler-output/profiler-reports/"

/* Shaped like the files SageMaker's ProfilerReport rule writes. */
static const char LOWGPU[] =
    "{\"Description\": \"Checks if the GPU utilization is low or fluctuating.\",\n"
    " \"RuleTriggered\": 3, \"Violations\": 12, \"Datapoints\": 3423,\n"
    " \"RuleParameters\": \"threshold_p95:70\\nthreshold_p5:10\\nwindow:500\\npatience:1000\",\n"
    " \"Details\": {\"last_timestamp\": \"2020-12-17 14:45:00\",\n"
    "             \"low_gpu_utilization\": {\"algo-1\": {\"gpu0\": 4}}}}\n";

static void test_parse_fixture(void **state)
{
    (void)state;
    rule_verdict v;
    sm_err e = {0};
    assert_int_equal(rule_verdict_parse(KEY "LowGPUUtilization.json", LOWGPU,
                                        strlen(LOWGPU), &v, &e), 0);
    assert_string_equal(v.rule, "LowGPUUtilization");
    assert_int_equal(v.triggered, 3);
    assert_int_equal(v.violations, 12);
    assert_int_equal(v.datapoints, 3423);
    assert_true(json_is_string(v.parameters));
    assert_non_null(strstr(json_string_value(v.parameters), "window:500"));
    json_t *gpu0 = json_object_get(json_object_get(json_object_get(v.details,
                       "low_gpu_utilization"), "algo-1"), "gpu0");
    assert_int_equal(json_integer_value(gpu0), 4);
    rule_verdict_clear(&v);
    assert_null(v.details);

    const char boolean[] = "{\"RuleTriggered\": false, \"RuleParameters\": {\"threshold\": 20}}";
    assert_int_equal(rule_verdict_parse(KEY "MaxInitializationTime.json", boolean,
                                        strlen(boolean), &v, &e), 0);
    assert_int_equal(v.triggered, 0);
    assert_int_equal(v.datapoints, 0);
    assert_true(json_is_object(v.parameters));
    rule_verdict_clear(&v);
}

static void expect_error(const char *body, const char *needle)
{
    rule_verdict v;
    sm_err e = {0};
    assert_int_equal(rule_verdict_parse(KEY "CPUBottleneck.json", body, strlen(body),
                                        &v, &e), -1);
    assert_int_equal(e.code, SM_ERR_FORMAT);
    if (!strstr(e.msg, needle) || !strstr(e.msg, "CPUBottleneck.json"))
        fail_msg("message '%s' lacks '%s' or the file name", e.msg, needle);
    assert_null(v.details);
    assert_null(v.parameters);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error("{\"RuleTriggered\": 1, \"Violations\": ", "not JSON at line 1");
    expect_error("[1, 2]", "expected a JSON object");
    expect_error("{\"Violations\": 1, \"Datapoints\": 4}", "RuleTriggered missing");
    expect_error("{\"RuleTriggered\": 0, \"Violations\": \"many\"}", "Violations is not a number");
    expect_error("{\"RuleTriggered\": 0, \"Details\": [1]}", "Details is not an object");
}

static void test_key_rule(void **state)
{
    (void)state;
    char name[64];
    assert_int_equal(rule_report_key_rule(KEY "StepOutlier.json", name, sizeof name), 1);
    assert_string_equal(name, "StepOutlier");
    assert_int_equal(rule_report_key_rule(KEY "../x/StepOutlier.json", name, sizeof name), 0);
    assert_int_equal(rule_report_key_rule("rule-output/ProfilerReport-1/profiler-output/"
                                          "profiler-report.html", name, sizeof name), 0);
    assert_int_equal(rule_report_key_rule("rule-output/Other/profiler-reports/A.json",
                                          name, sizeof name), 0);
}

static void write_file(const char *dir, const char *rel, const char *body)
{
    char path[1024], cmd[1200];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(body, f);
    fclose(f);
}

static void test_load_from_source(void **state)
{
    (void)state;
    char dir[] = "/tmp/smtop_rr_XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, KEY "LowGPUUtilization.json", LOWGPU);
    write_file(dir, KEY "Bad.json", "{oops");
    write_file(dir, "rule-output/ProfilerReport-1608215467/profiler-output/profiler-report.html",
               "<html></html>");
    /* a later ProfilerReport run wins for the same rule */
    write_file(dir, "rule-output/ProfilerReport-1700000000/profiler-output/profiler-reports/"
                    "LowGPUUtilization.json", "{\"RuleTriggered\": 0, \"Datapoints\": 7}");
    sm_err e = {0};
    source *src = source_local_open(dir, &e);
    assert_non_null(src);
    rule_reports *rr = rule_reports_load(src, "rule-output/", &e);
    assert_non_null(rr);
    assert_int_equal(rule_reports_count(rr), 1);
    const rule_verdict *v = rule_reports_find(rr, "lowgpuutilization");
    assert_non_null(v);
    assert_int_equal(v->datapoints, 7);
    assert_int_equal(rule_reports_error_count(rr), 1);
    assert_non_null(strstr(rule_reports_error_at(rr, 0), "Bad.json: not JSON"));
    rule_reports_free(rr);
    /* no rule-output at all: an empty set, not an error */
    rr = rule_reports_load(src, "nothing-here/", &e);
    assert_non_null(rr);
    assert_int_equal(rule_reports_count(rr), 0);
    rule_reports_free(rr);
    source_free(src);
    assert_int_equal(tmpdir_remove(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_fixture),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_key_rule),
        cmocka_unit_test(test_load_from_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
