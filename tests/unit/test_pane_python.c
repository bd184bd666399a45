/* The python pane's pure helpers: function text shortened from the left,
 * sanitized; the calls column; the name filter; sort cycling. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/pane_python.h"
#include "tui/sanitize.h"

static pystats_func fn(const char *file, int64_t line, const char *name)
{
    pystats_func f = {file, line, name, {1, 1, 0, 0}};
    return f;
}

static void test_func_text_fits_or_shortens(void **state)
{
    (void)state;
    char out[256];
    pystats_func f = fn("/usr/lib/python3/torch/nn/functional.py", 1234, "relu");
    pypane_func_text(&f, 80, out, sizeof out);
    assert_string_equal(out, "/usr/lib/python3/torch/nn/functional.py:1234(relu)");
    pypane_func_text(&f, 30, out, sizeof out);
    assert_string_equal(out, "~h/nn/functional.py:1234(relu)");  /* cut from the left */
    assert_true(sanitize_cols(out) <= 30);
    for (int cols = 1; cols < 60; cols++) {
        pypane_func_text(&f, cols, out, sizeof out);
        assert_true(sanitize_cols(out) <= cols);
    }
    /* the name cannot fit: cut at the end instead */
    pypane_func_text(&f, 8, out, sizeof out);
    assert_int_equal(sanitize_cols(out), 8);
    assert_int_equal(out[7], '~');
    pystats_func b = fn("~", 0, "<built-in method builtins.len>");
    pypane_func_text(&b, 80, out, sizeof out);
    assert_string_equal(out, "{built-in method builtins.len}");
}

static void test_func_text_sanitizes(void **state)
{
    (void)state;
    char out[256];
    pystats_func f = fn("a\x1b[31m.py", 1, "x\ty");
    pypane_func_text(&f, 80, out, sizeof out);
    assert_null(strchr(out, '\x1b'));
    assert_null(strchr(out, '\t'));
    /* wide characters: never more columns than asked, never a split char */
    pystats_func u = fn("数据/数据/数据/数据/loader.py", 3, "λ");
    for (int cols = 1; cols < 40; cols++) {
        pypane_func_text(&u, cols, out, sizeof out);
        assert_true(sanitize_cols(out) <= cols);
    }
}

static void test_calls_filter_sort(void **state)
{
    (void)state;
    char out[64];
    pystats_call c = {9, 9009, 0, 0};
    pypane_calls_text(&c, 1, out, sizeof out);
    assert_string_equal(out, "9009/9");
    c.pcalls = 9009;
    pypane_calls_text(&c, 1, out, sizeof out);
    assert_string_equal(out, "9009");
    pypane_calls_text(&c, 0, out, sizeof out);
    assert_string_equal(out, "-");
    c = (pystats_call){INT64_MAX, INT64_MAX, 0, 0};
    pypane_calls_text(&c, 1, out, sizeof out);
    assert_string_equal(out, "9.2e+18");
    pystats_func f = fn("torch/Module.py", 1, "Forward");
    assert_true(pypane_filter_match(&f, ""));
    assert_true(pypane_filter_match(&f, "forw"));
    assert_true(pypane_filter_match(&f, "MODULE"));
    assert_false(pypane_filter_match(&f, "backward"));
    pystats_sort k = PYSORT_TOTTIME;
    for (int i = 0; i < PYSORT_COUNT; i++)
        k = pypane_next_sort(k);
    assert_int_equal(k, PYSORT_TOTTIME);
    assert_int_equal(pypane_next_sort(PYSORT_TOTTIME), PYSORT_CUMTIME);
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_func_text_fits_or_shortens),
        cmocka_unit_test(test_func_text_sanitizes),
        cmocka_unit_test(test_calls_filter_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
