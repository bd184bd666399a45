/* view: pure navigation transitions (live window, zoom, scrub, pause,
 * filter, the step cross-filter and what Esc undoes first). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tui/panes/view.h"

#define S 1000000LL
#define NEWEST (1700000000LL * S)

static void test_live_window_ends_at_newest(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_BLOCK);
    assert_true(v.live);
    assert_int_equal(v.glyphs, GLYPHS_BLOCK);
    int64_t t0, t1;
    view_window(&v, NEWEST, &t0, &t1);
    assert_true(t1 > NEWEST && t1 - NEWEST <= S);   /* newest sample inside [t0, t1) */
    assert_int_equal(t1 - t0, v.span_us);
    view_window(&v, NEWEST + 10 * S, &t0, &t1);       /* follows new data */
    assert_true(t1 > NEWEST + 10 * S);
}

static void test_zoom_halves_doubles_and_clamps(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    int64_t span = v.span_us;
    view_zoom(&v, 1);
    assert_int_equal(v.span_us, span / 2);
    view_zoom(&v, 0);
    view_zoom(&v, 0);
    assert_int_equal(v.span_us, span * 2);
    for (int i = 0; i < 40; i++)
        view_zoom(&v, 1);
    assert_int_equal(v.span_us, 30 * S);
    for (int i = 0; i < 40; i++)
        view_zoom(&v, 0);
    assert_int_equal(v.span_us, 7LL * 24 * 3600 * S);
}

static void test_scrub_back_and_forward_to_live(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    int64_t t0, t1, live_t1;
    view_window(&v, NEWEST, &t0, &live_t1);
    view_scrub(&v, 0, NEWEST);
    assert_false(v.live);
    view_window(&v, NEWEST + 60 * S, &t0, &t1);     /* frozen despite new data */
    assert_int_equal(t1, live_t1 - v.span_us / 2);
    view_scrub(&v, 0, NEWEST);
    view_window(&v, NEWEST, &t0, &t1);
    assert_int_equal(t1, live_t1 - v.span_us);
    view_scrub(&v, 1, NEWEST);
    assert_false(v.live);
    view_scrub(&v, 1, NEWEST);                       /* reaches the newest data */
    assert_true(v.live);
    view_scrub(&v, 0, NEWEST);
    view_go_live(&v);
    assert_true(v.live);
    assert_false(v.paused);
}

static void test_pause_freezes_and_resumes(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    int64_t t0, t1, p1;
    view_toggle_pause(&v, NEWEST);
    assert_true(v.paused);
    assert_false(v.live);
    view_window(&v, NEWEST, &t0, &p1);
    view_window(&v, NEWEST + 30 * S, &t0, &t1);
    assert_int_equal(t1, p1);
    view_toggle_pause(&v, NEWEST + 30 * S);
    assert_true(v.live);
    assert_false(v.paused);
    /* zoom while paused keeps the window's centre */
    view_toggle_pause(&v, NEWEST);
    view_window(&v, NEWEST, &t0, &t1);
    int64_t mid = (t0 + t1) / 2;
    view_zoom(&v, 1);
    view_window(&v, NEWEST, &t0, &t1);
    assert_true(llabs((t0 + t1) / 2 - mid) <= 1);
}

static void test_filter_substring_case_insensitive(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    assert_true(view_node_visible(&v, "algo-1"));
    snprintf(v.filter, sizeof v.filter, "ALGO-1");
    assert_true(view_node_visible(&v, "algo-1"));
    /* A number is never cut in two: /algo-1 is not algo-12 (issue 14). */
    assert_false(view_node_visible(&v, "algo-12"));
    assert_false(view_node_visible(&v, "algo-2"));
    assert_false(view_node_visible(&v, NULL));
    snprintf(v.filter, sizeof v.filter, "b88");
    assert_true(view_node_visible(&v, "905-b88ab1bb8259"));
    assert_false(view_filter_match("algo-6", "algo-60"));
    assert_true(view_filter_match("algo-6", "algo-6"));
    assert_false(view_filter_match("6", "algo-16"));
    assert_true(view_filter_match("algo", "algo-60"));
    assert_true(view_filter_match("algo-", "algo-60"));
    /* Alternatives and anchors. */
    assert_true(view_filter_match("algo-3|algo-60", "algo-60"));
    assert_true(view_filter_match("algo-3|algo-60", "algo-3"));
    assert_false(view_filter_match("algo-3|algo-60", "algo-6"));
    assert_true(view_filter_match("^algo", "algo-1"));
    assert_false(view_filter_match("^go", "algo-1"));
    assert_true(view_filter_match("-1$", "algo-1"));
    assert_false(view_filter_match("algo$", "algo-1"));
    assert_true(view_filter_match("", "x"));
    assert_true(view_filter_match("|", "x") == 0);
}

/* p / P: the Steps and Timeline panes' process pick cycles through the
 * node's writers and back to the whole node. */
