/* Unit tests for diff mode's pieces: the Diff pane joins the panes only
 * with a baseline (panes_select), the change marks it shares with
 * `smtop diff` (report_diff_mark), the pane drawing a slowdown within
 * bounds at wide and 80x24 sizes, and the alerts pane taking start-up
 * rule options (pane_alerts_configure). */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>
#include <jansson.h>

#include "tui/panes/pane_ext.h"
#include "tui/panes/pane_alerts.h"
#include "tui/panes/pane_diff.h"
#include "tui/report/report_diff.h"
#include "tui/report/report_rules.h"
#include "tui/theme/theme.h"
#include "tui/panes/view.h"

static void test_select_only_with_baseline(void **state)
{
    (void)state;
    const pane_vtbl *out[16];
    size_t n = panes_select(0, out, 16);
    assert_int_equal(n, panes_count());
    for (size_t i = 0; i < n; i++)
        assert_ptr_not_equal(out[i], &pane_diff_vtbl);
    size_t m = panes_select(1, out, 16);
    assert_int_equal(m, panes_count() + 1);
    assert_ptr_equal(out[m - 1], &pane_diff_vtbl);   /* appended: numbers keep */
    assert_ptr_equal(out[0], panes_at(0));
    assert_int_equal(panes_select(1, out, 2), 2);     /* cap respected */
}

static json_t *row(double b, double t)
{
    json_t *r = json_pack("{s:s, s:s, s:s, s:f, s:f}", "node", "algo-1", "phase",
                          "Step:ModeKeys.TRAIN", "stat", "p50_us", "base_us", b, "target_us", t);
    json_object_set_new(r, "change_pct", b != 0 ? json_real((t - b) / b * 100) : json_null());
    return r;
}

static void test_marks(void **state)
{
    (void)state;
    char m[48];
    json_t *r = row(100, 150);
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), 1);
    assert_string_equal(m, "+50.0 % \u25b2");
    assert_int_equal(report_diff_mark(r, m, sizeof m, 0), 1);
    assert_string_equal(m, "+50.0 % +");
    json_decref(r);
    r = row(200, 150);
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), -1);
    assert_string_equal(m, "-25.0 % \u25bc");
    json_decref(r);
    r = row(100000, 100001);   /* 0.001 %: below the text diff's epsilon */
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), 0);
    assert_string_equal(m, "=");
    json_decref(r);
    r = row(0, 5);
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), 0);
    assert_string_equal(m, "(no baseline)");
    json_decref(r);
}

/* Draws the pane with `diff` in an h×w window framed by sentinels; the
 * text of the window goes to text. */
static void draw(const json_t *diff, int h, int w, wchar_t text[][256])
{
    theme *th = theme_default();
    theme_apply(th, THEME_MONO);
    view_state v;
    view_init(&v, GLYPHS_BRAILLE);
    dash_ext ext = {.diff = diff, .diff_gen = 1};
    pane_ctx c = {.view = &v, .th = th, .ext = &ext};
    pane *p = pane_diff_vtbl.create();
    WINDOW *outer = newwin(h + 2, w + 2, 0, 0);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            mvwaddch(outer, y, x, 'Z');
    WINDOW *inner = derwin(outer, h, w, 1, 1);
    pane_diff_vtbl.draw(p, inner, &c);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            if (!(y >= 1 && y <= h && x >= 1 && x <= w) &&
                (mvwinch(outer, y, x) & A_CHARTEXT) != 'Z')
                fail_msg("diff pane %dx%d wrote outside at (%d,%d)", w, h, y, x);
    for (int y = 0; y < h; y++) {
        text[y][0] = L'\0';
        mvwinnwstr(inner, y, 0, text[y], 255);
    }
    delwin(inner);
    delwin(outer);
    pane_diff_vtbl.destroy(p);
    theme_free(th);
}

static int find(wchar_t text[][256], int h, const wchar_t *needle)
{
    for (int y = 0; y < h; y++)
        if (wcsstr(text[y], needle))
            return y;
    return -1;
}

static void test_draw_slowdown(void **state)
{
    (void)state;
    json_t *d = json_pack("{s:s, s:s, s:[], s:[], s:[], s:[], s:i}", "base", "/b",
                          "target", "/t", "steps", "utilization", "breakdown", "python",
                          "changed", 1);
    json_array_append_new(json_object_get(d, "steps"), row(120000, 180000));
    wchar_t text[30][256];
    draw(d, 30, 120, text);
    assert_true(find(text, 30, L"1 changed vs baseline /b") == 0);
    int y = find(text, 30, L"algo-1 TRAIN p50");
    assert_true(y > 0);
    assert_non_null(wcsstr(text[y], L"120.0 ms \u2192 180.0 ms"));
    assert_non_null(wcsstr(text[y], L"+50.0 % \u25b2"));
    draw(d, 3, 38, text);   /* the 80x24 grid: current value and mark only */
    y = find(text, 3, L"algo-1 TRAIN p50");
    assert_true(y > 0);
    assert_non_null(wcsstr(text[y], L"180.0 ms +50.0 % \u25b2"));
    for (int h = 1; h < 6; h++)
        for (int w = 1; w < 50; w += 7)
            draw(d, h, w, text);
    draw(NULL, 3, 38, text);   /* before the first build */
    assert_true(find(text, 3, L"reading the current job") == 0);
    json_decref(d);
}

/* g is the graph-symbols key everywhere: the Diff pane goes back to its
 * top with Home (issue 14: the top was unreachable while g was shared),
 * and its key table says so. */
static void test_top_is_home_not_g(void **state)
{
    (void)state;
    pane *p = pane_diff_vtbl.create();
    pane_ctx c = {0};
    assert_int_equal(pane_diff_vtbl.on_key(p, 'g', &c), 0);
    assert_int_equal(pane_diff_vtbl.on_key(p, KEY_HOME, &c), 1);
    int home = 0;
    for (const pane_key *k = pane_diff_vtbl.keys; k && k->keys; k++) {
        home |= strstr(k->keys, "Home") != NULL;
        assert_null(strchr(k->keys, 'g'));
    }
    assert_true(home);
    pane_diff_vtbl.destroy(p);
}

static void test_alerts_configure(void **state)
{
    (void)state;
    pane *p = pane_alerts_vtbl.create();
    report_rules_opts o = {.no_config = 1, .n_overrides = 1};
    o.overrides[0] = "StepOutlier.stddev=4";
    sm_err err = {0};
    assert_int_equal(pane_alerts_configure(p, &o, &err), 0);
    o.overrides[0] = "StepOutlier.nope=4";
    assert_int_equal(pane_alerts_configure(p, &o, &err), -1);
    assert_int_equal(err.code, SM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "nope"));
    pane_alerts_vtbl.destroy(p);
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    setenv("XDG_CONFIG_HOME", "/nonexistent-smtop-test", 1);
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    if (!scr)
        scr = newterm("vt100", out, in);
    if (!scr)
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_only_with_baseline),
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_draw_slowdown),
        cmocka_unit_test(test_top_is_home_not_g),
        cmocka_unit_test(test_alerts_configure),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    return rc;
}
