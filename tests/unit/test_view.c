/* view: pure navigation transitions (live window, zoom, scrub, pause,
 * filter). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tui/view.h"

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
    assert_true(view_node_visible(&v, "algo-12"));
    assert_false(view_node_visible(&v, "algo-2"));
    assert_false(view_node_visible(&v, NULL));
    snprintf(v.filter, sizeof v.filter, "b88");
    assert_true(view_node_visible(&v, "905-b88ab1bb8259"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_window_ends_at_newest),
        cmocka_unit_test(test_zoom_halves_doubles_and_clamps),
        cmocka_unit_test(test_scrub_back_and_forward_to_live),
        cmocka_unit_test(test_pause_freezes_and_resumes),
        cmocka_unit_test(test_filter_substring_case_insensitive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
