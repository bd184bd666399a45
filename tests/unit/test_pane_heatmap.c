/* Unit tests for the heatmap's pure helpers (tui/panes/pane_heatmap.h): the
 * character ramp, the median and straggler detection, cell geometry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "tui/panes/pane_heatmap.h"

static void test_ramp(void **state)
{
    (void)state;
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, 0.0), L' ');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, 0.01), L'.');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, 0.124), L'.');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, 0.126), L':');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, 1.0), L'@');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, 7.0), L'@');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, -1.0), L' ');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_ASCII, NAN), L'-');
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_BLOCK, 1.0), 0x2588);
    assert_int_equal(pane_heatmap_ramp_char(GLYPHS_BRAILLE, 0.01), 0x2581);
    /* 50 % and 70 % differ, with and without colour (issue 14). */
    assert_true(pane_heatmap_ramp_char(GLYPHS_BRAILLE, 0.5) != pane_heatmap_ramp_char(GLYPHS_BRAILLE, 0.7));
    assert_true(pane_heatmap_ramp_char(GLYPHS_ASCII, 0.5) != pane_heatmap_ramp_char(GLYPHS_ASCII, 0.7));
    /* Monotonic: more load never gets a lighter glyph. */
    const wchar_t order[] = L" .:-=+*#@";
    int last = 0;
    for (int i = 0; i <= 100; i++) {
        wchar_t c = pane_heatmap_ramp_char(GLYPHS_ASCII, i / 100.0);
        int k = 0;
        while (order[k] != c)
            k++;
        assert_true(k >= last);
        last = k;
    }
}

static void test_median(void **state)
{
    (void)state;
    double a[] = {5, 1, 3};
    assert_float_equal(straggler_median(a, 3), 3, 1e-12);
    double b[] = {4, NAN, 1, 3, 2};
    assert_float_equal(straggler_median(b, 5), 2.5, 1e-12);
    double c[] = {NAN, NAN};
    assert_true(isnan(straggler_median(c, 2)));
    assert_true(isnan(straggler_median(c, 0)));
    assert_float_equal(a[0], 5, 0); /* input untouched */
}

static void test_sort_order(void **state)
{
    (void)state;
    double gpu[] = {80, 55, NAN, 79, 82};
    double p50[] = {120e3, 121e3, 300e3, NAN, 119e3};
    size_t o[5];
    pane_heatmap_sort_order(HEAT_SORT_NAME, gpu, p50, 5, o);
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(o[i], i);
    pane_heatmap_sort_order(HEAT_SORT_WORST_GPU, gpu, p50, 5, o);
    size_t worst[] = {1, 3, 0, 4, 2};        /* no GPU value last */
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(o[i], worst[i]);
    pane_heatmap_sort_order(HEAT_SORT_SLOWEST_STEP, gpu, p50, 5, o);
    size_t slow[] = {2, 1, 0, 4, 3};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(o[i], slow[i]);
    /* Stragglers: node 2's steps are 2.5x the median, node 1's GPU 31 % off. */
    pane_heatmap_sort_order(HEAT_SORT_STRAGGLERS, gpu, p50, 5, o);
    assert_int_equal(o[0], 2);
    assert_int_equal(o[1], 1);
    assert_string_equal(pane_heatmap_sort_name(HEAT_SORT_WORST_GPU), "worst gpu");
}

static void test_cell_geometry(void **state)
{
    (void)state;
    int cw, gap;
    for (int width = 28; width <= 400; width++)
        for (int ncols = 1; ncols <= 18; ncols++) {
            pane_heatmap_cell_geometry(width, 10, ncols, 7, &cw, &gap);
            assert_true(cw >= 1 && cw <= 6);
            assert_true(gap == 0 || gap == 1);
            /* Fits whenever one column per cell fits at all. */
            if (width - 17 >= ncols)
                assert_true(10 + ncols * (cw + gap) + 7 <= width + gap);
        }
    pane_heatmap_cell_geometry(80, 10, 4, 7, &cw, &gap);
    assert_int_equal(cw, 6);
    assert_int_equal(gap, 1);
}

