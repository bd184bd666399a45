/* Unit tests for the timeline pane's pure helpers (tui/panes/pane_timeline.h):
 * bar split, slow-step marks, selection, data-loading share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "tui/panes/pane_timeline.h"

static step_breakdown mk(int64_t step, int64_t start, int64_t dur, int64_t data,
                         int64_t fwd, int64_t bwd, int64_t comm, int64_t other)
{
    step_breakdown b = {.step = step, .start_us = start, .dur_us = dur,
                        .cat_us = {data, fwd, bwd, comm}, .other_us = other};
    return b;
}

static int sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

static void test_bar_parts(void **state)
{
    (void)state;
    int out[TL_OTHER + 1];
    step_breakdown b = mk(1, 0, 100, 10, 30, 50, 0, 10);
    pane_timeline_bar_parts(&b, 10, out);
    assert_int_equal(out[SB_DATA], 1);
    assert_int_equal(out[SB_FORWARD], 3);
    assert_int_equal(out[SB_BACKWARD], 5);
    assert_int_equal(out[SB_COMM], 0);
    assert_int_equal(out[TL_OTHER], 1);
    /* Overlapping categories (comm during backward): still exactly 7 cells,
     * the largest remainders get the rounding cells. */
    b = mk(2, 0, 100, 20, 20, 40, 40, 0);
    pane_timeline_bar_parts(&b, 7, out);
    assert_int_equal(sum(out, TL_OTHER + 1), 7);
    assert_true(out[SB_BACKWARD] >= out[SB_DATA]);
    for (int cells = 1; cells < 50; cells++) {
        b = mk(3, 0, 97, 13, 29, 31, 7, 17);
        pane_timeline_bar_parts(&b, cells, out);
        assert_int_equal(sum(out, TL_OTHER + 1), cells);
    }
    b = mk(4, 0, 0, 0, 0, 0, 0, 0);     /* nothing to split */
    pane_timeline_bar_parts(&b, 5, out);
    assert_int_equal(sum(out, TL_OTHER + 1), 0);
}

/* A Kineto step's GPU split: in proportion, exactly `cells` in all. */
static void test_gpu_parts(void **state)
{
    (void)state;
    int out[TL_GPU_NPARTS];
    gpu_step g = {.step = 1, .dur_us = 1000, .compute_us = 90, .comm_us = 130, .memory_us = 0,
                  .idle_us = 780};
    pane_timeline_gpu_parts(&g, 100, out);
    assert_int_equal(out[TL_GPU_COMPUTE], 9);
    assert_int_equal(out[TL_GPU_COMM], 13);
    assert_int_equal(out[TL_GPU_MEMORY], 0);
    assert_int_equal(out[TL_GPU_IDLE], 78);
    for (int cells = 1; cells < 40; cells++) {
        pane_timeline_gpu_parts(&g, cells, out);
        assert_int_equal(sum(out, TL_GPU_NPARTS), cells);
    }
    gpu_step none = {0};
    pane_timeline_gpu_parts(&none, 9, out);
    assert_int_equal(sum(out, TL_GPU_NPARTS), 0);
    assert_string_equal(pane_timeline_gpu_part_name(TL_GPU_IDLE), "idle");
}

static void test_mark_slow(void **state)
{
    (void)state;
    step_breakdown b[6];
    const int64_t d[6] = {100, 101, 99, 300, 100, 250};
    for (int i = 0; i < 6; i++)
        b[i] = mk(i, 1000 * i, d[i], 0, 0, 0, 0, d[i]);
    int slow[6];
    pane_timeline_mark_slow(b, 6, 3, INFINITY, slow);
    /* The two long steps; the third longest (101) is jitter, not slow. */
    const int want[6] = {0, 0, 0, 1, 0, 1};
    for (int i = 0; i < 6; i++)
        assert_int_equal(slow[i], want[i]);
    pane_timeline_mark_slow(b, 6, 0, 99.5, slow);     /* by threshold alone */
    const int want_thr[6] = {1, 1, 0, 1, 1, 1};
    for (int i = 0; i < 6; i++)
        assert_int_equal(slow[i], want_thr[i]);
    pane_timeline_mark_slow(b, 0, 3, INFINITY, slow);  /* empty: nothing touched */
}

static void test_find_sel_and_share(void **state)
{
    (void)state;
    step_breakdown b[3] = {mk(7, 100, 10, 5, 0, 0, 0, 5), mk(8, 200, 30, 3, 0, 0, 0, 27),
                           mk(9, 300, 60, 12, 0, 0, 0, 48)};
    assert_int_equal(pane_timeline_find_sel(b, 3, 200), 1);
    assert_int_equal(pane_timeline_find_sel(b, 3, 0), 2);       /* newest */
    assert_int_equal(pane_timeline_find_sel(b, 3, 12345), 2);   /* gone: newest */
    assert_int_equal(pane_timeline_find_sel(b, 0, 200), 0);
    int64_t data, step;
    pane_timeline_data_share(b, 3, &data, &step);
    assert_int_equal(data, 20);
    assert_int_equal(step, 100);
    assert_string_equal(pane_timeline_view_name(TL_LOADER), "loader");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar_parts),
        cmocka_unit_test(test_gpu_parts),
        cmocka_unit_test(test_mark_slow),
        cmocka_unit_test(test_find_sel_and_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
