/* layout: at every size from 80x24 to 400x120 (and with each pane
 * zoomed) panes never overlap, never leave the screen, never cover the
 * header/status rows, and each is at least the minimum size; below 80x24
 * the too-small screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tui/dash/layout.h"
#include "tui/panes/pane.h"

static int overlap(const layout_rect *a, const layout_rect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w &&
           a->y < b->y + b->h && b->y < a->y + a->h;
}

static void check(int rows, int cols, size_t n, int zoomed)
{
    layout l;
    layout_compute(rows, cols, n, zoomed, &l);
    assert_false(l.too_small);
    assert_int_equal(l.npanes, n);
    long area = 0;
    for (size_t i = 0; i < n; i++) {
        const layout_rect *r = &l.pane[i];
        if (zoomed >= 0 && (int)i != zoomed) {
            assert_true(r->h == 0 || r->w == 0);
            continue;
        }
        if (r->h < LAYOUT_PANE_MIN_H || r->w < LAYOUT_PANE_MIN_W)
            fail_msg("%dx%d n=%zu zoom=%d: pane %zu is %dx%d", cols, rows, n, zoomed,
                     i, r->w, r->h);
        assert_true(r->x >= 0 && r->x + r->w <= cols);
        assert_true(r->y >= LAYOUT_HEADER_H && r->y + r->h <= rows - 1);  /* header, status */
        for (size_t k = 0; k < i; k++)
            if (overlap(r, &l.pane[k]))
                fail_msg("%dx%d n=%zu: panes %zu and %zu overlap", cols, rows, n, k, i);
        area += (long)r->h * r->w;
    }
    /* The panes tile the body: no cell is left blank (stale). */
    assert_int_equal(area, (long)(rows - 1 - LAYOUT_HEADER_H) * cols);
    assert_int_equal(l.header.y, 0);
    assert_int_equal(l.status.y, rows - 1);
}

static void test_every_size_registered_panes(void **s)
{
    (void)s;
    size_t n = panes_count();
    assert_true(n >= 3);
    for (int rows = 24; rows <= 120; rows += 1)
        for (int cols = 80; cols <= 400; cols += 3) {
            check(rows, cols, n, -1);
            for (int z = 0; z < (int)n; z++)
                check(rows, cols, n, z);
        }
}

static void test_room_for_python_and_alerts(void **s)
{
    (void)s;
    /* Five panes (system, heatmap, steps, python, alerts) fit everywhere. */
    for (size_t n = 1; n <= 5; n++)
        for (int rows = 24; rows <= 120; rows += 2)
            for (int cols = 80; cols <= 400; cols += 7)
                check(rows, cols, n, -1);
}

static void test_wide_puts_main_pane_left(void **s)
{
    (void)s;
    layout l;
    layout_compute(60, 200, 3, -1, &l);
    assert_int_equal(l.pane[0].x, 0);
    assert_int_equal(l.pane[0].h, 60 - 1 - LAYOUT_HEADER_H);
    assert_true(l.pane[1].x > 0 && l.pane[1].x == l.pane[2].x);
    layout_compute(24, 80, 3, -1, &l);   /* narrow: main on top */
    assert_int_equal(l.pane[0].w, 80);
    assert_true(l.pane[1].y > l.pane[0].y);
}

static void test_too_small(void **s)
{
    (void)s;
    layout l;
    int sizes[][2] = {{23, 80}, {24, 79}, {20, 60}, {1, 1}, {0, 0}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        layout_compute(sizes[i][0], sizes[i][1], 3, -1, &l);
        assert_true(l.too_small);
        assert_int_equal(l.npanes, 0);
    }
    layout_compute(24, 80, 3, -1, &l);
    assert_false(l.too_small);
}

static void test_pane_at(void **s)
{
    (void)s;
    layout l;
    layout_compute(60, 200, 3, -1, &l);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(layout_pane_at(&l, l.pane[i].y + 1, l.pane[i].x + 1), (int)i);
    assert_int_equal(layout_pane_at(&l, 0, 0), -1);      /* header */
    assert_int_equal(layout_pane_at(&l, 59, 10), -1);    /* status */
    layout_compute(60, 200, 3, 1, &l);
    assert_int_equal(layout_pane_at(&l, 30, 100), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_size_registered_panes),
        cmocka_unit_test(test_room_for_python_and_alerts),
        cmocka_unit_test(test_wide_puts_main_pane_left),
        cmocka_unit_test(test_too_small),
        cmocka_unit_test(test_pane_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
