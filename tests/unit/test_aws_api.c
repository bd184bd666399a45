/* aws_api against the local botocore-checked API (tests/aws/server.py):
 * signatures botocore recomputes, bodies its models accept, throttling
 * retried, AccessDenied explained, a hang cancelled, endpoints resolved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <time.h>

#include "aws_rig.h"
#include "io/aws/aws_api.h"
#include "tmpdir.h"

typedef struct fx {
    aws_rig rig;
    aws_creds *creds;
} fx;

static int setup(void **state)
{
    static fx f;
    memset(&f, 0, sizeof f);
    if (!aws_rig_available())
        skip();
    snprintf(f.rig.dir, sizeof f.rig.dir, "/tmp/smtop-awsapi-XXXXXX");
    assert_non_null(mkdtemp(f.rig.dir));
    assert_int_equal(aws_rig_start(&f.rig, 30), 0);
    aws_rig_env();
    unsetenv("AWS_ENDPOINT_URL");
    assert_non_null(f.creds = aws_creds_new(NULL, NULL));
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    if (f) {
        aws_rig_stop(&f->rig);
        aws_creds_free(f->creds);
        tmpdir_remove(f->rig.dir);
    }
    return 0;
}

static aws_api *client(fx *f, aws_service s, const char *region)
{
    aws_api_opts o = {.endpoint = f->rig.endpoint, .region = region, .backoff_base_ms = 20,
                      .connect_budget_ms = 1500};
    aws_api *a = aws_api_new(s, &o, f->creds, NULL);
    assert_non_null(a);
    return a;
}

static json_t *list_req(int max)
{
    return json_pack("{s:i, s:s, s:s}", "MaxResults", max, "SortBy", "CreationTime",
                     "SortOrder", "Descending");
}

static void test_list_and_describe(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_api *a = client(f, AWS_SAGEMAKER, NULL);
    sm_err err = {0};
    json_t *req = list_req(7);
    json_t *ans = aws_api_json(a, "ListTrainingJobs", req, &err);
    assert_non_null(ans);
    json_t *rows = json_object_get(ans, "TrainingJobSummaries");
    assert_int_equal(json_array_size(rows), 7);
    assert_string_equal(json_string_value(json_object_get(ans, "NextToken")), "tok-7");
    const char *name = json_string_value(json_object_get(json_array_get(rows, 0),
                                                         "TrainingJobName"));
    json_t *d = json_pack("{s:s}", "TrainingJobName", name);
    json_t *job = aws_api_json(a, "DescribeTrainingJob", d, &err);
    assert_non_null(job);
    assert_string_equal(json_string_value(json_object_get(job, "TrainingJobName")), name);
    assert_true(json_is_object(json_object_get(job, "ResourceConfig")));
    assert_int_equal(aws_rig_calls(&f->rig, "ListTrainingJobs"), 1);
    assert_int_equal(aws_rig_calls(&f->rig, "DescribeTrainingJob"), 1);
    assert_int_equal(aws_rig_rejects(&f->rig), 0);
    json_decref(job);
    json_decref(d);
    json_decref(ans);
    json_decref(req);
    aws_api_free(a);
}

/* A request off the model (MaxResults above 100) is refused by botocore's
 * validator, and the message says what the service said. */
static void test_off_model_refused(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_api *a = client(f, AWS_SAGEMAKER, NULL);
    sm_err err = {0};
    json_t *req = list_req(1000);
    assert_null(aws_api_json(a, "ListTrainingJobs", req, &err));
    assert_non_null(strstr(err.msg, "ValidationException"));
    assert_non_null(strstr(err.msg, "MaxResults"));
    json_decref(req);
    aws_api_free(a);
}

static void test_throttle_backs_off(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_rig_fault(&f->rig, "{\"kind\":\"throttle\",\"count\":3}");
    aws_api *a = client(f, AWS_SAGEMAKER, NULL);
    sm_err err = {0};
    json_t *req = list_req(5);
    json_t *ans = aws_api_json(a, "ListTrainingJobs", req, &err);
    assert_non_null(ans);
    int64_t reqs, retries;
    aws_api_counters(a, &reqs, &retries);
    assert_int_equal(reqs, 4);
    assert_int_equal(retries, 3);
    json_decref(ans);
    json_decref(req);
    aws_api_free(a);
}

