/* Unit tests for the steps pane's pure helpers (tui/panes/pane_steps.h):
 * histogram → rows, percentile rows, outlier threshold, strip, layout,
 * and which node/phase is shown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/model.h"
#include "tui/panes/pane_steps.h"
#include "model/view/stepsview.h"

static void test_hist_rows_one_bucket_per_row(void **state)
{
    (void)state;
    uint32_t c[PHASE_HIST_BUCKETS] = {0};
    c[10] = 3;
    c[11] = 5;
    c[15] = 2;
    steps_hist_row r[32];
    size_t n = pane_steps_hist_rows(c, PHASE_HIST_BUCKETS, 32, r);
    /* Empty buckets inside the span stay (a gap is information). */
    assert_int_equal(n, 6);
    assert_int_equal(r[0].b0, 10);
    assert_int_equal(r[0].count, 3);
    assert_int_equal(r[1].count, 5);
    assert_int_equal(r[2].count, 0);
    assert_int_equal(r[5].b0, 15);
    assert_int_equal(r[5].b1, 16);
    assert_int_equal(r[5].count, 2);
}

static void test_hist_rows_grouped(void **state)
{
    (void)state;
    uint32_t c[PHASE_HIST_BUCKETS] = {0};
    c[10] = 3;
    c[11] = 5;
    c[15] = 2;
    steps_hist_row r[2];
    size_t n = pane_steps_hist_rows(c, PHASE_HIST_BUCKETS, 2, r);
    assert_int_equal(n, 2);
    assert_int_equal(r[0].b0, 10);
    assert_int_equal(r[0].b1, 13);
    assert_int_equal(r[0].count, 8);
    assert_int_equal(r[1].b0, 13);
    assert_int_equal(r[1].b1, 16);
    assert_int_equal(r[1].count, 2);
}

static void test_hist_rows_preserve_total(void **state)
{
    (void)state;
    srand(7);
    for (int trial = 0; trial < 200; trial++) {
        uint32_t c[PHASE_HIST_BUCKETS] = {0};
        uint64_t total = 0;
        int k = rand() % 20;
        for (int i = 0; i < k; i++) {
            int b = rand() % PHASE_HIST_BUCKETS;
            uint32_t v = (uint32_t)(rand() % 1000);
            c[b] += v;
            total += v;
        }
        size_t max_rows = 1 + (size_t)(rand() % 40);
        steps_hist_row r[64];
        size_t n = pane_steps_hist_rows(c, PHASE_HIST_BUCKETS, max_rows, r);
        assert_true(n <= max_rows);
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(r[i].b0 < r[i].b1);
            if (i > 0)
                assert_int_equal(r[i].b0, r[i - 1].b1); /* contiguous */
            sum += r[i].count;
        }
        assert_int_equal(sum, total);
        if (total == 0)
            assert_int_equal(n, 0);
    }
}

static void test_hist_rows_empty(void **state)
{
    (void)state;
    uint32_t c[PHASE_HIST_BUCKETS] = {0};
    steps_hist_row r[4];
    assert_int_equal(pane_steps_hist_rows(c, PHASE_HIST_BUCKETS, 4, r), 0);
    c[3] = 1;
    assert_int_equal(pane_steps_hist_rows(c, PHASE_HIST_BUCKETS, 0, r), 0);
}

static void test_bucket_of_matches_model_bounds(void **state)
{
    (void)state;
    for (size_t i = 1; i + 1 < PHASE_HIST_BUCKETS; i += 7) {
        double lo = phase_hist_lower_us(i), hi = phase_hist_lower_us(i + 1);
        assert_int_equal(pane_steps_bucket_of(lo), i);
        assert_int_equal(pane_steps_bucket_of((lo + hi) / 2), i);
    }
    assert_int_equal(pane_steps_bucket_of(0), 0);
    assert_int_equal(pane_steps_bucket_of(1e30), PHASE_HIST_BUCKETS - 1);
}

static void test_row_of(void **state)
{
    (void)state;
    steps_hist_row r[2] = {{10, 13, 8}, {13, 16, 2}};
    assert_int_equal(pane_steps_row_of(r, 2, 10), 0);
    assert_int_equal(pane_steps_row_of(r, 2, 12), 0);
    assert_int_equal(pane_steps_row_of(r, 2, 13), 1);
    assert_int_equal(pane_steps_row_of(r, 2, 16), 2);
    assert_int_equal(pane_steps_row_of(r, 2, 9), 2);
}

