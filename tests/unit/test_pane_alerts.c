/* Unit tests for tui/panes/pane_alerts: order (most severe first), drawing
 * headlessly within bounds at many sizes, the zoomed detail with the
 * datapoints that crossed the threshold, `J` jumping the view to the
 * alert's span, and the `:set` command re-evaluating the held data. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "rules_fixture.h"
#include "tui/panes/pane_ext.h"
#include "tui/panes/pane_alerts.h"
#include "tui/theme/theme.h"
#include "tui/panes/view.h"
#include "model/view/viewbuild.h"

typedef struct fixture {
    SCREEN *scr;
    FILE *out, *in;
    theme *th;
    model *m;
    view_state v;
    dash_ext ext;      /* the snapshot the loader would publish */
    viewsnap *snap;
} fixture;

/* CPU bottleneck on algo-1 (gpu 5 %, cpu 95 % after patience) and a
 * GPU memory climb: CPUBottleneck (high) and GPUMemoryIncrease (medium). */
static model *make_job(void)
{
    model *m = model_new(NULL);
    for (int64_t k = 0; k < 1200; k++) {
        double g = k >= 1000 ? 5 : 80, mem = k >= 1000 ? 20 + (double)(k - 1000) / 10 : 20;
        fx_tick(m, "algo-1", k, 2, k >= 1000 ? 95 : 40, 1, &g, &mem);
    }
    return m;
}

static int setup(void **state)
{
    setlocale(LC_ALL, "C.UTF-8");
    setenv("XDG_CONFIG_HOME", "/nonexistent-smtop-test", 1);  /* no user rules.conf */
    fixture *f = calloc(1, sizeof *f);
    f->out = fopen("/dev/null", "w");
    f->in = fopen("/dev/null", "r");
    static const char *terms[] = {"xterm-256color", "xterm", "vt100"};
    for (size_t i = 0; i < 3 && !f->scr; i++)
        f->scr = newterm(terms[i], f->out, f->in);
    if (!f->scr)
        return -1;
    f->th = theme_default();
    theme_apply(f->th, THEME_MONO);
    f->m = make_job();
    view_init(&f->v, GLYPHS_ASCII);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    endwin();
    delscreen(f->scr);
    fclose(f->out);
    fclose(f->in);
    theme_free(f->th);
    viewsnap_unref(f->snap);
    model_free(f->m);
    free(f);
    return 0;
}

/* A context with the snapshot the loader would build from p's parameters
 * (the pane itself never evaluates). */
static pane_ctx make_ctx(fixture *f, pane *p)
{
    viewbuild *dv = viewbuild_new(pane_alerts_rules(p), f->m, NULL, NULL);
    assert_non_null(dv);
    viewsnap_unref(f->snap);
    f->snap = viewbuild_build(dv, 0);
    assert_non_null(f->snap);
    viewbuild_free(dv);
    f->ext.snap = f->snap;
    pane_ctx c;
    memset(&c, 0, sizeof c);
    c.ext = &f->ext;
    c.view = &f->v;
    c.th = f->th;
    view_window(&f->v, model_last_us(f->m), &c.t0_us, &c.t1_us);
    c.now_us = model_last_us(f->m);
    return c;
}

/* Draws into an h×w window inside a sentinel frame; fails on a write
 * outside. Leaves the text in text[h][512] when text is non-NULL. */
static void draw_framed(fixture *f, pane *p, int h, int w, wchar_t text[][512])
{
    WINDOW *outer = newwin(h + 2, w + 2, 0, 0);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            mvwaddch(outer, y, x, 'Z');
    WINDOW *inner = derwin(outer, h, w, 1, 1);
    pane_ctx c = make_ctx(f, p);
    pane_alerts_vtbl.draw(p, inner, &c);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            if (!(y >= 1 && y <= h && x >= 1 && x <= w) &&
                (mvwinch(outer, y, x) & A_CHARTEXT) != 'Z')
                fail_msg("alerts pane %dx%d wrote outside at (%d,%d)", w, h, y, x);
    for (int y = 0; y < h && text; y++) {
        text[y][0] = L'\0';
        mvwinnwstr(inner, y, 0, text[y], 511);
    }
    delwin(inner);
    delwin(outer);
}

static int row_of(wchar_t text[][512], int h, const wchar_t *needle)
{
    for (int y = 0; y < h; y++)
        if (wcsstr(text[y], needle))
            return y;
    return -1;
}

