/* Draws the system, heatmap and steps panes headlessly (newterm on
 * /dev/null) at sizes from 1x1 through the layout's minimum pane to a wide
 * screen, in every glyph set: they must not crash (run under ASan in CI),
 * must leave the cells around their window alone, and must show the text a
 * user needs; data strings arrive sanitized; stamps and keys behave.
 * (Curses itself clips a derived window, so the frame check guards the
 * window arithmetic, not wrapping: the panes cut every string to the
 * columns left via pane_common, which is what keeps rows from wrapping.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
#include <wchar.h>

#include <cmocka.h>

#include "model_fixture.h"

#include "model/model.h"
#include "tui/panes/pane.h"
#include "tui/panes/pane_common.h"
#include "tui/panes/panes_builtin.h"
#include "tui/panes/pane_timeline.h"
#include "tui/theme/theme.h"
#include "tui/panes/view.h"
#include "model/view/heatview.h"
#include "model/view/stepsview.h"
#include "model/view/sysview.h"

#define T0 1600000000000000LL

typedef struct fixture {
    SCREEN *scr;
    FILE *out, *in;
    theme *th;
    model *m;
    view_state v;
    viewdata *vd;   /* what the loader would publish for the pane drawn */
} fixture;

/* 4 nodes × 2 GPUs for 60 s; algo-3 is slow (low GPU util, long steps);
 * algo-4 has system metrics only. */
static model *make_job(void)
{
    model *m = model_new(NULL);
    static const char *nodes[4] = {"algo-1", "algo-2", "algo-3", "algo-4"};
    for (int i = 0; i < 120; i++) {
        int64_t t = T0 + i * 500000LL;
        for (int k = 0; k < 4; k++) {
            double g = k == 2 ? 40 : 90;
            fx_sample(m, nodes[k], "cpu", "CPUUtilization", "cpu0", t, 30 + (i % 10));
            fx_sample(m, nodes[k], "gpu", "GPUUtilization", "gpu0", t, g);
            fx_sample(m, nodes[k], "gpu", "GPUUtilization", "gpu1", t, g - 2);
            fx_sample(m, nodes[k], "gpu", "GPUMemoryUtilization", "gpu0", t, 50);
            fx_sample(m, nodes[k], "gpu", "GPUMemoryUtilization", "gpu1", t, 50);
        }
    }
    for (int s = 0; s < 100; s++)
        for (int k = 0; k < 3; k++) {
            int64_t dur = (k == 2 ? 160000 : 120000) + (s % 7) * 1000 + (s == 50 ? 600000 : 0);
            fx_step(m, nodes[k], s, T0 + s * 500000LL, dur);
            if (k == 0)
                fx_event(m, nodes[k], "Forward", "Step", s, T0 + s * 500000LL, dur / 3, 0);
        }
    return m;
}

static int setup(void **state)
{
    setlocale(LC_ALL, "C.UTF-8");
    fixture *f = calloc(1, sizeof *f);
    f->out = fopen("/dev/null", "w");
    f->in = fopen("/dev/null", "r");
    static const char *terms[] = {"xterm-256color", "xterm", "vt100"};
    for (size_t i = 0; i < 3 && !f->scr; i++)
        f->scr = newterm(terms[i], f->out, f->in);
    if (!f->scr) {
        fprintf(stderr, "no terminfo entry for xterm/vt100\n");
        return -1;
    }
    f->th = theme_default();
    assert_non_null(f->th);
    theme_apply(f->th, THEME_MONO);
    f->m = make_job();
    view_init(&f->v, GLYPHS_BRAILLE);
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
    viewdata_free(f->vd);
    model_free(f->m);
    free(f);
    return 0;
}

/* Builds the view data the loader would for the view and pane vt drawn
 * into w (NULL w: every pane's part, for stamps and keys). */
static void build_view(fixture *f, const pane_vtbl *vt, pane *p, WINDOW *w)
{
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.live = f->v.live;
    q.span_us = f->v.span_us;
    q.end_us = f->v.end_us;
    q.step_focus = f->v.step_focus;
    q.step_t0_us = f->v.step_t0_us;
    q.step_t1_us = f->v.step_t1_us;
    snprintf(q.filter, sizeof q.filter, "%s", f->v.filter);
    q.visible = view_filter_match;
    q.selected = f->v.selected_node;
    snprintf(q.process, sizeof q.process, "%s", f->v.process);
    if (w && vt && vt->request) {
        vt->request(p, w, &f->v, &q);
    } else {
        sysview_params sp = {.count = 1024};
        stepsview_params tp;
        memset(&tp, 0, sizeof tp);
        viewdata_ask_for(&q, &sysview_query, &sp, sizeof sp);
        viewdata_ask_for(&q, &heatview_query, NULL, 0);
        viewdata_ask_for(&q, &stepsview_query, &tp, sizeof tp);
    }
    viewdata_free(f->vd);
    f->vd = viewdata_build(f->m, &q, NULL, 0);
    assert_non_null(f->vd);
}