static void test_outlier_threshold(void **state)
{
    (void)state;
    phase_summary s = {0};
    s.count = 5;
    assert_true(isinf(pane_steps_outlier_threshold(&s)));
    assert_true(isinf(pane_steps_outlier_threshold(NULL)));
    s.count = 1000;
    s.mean_us = 100;
    s.stddev_us = 10;
    s.p50_us = 100;
    s.p99_us = 200;
    assert_float_equal(pane_steps_outlier_threshold(&s), 130.0, 1e-9); /* mean + 3σ */
    s.p99_us = 120;
    assert_float_equal(pane_steps_outlier_threshold(&s), 120.0, 1e-9); /* p99 lower */
    s.stddev_us = 0.1;
    s.p99_us = 100.5;
    assert_float_equal(pane_steps_outlier_threshold(&s), 110.0, 1e-9); /* noise floor */
}

static void test_strip(void **state)
{
    (void)state;
    int64_t d[6] = {100, 100, 400, 100, 200, 100};
    double f[6];
    int o[6];
    /* 2 columns × 2 per column: the newest 4 durations. */
    size_t m = pane_steps_strip(d, 6, 2, 2, 300.0, f, o);
    assert_int_equal(m, 4);
    assert_float_equal(f[0], 1.0, 1e-12);   /* 400 is the strip's max */
    assert_float_equal(f[1], 0.25, 1e-12);
    assert_float_equal(f[2], 0.5, 1e-12);
    assert_int_equal(o[0], 1);
    assert_int_equal(o[1] + o[2] + o[3], 0);
    m = pane_steps_strip(d, 6, 100, 1, INFINITY, f, o);
    assert_int_equal(m, 6);
    assert_int_equal(o[2], 0);
    assert_int_equal(pane_steps_strip(d, 0, 10, 2, 1.0, f, o), 0);
}

static void test_layout_fills_height(void **state)
{
    (void)state;
    steps_layout l = pane_steps_layout_for(0);
    assert_int_equal(l.stats_rows + l.hist_rows + l.strip_rows, 0);
    for (int h = 2; h <= 120; h++) {
        l = pane_steps_layout_for(h);
        assert_int_equal(1 + l.stats_rows + l.hist_rows + l.strip_rows, h);
        assert_true(l.hist_rows >= 0);
        assert_true(l.stats_rows >= 1);
    }
    l = pane_steps_layout_for(3); /* the layout's smallest pane: 5 rows minus the border */
    assert_int_equal(l.stats_rows, 1);
    assert_int_equal(l.strip_rows, 1);
    assert_int_equal(l.hist_rows, 0);
    l = pane_steps_layout_for(6);
    assert_int_equal(l.strip_rows, 1);
    assert_int_equal(l.hist_rows, 3);
    l = pane_steps_layout_for(30);
    assert_int_equal(l.stats_rows, 2);
    assert_int_equal(l.strip_rows, 3);
    assert_int_equal(l.hist_rows, 24);
}

static void add_event(model *m, const char *node, const char *phase, int64_t start, int64_t dur)
{
    sm_event e;
    memset(&e, 0, sizeof e);
    e.node = sm_str_c(node);
    e.phase = sm_str_c(phase);
    e.name = sm_str_c("Step");
    e.start_us = start;
    e.dur_us = dur;
    e.step = start / 1000;
    assert_int_equal(model_add_event(m, &e), 0);
}

static void add_sample(model *m, const char *node, double v, int64_t ts)
{
    sm_sample s;
    memset(&s, 0, sizeof s);
    s.type = sm_str_c("cpu");
    s.dimension = sm_str_c("CPUUtilization");
    s.name = sm_str_c("cpu0");
    s.node = sm_str_c(node);
    s.value = v;
    s.ts_us = ts;
    assert_int_equal(model_add_sample(m, &s), 0);
}

static void test_pick_node_and_phase(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    assert_non_null(m);
    int64_t t0 = 1600000000000000LL;
    add_sample(m, "algo-1", 50, t0);
    add_sample(m, "algo-2", 50, t0);
    const model_node *nodes[2] = {model_find_node(m, "algo-1"), model_find_node(m, "algo-2")};
    assert_int_equal(stepsview_pick_node(nodes, 2, 0), -1); /* system metrics only */

    add_event(m, "algo-2", "Step:ModeKeys.TRAIN", t0, 100000);
    add_event(m, "algo-2", "Step:ModeKeys.EVAL", t0 + 200000, 50000);
    nodes[1] = model_find_node(m, "algo-2");
    assert_int_equal(stepsview_pick_node(nodes, 2, 0), 1); /* falls to the node with steps */
    assert_int_equal(stepsview_pick_node(nodes, 2, 1), 1);
    assert_int_equal(stepsview_pick_node(nodes, 2, 7), 1);

    assert_int_equal(stepsview_phase_index(nodes[1], NULL), 0);
    assert_int_equal(stepsview_phase_index(nodes[1], "Step:ModeKeys.EVAL"), 1);
    assert_int_equal(stepsview_phase_index(nodes[1], "Forward"), 0);
    model_free(m);
}