static void test_sort_values(void **state)
{
    (void)state;
    double gpu[] = {80, 55, NAN, 79, 82};
    double p50[] = {120e3, 121e3, 300e3, NAN, 119e3};
    double v[5];
    pane_heatmap_sort_values(HEAT_SORT_WORST_GPU, gpu, p50, 5, v);
    assert_float_equal(v[1], 55, 1e-12);
    assert_true(isnan(v[2]));
    pane_heatmap_sort_values(HEAT_SORT_SLOWEST_STEP, gpu, p50, 5, v);
    assert_float_equal(v[2], 300e3, 1e-9);
    assert_true(isnan(v[3]));
    /* Stragglers: percent off the median, the larger of GPU and step:
     * node 2's p50 is 300/120.5 - 1 of the median step. */
    pane_heatmap_sort_values(HEAT_SORT_STRAGGLERS, gpu, p50, 5, v);
    assert_float_equal(v[2], 100.0 * (300e3 - 120.5e3) / 120.5e3, 1e-9);
    assert_float_equal(v[1], 100.0 * (79.5 - 55) / 79.5, 1e-9);
    /* The order is the values' order. */
    size_t o[5];
    pane_heatmap_sort_order(HEAT_SORT_STRAGGLERS, gpu, p50, 5, o);
    for (size_t i = 1; i < 5; i++)
        assert_true(isnan(v[o[i]]) || v[o[i - 1]] >= v[o[i]]);
}

/* Flagged rows stay in view however small the list; the cursor's row
 * always shows; no row twice; positions ascending. */
static void test_pick_rows(void **state)
{
    (void)state;
    unsigned char flag[10] = {0};
    size_t out[10], top = 0;
    flag[2] = 1;
    /* 80x24: two lines, four nodes, cursor on the first: it and the flag. */
    assert_int_equal(pane_heatmap_pick_rows(&top, 0, 4, 2, flag, out), 2);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 2);
    /* Cursor past the flag: the flag above, the cursor's row below. */
    top = 0;
    assert_int_equal(pane_heatmap_pick_rows(&top, 3, 4, 2, flag, out), 2);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 3);
    /* The flag inside the window frees its line: a plain window. */
    top = 0;
    assert_int_equal(pane_heatmap_pick_rows(&top, 1, 4, 3, flag, out), 3);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[2], 2);
    /* At the end of the list the window reaches up: no blank lines. */
    unsigned char last[10] = {0};
    last[9] = 1;
    top = 0;
    assert_int_equal(pane_heatmap_pick_rows(&top, 9, 10, 5, last, out), 5);
    assert_int_equal(out[0], 5);
    assert_int_equal(out[4], 9);
    /* One line: the cursor wins over the flag. */
    top = 0;
    assert_int_equal(pane_heatmap_pick_rows(&top, 0, 4, 1, flag, out), 1);
    assert_int_equal(out[0], 0);
    /* Exhaustive small cases: the invariants. */
    for (size_t n = 1; n <= 7; n++)
        for (size_t fit = 1; fit <= 8; fit++)
            for (unsigned mask = 0; mask < (1u << n); mask++)
                for (size_t sel = 0; sel < n; sel++) {
                    unsigned char f[8];
                    size_t nf = 0;
                    for (size_t i = 0; i < n; i++)
                        nf += (f[i] = (unsigned char)((mask >> i) & 1));
                    top = sel % 3;
                    size_t k = pane_heatmap_pick_rows(&top, sel, n, fit, f, out);
                    assert_int_equal(k, n < fit ? n : fit);
                    int saw_sel = 0;
                    size_t seen_flags = 0;
                    for (size_t i = 0; i < k; i++) {
                        if (i)
                            assert_true(out[i] > out[i - 1]);
                        saw_sel |= out[i] == sel;
                        seen_flags += f[out[i]];
                    }
                    assert_true(saw_sel);
                    size_t want = nf < fit - 1 ? nf : fit - 1;
                    if (f[sel] && want < nf)
                        want++;
                    assert_true(seen_flags >= want);
                }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ramp),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_sort_order),
        cmocka_unit_test(test_cell_geometry),
        cmocka_unit_test(test_sort_values),
        cmocka_unit_test(test_pick_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
