/* Unit tests for the system pane's pure helpers (tui/panes/pane_system.h):
 * which charts a node gets, rows per chart, scale, gaps, current value,
 * scrolling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model_fixture.h"

#include "model/model.h"
#include "tui/panes/pane_common.h"
#include "tui/panes/pane_system.h"

#define T0 1600000000000000LL

static model *make_job(void)
{
    model *m = model_new(NULL);
    assert_non_null(m);
    for (int i = 0; i < 10; i++) {
        int64_t t = T0 + i * 500000LL;
        fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu0", t, 20 + i);
        fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu1", t, 40 + i);
        fx_sample(m, "algo-1", "gpu", "GPUUtilization", "gpu0", t, 90);
        fx_sample(m, "algo-1", "gpu", "GPUMemoryUtilization", "gpu0", t, 30);
        fx_sample(m, "algo-1", "memory", "MemoryUsedPercent", "MemoryUsedPercent", t, 12);
        fx_sample(m, "algo-1", "i/o", "ReadBytesPerSec", "nvme0n1", t, 4e8);
        fx_sample(m, "algo-1", "i/o", "WriteThroughputMB", "nvme0n1", t, 12);
        fx_sample(m, "algo-1", "Custom", "Algorithm", "loss", t, 0.5);
    }
    return m;
}

static int find_label(const sys_metric *ms, size_t n, const char *label)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(ms[i].label, label) == 0)
            return (int)i;
    return -1;
}

static void test_node_metrics(void **state)
{
    (void)state;
    model *m = make_job();
    const model_node *nd = model_find_node(m, "algo-1");
    sys_metric ms[32];
    size_t n = pane_system_node_metrics(nd, 0, ms, 32);
    int cpu = find_label(ms, n, "cpu"), gpu = find_label(ms, n, "gpu0");
    int gmem = find_label(ms, n, "gmem0"), mem = find_label(ms, n, "mem");
    int io = find_label(ms, n, "nvme0n1 read"), other = find_label(ms, n, "loss");
    int wr = find_label(ms, n, "nvme0n1 write");
    assert_int_equal(cpu, 0);
    assert_true(gpu > cpu && gmem > gpu && mem > gmem && io > mem && other > io);
    assert_int_equal(find_label(ms, n, " cpu0"), -1);
    assert_true(ms[cpu].util && ms[gpu].util && ms[gmem].util && ms[mem].util);
    assert_false(ms[io].util);     /* bytes: auto-scaled */
    assert_false(ms[other].util);  /* custom metric: arbitrary scale */
    assert_int_equal(ms[cpu].role, ROLE_GRAPH_CPU);
    assert_int_equal(ms[gmem].role, ROLE_GRAPH_GPUMEM);
    assert_int_equal(ms[io].role, ROLE_GRAPH_IO);
    /* Read and write of one disk are told apart, and MB become bytes. */
    assert_true(wr > mem && wr != io);
    assert_string_equal(ms[io].unit, "B/s");
    assert_float_equal(ms[io].scale, 1, 0);
    assert_string_equal(ms[wr].unit, "B/s");
    assert_float_equal(ms[wr].scale, 1e6, 0);
    assert_string_equal(ms[cpu].unit, "%");

    size_t with_cores = pane_system_node_metrics(nd, 1, ms, 32);
    assert_int_equal(with_cores, n + 2);
    assert_int_equal(find_label(ms, with_cores, " cpu1"), 2);
    /* A short output array is filled, never overrun. */
    assert_int_equal(pane_system_node_metrics(nd, 1, ms, 3), 3);
    model_free(m);
}

static void test_chart_rows(void **state)
{
    (void)state;
    assert_int_equal(pane_system_chart_rows(10, 4, 24), 1);  /* does not fit: compact */
    assert_int_equal(pane_system_chart_rows(22, 4, 6), 3);
    assert_int_equal(pane_system_chart_rows(200, 1, 6), 4);  /* capped */
    assert_int_equal(pane_system_chart_rows(3, 1, 0), 1);
    assert_int_equal(pane_system_chart_rows(0, 1, 5), 1);
    for (int h = 1; h < 100; h++)
        for (size_t k = 1; k < 30; k++) {
            int r = pane_system_chart_rows(h, 2, k);
            assert_true(r >= 1 && r <= 4);
            if (r > 1)
                assert_true(2 + (int)k * r <= h);
        }
}

