/* s3_url: the exact bytes libcurl will sign. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "io/aws/s3_url.h"

static void test_encode_strict(void **st)
{
    (void)st;
    char *a = s3_url_encode("a b+c=:d/e~_.-Z9", 0);
    char *b = s3_url_encode("a b+c=:d/e~_.-Z9", 1);
    char *u = s3_url_encode("\xe1\x88\xb4", 1);
    assert_string_equal(a, "a%20b%2Bc%3D%3Ad%2Fe~_.-Z9");
    assert_string_equal(b, "a%20b%2Bc%3D%3Ad/e~_.-Z9");
    assert_string_equal(u, "%E1%88%B4");
    free(a);
    free(b);
    free(u);
}

static void test_query_sorted_and_encoded(void **st)
{
    (void)st;
    /* a continuation token as S3 sends it: + / = must be encoded */
    s3_param p[] = {{"prefix", "job/profiler-output/system/"},
                    {"list-type", "2"},
                    {"continuation-token", "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="},
                    {"max-keys", NULL}};
    char *q = s3_url_query(p, 4);
    assert_string_equal(q, "continuation-token=1ueGcxLPRx1Tr%2FXYExHnhbYLgveDs2J%2Fwm36Hy4vbOwM%3D"
                           "&list-type=2&max-keys=&prefix=job%2Fprofiler-output%2Fsystem%2F");
    /* the caller's array is not reordered */
    assert_string_equal(p[0].name, "prefix");
    free(q);
    q = s3_url_query(p, 0);
    assert_string_equal(q, "");
    free(q);
}

static void test_parse_spec(void **st)
{
    (void)st;
    char b[64], p[256];
    assert_int_equal(s3_url_parse_spec("s3://bkt/job/profiler-output", b, sizeof b, p, sizeof p, NULL), 0);
    assert_string_equal(b, "bkt");
    assert_string_equal(p, "job/profiler-output/");
    assert_int_equal(s3_url_parse_spec("s3://bkt", b, sizeof b, p, sizeof p, NULL), 0);
    assert_string_equal(p, "");
    assert_int_equal(s3_url_parse_spec("s3://bkt/x/", b, sizeof b, p, sizeof p, NULL), 0);
    assert_string_equal(p, "x/");
    sm_err e;
    assert_int_equal(s3_url_parse_spec("s3:///x", b, sizeof b, p, sizeof p, &e), -1);
    assert_int_equal(e.code, SM_ERR_USAGE);
    assert_int_equal(s3_url_parse_spec("http://bkt/x", b, sizeof b, p, sizeof p, &e), -1);
    assert_int_equal(s3_url_parse_spec("s3://b k/x", b, sizeof b, p, sizeof p, &e), -1);
}

static void test_build(void **st)
{
    (void)st;
    char *u = s3_url_build("http://127.0.0.1:9000/", "us-east-1", "bkt", "a b/c+d.json", NULL);
    assert_string_equal(u, "http://127.0.0.1:9000/bkt/a%20b/c%2Bd.json");
    free(u);
    u = s3_url_build("http://127.0.0.1:9000", "us-east-1", "bkt", NULL, "list-type=2");
    assert_string_equal(u, "http://127.0.0.1:9000/bkt/?list-type=2");
    free(u);
    u = s3_url_build(NULL, "eu-west-1", "bkt", "k", NULL);
    assert_string_equal(u, "https://bkt.s3.eu-west-1.amazonaws.com/k");
    free(u);
    u = s3_url_build(NULL, "eu-west-1", "my.bkt", NULL, "list-type=2");
    assert_string_equal(u, "https://s3.eu-west-1.amazonaws.com/my.bkt/?list-type=2");
    free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_strict),
        cmocka_unit_test(test_query_sorted_and_encoded),
        cmocka_unit_test(test_parse_spec),
        cmocka_unit_test(test_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
