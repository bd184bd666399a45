/* The python pane's pure helpers: function text shortened from the left,
 * sanitized; the calls column; the name filter; sort cycling. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui/panes/pane_python.h"
#include "tui/panes/pane_python_internal.h"
#include "tui/text/sanitize.h"

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
    pane_python_func_text(&f, 80, out, sizeof out);
    assert_string_equal(out, "/usr/lib/python3/torch/nn/functional.py:1234(relu)");
    pane_python_func_text(&f, 30, out, sizeof out);
    assert_string_equal(out, "~h/nn/functional.py:1234(relu)");  /* cut from the left */
    assert_true(sanitize_cols(out) <= 30);
    for (int cols = 1; cols < 60; cols++) {
        pane_python_func_text(&f, cols, out, sizeof out);
        assert_true(sanitize_cols(out) <= cols);
    }
    /* the name cannot fit: cut at the end instead */
    pane_python_func_text(&f, 8, out, sizeof out);
    assert_int_equal(sanitize_cols(out), 8);
    assert_int_equal(out[7], '~');
    pystats_func b = fn("~", 0, "<built-in method builtins.len>");
    pane_python_func_text(&b, 80, out, sizeof out);
    assert_string_equal(out, "{built-in method builtins.len}");
}

static void test_func_text_sanitizes(void **state)
{
    (void)state;
    char out[256];
    pystats_func f = fn("a\x1b[31m.py", 1, "x\ty");
    pane_python_func_text(&f, 80, out, sizeof out);
    assert_null(strchr(out, '\x1b'));
    assert_null(strchr(out, '\t'));
    /* wide characters: never more columns than asked, never a split char */
    pystats_func u = fn("数据/数据/数据/数据/loader.py", 3, "λ");
    for (int cols = 1; cols < 40; cols++) {
        pane_python_func_text(&u, cols, out, sizeof out);
        assert_true(sanitize_cols(out) <= cols);
    }
}

static void test_calls_filter_sort(void **state)
{
    (void)state;
    char out[64];
    pystats_call c = {9, 9009, 0, 0};
    pane_python_calls_text(&c, 1, out, sizeof out);
    assert_string_equal(out, "9009/9");
    c.pcalls = 9009;
    pane_python_calls_text(&c, 1, out, sizeof out);
    assert_string_equal(out, "9009");
    pane_python_calls_text(&c, 0, out, sizeof out);
    assert_string_equal(out, "-");
    c = (pystats_call){INT64_MAX, INT64_MAX, 0, 0};
    pane_python_calls_text(&c, 1, out, sizeof out);
    assert_string_equal(out, "9.2e+18");
    pystats_func f = fn("torch/Module.py", 1, "Forward");
    assert_true(pane_python_filter_match(&f, ""));
    assert_true(pane_python_filter_match(&f, "forw"));
    assert_true(pane_python_filter_match(&f, "MODULE"));
    assert_false(pane_python_filter_match(&f, "backward"));
    pystats_sort k = PYSORT_TOTTIME;
    for (int i = 0; i < PYSORT_COUNT; i++)
        k = pane_python_next_sort(k);
    assert_int_equal(k, PYSORT_TOTTIME);
    assert_int_equal(pane_python_next_sort(PYSORT_TOTTIME), PYSORT_CUMTIME);
}

static void put_window(pystats_store *st, const char *node, int64_t t0, int64_t t1,
                       const char *func)
{
    pystats_window info;
    memset(&info, 0, sizeof info);
    snprintf(info.node, sizeof info.node, "%s", node);
    info.profiler = PYPROF_CPROFILE;
    info.start_mode = info.end_mode = PYMODE_TRAIN;
    info.start_step = info.end_step = 5;
    info.start_us = t0;
    info.end_us = t1;
    pystats_win *w = pystats_win_new(st, &info);
    assert_non_null(w);
    pystats_func_rec f;
    memset(&f, 0, sizeof f);
    f.file = sm_str_c("train.py");
    f.line = 1;
    f.name = sm_str_c(func);
    f.c.ncalls = f.c.pcalls = 1;
    assert_int_equal(pystats_win_add(w, &f), 0);
    char key[64];
    snprintf(key, sizeof key, "%s/%lld", node, (long long)t0);
    assert_int_equal(pystats_store_put(st, key, w), 0);
}

