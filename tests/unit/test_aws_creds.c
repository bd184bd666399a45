/* aws_ini / aws_creds / aws_region: resolution as the AWS CLI does it.
 * Every test writes its own files under a temp dir and sets the
 * environment explicitly; IMDS is disabled so nothing leaves the host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tmpdir.h"
#include "io/aws/aws_creds.h"
#include "io/aws/aws_ini.h"
#include "io/aws/aws_region.h"

static char dir[256];

static const char creds_text[] =
    "# comment\n"
    "[default]\n"
    "aws_access_key_id = AKIDDEFAULT\n"
    "aws_secret_access_key=defaultsecret\n"
    "\n[dev]\r\n"
    "aws_access_key_id =AKIDDEV \r\n"
    "aws_secret_access_key = dev/secret+x=\r\n"
    "aws_session_token = devtoken\r\n"
    "[half]\naws_access_key_id = AKIDHALF\n";

static const char config_text[] =
    "[default]\nregion = eu-west-1\n"
    "[profile dev]\nregion=ap-south-1\ns3 =\n  region = wrong-nested\n"
    "[cfgonly]\nregion = should-not-match-without-profile-word\n"
    "[profile cfgonly]\naws_access_key_id = AKIDCFG\naws_secret_access_key = cfgsecret\n";

static void write_file(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **st)
{
    (void)st;
    char p[512];
    snprintf(dir, sizeof dir, "/tmp/smtop-awscreds-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    write_file("credentials", creds_text);
    write_file("config", config_text);
    snprintf(p, sizeof p, "%s/credentials", dir);
    setenv("AWS_SHARED_CREDENTIALS_FILE", p, 1);
    snprintf(p, sizeof p, "%s/config", dir);
    setenv("AWS_CONFIG_FILE", p, 1);
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    const char *clear[] = {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                           "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"};
    for (size_t i = 0; i < sizeof clear / sizeof clear[0]; i++)
        unsetenv(clear[i]);
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    return tmpdir_remove(dir);
}

static void test_ini_sections(void **st)
{
    (void)st;
    char v[64];
    assert_int_equal(aws_ini_lookup(creds_text, AWS_INI_CREDENTIALS, "dev", "aws_secret_access_key", v, sizeof v), 1);
    assert_string_equal(v, "dev/secret+x=");
    assert_int_equal(aws_ini_lookup(creds_text, AWS_INI_CREDENTIALS, "dev", "aws_access_key_id", v, sizeof v), 1);
    assert_string_equal(v, "AKIDDEV");
    assert_int_equal(aws_ini_lookup(creds_text, AWS_INI_CREDENTIALS, "nope", "aws_access_key_id", v, sizeof v), 0);
    /* config: "[profile dev]", nested blocks skipped, bare "[cfgonly]" ignored */
    assert_int_equal(aws_ini_lookup(config_text, AWS_INI_CONFIG, "dev", "region", v, sizeof v), 1);
    assert_string_equal(v, "ap-south-1");
    assert_int_equal(aws_ini_lookup(config_text, AWS_INI_CONFIG, "cfgonly", "region", v, sizeof v), 0);
    assert_int_equal(aws_ini_lookup(config_text, AWS_INI_CONFIG, "default", "region", v, sizeof v), 1);
    assert_string_equal(v, "eu-west-1");
    assert_true(aws_ini_has_profile(creds_text, AWS_INI_CREDENTIALS, "half"));
    assert_false(aws_ini_has_profile(config_text, AWS_INI_CONFIG, "missing"));
}

static void expect_creds(const char *profile, const char *akid, const char *token,
                         const char *origin)
{
    sm_err e = {0};
    aws_cred_set s;
    aws_creds *c = aws_creds_new(profile, &e);
    assert_non_null(c);
    assert_int_equal(aws_creds_get(c, &s, &e), 0);
    assert_string_equal(s.akid, akid);
    assert_string_equal(s.token, token);
    assert_string_equal(aws_creds_origin(c), origin);
    /* the origin and the hint never contain the secret */
    assert_null(strstr(aws_creds_where(c), s.secret));
    aws_creds_wipe(&s);
    aws_creds_free(c);
}

static void test_creds_order(void **st)
{
    (void)st;
    expect_creds(NULL, "AKIDDEFAULT", "", "profile 'default'");
    expect_creds("dev", "AKIDDEV", "devtoken", "profile 'dev'");
    expect_creds("cfgonly", "AKIDCFG", "", "profile 'cfgonly'");
    setenv("AWS_PROFILE", "dev", 1);
    expect_creds(NULL, "AKIDDEV", "devtoken", "profile 'dev'");
    /* environment keys beat AWS_PROFILE, but not an explicit --profile */
    setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
    setenv("AWS_SESSION_TOKEN", "envtoken", 1);
    expect_creds(NULL, "AKIDENV", "envtoken", "the environment variables");
    expect_creds("default", "AKIDDEFAULT", "", "profile 'default'");
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    unsetenv("AWS_SESSION_TOKEN");
    unsetenv("AWS_PROFILE");
}

static void test_creds_missing(void **st)
{
    (void)st;
    sm_err e = {0};
    assert_null(aws_creds_new("nosuch", &e));
    assert_int_equal(e.code, SM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "'nosuch'"));
    /* a section without a secret is not usable */
    assert_null(aws_creds_new("half", &e));
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/creds", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
    assert_null(aws_creds_new(NULL, &e));
    assert_int_equal(e.code, SM_ERR_NOTFOUND);
    assert_non_null(strstr(e.msg, "no AWS credentials found"));
    char p[512];
    snprintf(p, sizeof p, "%s/credentials", dir);
    setenv("AWS_SHARED_CREDENTIALS_FILE", p, 1);
    snprintf(p, sizeof p, "%s/config", dir);
    setenv("AWS_CONFIG_FILE", p, 1);
}

static void test_region_order(void **st)
{
    (void)st;
    char r[64], o[600];
    aws_region_resolve(NULL, NULL, r, sizeof r, o, sizeof o);
    assert_string_equal(r, "eu-west-1"); /* [default] in config */
    aws_region_resolve(NULL, "dev", r, sizeof r, o, sizeof o);
    assert_string_equal(r, "ap-south-1");
    assert_non_null(strstr(o, "profile 'dev'"));
    aws_region_resolve(NULL, "cfgonly", r, sizeof r, o, sizeof o);
    assert_string_equal(r, "us-east-1");
    assert_string_equal(o, "default");
    setenv("AWS_DEFAULT_REGION", "us-west-2", 1);
    aws_region_resolve(NULL, "dev", r, sizeof r, o, sizeof o);
    assert_string_equal(r, "us-west-2");
    setenv("AWS_REGION", "ca-central-1", 1);
    aws_region_resolve(NULL, "dev", r, sizeof r, o, sizeof o);
    assert_string_equal(r, "ca-central-1");
    assert_string_equal(o, "AWS_REGION");
    aws_region_resolve("sa-east-1", "dev", r, sizeof r, o, sizeof o);
    assert_string_equal(r, "sa-east-1");
    assert_string_equal(o, "--region");
    unsetenv("AWS_REGION");
    unsetenv("AWS_DEFAULT_REGION");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ini_sections),
        cmocka_unit_test(test_creds_order),
        cmocka_unit_test(test_creds_missing),
        cmocka_unit_test(test_region_order),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
