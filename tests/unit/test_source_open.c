/* source_open: transport option parsing and SOURCE dispatch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/source/source_open.h"

static int parse(source_opts *o, int argc, char **argv, int *i, sm_err *e)
{
    return source_opts_parse(o, argc, argv, i, e);
}

static void test_parse_options(void **st)
{
    (void)st;
    char *argv[] = {"report", "--profile", "dev", "--region=eu-west-1",
                    "--endpoint-url", "http://127.0.0.1:9000", "--s3-parallel", "3",
                    "--cache-size", "512M", "--no-cache", "--json"};
    int argc = (int)(sizeof argv / sizeof argv[0]);
    source_opts o;
    sm_err e;
    source_opts_init(&o);
    assert_int_equal(o.parallel, 8);
    assert_int_equal(o.cache_size, 1LL << 30);
    int i = 1;
    for (; i < argc; i++)
        if (parse(&o, argc, argv, &i, &e) != 1)
            break;
    assert_int_equal(i, 11); /* stopped at --json, not ours */
    assert_string_equal(o.profile, "dev");
    assert_string_equal(o.region, "eu-west-1");
    assert_string_equal(o.endpoint_url, "http://127.0.0.1:9000");
    assert_int_equal(o.parallel, 3);
    assert_int_equal(o.cache_size, 512LL << 20);
    assert_int_equal(o.no_cache, 1);
}

static void test_parse_errors(void **st)
{
    (void)st;
    source_opts o;
    sm_err e;
    int i;
    char *a1[] = {"x", "--s3-parallel", "0"};
    char *a2[] = {"x", "--cache-size", "lots"};
    char *a3[] = {"x", "--profile"};
    char *a4[] = {"x", "--profile="};
    char *a5[] = {"x", "--profiles"};
    source_opts_init(&o);
    i = 1;
    assert_int_equal(parse(&o, 3, a1, &i, &e), -1);
    assert_int_equal(e.code, SM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "--s3-parallel"));
    i = 1;
    assert_int_equal(parse(&o, 3, a2, &i, &e), -1);
    assert_non_null(strstr(e.msg, "512M"));
    i = 1;
    assert_int_equal(parse(&o, 2, a3, &i, &e), -1);
    i = 1;
    assert_int_equal(parse(&o, 2, a4, &i, &e), -1);
    i = 1;
    assert_int_equal(parse(&o, 2, a5, &i, &e), 0);
    assert_non_null(strstr(source_opts_help(), "--no-cache"));
}

static void test_open_dispatch(void **st)
{
    (void)st;
    sm_err e;
    assert_null(source_open("s3://", NULL, &e));
    assert_int_equal(e.code, SM_ERR_USAGE);
    assert_null(source_open("gs://bucket/x", NULL, &e));
    assert_int_equal(e.code, SM_ERR_USAGE);
    /* no credentials anywhere: a clear error before any network use */
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/c", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/c", 1);
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_PROFILE");
    assert_null(source_open("s3://bkt/job", NULL, &e));
    assert_int_equal(e.code, SM_ERR_NOTFOUND);
    setenv("AWS_ACCESS_KEY_ID", "AKIDX", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "not-printed", 1);
    setenv("XDG_CACHE_HOME", "/tmp/smtop-test-source-open-cache", 1);
    source *s = source_open("s3://bkt/job/profiler-output", NULL, &e);
    assert_non_null(s);
    assert_string_equal(s->vt->kind, "s3");
    assert_string_equal(source_describe(s), "s3://bkt/job/profiler-output/");
    source_free(s);
    assert_int_equal(system("rm -rf /tmp/smtop-test-source-open-cache"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_options),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_open_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
