/* Unit tests for tui/cmd/timearg (times read and printed in one zone:
 * the local one, UTC under --utc) and tui/cmd/suggest (did you mean). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "tui/cmd/suggest.h"
#include "tui/text/timearg.h"

#define T0 1591747200LL   /* 2020-06-10T00:00:00Z */
#define NY "EST5EDT,M3.2.0,M11.1.0"

static void use_tz(const char *tz)
{
    setenv("TZ", tz, 1);
    tzset();
}

static int64_t parsed(const char *s)
{
    int64_t us = -1;
    sm_err err = {0};
    assert_int_equal(timearg_parse(s, &us, &err), 0);
    return us;
}

static void test_parse_zones(void **state)
{
    (void)state;
    use_tz(NY);
    assert_int_equal(parsed("1591747200"), T0 * 1000000);
    assert_int_equal(parsed("1591747200.25"), T0 * 1000000 + 250000);
    assert_int_equal(parsed("2020-06-10T00:00:00Z"), T0 * 1000000);
    assert_int_equal(parsed("2020-06-10 00:00Z"), T0 * 1000000);
    assert_int_equal(parsed("2020-06-10T02:00:00+02:00"), T0 * 1000000);
    assert_int_equal(parsed("2020-06-09T20:00-0400"), T0 * 1000000);
    assert_int_equal(parsed("2020-06-10T05:30+05:30"), T0 * 1000000);
    /* no zone: the process's, with summer time where it applied */
    assert_int_equal(parsed("2020-06-09T20:00:00"), T0 * 1000000);
    assert_int_equal(parsed("2020-01-09T19:00:00"), (T0 - 152 * 86400) * 1000000);
    timearg_use_utc();
    assert_int_equal(parsed("2020-06-10T00:00:00"), T0 * 1000000);
}

static void test_parse_rejects(void **state)
{
    (void)state;
    static const char *const bad[] = {"yesterday", "2020-13-01T00:00", "2020-06-10T24:00",
                                      "2020-06-10T00:00+25:00", "2020-06-10T00:00X",
                                      "2020-06-10T00:00+", "2020-06-10T00:00+-2:00", "", "-5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sm_err err = {0};
        int64_t us = 7;
        assert_int_equal(timearg_parse(bad[i], &us, &err), -1);
        assert_int_equal(err.code, SM_ERR_USAGE);
        assert_int_equal(us, 7);
    }
}

static void test_format(void **state)
{
    (void)state;
    char b[64];
    timearg_use_utc();
    assert_string_equal(timearg_format(T0 * 1000000 + 232000, b, sizeof b),
                        "2020-06-10T00:00:00.232Z");
    use_tz(NY);
    assert_string_equal(timearg_format(T0 * 1000000 + 232000, b, sizeof b),
                        "2020-06-09T20:00:00.232-04:00");
    use_tz("IST-5:30");
    assert_string_equal(timearg_format(T0 * 1000000, b, sizeof b),
                        "2020-06-10T05:30:00.000+05:30");
    /* what it prints reads back as the same instant */
    assert_int_equal(parsed("2020-06-10T05:30:00+05:30"), T0 * 1000000);
    timearg_use_utc();
}

static void test_wants_utc(void **state)
{
    (void)state;
    char *a[] = {"smtop", "report", "--utc", "x", NULL};
    char *b[] = {"smtop", "report", "--", "--utc", NULL};
    char *c[] = {"smtop", "--utc-ish", NULL};
    assert_true(timearg_wants_utc(4, a));
    assert_false(timearg_wants_utc(4, b));
    assert_false(timearg_wants_utc(2, c));
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const cmds[] = {"report", "synth", "export", "diff", "help"};
    assert_int_equal(suggest_distance("repotr", "report"), 1);   /* a swap */
    assert_int_equal(suggest_distance("report", "report"), 0);
    assert_int_equal(suggest_distance("rport", "report"), 1);
    assert_int_equal(suggest_distance("", "diff"), 4);
    assert_string_equal(suggest_nearest("repotr", cmds, 5), "report");
    assert_string_equal(suggest_nearest("reprot", cmds, 5), "report");
    assert_string_equal(suggest_nearest("exprt", cmds, 5), "export");
    assert_string_equal(suggest_nearest("snyth", cmds, 5), "synth");
    assert_string_equal(suggest_nearest("dif", cmds, 5), "diff");
    assert_string_equal(suggest_nearest("hlep", cmds, 5), "help");
    assert_null(suggest_nearest("frobnicate", cmds, 5));
    assert_null(suggest_nearest("job", cmds, 5));
    assert_null(suggest_nearest("dfx", cmds, 5));   /* two edits from a short word */
    assert_null(suggest_nearest("profiler-output-of-a-very-long-job-name", cmds, 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_zones),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_wants_utc),
        cmocka_unit_test(test_suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