static pane_ctx make_ctx(fixture *f)
{
    pane_ctx c;
    memset(&c, 0, sizeof c);
    if (!f->vd) {
        build_view(f, NULL, NULL, NULL);
    } else if (viewdata_model_generation(f->vd) != model_generation(f->m)) {
        /* New data: the loader rebuilds for the same request. */
        viewdata_req q = *viewdata_request(f->vd);
        viewdata_free(f->vd);
        f->vd = viewdata_build(f->m, &q, NULL, 0);
        assert_non_null(f->vd);
    }
    c.vd = f->vd;
    c.view = &f->v;
    c.th = f->th;
    view_window(&f->v, model_last_us(f->m), &c.t0_us, &c.t1_us);
    c.now_us = model_last_us(f->m);
    return c;
}

/* Draws `vt` into an h×w window framed by sentinel cells; fails if any
 * sentinel changed. Leaves the inner window's text in text[h][512]. */
static void draw_framed(fixture *f, const pane_vtbl *vt, pane *p, int h, int w,
                        wchar_t text[][512])
{
    WINDOW *outer = newwin(h + 2, w + 2, 0, 0);
    assert_non_null(outer);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            mvwaddch(outer, y, x, 'Z');
    WINDOW *inner = derwin(outer, h, w, 1, 1);
    assert_non_null(inner);
    build_view(f, vt, p, inner);
    pane_ctx c = make_ctx(f);
    vt->draw(p, inner, &c);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++) {
            if (y >= 1 && y <= h && x >= 1 && x <= w)
                continue;
            chtype ch = mvwinch(outer, y, x);
            if ((ch & A_CHARTEXT) != 'Z')
                fail_msg("%s pane %dx%d wrote outside its window at (%d,%d)", vt->id, w, h, y, x);
        }
    for (int y = 0; y < h && text; y++) {
        text[y][0] = L'\0';
        mvwinnwstr(inner, y, 0, text[y], 511);
    }
    delwin(inner);
    delwin(outer);
}

static int screen_has(wchar_t text[][512], int h, const wchar_t *needle)
{
    for (int y = 0; y < h; y++)
        if (wcsstr(text[y], needle))
            return 1;
    return 0;
}

static void test_never_outside_window(void **state)
{
    fixture *f = *state;
    static const int sizes[][2] = {{3, 28}, {6, 38}, {10, 60}, {24, 80}, {58, 198}, {1, 1}, {2, 5}};
    const pane_vtbl *vts[3] = {&pane_system_vtbl, &pane_heatmap_vtbl, &pane_steps_vtbl};
    for (int g = 0; g < GLYPHS_COUNT; g++) {
        f->v.glyphs = (chart_glyphs)g;
        for (size_t k = 0; k < 3; k++) {
            pane *p = vts[k]->create();
            assert_non_null(p);
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                draw_framed(f, vts[k], p, sizes[s][0], sizes[s][1], NULL);
            vts[k]->destroy(p);
        }
    }
    f->v.glyphs = GLYPHS_BRAILLE;
}

static void test_system_content(void **state)
{
    fixture *f = *state;
    static wchar_t t[60][512];
    pane *p = pane_system_vtbl.create();
    draw_framed(f, &pane_system_vtbl, p, 60, 120, t);
    assert_true(screen_has(t, 60, L"algo-1"));
    assert_true(screen_has(t, 60, L"gpu1"));
    assert_true(screen_has(t, 60, L"gmem0"));
    assert_true(screen_has(t, 60, L"39.0%"));  /* newest cpu sample: 30 + 119 % 10 */
    assert_true(screen_has(t, 60, L"(system metrics only)"));
    /* 'c' shows per-core charts. */
    pane_ctx c = make_ctx(f);
    assert_int_equal(pane_system_vtbl.on_key(p, 'c', &c), 1);
    draw_framed(f, &pane_system_vtbl, p, 60, 120, t);
    assert_true(screen_has(t, 60, L"cpu0"));
    pane_system_vtbl.on_key(p, 'c', &c);
    pane_system_vtbl.destroy(p);
}