static void test_process_cycle(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    const char *ids[] = {"0-algo-1", "1-algo-1", "2-algo-1"};
    assert_string_equal(v.process, "");
    view_cycle_process(&v, ids, 3, 1);
    assert_string_equal(v.process, "0-algo-1");
    view_cycle_process(&v, ids, 3, 1);
    view_cycle_process(&v, ids, 3, 1);
    assert_string_equal(v.process, "2-algo-1");
    view_cycle_process(&v, ids, 3, 1);
    assert_string_equal(v.process, "");          /* back to the node */
    view_cycle_process(&v, ids, 3, -1);
    assert_string_equal(v.process, "2-algo-1");
    view_cycle_process(&v, ids, 3, -1);
    assert_string_equal(v.process, "1-algo-1");
    /* a pick of another node counts as none */
    snprintf(v.process, sizeof v.process, "5-algo-9");
    view_cycle_process(&v, ids, 3, 1);
    assert_string_equal(v.process, "0-algo-1");
    /* one writer or none: nothing to pick */
    view_cycle_process(&v, ids, 1, 1);
    assert_string_equal(v.process, "");
    view_cycle_process(&v, NULL, 0, -1);
    assert_string_equal(v.process, "");
}

static void test_step_focus_window_and_clear(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    int64_t t0, t1, live0, live1;
    view_window(&v, NEWEST, &live0, &live1);
    view_focus_step(&v, 1234, NEWEST - 5 * S, NEWEST - 4 * S);
    assert_true(v.step_focus);
    assert_int_equal(v.step, 1234);
    view_window(&v, NEWEST + 60 * S, &t0, &t1);    /* the step's window, not live */
    assert_int_equal(t0, NEWEST - 5 * S);
    assert_int_equal(t1, NEWEST - 4 * S);
    view_focus_step(&v, 7, NEWEST, NEWEST);          /* empty span: still a window */
    view_window(&v, NEWEST, &t0, &t1);
    assert_true(t1 > t0);
    view_clear_step(&v);                             /* back to live as before */
    assert_false(v.step_focus);
    assert_true(v.live);
    view_window(&v, NEWEST, &t0, &t1);
    assert_int_equal(t0, live0);
    assert_int_equal(t1, live1);
    /* a scrubbed view comes back scrubbed */
    view_scrub(&v, 0, NEWEST);
    int64_t h0, h1;
    view_window(&v, NEWEST, &h0, &h1);
    view_focus_step(&v, 3, NEWEST - 2 * S, NEWEST - S);
    view_clear_step(&v);
    view_window(&v, NEWEST, &t0, &t1);
    assert_int_equal(t1, h1);
    assert_false(v.live);
}

static void test_step_focus_esc_order(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    assert_int_equal(view_esc_target(&v), VIEW_ESC_NONE);
    view_focus_step(&v, 9, NEWEST - S, NEWEST);
    v.zoomed = 1;
    assert_int_equal(view_esc_target(&v), VIEW_ESC_ZOOM);   /* zoom first */
    v.zoomed = 0;
    assert_int_equal(view_esc_target(&v), VIEW_ESC_STEP);   /* then the focus */
    view_clear_step(&v);
    assert_int_equal(view_esc_target(&v), VIEW_ESC_NONE);
    v.zoomed = 1;
    assert_int_equal(view_esc_target(&v), VIEW_ESC_ZOOM);
}

static void test_step_focus_live_and_leave(void **s)
{
    (void)s;
    view_state v;
    view_init(&v, GLYPHS_ASCII);
    view_focus_step(&v, 9, NEWEST - 10 * S, NEWEST - 9 * S);
    view_go_live(&v);                                /* `0` leaves the focus too */
    assert_false(v.step_focus);
    assert_true(v.live);
    /* [ ] + - while focused: HISTORY centred on the step, then the action */
    int64_t mid = NEWEST - 60 * S - S / 2, t0, t1;
    view_focus_step(&v, 9, NEWEST - 61 * S, NEWEST - 60 * S);
    view_leave_step(&v);
    assert_false(v.step_focus);
    assert_false(v.live);
    assert_false(v.paused);
    view_window(&v, NEWEST, &t0, &t1);
    assert_int_equal(t1 - t0, v.span_us);
    assert_true(llabs((t0 + t1) / 2 - mid) <= 1);
    view_zoom(&v, 1);                                /* zoom keeps the step centred */
    view_window(&v, NEWEST, &t0, &t1);
    assert_true(llabs((t0 + t1) / 2 - mid) <= 1);
    int64_t before = v.end_us;                       /* not focused: a no-op */
    view_leave_step(&v);
    assert_int_equal(v.end_us, before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_window_ends_at_newest),
        cmocka_unit_test(test_zoom_halves_doubles_and_clamps),
        cmocka_unit_test(test_scrub_back_and_forward_to_live),
        cmocka_unit_test(test_pause_freezes_and_resumes),
        cmocka_unit_test(test_filter_substring_case_insensitive),
        cmocka_unit_test(test_process_cycle),
        cmocka_unit_test(test_step_focus_window_and_clear),
        cmocka_unit_test(test_step_focus_esc_order),
        cmocka_unit_test(test_step_focus_live_and_leave),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