/* Steps 100..109 starting every 100 ms, each 90 ms but 103 and 107 slow. */
static size_t make_steps(phase_event *ev)
{
    const int64_t t0 = 1600000000000000LL;
    for (int i = 0; i < 10; i++) {
        ev[i].step = 100 + i;
        ev[i].start_us = t0 + i * 100000LL;
        ev[i].dur_us = (i == 3 || i == 7) ? 400000 : 90000;
    }
    return 10;
}

static void test_cursor_find(void **state)
{
    (void)state;
    phase_event ev[10];
    size_t n = make_steps(ev);
    assert_int_equal(pane_steps_cursor_find(ev, n, 0), n);           /* no cursor */
    assert_int_equal(pane_steps_cursor_find(ev, 0, ev[0].start_us), 0);
    assert_int_equal(pane_steps_cursor_find(ev, n, ev[4].start_us), 4);
    assert_int_equal(pane_steps_cursor_find(ev, n, ev[4].start_us + 5), 4);   /* anchor evicted */
    assert_int_equal(pane_steps_cursor_find(ev, n, ev[0].start_us - 5), 0);
    assert_int_equal(pane_steps_cursor_find(ev, n, ev[9].start_us + 1000000), 9);
}

static void test_next_outlier(void **state)
{
    (void)state;
    phase_event ev[10];
    size_t n = make_steps(ev);
    double thr = 200000;
    assert_int_equal(pane_steps_next_outlier(ev, n, n, thr, -1), 7);    /* newest first */
    assert_int_equal(pane_steps_next_outlier(ev, n, 7, thr, -1), 3);
    assert_int_equal(pane_steps_next_outlier(ev, n, 3, thr, -1), 7);    /* wraps */
    assert_int_equal(pane_steps_next_outlier(ev, n, 3, thr, 1), 7);
    assert_int_equal(pane_steps_next_outlier(ev, n, 7, thr, 1), 3);
    assert_int_equal(pane_steps_next_outlier(ev, n, 5, thr, 1), 7);
    assert_int_equal(pane_steps_next_outlier(ev, n, n, INFINITY, -1), n);   /* none */
    assert_int_equal(pane_steps_next_outlier(ev, 0, 0, thr, -1), 0);
    ev[3].dur_us = 90000;                                           /* the only one */
    assert_int_equal(pane_steps_next_outlier(ev, n, 7, thr, -1), 7);
}

static void test_strip_end_keeps_cursor_visible(void **state)
{
    (void)state;
    assert_int_equal(pane_steps_strip_end(100, 20, 100), 100);   /* no cursor: newest */
    assert_int_equal(pane_steps_strip_end(100, 20, 99), 100);
    assert_int_equal(pane_steps_strip_end(100, 20, 85), 100);    /* among the newest 20 */
    size_t end = pane_steps_strip_end(100, 20, 50);
    assert_true(end > 50 && end - 20 <= 50);                 /* inside the strip */
    assert_int_equal(end, 56);                               /* a quarter strip after */
    assert_int_equal(pane_steps_strip_end(100, 20, 10), 20);      /* full strip at the start */
    assert_int_equal(pane_steps_strip_end(100, 20, 0), 20);
    assert_int_equal(pane_steps_strip_end(10, 20, 3), 10);        /* all fit */
    assert_int_equal(pane_steps_strip_end(10, 0, 3), 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_rows_one_bucket_per_row),
        cmocka_unit_test(test_hist_rows_grouped),
        cmocka_unit_test(test_hist_rows_preserve_total),
        cmocka_unit_test(test_hist_rows_empty),
        cmocka_unit_test(test_bucket_of_matches_model_bounds),
        cmocka_unit_test(test_row_of),
        cmocka_unit_test(test_outlier_threshold),
        cmocka_unit_test(test_strip),
        cmocka_unit_test(test_layout_fills_height),
        cmocka_unit_test(test_pick_node_and_phase),
        cmocka_unit_test(test_cursor_find),
        cmocka_unit_test(test_next_outlier),
        cmocka_unit_test(test_strip_end_keeps_cursor_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