static void test_heatmap_marks_straggler(void **state)
{
    fixture *f = *state;
    static wchar_t t[20][512];
    f->v.glyphs = GLYPHS_ASCII;
    pane *p = pane_heatmap_vtbl.create();
    draw_framed(f, &pane_heatmap_vtbl, p, 20, 60, t);
    /* The straggler is the Straggler rule's (issue 26: one definition),
     * read from the snapshot: none here, so no node is marked on its
     * GPU alone, and the footer says the rules are still coming. */
    assert_false(screen_has(t, 20, L"! algo-3"));
    assert_true(screen_has(t, 20, L"straggler: evaluating rules"));
    assert_true(screen_has(t, 20, L">algo-1"));   /* selected, readable without color */
    assert_false(screen_has(t, 20, L"!>algo-1"));
    assert_true(screen_has(t, 20, L"89.0%"));      /* algo-1 mean GPU util */
    assert_true(screen_has(t, 20, L"#"));          /* readable without color */
    pane_heatmap_vtbl.destroy(p);
    f->v.glyphs = GLYPHS_BRAILLE;
}

static void test_steps_content_and_keys(void **state)
{
    fixture *f = *state;
    static wchar_t t[30][512];
    pane *p = pane_steps_vtbl.create();
    draw_framed(f, &pane_steps_vtbl, p, 30, 80, t);
    assert_true(screen_has(t, 30, L"TRAIN"));
    assert_true(screen_has(t, 30, L"n 100"));
    assert_true(screen_has(t, 30, L"p50"));
    assert_true(screen_has(t, 30, L"p99"));
    /* n / N cycle the node's phases, wrapping around; h l and the arrows
     * stay with the dashboard (they move between panes everywhere). */
    pane_ctx k = make_ctx(f);
    assert_int_equal(pane_steps_vtbl.on_key(p, 'l', &k), 0);
    assert_int_equal(pane_steps_vtbl.on_key(p, KEY_RIGHT, &k), 0);
    assert_int_equal(pane_steps_vtbl.on_key(p, 'h', &k), 0);
    /* Each draw is from a new snapshot: the keys after it read that one. */
    assert_int_equal(pane_steps_vtbl.on_key(p, 'n', &k), 1);
    draw_framed(f, &pane_steps_vtbl, p, 30, 80, t);
    assert_true(screen_has(t, 30, L"algo-1  Forward  (2/2"));
    k = make_ctx(f);
    pane_steps_vtbl.on_key(p, 'n', &k);
    draw_framed(f, &pane_steps_vtbl, p, 30, 80, t);
    assert_true(screen_has(t, 30, L"algo-1  TRAIN  (1/2"));
    k = make_ctx(f);
    pane_steps_vtbl.on_key(p, 'N', &k);
    draw_framed(f, &pane_steps_vtbl, p, 30, 80, t);
    assert_true(screen_has(t, 30, L"Forward"));
    k = make_ctx(f);
    pane_steps_vtbl.on_key(p, 'N', &k);
    assert_int_equal(pane_steps_vtbl.on_key(p, 'x', &k), 0);
    /* Selecting the metrics-only node falls back to a node with steps. */
    f->v.selected_node = 3;
    draw_framed(f, &pane_steps_vtbl, p, 30, 80, t);
    assert_true(screen_has(t, 30, L"algo-1"));
    f->v.selected_node = 2;
    pane_ctx c = make_ctx(f);
    uint64_t s1 = pane_steps_vtbl.stamp(p, &c);
    assert_int_equal(pane_steps_vtbl.stamp(p, &c), s1);
    fx_step(f->m, "algo-3", 100, T0 + 100 * 500000LL, 150000);
    c = make_ctx(f);
    assert_int_not_equal(pane_steps_vtbl.stamp(p, &c), s1);
    f->v.selected_node = 0;
    pane_steps_vtbl.destroy(p);
}

static void test_no_steps_message(void **state)
{
    fixture *f = *state;
    static wchar_t t[10][512];
    model *saved = f->m;
    f->m = model_new(NULL);
    viewdata_free(f->vd);
    f->vd = NULL;
    fx_sample(f->m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0, 10);
    pane *p = pane_steps_vtbl.create();
    draw_framed(f, &pane_steps_vtbl, p, 10, 70, t);
    assert_true(screen_has(t, 10, L"no framework trace events"));
    pane_ctx k = make_ctx(f);
    assert_int_equal(pane_steps_vtbl.on_key(p, 'l', &k), 0); /* h/l left to the dashboard */
    pane_steps_vtbl.destroy(p);
    viewdata_free(f->vd);
    f->vd = NULL;
    model_free(f->m);
    f->m = saved;
}