static void test_scale_and_gaps(void **state)
{
    (void)state;
    series_bin b[4] = {{1, 2, 3, 5}, {0, 0, 0, 0}, {4, 6, 412, 2}, {0, 0, 0, 0}};
    assert_float_equal(sysview_scale_top(b, 4, 1), 100, 0);
    assert_float_equal(sysview_scale_top(b, 4, 0), 412, 0);
    series_bin none[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    assert_float_equal(sysview_scale_top(none, 2, 0), 1, 0);
    double v[4];
    assert_int_equal(sysview_bin_values(b, 4, v), 2);
    assert_float_equal(v[0], 2, 0);
    assert_true(isnan(v[1]));   /* a gap, not a zero */
    assert_float_equal(v[2], 6, 0);
    assert_true(isnan(v[3]));
}

static void test_current_value(void **state)
{
    (void)state;
    model *m = make_job();
    const model_node *nd = model_find_node(m, "algo-1");
    const series *s = model_node_find_series(nd, "cpu", "CPUUtilization", "cpu0");
    assert_non_null(s);
    series_bin b[8];
    double v = -1;
    /* Window holding the newest sample: that sample's value exactly. */
    series_query(s, T0, T0 + 10 * 500000LL, 8, b);
    assert_int_equal(sysview_current_value(s, T0, T0 + 10 * 500000LL, b, 8, &v), 1);
    assert_float_equal(v, 29, 1e-9);
    /* Window in the past: the last bin with data. */
    series_query(s, T0, T0 + 2 * 500000LL, 2, b);
    assert_int_equal(sysview_current_value(s, T0, T0 + 2 * 500000LL, b, 2, &v), 1);
    assert_float_equal(v, 21, 1e-9);
    /* Window with nothing: no value, *out untouched. */
    v = -1;
    series_query(s, T0 - 10000000, T0 - 5000000, 2, b);
    assert_int_equal(sysview_current_value(s, T0 - 10000000, T0 - 5000000, b, 2, &v), 0);
    assert_float_equal(v, -1, 0);
    model_free(m);
}

static void test_columns(void **state)
{
    (void)state;
    for (int W = 1; W <= 400; W++) {
        sys_columns c = pane_system_columns_for(W);
        int end = c.graph_x + c.graph_w;   /* first column after the graph */
        assert_true(c.graph_w >= 0);
        assert_int_equal(c.value_right, W - 1);
        if (c.avg_x >= 0) {
            assert_true(c.avg_x >= end && c.graph_w >= 100);
            end = c.avg_x + 13;
        }
        if (c.graph_w > 0) {
            assert_true(c.axis_x >= end);
            assert_true(c.axis_x + 9 <= W - 9);  /* scale and value columns stay free */
        }
        /* The graph takes what the numbers leave: no blank gap. */
        if (W >= 40 && c.avg_x < 0)
            assert_int_equal(c.graph_x + c.graph_w + 20, W);
    }
    sys_columns c = pane_system_columns_for(80);
    assert_int_equal(c.graph_x, 16);
    assert_int_equal(c.graph_w, 44);
    assert_int_equal(c.avg_x, -1);
    /* The 200-column System pane of the wide layout (118 inner columns):
     * the graph is 82 wide, not the 63 it was with fixed text columns. */
    c = pane_system_columns_for(118);
    assert_int_equal(c.graph_w, 82);
    c = pane_system_columns_for(200);
    assert_true(c.avg_x > 0 && c.graph_w >= 100);
}

static void test_scroll_top(void **state)
{
    (void)state;
    int h[5] = {7, 7, 7, 7, 7};   /* 35 lines */
    assert_int_equal(pane_system_scroll_line(0, 0, h, 5, 20), 0);
    /* Down: only as far as the selected block's end (lines 14-20). */
    assert_int_equal(pane_system_scroll_line(0, 2, h, 5, 20), 1);
    assert_int_equal(pane_system_scroll_line(1, 3, h, 5, 20), 8);
    assert_int_equal(pane_system_scroll_line(0, 4, h, 5, 20), 15);
    /* Up: its start at the top; within view: no move. */
    assert_int_equal(pane_system_scroll_line(15, 1, h, 5, 20), 7);
    assert_int_equal(pane_system_scroll_line(8, 2, h, 5, 20), 8);
    /* A top left over from a taller pane or a bigger block never shows
     * blank lines under the last node. */
    assert_int_equal(pane_system_scroll_line(28, 4, h, 5, 20), 15);
    assert_int_equal(pane_system_scroll_line(28, 3, h, 5, 20), 15);
    assert_int_equal(pane_system_scroll_line(9, 0, h, 5, 40), 0);
    /* A block taller than the pane: its start. */
    assert_int_equal(pane_system_scroll_line(0, 3, h, 5, 5), 21);
    assert_int_equal(pane_system_scroll_line(2, 9, h, 5, 20), 15);  /* selection clamped */
    assert_int_equal(pane_system_scroll_line(0, 0, h, 0, 20), 0);
    /* Generic list scrolling (heatmap rows). */
    assert_int_equal(pane_common_scroll_top(0, 10, 64, 8), 3);
    assert_int_equal(pane_common_scroll_top(5, 2, 64, 8), 2);
    assert_int_equal(pane_common_scroll_top(60, 63, 64, 8), 56);
    assert_int_equal(pane_common_scroll_top(9, 0, 4, 8), 0);
}

static void test_hold_gaps(void **state)
{
    (void)state;
    double v[8] = {NAN, 1, NAN, NAN, 4, NAN, 6, NAN};
    pane_system_hold_gaps(v, 8);
    assert_true(isnan(v[0]));                /* before the first sample: no data */
    assert_true(v[1] == 1 && v[2] == 1 && v[3] == 1 && v[4] == 4 && v[5] == 4 && v[6] == 6);
    assert_true(isnan(v[7]));                /* after the last: no data */
    double none[3] = {NAN, NAN, NAN};
    pane_system_hold_gaps(none, 3);
    assert_true(isnan(none[0]) && isnan(none[2]));
    pane_system_hold_gaps(NULL, 0);
}

/* A step window between samples (every 500 ms) shows the nearest one. */
static void test_step_samples(void **state)
{
    (void)state;
    model *m = make_job();
    const series *cpu = model_node_cpu_core(model_find_node(m, "algo-1"), 0);
    assert_non_null(cpu);
    double v[3], nv = 0;
    int have = 0;
    int64_t nt = 0;
    /* [T0 + 1.1 s, T0 + 1.3 s): no sample inside; nearest is T0 + 1.0 s (22) */
    size_t k = sysview_step_samples(cpu, T0 + 1100000, T0 + 1300000, v, 3, &have, &nt, &nv);
    assert_int_equal(k, 0);
    assert_true(have);
    assert_int_equal(nt, T0 + 1000000);
    assert_true(nv == 22);
    /* [T0 + 0.9 s, T0 + 2.1 s): 1.0, 1.5, 2.0 s inside */
    k = sysview_step_samples(cpu, T0 + 900000, T0 + 2100000, v, 3, &have, &nt, &nv);
    assert_int_equal(k, 3);
    assert_true(v[0] == 22 && v[1] == 23 && v[2] == 24);
    /* more than max: counted, not written past max */
    k = sysview_step_samples(cpu, T0, T0 + 5000000, v, 2, &have, &nt, &nv);
    assert_int_equal(k, 10);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_metrics),
        cmocka_unit_test(test_chart_rows),
        cmocka_unit_test(test_scale_and_gaps),
        cmocka_unit_test(test_current_value),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_scroll_top),
        cmocka_unit_test(test_hold_gaps),
        cmocka_unit_test(test_step_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