static void test_order_and_bounds(void **state)
{
    fixture *f = *state;
    pane *p = pane_alerts_vtbl.create();
    assert_non_null(p);
    static const int sizes[][2] = {{1, 1}, {2, 5}, {3, 28}, {6, 38}, {24, 80}, {50, 200}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        draw_framed(f, p, sizes[s][0], sizes[s][1], NULL);
    static wchar_t t[24][512];
    draw_framed(f, p, 24, 120, t);
    assert_true(wcsstr(t[0], L"2 alerts: 1 high, 1 medium") != NULL);
    /* Row 1 names the counter column: fired/checked. */
    assert_int_equal(row_of(t, 24, L"fired/checked"), 1);
    assert_int_equal(row_of(t, 24, L"[HIGH] CPUBottleneck"), 2);
    assert_int_equal(row_of(t, 24, L"[MED ] GPUMemoryIncrease"), 3);
    /* then every ok rule, then every rule without data */
    int last_ok = -1, first_nd = 99;
    for (int y = 0; y < 24; y++) {
        if (wcsstr(t[y], L"[ ok ]"))
            last_ok = y;
        if (wcsstr(t[y], L"[ -- ]") && y < first_nd)
            first_nd = y;
    }
    assert_true(last_ok > 2 && first_nd > last_ok && first_nd < 99);
    assert_true(row_of(t, 24, L"[ -- ] IOBottleneck") > last_ok);
    pane_alerts_vtbl.destroy(p);
}

static void test_zoomed_detail_and_jump(void **state)
{
    fixture *f = *state;
    pane *p = pane_alerts_vtbl.create();
    static wchar_t t[40][512];
    f->v.zoomed = 1;
    draw_framed(f, p, 40, 160, t);
    assert_true(row_of(t, 40, L"params threshold=50 gpu_threshold=10") > 0);
    assert_true(row_of(t, 40, L"worst: algo-1") > 0);
    assert_true(row_of(t, 40, L"gpu 5.0%, cpu 95.0%") > 0);   /* a datapoint */
    pane_ctx c = make_ctx(f, p);
    assert_int_equal(pane_alerts_vtbl.on_key(p, 'J', &c), 1);
    assert_int_equal(f->v.live, 0);
    /* the bottleneck run is ticks 1000..1199: the window shows all of it */
    int64_t t0 = f->v.end_us - f->v.span_us;
    assert_true(t0 <= T0 + 1000 * DT);
    assert_true(f->v.end_us >= T0 + 1199 * DT);
    f->v.zoomed = 0;
    view_go_live(&f->v);
    pane_alerts_vtbl.destroy(p);
}

static void test_set_command_reevaluates(void **state)
{
    fixture *f = *state;
    pane *p = pane_alerts_vtbl.create();
    pane_ctx c = make_ctx(f, p);
    uint64_t before = pane_alerts_vtbl.stamp(p, &c);
    char msg[256];
    sm_err e = {0};
    assert_int_equal(pane_alerts_command(p, "set CPUBottleneck.threshold=100", msg,
                                         sizeof msg, &e), 0);
    assert_non_null(strstr(msg, "CPUBottleneck.threshold=100"));
    assert_true(pane_alerts_vtbl.stamp(p, &c) != before);
    static wchar_t t[24][512];
    draw_framed(f, p, 24, 120, t);
    assert_int_equal(row_of(t, 24, L"[MED ] GPUMemoryIncrease"), 2);
    assert_true(row_of(t, 24, L"[ ok ] CPUBottleneck") > 2);
    assert_int_equal(pane_alerts_command(p, ":set StepOutlier.nope=1", msg, sizeof msg, &e), -1);
    assert_non_null(strstr(e.msg, "no parameter 'nope'"));
    pane_alerts_vtbl.destroy(p);
}

/* A pane too narrow for the columns leads each row with the key facts
 * (rule, node, how far), so a cut takes the least of it; the reason
 * follows without repeating the node. */
static void test_narrow_facts(void **state)
{
    fixture *f = *state;
    rule_result r = {.name = "Straggler", .status = RULE_TRIGGERED, .worst_pct = 28.6,
                     .violations = 1, .datapoints = 4};
    snprintf(r.node, sizeof r.node, "algo-3");
    char buf[128];
    pane_alerts_facts(&r, NULL, buf, sizeof buf);
    assert_string_equal(buf, "Straggler algo-3 +29% 1/4");
    r.status = RULE_OK;
    pane_alerts_facts(&r, NULL, buf, sizeof buf);
    assert_string_equal(buf, "Straggler 1/4");
    assert_string_equal(pane_alerts_message_tail("algo-3: median step", "algo-3"), "median step");
    assert_string_equal(pane_alerts_message_tail("7-algo-1 Step:TRAIN: 9", "7-algo-1"), "Step:TRAIN: 9");
    assert_string_equal(pane_alerts_message_tail("algo-30: x", "algo-3"), "algo-30: x");
    assert_string_equal(pane_alerts_message_tail("x", ""), "x");
    pane *p = pane_alerts_vtbl.create();
    static wchar_t t[6][512];
    draw_framed(f, p, 6, 38, t);
    int y = row_of(t, 6, L"[HIGH] CPUBottleneck algo-1");
    assert_true(y > 0);
    assert_null(wcsstr(t[y], L"algo-1: "));   /* said once */
    pane_alerts_vtbl.destroy(p);
}

static void test_jump_view_bounds(void **state)
{
    (void)state;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    pane_alerts_jump_view(&v, T0, T0 + 1000000);       /* 1 s: at least 30 s shown */
    assert_int_equal(v.span_us, 30000000);
    assert_true(v.end_us - v.span_us <= T0 && v.end_us >= T0 + 1000000);
    pane_alerts_jump_view(&v, T0, T0 + 3600000000LL);
    assert_int_equal(v.span_us, 7200000000LL);
    assert_int_equal(v.end_us, T0 + 3600000000LL + 1800000000LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_bounds),
        cmocka_unit_test(test_zoomed_detail_and_jump),
        cmocka_unit_test(test_set_command_reevaluates),
        cmocka_unit_test(test_jump_view_bounds),
        cmocka_unit_test(test_narrow_facts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