static void test_node_ids_sanitized(void **state)
{
    fixture *f = *state;
    static wchar_t t[20][512];
    model *saved = f->m;
    f->m = model_new(NULL);
    viewdata_free(f->vd);
    f->vd = NULL;
    fx_sample(f->m, "evil\x1b]0;pwned\x07-1", "gpu", "GPUUtilization", "gpu0", T0, 50);
    fx_step(f->m, "evil\x1b]0;pwned\x07-1", 1, T0, 1000);
    const pane_vtbl *vts[3] = {&pane_system_vtbl, &pane_heatmap_vtbl, &pane_steps_vtbl};
    for (size_t k = 0; k < 3; k++) {
        pane *p = vts[k]->create();
        draw_framed(f, vts[k], p, 20, 70, t);
        assert_true(screen_has(t, 20, L"evil?"));
        for (int y = 0; y < 20; y++)
            assert_null(wcschr(t[y], L'\x1b'));
        assert_false(screen_has(t, 20, L"pwned"));
        vts[k]->destroy(p);
    }
    viewdata_free(f->vd);
    f->vd = NULL;
    model_free(f->m);
    f->m = saved;
}

static void test_stamps_follow_view(void **state)
{
    fixture *f = *state;
    const pane_vtbl *vts[2] = {&pane_system_vtbl, &pane_heatmap_vtbl};
    for (size_t k = 0; k < 2; k++) {
        pane *p = vts[k]->create();
        pane_ctx c = make_ctx(f);
        uint64_t a = vts[k]->stamp(p, &c);
        assert_int_equal(vts[k]->stamp(p, &c), a);
        assert_int_equal(vts[k]->on_key(p, 'j', &c), 1);
        assert_int_equal(f->v.selected_node, 1);
        assert_int_not_equal(vts[k]->stamp(p, &c), a);
        vts[k]->on_key(p, 'k', &c);
        assert_int_equal(vts[k]->stamp(p, &c), a);
        vts[k]->on_key(p, 'k', &c);   /* stays at the top */
        assert_int_equal(f->v.selected_node, 0);
        vts[k]->destroy(p);
    }
}

/* System, Heatmap, Steps and Timeline draw from the loader's view data
 * alone: the context has no model (pane_ctx has none since keys stopped
 * taking the model lock); they still show their nodes. */
static void test_snapshot_panes_never_read_model(void **state)
{
    fixture *f = *state;
    const pane_vtbl *vts[4] = {&pane_system_vtbl, &pane_heatmap_vtbl, &pane_steps_vtbl,
                               &pane_timeline_vtbl};
    for (size_t k = 0; k < 4; k++) {
        pane *p = vts[k]->create();
        WINDOW *w = newwin(30, 120, 0, 0);
        build_view(f, vts[k], p, w);
        pane_ctx c = make_ctx(f);
        vts[k]->stamp(p, &c);
        vts[k]->draw(p, w, &c);
        wchar_t row[512];
        int found = 0;
        for (int y = 0; y < 30 && !found; y++) {
            row[0] = L'\0';
            mvwinnwstr(w, y, 0, row, 511);
            found = wcsstr(row, L"algo-") != NULL;
        }
        assert_true(found);
        delwin(w);
        vts[k]->destroy(p);
    }
}

/* The phase the Steps pane asks the loader for (its request). */
static const char *asked_phase(pane *p, fixture *f, viewdata_req *q)
{
    memset(q, 0, sizeof *q);
    pane_steps_vtbl.request(p, NULL, &f->v, q);
    assert_ptr_equal(q->ask[0].query, &stepsview_query);
    return ((const stepsview_params *)q->ask[0].params)->phase;
}

/* Keys and clicks work from the snapshot alone (no model in the context,
 * no lock): the selection moves and clamps to the nodes the filter passes
 * now, even a filter typed after the snapshot was built; n/N walk the
 * shown node's phases; f focuses a step; r picks a writer. */