static void test_denied_names_permission(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_rig_fault(&f->rig, "{\"kind\":\"denied\",\"op\":\"ListTrainingJobs\",\"count\":1}");
    aws_api *a = client(f, AWS_SAGEMAKER, NULL);
    sm_err err = {0};
    json_t *req = list_req(5);
    assert_null(aws_api_json(a, "ListTrainingJobs", req, &err));
    assert_int_equal(err.code, SM_ERR_DENIED);
    assert_non_null(strstr(err.msg, "sagemaker:ListTrainingJobs"));
    assert_non_null(strstr(err.msg, "smtop jobs s3://"));
    assert_non_null(strstr(err.msg, "environment variables"));
    int64_t reqs, retries;
    aws_api_counters(a, &reqs, &retries);
    assert_int_equal(retries, 0);   /* final: no retry */
    json_decref(req);
    aws_api_free(a);
}

static void test_wrong_region_and_secret(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_api *a = client(f, AWS_SAGEMAKER, "eu-west-1");
    sm_err err = {0};
    json_t *req = list_req(5);
    assert_null(aws_api_json(a, "ListTrainingJobs", req, &err));
    assert_non_null(strstr(err.msg, "eu-west-1"));
    aws_api_free(a);
    setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret", 1);
    aws_creds *bad = aws_creds_new(NULL, NULL);
    aws_api_opts o = {.endpoint = f->rig.endpoint};
    a = aws_api_new(AWS_SAGEMAKER, &o, bad, NULL);
    assert_null(aws_api_json(a, "ListTrainingJobs", req, &err));
    assert_non_null(strstr(err.msg, "InvalidSignatureException"));
    assert_non_null(strstr(err.msg, "AWS_SECRET_ACCESS_KEY"));
    setenv("AWS_SECRET_ACCESS_KEY", "smtop+test/secret=key", 1);
    aws_api_free(a);
    aws_creds_free(bad);
    json_decref(req);
}

