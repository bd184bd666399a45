/* conf_file: where the user's files live ($XDG_CONFIG_HOME, then HOME),
 * reading optional and oversized files, and `key = value` lines with
 * comments, spaces and errors that name the file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tui/conf/conf_file.h"

static void test_path_prefers_xdg_then_home(void **s)
{
    (void)s;
    char buf[256];
    setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
    setenv("HOME", "/home/u", 1);
    assert_int_equal(conf_file_path("smtop.conf", buf, sizeof buf), 0);
    assert_string_equal(buf, "/x/cfg/smtop/smtop.conf");
    setenv("XDG_CONFIG_HOME", "", 1);   /* empty counts as unset (XDG spec) */
    assert_int_equal(conf_file_path("rules.conf", buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/u/.config/smtop/rules.conf");
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HOME");
    assert_int_equal(conf_file_path("themes", buf, sizeof buf), -1);
    assert_string_equal(buf, "");
}

static void test_read_optional_missing_and_too_big(void **s)
{
    (void)s;
    sm_err err = {0};
    size_t len = 0;
    int missing = 0;
    assert_null(conf_file_read("/nonexistent/smtop.conf", &len, &missing, &err));
    assert_int_equal(missing, 1);
    assert_string_equal(err.msg, "");      /* optional: no error */
    /* required (missing == NULL): the error names the file */
    assert_null(conf_file_read("/nonexistent/smtop.conf", &len, NULL, &err));
    assert_non_null(strstr(err.msg, "/nonexistent/smtop.conf"));

    char path[] = "/tmp/smtop-conf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("theme = light\n", f);
    fflush(f);
    char *text = conf_file_read(path, &len, &missing, &err);
    assert_non_null(text);
    assert_int_equal(missing, 0);
    assert_int_equal(len, 14);
    assert_string_equal(text, "theme = light\n");
    free(text);
    for (int i = 0; i < CONF_FILE_MAX / 8; i++)
        fputs("# pad..\n", f);
    fclose(f);
    memset(&err, 0, sizeof err);
    assert_null(conf_file_read(path, &len, &missing, &err));
    assert_non_null(strstr(err.msg, "larger than 64 KiB"));
    unlink(path);
}

typedef struct seen {
    char pairs[8][64];
    int n;
} seen;

static int collect(void *ctx, const char *key, const char *value, sm_err *err)
{
    seen *sn = ctx;
    if (!strcmp(key, "bad"))
        return sm_err_set(err, SM_ERR_USAGE, "bad is bad");
    snprintf(sn->pairs[sn->n++], 64, "%s|%s", key, value);
    return 0;
}

static void test_parse_kv_lines(void **s)
{
    (void)s;
    const char *text = "# a comment\n\n  theme =  light  \nsymbols=ascii # trailing\n"
                       "\tinterval\t=\t2\nempty =\nlast = x";
    seen sn = {0};
    sm_err err = {0};
    assert_int_equal(conf_file_parse_kv(text, strlen(text), "f", collect, &sn, &err), 0);
    assert_int_equal(sn.n, 5);
    assert_string_equal(sn.pairs[0], "theme|light");
    assert_string_equal(sn.pairs[1], "symbols|ascii");
    assert_string_equal(sn.pairs[2], "interval|2");
    assert_string_equal(sn.pairs[3], "empty|");
    assert_string_equal(sn.pairs[4], "last|x");    /* no final newline */
}

static void test_parse_kv_errors_name_file_and_line(void **s)
{
    (void)s;
    seen sn = {0};
    sm_err err = {0};
    const char *nokey = "a = 1\n= 2\n";
    assert_int_equal(conf_file_parse_kv(nokey, strlen(nokey), "my.conf", collect, &sn, &err), -1);
    assert_string_equal(err.msg, "my.conf:2: no key before '='");
    assert_int_equal(err.code, SM_ERR_USAGE);
    const char *noeq = "\n\njust words\n";
    assert_int_equal(conf_file_parse_kv(noeq, strlen(noeq), "my.conf", collect, &sn, &err), -1);
    assert_string_equal(err.msg, "my.conf:3: expected key = value, got 'just words'");
    const char *cb = "ok = 1\nbad = 2\nnever = 3\n";
    sn.n = 0;
    assert_int_equal(conf_file_parse_kv(cb, strlen(cb), "my.conf", collect, &sn, &err), -1);
    assert_string_equal(err.msg, "my.conf:2: bad is bad");
    assert_int_equal(sn.n, 1);                    /* stops at the bad line */
    char longline[700];
    memset(longline, 'k', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    assert_int_equal(conf_file_parse_kv(longline, strlen(longline), "my.conf", collect, &sn,
                                        &err), -1);
    assert_string_equal(err.msg, "my.conf:1: line too long");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_prefers_xdg_then_home),
        cmocka_unit_test(test_read_optional_missing_and_too_big),
        cmocka_unit_test(test_parse_kv_lines),
        cmocka_unit_test(test_parse_kv_errors_name_file_and_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
