/* Unit tests for tui/fmt: the text every pane shows for numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include <cmocka.h>

#include "tui/text/fmt.h"

static void test_duration_units(void **state)
{
    (void)state;
    char b[FMT_BUF];
    assert_string_equal(fmt_duration(b, sizeof b, 0), "0 s");
    assert_string_equal(fmt_duration(b, sizeof b, 850), "850 us");
    assert_string_equal(fmt_duration(b, sizeof b, 84200), "84.2 ms");
    assert_string_equal(fmt_duration(b, sizeof b, 8420), "8.42 ms");
    assert_string_equal(fmt_duration(b, sizeof b, 842000), "842 ms");
    assert_string_equal(fmt_duration(b, sizeof b, 1.2e6), "1.20 s");
    assert_string_equal(fmt_duration(b, sizeof b, 12.5e6), "12.5 s");
    assert_string_equal(fmt_duration(b, sizeof b, 192e6), "3 m 12 s");
    assert_string_equal(fmt_duration(b, sizeof b, 7500e6), "2 h 05 m");
    assert_string_equal(fmt_duration(b, sizeof b, (3 * 86400 + 4 * 3600) * 1e6), "3 d 4 h");
}

/* A histogram's row labels: as many decimals as the rows' step needs,
 * never fewer than fmt_duration's, at most four digits. */
static void test_duration_step(void **state)
{
    (void)state;
    char b[FMT_BUF];
    assert_string_equal(fmt_duration_step(b, sizeof b, 84200, 160), "84.2 ms");
    assert_string_equal(fmt_duration_step(b, sizeof b, 84230, 40), "84.23 ms");
    assert_string_equal(fmt_duration_step(b, sizeof b, 84230, 1), "84.23 ms");
    assert_string_equal(fmt_duration_step(b, sizeof b, 123456, 50), "123.5 ms");
    assert_string_equal(fmt_duration_step(b, sizeof b, 110000, 1900), "110 ms");
    assert_string_equal(fmt_duration_step(b, sizeof b, 1234567, 1000), "1.235 s");
    assert_string_equal(fmt_duration_step(b, sizeof b, 850, 0.5), "850.0 us");
    assert_string_equal(fmt_duration_step(b, sizeof b, 192e6, 1000), "3 m 12 s");
    assert_string_equal(fmt_duration_step(b, sizeof b, 84200, 0), "84.2 ms");
    assert_string_equal(fmt_duration_step(b, sizeof b, NAN, 10), "-");
}

static void test_duration_rounding_edges(void **state)
{
    (void)state;
    char b[FMT_BUF];
    /* Would print "1000 us" / "1000 ms" / "60.0 s" with naive thresholds. */
    assert_string_equal(fmt_duration(b, sizeof b, 999.7), "1.00 ms");
    assert_string_equal(fmt_duration(b, sizeof b, 999.7e3), "1.00 s");
    assert_string_equal(fmt_duration(b, sizeof b, 59.97e6), "1 m 00 s");
    assert_string_equal(fmt_duration(b, sizeof b, 9.996e3), "10.0 ms");
    assert_string_equal(fmt_duration(b, sizeof b, -1), "-");
    assert_string_equal(fmt_duration(b, sizeof b, NAN), "-");
}

static void test_percent(void **state)
{
    (void)state;
    char b[FMT_BUF];
    assert_string_equal(fmt_percent(b, sizeof b, 7), "7.0%");
    assert_string_equal(fmt_percent(b, sizeof b, 42.34), "42.3%");
    assert_string_equal(fmt_percent(b, sizeof b, 99.96), "100%");
    assert_string_equal(fmt_percent(b, sizeof b, 100), "100%");
    assert_string_equal(fmt_percent(b, sizeof b, -3), "0.0%");
    assert_string_equal(fmt_percent(b, sizeof b, 1e9), "999%");
    assert_string_equal(fmt_percent(b, sizeof b, NAN), "-");
}

static void test_si(void **state)
{
    (void)state;
    char b[FMT_BUF];
    assert_string_equal(fmt_si(b, sizeof b, 412e6, "B/s"), "412 MB/s");
    assert_string_equal(fmt_si(b, sizeof b, 1234, ""), "1.23 k");
    assert_string_equal(fmt_si(b, sizeof b, 0.5, NULL), "0.50");
    assert_string_equal(fmt_si(b, sizeof b, 12, "B"), "12.0 B");
    assert_string_equal(fmt_si(b, sizeof b, 999.7, "B"), "1.00 kB");
    assert_string_equal(fmt_si(b, sizeof b, -2.5e9, "B"), "-2.50 GB");
    assert_string_equal(fmt_si(b, sizeof b, NAN, "B"), "-");
    assert_string_equal(fmt_axis_max(b, sizeof b, 412e6, "B/s"), "max 412 MB/s");
}

static void test_truncates_never_overflows(void **state)
{
    (void)state;
    char b[8];
    memset(b, 'x', sizeof b);
    fmt_si(b, 5, 412e6, "B/s");
    assert_int_equal(strlen(b), 4);
    assert_int_equal(b[7], 'x');
    fmt_duration(b, 0, 1); /* cap 0: nothing written */
    assert_int_equal(b[0], '4');
}

static void test_clock(void **state)
{
    (void)state;
    char b[FMT_BUF];
    setenv("TZ", "UTC", 1);
    tzset();
    /* 2020-06-10 00:15:09 UTC */
    int64_t t = 1591748109LL * 1000000 + 500000;
    assert_string_equal(fmt_clock(b, sizeof b, t, 60LL * 1000000), "00:15:09");
    assert_string_equal(fmt_clock(b, sizeof b, t, 3600LL * 1000000), "00:15");
}