static void test_cloudwatch_query(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_api *sm = client(f, AWS_SAGEMAKER, NULL);
    json_t *req = list_req(1);
    json_t *ans = aws_api_json(sm, "ListTrainingJobs", req, NULL);
    char host[300], start[32], end[32];
    snprintf(host, sizeof host, "%s/algo-1",
             json_string_value(json_object_get(json_array_get(
                 json_object_get(ans, "TrainingJobSummaries"), 0), "TrainingJobName")));
    time_t now = time(NULL), then = now - 600;
    strftime(end, sizeof end, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    strftime(start, sizeof start, "%Y-%m-%dT%H:%M:%SZ", gmtime(&then));
    s3_param p[] = {
        {"StartTime", start}, {"EndTime", end},
        {"MetricDataQueries.member.1.Id", "g1"},
        {"MetricDataQueries.member.1.MetricStat.Metric.Namespace",
         "/aws/sagemaker/TrainingJobs"},
        {"MetricDataQueries.member.1.MetricStat.Metric.MetricName", "GPUUtilization"},
        {"MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Name", "Host"},
        {"MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Value", host},
        {"MetricDataQueries.member.1.MetricStat.Period", "60"},
        {"MetricDataQueries.member.1.MetricStat.Stat", "Average"}};
    aws_api *cw = client(f, AWS_CLOUDWATCH, NULL);
    sm_err err = {0};
    size_t len = 0;
    char *xml = aws_api_query(cw, "GetMetricData", "2010-08-01", p, sizeof p / sizeof p[0],
                              &len, &err);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<Id>g1</Id>"));
    assert_non_null(strstr(xml, "<Values><member>"));
    assert_int_equal(aws_rig_calls(&f->rig, "GetMetricData"), 1);
    free(xml);
    /* a name off the model is refused */
    p[8].name = "MetricDataQueries.member.1.MetricStat.Statistic";
    assert_null(aws_api_query(cw, "GetMetricData", "2010-08-01", p, 9, &len, &err));
    assert_non_null(strstr(err.msg, "ValidationError"));
    aws_rig_fault(&f->rig, "{\"kind\":\"denied\",\"op\":\"GetMetricData\",\"count\":1}");
    p[8].name = "MetricDataQueries.member.1.MetricStat.Stat";
    assert_null(aws_api_query(cw, "GetMetricData", "2010-08-01", p, 9, &len, &err));
    assert_non_null(strstr(err.msg, "cloudwatch:GetMetricData"));
    aws_api_free(cw);
    aws_api_free(sm);
    json_decref(ans);
    json_decref(req);
}

typedef struct cancel_arg {
    aws_api *a;
    int64_t done_ms;
    sm_err err;
} cancel_arg;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *call_thread(void *p)
{
    cancel_arg *c = p;
    json_t *req = list_req(5);
    json_t *ans = aws_api_json(c->a, "ListTrainingJobs", req, &c->err);
    c->done_ms = now_ms();
    json_decref(ans);
    json_decref(req);
    return NULL;
}

/* An API that accepted the connection and never answers: cancelling ends
 * the call within a second (the dashboard's q). */
static void test_hang_cancelled(void **state)
{
    fx *f = *state;
    aws_rig_reset(&f->rig);
    aws_rig_fault(&f->rig, "{\"kind\":\"hang\",\"count\":50}");
    aws_api_opts o = {.endpoint = f->rig.endpoint, .connect_budget_ms = 60000};
    aws_api *a = aws_api_new(AWS_SAGEMAKER, &o, f->creds, NULL);
    cancel_arg c = {.a = a};
    pthread_t t;
    pthread_create(&t, NULL, call_thread, &c);
    usleep(300 * 1000);
    int64_t t0 = now_ms();
    aws_api_cancel(a, 1);
    pthread_join(t, NULL);
    assert_true(c.done_ms - t0 < 1000);
    assert_non_null(strstr(c.err.msg, "cancelled"));
    aws_api_free(a);
    aws_rig_reset(&f->rig);
}

static void test_endpoint_order(void **state)
{
    (void)state;
    char out[256];
    unsetenv("AWS_ENDPOINT_URL");
    unsetenv("AWS_ENDPOINT_URL_SAGEMAKER");
    unsetenv("AWS_ENDPOINT_URL_CLOUDWATCH");
    aws_api_endpoint(AWS_SAGEMAKER, NULL, "eu-west-1", out, sizeof out);
    assert_string_equal(out, "https://api.sagemaker.eu-west-1.amazonaws.com");
    aws_api_endpoint(AWS_CLOUDWATCH, NULL, "cn-north-1", out, sizeof out);
    assert_string_equal(out, "https://monitoring.cn-north-1.amazonaws.com.cn");
    setenv("AWS_ENDPOINT_URL", "http://all:1/", 1);
    aws_api_endpoint(AWS_SAGEMAKER, NULL, "eu-west-1", out, sizeof out);
    assert_string_equal(out, "http://all:1");
    setenv("AWS_ENDPOINT_URL_SAGEMAKER", "http://sm:2", 1);
    aws_api_endpoint(AWS_SAGEMAKER, NULL, "eu-west-1", out, sizeof out);
    assert_string_equal(out, "http://sm:2");
    aws_api_endpoint(AWS_CLOUDWATCH, NULL, "eu-west-1", out, sizeof out);
    assert_string_equal(out, "http://all:1");
    setenv("AWS_ENDPOINT_URL_CLOUDWATCH", "http://cw:3", 1);
    aws_api_endpoint(AWS_CLOUDWATCH, NULL, "eu-west-1", out, sizeof out);
    assert_string_equal(out, "http://cw:3");
    aws_api_endpoint(AWS_CLOUDWATCH, "http://flag:4", "eu-west-1", out, sizeof out);
    assert_string_equal(out, "http://flag:4");
    unsetenv("AWS_ENDPOINT_URL");
    unsetenv("AWS_ENDPOINT_URL_SAGEMAKER");
    unsetenv("AWS_ENDPOINT_URL_CLOUDWATCH");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_endpoint_order),
        cmocka_unit_test(test_list_and_describe),
        cmocka_unit_test(test_off_model_refused),
        cmocka_unit_test(test_throttle_backs_off),
        cmocka_unit_test(test_denied_names_permission),
        cmocka_unit_test(test_wrong_region_and_secret),
        cmocka_unit_test(test_cloudwatch_query),
        cmocka_unit_test(test_hang_cancelled),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