/* The cross-filter: while focused on a step the pane merges every node's
 * windows overlapping the step, whatever the menu chose; after it, the
 * menu's choice again. */
static void test_selection_follows_step_focus(void **state)
{
    (void)state;
    const int64_t T = 1600000000000000LL;
    pystats_store *st = pystats_store_new();
    assert_non_null(st);
    put_window(st, "algo-1", T, T + 1000000, "before");
    put_window(st, "algo-2", T + 1500000, T + 2500000, "during");
    put_window(st, "algo-1", T + 9000000, T + 9500000, "after");
    pane *p = calloc(1, sizeof *p);
    assert_non_null(p);
    snprintf(p->node, sizeof p->node, "algo-1");     /* the menu chose a node */
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    pystats_select sel;
    pane_python_selection(p, &v, 0, 0, &sel);
    assert_string_equal(sel.node, "algo-1");
    view_focus_step(&v, 12, T + 2000000, T + 2200000);
    pane_python_selection(p, &v, 0, 0, &sel);
    assert_true(!sel.node || !sel.node[0]);          /* every node */
    pystats_result *r = pystats_store_query(st, &sel, NULL);
    assert_non_null(r);
    assert_int_equal(pystats_result_window_count(r), 1);
    assert_int_equal(pystats_result_count(r), 1);
    assert_string_equal(pystats_result_at(r, 0)->name, "during");
    pystats_result_free(r);
    view_focus_step(&v, 13, T + 5000000, T + 5100000);   /* between windows */
    pane_python_selection(p, &v, 0, 0, &sel);
    r = pystats_store_query(st, &sel, NULL);
    assert_non_null(r);
    assert_int_equal(pystats_result_window_count(r), 0);
    pystats_result_free(r);
    assert_int_equal(pane_python_profiler_windows(st, PYPROF_CPROFILE), 3);
    assert_int_equal(pane_python_profiler_windows(st, PYPROF_PYINSTRUMENT), 0);
    view_clear_step(&v);
    pane_python_selection(p, &v, 0, 0, &sel);
    assert_string_equal(sel.node, "algo-1");
    free(p);
    pystats_store_free(st);
}

/* `+ - [ ]`: a time window narrower than the job merges only the windows
 * overlapping it; one holding every window merges with no time bound (the
 * whole job); the menu's one window wins over the time window. */
static void test_selection_follows_time_window(void **state)
{
    (void)state;
    const int64_t T = 1600000000000000LL;
    pystats_store *st = pystats_store_new();
    assert_non_null(st);
    put_window(st, "algo-1", T, T + 1000000, "early");
    put_window(st, "algo-1", T + 9000000, T + 9500000, "late");
    pane *p = calloc(1, sizeof *p);
    assert_non_null(p);
    p->span_lo = T;
    p->span_hi = T + 9500000;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    pystats_select sel;
    pane_python_selection(p, &v, T + 8000000, T + 10000000, &sel);
    pystats_result *r = pystats_store_query(st, &sel, NULL);
    assert_non_null(r);
    assert_int_equal(pystats_result_window_count(r), 1);
    assert_string_equal(pystats_result_at(r, 0)->name, "late");
    pystats_result_free(r);
    pane_python_selection(p, &v, T - 1, T + 9500001, &sel);
    assert_int_equal(sel.t_lo_us, 0);
    assert_int_equal(sel.t_hi_us, 0);
    pane_python_selection(p, &v, -300000000, 0, &sel);   /* no samples, no events yet */
    assert_int_equal(sel.t_lo_us, 0);
    assert_int_equal(sel.t_hi_us, 0);
    p->t_lo = T;
    p->t_hi = T + 1;
    pane_python_selection(p, &v, T + 8000000, T + 10000000, &sel);
    r = pystats_store_query(st, &sel, NULL);
    assert_non_null(r);
    assert_int_equal(pystats_result_window_count(r), 1);
    assert_string_equal(pystats_result_at(r, 0)->name, "early");
    pystats_result_free(r);
    free(p);
    pystats_store_free(st);
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_func_text_fits_or_shortens),
        cmocka_unit_test(test_func_text_sanitizes),
        cmocka_unit_test(test_calls_filter_sort),
        cmocka_unit_test(test_selection_follows_step_focus),
        cmocka_unit_test(test_selection_follows_time_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