static void test_keys_read_snapshot(void **state)
{
    fixture *f = *state;
    build_view(f, NULL, NULL, NULL);   /* System, Heatmap and Steps parts */
    pane_ctx c = make_ctx(f);
    pane *sys = pane_system_vtbl.create(), *heat = pane_heatmap_vtbl.create();
    assert_int_equal(pane_system_vtbl.on_key(sys, 'j', &c), 1);
    assert_int_equal(f->v.selected_node, 1);
    assert_int_equal(pane_heatmap_vtbl.on_key(heat, KEY_END, &c), 1);
    assert_int_equal(f->v.selected_node, 3);      /* 4 nodes */
    pane_system_vtbl.on_key(sys, 'j', &c);
    assert_int_equal(f->v.selected_node, 3);      /* the last stays the last */
    snprintf(f->v.filter, sizeof f->v.filter, "algo-1|algo-2");   /* typed since */
    assert_int_equal(pane_system_vtbl.on_key(sys, KEY_END, &c), 1);
    assert_int_equal(f->v.selected_node, 1);      /* 2 nodes pass it now */
    f->v.filter[0] = '\0';
    f->v.selected_node = 0;

    pane *st = pane_steps_vtbl.create();
    viewdata_req q;
    assert_int_equal(pane_steps_vtbl.on_key(st, 'n', &c), 1);
    assert_string_equal(asked_phase(st, f, &q), "Forward");
    assert_int_equal(pane_steps_vtbl.on_key(st, 'n', &c), 1);   /* before the answer */
    assert_string_equal(asked_phase(st, f, &q), "Step:ModeKeys.TRAIN");
    assert_int_equal(pane_steps_vtbl.on_key(st, 'N', &c), 1);
    assert_string_equal(asked_phase(st, f, &q), "Forward");
    /* f acts on the steps on screen (the snapshot's phase): the newest. */
    assert_int_equal(pane_steps_vtbl.on_key(st, 'f', &c), 1);
    assert_int_equal(f->v.step_focus, 1);
    assert_int_equal(f->v.step, 99);
    assert_string_equal(f->v.step_node, "algo-1");
    view_clear_step(&f->v);
    assert_int_equal(pane_steps_vtbl.on_key(st, 'r', &c), 1);
    f->v.process[0] = '\0';

    pane *tl = pane_timeline_vtbl.create();
    assert_int_equal(pane_timeline_vtbl.on_key(tl, 'R', &c), 1);
    f->v.process[0] = '\0';

    /* A click on the System pane's second node selects it. */
    WINDOW *w = newwin(30, 120, 0, 0);
    build_view(f, &pane_system_vtbl, sys, w);
    c = make_ctx(f);
    pane_system_vtbl.draw(sys, w, &c);
    int y = 0;
    wchar_t row[512];
    for (; y < 30; y++) {
        mvwinnwstr(w, y, 0, row, 511);
        if (wcsstr(row, L"algo-2"))
            break;
    }
    assert_true(y < 30);
    assert_int_equal(pane_system_vtbl.on_click(sys, y, 2, &c), 1);
    assert_int_equal(f->v.selected_node, 1);
    f->v.selected_node = 0;
    delwin(w);
    pane_timeline_vtbl.destroy(tl);
    pane_steps_vtbl.destroy(st);
    pane_heatmap_vtbl.destroy(heat);
    pane_system_vtbl.destroy(sys);
}

/* The primitive every pane draws text with cuts at the window edge (with a
 * visible '~') instead of letting curses wrap onto the next row. */
static void test_put_never_wraps(void **state)
{
    (void)state;
    WINDOW *w = newwin(2, 10, 0, 0);
    wchar_t row[2][64];
    werase(w);
    assert_int_equal(pane_common_put(w, 0, 5, -1, "abcdefghijkl", 0), 5);
    assert_int_equal(pane_common_put(w, 0, 20, -1, "outside", 0), 0);
    assert_int_equal(pane_common_put_right(w, 1, 3, -1, "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2", 0), 3);
    mvwinnwstr(w, 0, 0, row[0], 63);
    mvwinnwstr(w, 1, 0, row[1], 63);
    assert_true(wcscmp(row[0], L"     abcd~") == 0);
    /* Three 2-column characters in 4 columns: one fits, then the '~' mark,
     * right-aligned so the '~' sits in column 3. */
    assert_non_null(wcsstr(row[1], L"\u6f22~"));
    assert_int_equal(row[1][0], L' ');
    delwin(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_never_wraps),
        cmocka_unit_test(test_never_outside_window),
        cmocka_unit_test(test_system_content),
        cmocka_unit_test(test_heatmap_marks_straggler),
        cmocka_unit_test(test_steps_content_and_keys),
        cmocka_unit_test(test_no_steps_message),
        cmocka_unit_test(test_node_ids_sanitized),
        cmocka_unit_test(test_stamps_follow_view),
        cmocka_unit_test(test_snapshot_panes_never_read_model),
        cmocka_unit_test(test_keys_read_snapshot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
