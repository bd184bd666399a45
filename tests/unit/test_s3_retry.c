/* s3_retry: what is retried, how long, and what the user is told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <curl/curl.h>
#include <cmocka.h>

#include "io/aws/s3_retry.h"

static void test_classify(void **st)
{
    (void)st;
    assert_int_equal(s3_retry_classify(CURLE_OK, 200, ""), S3_DONE);
    assert_int_equal(s3_retry_classify(CURLE_OK, 206, ""), S3_DONE);
    assert_int_equal(s3_retry_classify(CURLE_OK, 416, "InvalidRange"), S3_DONE);
    assert_int_equal(s3_retry_classify(CURLE_OK, 503, "SlowDown"), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_OK, 500, "InternalError"), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_OK, 400, "RequestTimeout"), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_OPERATION_TIMEDOUT, 0, ""), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_COULDNT_CONNECT, 0, ""), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_PARTIAL_FILE, 200, ""), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_RECV_ERROR, 0, ""), S3_RETRY);
    assert_int_equal(s3_retry_classify(CURLE_PEER_FAILED_VERIFICATION, 0, ""), S3_FATAL);
    assert_int_equal(s3_retry_classify(CURLE_OK, 403, "SignatureDoesNotMatch"), S3_FATAL);
    assert_int_equal(s3_retry_classify(CURLE_OK, 404, "NoSuchKey"), S3_FATAL);
    assert_int_equal(s3_retry_classify(CURLE_OK, 400, "ExpiredToken"), S3_FATAL);
}

static void test_backoff_grows_capped_jittered(void **st)
{
    (void)st;
    uint32_t rng = 12345;
    int64_t prev_max = 0;
    for (int a = 1; a <= 10; a++) {
        int64_t lo = INT64_MAX, hi = 0;
        for (int k = 0; k < 200; k++) {
            int64_t d = s3_retry_delay_ms(a, 500, 16000, &rng);
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        int64_t full = 500LL << (a - 1);
        if (full > 16000)
            full = 16000;
        assert_true(lo >= full / 2);
        assert_true(hi <= full);
        assert_true(hi > lo);          /* jitter spreads clients out */
        assert_true(hi >= prev_max / 2);
        prev_max = hi;
    }
}

static void test_messages(void **st)
{
    (void)st;
    s3_fail_ctx c = {.bucket = "bkt", .key = "job/x.json", .cred_origin = "profile 'x'",
                     .cred_where = "/home/u/.aws/credentials", .region = "us-east-1"};
    sm_err e;
    s3_retry_explain(CURLE_OK, NULL, 403, "SignatureDoesNotMatch", &c, &e);
    assert_string_equal(e.msg, "403 SignatureDoesNotMatch from S3: the secret key for "
                               "profile 'x' is wrong — check /home/u/.aws/credentials");
    assert_int_equal(e.code, SM_ERR_DENIED);
    s3_retry_explain(CURLE_OK, NULL, 400, "ExpiredToken", &c, &e);
    assert_non_null(strstr(e.msg, "has expired"));
    s3_retry_explain(CURLE_OK, NULL, 403, "InvalidAccessKeyId", &c, &e);
    assert_non_null(strstr(e.msg, "access key id for profile 'x' does not exist"));
    s3_retry_explain(CURLE_OK, NULL, 404, "NoSuchBucket", &c, &e);
    assert_int_equal(e.code, SM_ERR_NOTFOUND);
    assert_non_null(strstr(e.msg, "bucket 'bkt' does not exist"));
    s3_retry_explain(CURLE_OK, NULL, 404, "NoSuchKey", &c, &e);
    assert_non_null(strstr(e.msg, "s3://bkt/job/x.json"));
    s3_retry_explain(CURLE_OK, NULL, 403, "AccessDenied", &c, &e);
    assert_non_null(strstr(e.msg, "IAM policy"));
    s3_retry_explain(CURLE_COULDNT_CONNECT, "Connection refused", 0, "", &c, &e);
    assert_int_equal(e.code, SM_ERR_NET);
    assert_non_null(strstr(e.msg, "S3 unreachable"));
    s3_retry_explain(CURLE_PEER_FAILED_VERIFICATION, "bad cert", 0, "", &c, &e);
    assert_non_null(strstr(e.msg, "AWS_CA_BUNDLE"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_backoff_grows_capped_jittered),
        cmocka_unit_test(test_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
