/* progress: the progress line's words (tui/text/progress.h) from a pass's
 * counters: nothing before a second or when no pass runs, files and bytes
 * done of total in the total's unit, the rate, and the time left while
 * files are left. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/text/progress.h"

static scan_stats pass(int64_t files, int64_t pending, int64_t bytes, int64_t read)
{
    scan_stats st;
    memset(&st, 0, sizeof st);
    st.scanning = 1;
    st.pass_started_us = 1000000000;
    st.pass_files = files;
    st.files_pending = pending;
    st.pass_bytes = bytes;
    st.pass_bytes_read = read;
    return st;
}

/* The line at `at` µs into the pass, from PROGRESS_AFTER_US on. */
static int line_at(const scan_stats *st, int64_t at, char *out, size_t cap)
{
    return progress_line(st, st->pass_started_us + at, PROGRESS_AFTER_US, out, cap);
}

static void test_line(void **state)
{
    (void)state;
    char out[160];
    scan_stats st = pass(127, 115, 2420000000LL, 500000000LL);
    /* under a second: nothing */
    assert_int_equal(line_at(&st, 999999, out, sizeof out), 0);
    assert_string_equal(out, "");
    /* 2 s in: 0.5 of 2.42 GB at 250 MB/s, 7.68 s left */
    assert_int_equal(line_at(&st, 2000000, out, sizeof out), 1);
    assert_string_equal(out, "reading 12/127 files, 0.50/2.42 GB, 250 MB/s, 7.68 s left");
    /* every file read, the pass lists more: no time left to tell */
    st = pass(8, 0, 982000, 982000);
    assert_int_equal(line_at(&st, 10000000, out, sizeof out), 1);
    assert_string_equal(out, "reading 8/8 files, 982/982 kB, 98.2 kB/s");
    /* nothing read yet: no rate */
    st = pass(3, 3, 5000, 0);
    assert_int_equal(line_at(&st, 1500000, out, sizeof out), 1);
    assert_string_equal(out, "reading 0/3 files, 0.00/5.00 kB");
    /* the dashboard's first read: from its start */
    st = pass(3, 3, 5000, 0);
    assert_int_equal(progress_line(&st, st.pass_started_us, 0, out, sizeof out), 1);
    assert_string_equal(out, "reading 0/3 files, 0.00/5.00 kB");
    /* no pass, or a pass with nothing to read */
    st.scanning = 0;
    assert_int_equal(line_at(&st, 5000000, out, sizeof out), 0);
    st = pass(0, 0, 0, 0);
    assert_int_equal(line_at(&st, 5000000, out, sizeof out), 0);
    /* a short buffer is cut, and terminated */
    st = pass(127, 115, 2420000000LL, 500000000LL);
    assert_int_equal(line_at(&st, 2000000, out, 12), 1);
    assert_string_equal(out, "reading 12/");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