static void test_date_zone_day(void **state)
{
    (void)state;
    char b[FMT_BUF];
    int64_t t = 1591748109LL * 1000000;   /* 2020-06-10 00:15:09 UTC */
    setenv("TZ", "UTC0", 1);
    tzset();
    assert_string_equal(fmt_date(b, sizeof b, t), "2020-06-10");
    assert_string_equal(fmt_zone(b, sizeof b, t), "UTC");
    assert_true(fmt_same_day(t, t + 23LL * 3600 * 1000000));
    assert_false(fmt_same_day(t, t + 24LL * 3600 * 1000000));
    /* New York is 4 h behind in June: the same instant is the day before */
    setenv("TZ", "EST5EDT,M3.2.0,M11.1.0", 1);
    tzset();
    assert_string_equal(fmt_date(b, sizeof b, t), "2020-06-09");
    assert_string_equal(fmt_zone(b, sizeof b, t), "EDT");
    assert_string_equal(fmt_clock(b, sizeof b, t, 0), "20:15:09");
    assert_false(fmt_same_day(t, t + 4LL * 3600 * 1000000));
    setenv("TZ", "UTC0", 1);
    tzset();
}

static void test_ago(void **state)
{
    (void)state;
    char b[FMT_BUF];
    const int64_t s = 1000000;
    assert_string_equal(fmt_ago(b, sizeof b, -5 * s), "0 s");
    assert_string_equal(fmt_ago(b, sizeof b, 44 * s), "44 s");
    assert_string_equal(fmt_ago(b, sizeof b, 3 * 60 * s + 59 * s), "3 m");
    assert_string_equal(fmt_ago(b, sizeof b, 5 * 3600 * s), "5 h");
    assert_string_equal(fmt_ago(b, sizeof b, 49 * 3600 * s), "2 d");
    assert_string_equal(fmt_ago(b, sizeof b, 2000LL * 86400 * s), "5 y");
}

static void test_unit_for_dimension(void **state)
{
    (void)state;
    assert_string_equal(fmt_unit_for_dimension("CPUUtilization"), "%");
    assert_string_equal(fmt_unit_for_dimension("MemoryUsedPercent"), "%");
    assert_string_equal(fmt_unit_for_dimension("ReadBytesPerSec"), "B/s");
    assert_string_equal(fmt_unit_for_dimension("WriteBytes"), "B");
    assert_string_equal(fmt_unit_for_dimension("Algorithm"), "");
    assert_string_equal(fmt_unit_for_dimension(NULL), "");
    assert_string_equal(fmt_unit_for_dimension("ReadThroughputMB"), "B/s");
    assert_string_equal(fmt_unit_for_dimension("ReceivedMBps"), "B/s");
    assert_string_equal(fmt_unit_for_dimension("GPUMemoryUtilization"), "%");
    assert_float_equal(fmt_scale_for_dimension("ReadThroughputMB"), 1e6, 0);
    assert_float_equal(fmt_scale_for_dimension("SentMBps"), 1e6, 0);
    assert_float_equal(fmt_scale_for_dimension("ReadKBytesPerSec"), 1e3, 0);
    assert_float_equal(fmt_scale_for_dimension("ReadBytesPerSec"), 1, 0);
    assert_float_equal(fmt_scale_for_dimension("CPUUtilization"), 1, 0);
    assert_float_equal(fmt_scale_for_dimension(NULL), 1, 0);
    assert_string_equal(fmt_unit_for_dimension("StepNumber"), "");
    assert_float_equal(fmt_scale_for_dimension("StepNumber"), 1, 0);
}

/* A table column keeps its width whatever the value. */
static void test_fit_keeps_width(void **s)
{
    (void)s;
    char b[FMT_BUF];
    assert_string_equal(fmt_fit(b, sizeof b, 12.345, 9, 2), "    12.35");
    assert_string_equal(fmt_fit(b, sizeof b, 1e308, 9, 2), "   1e+308");
    assert_string_equal(fmt_fit(b, sizeof b, -1e308, 9, 2), "  -1e+308");
    assert_string_equal(fmt_fit(b, sizeof b, 1.7976931348623157e308, 9, 2), " 1.8e+308");
    assert_string_equal(fmt_fit(b, sizeof b, -1.7976931348623157e308, 9, 2), "-1.8e+308");
    assert_string_equal(fmt_fit(b, sizeof b, 123456789.0, 9, 2), "1.235e+08");
    assert_string_equal(fmt_fit(b, sizeof b, 4.9e-324, 9, 2), "     0.00");
    assert_string_equal(fmt_fit(b, sizeof b, NAN, 9, 2), "      nan");
    assert_string_equal(fmt_fit(b, sizeof b, -INFINITY, 7, 1), "   -inf");
    for (double v = 1; v < 1e308; v *= 7.3)
        assert_int_equal(strlen(fmt_fit(b, sizeof b, -v, 9, 2)), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration_units),
        cmocka_unit_test(test_duration_step),
        cmocka_unit_test(test_duration_rounding_edges),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_si),
        cmocka_unit_test(test_truncates_never_overflows),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_date_zone_day),
        cmocka_unit_test(test_ago),
        cmocka_unit_test(test_unit_for_dimension),
        cmocka_unit_test(test_fit_keeps_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
