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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ramp),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_sort_order),
        cmocka_unit_test(test_cell_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
