/* chart: glyph math for braille / block / ASCII, and chart_draw writing
 * exactly its rectangle (checked on a curses screen opened on /dev/null). */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "tui/panes/chart.h"

static void test_braille_levels(void **s)
{
    (void)s;
    assert_int_equal(chart_samples_per_col(GLYPHS_BRAILLE), 2);
    assert_int_equal(chart_levels_per_row(GLYPHS_BRAILLE), 4);
    double h[2] = {0, 0};
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 0, 4), L' ');
    h[0] = 1;                                    /* dot 7 only */
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 0, 4), 0x2840);
    h[0] = 4, h[1] = 4;                          /* full cell: all 8 dots */
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 0, 4), 0x28FF);
    h[0] = 0, h[1] = 2;                          /* right column dots 8 and 6 */
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 0, 4), 0x28A0);
    /* a height of 6 levels: bottom row full, second row half */
    h[0] = 6, h[1] = 6;
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 0, 4), 0x28FF);
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 1, 4), 0x2800 + 0x44 + 0xA0);
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 2, 2, 4), L' ');
    /* one sample only: the right column stays empty */
    h[0] = 3;
    assert_int_equal(chart_cell(GLYPHS_BRAILLE, h, 1, 0, 4), 0x2846);
}

static void test_block_levels(void **s)
{
    (void)s;
    assert_int_equal(chart_samples_per_col(GLYPHS_BLOCK), 1);
    double h[1];
    for (int k = 1; k <= 8; k++) {
        h[0] = k;
        assert_int_equal(chart_cell(GLYPHS_BLOCK, h, 1, 0, 8), 0x2580 + k);
    }
    h[0] = 11;                                   /* row 1 holds 3 levels */
    assert_int_equal(chart_cell(GLYPHS_BLOCK, h, 1, 1, 8), 0x2583);
    h[0] = 3.4;                                  /* rounds to nearest level */
    assert_int_equal(chart_cell(GLYPHS_BLOCK, h, 1, 0, 8), 0x2583);
    h[0] = 3.6;
    assert_int_equal(chart_cell(GLYPHS_BLOCK, h, 1, 0, 8), 0x2584);
    h[0] = NAN;
    assert_int_equal(chart_cell(GLYPHS_BLOCK, h, 1, 0, 8), L' ');
}

static void test_ascii_levels(void **s)
{
    (void)s;
    int lpr = chart_levels_per_row(GLYPHS_ASCII);
    assert_int_equal(lpr, 3);
    const wchar_t want[] = {L' ', L'.', L':', L'|'};
    double h[1];
    for (int k = 0; k <= 3; k++) {
        h[0] = k;
        assert_int_equal(chart_cell(GLYPHS_ASCII, h, 1, 0, lpr), want[k]);
    }
    h[0] = 100;
    assert_int_equal(chart_cell(GLYPHS_ASCII, h, 1, 5, lpr), L'|');
}

static void test_names_and_locale(void **s)
{
    (void)s;
    assert_string_equal(chart_glyphs_name(GLYPHS_BRAILLE), "braille");
    assert_string_equal(chart_glyphs_name(GLYPHS_BLOCK), "block");
    assert_string_equal(chart_glyphs_name(GLYPHS_ASCII), "ascii");
    setlocale(LC_ALL, "C");
    assert_int_equal(chart_glyphs_from_locale(), GLYPHS_ASCII);
    if (setlocale(LC_ALL, "C.UTF-8"))
        assert_int_equal(chart_glyphs_from_locale(), GLYPHS_BRAILLE);
}

/* Column heights drawn by chart_draw match the scaled values and nothing
 * outside the rectangle is touched. */
static void test_draw_scales_and_stays_inside(void **s)
{
    (void)s;
    setlocale(LC_ALL, "C.UTF-8");
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    if (!scr) {
        fclose(out), fclose(in);
        skip();
    }
    WINDOW *w = newwin(10, 20, 0, 0);
    for (int y = 0; y < 10; y++)
        mvwhline(w, y, 0, 'X', 20);
    double v[4] = {0, 50, 100, 200};             /* 200 clamps to the top */
    chart_draw(w, 2, 3, 4, 4, v, 4, 0, 100, GLYPHS_BLOCK, 0);
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 20; x++) {
            cchar_t cc;
            mvwin_wch(w, y, x, &cc);
            wchar_t wc[CCHARW_MAX + 1];
            attr_t a;
            short pair;
            getcchar(&cc, wc, &a, &pair, NULL);
            int inside = y >= 2 && y < 6 && x >= 3 && x < 7;
            if (!inside) {
                assert_int_equal(wc[0], L'X');
                continue;
            }
            int col = x - 3, row = 5 - y;        /* from the bottom */
            int filled = col == 0 ? 0 : col == 1 ? 2 : 4;
            wchar_t want = row < filled ? 0x2588 : L' ';
            assert_int_equal(wc[0], want);
        }
    delwin(w);
    endwin();
    delscreen(scr);
    fclose(out), fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_braille_levels),
        cmocka_unit_test(test_block_levels),
        cmocka_unit_test(test_ascii_levels),
        cmocka_unit_test(test_names_and_locale),
        cmocka_unit_test(test_draw_scales_and_stays_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
