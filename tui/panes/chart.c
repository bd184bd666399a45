/* chart: glyph tables and area-chart drawing (see chart.h). */
#include "tui/panes/chart.h"

#include <langinfo.h>
#include <math.h>
#include <string.h>
#include <strings.h>

/* Braille dots filled from the bottom up: left column dots 7,3,2,1, right
 * column dots 8,6,5,4 (Unicode braille bit order). */
static const unsigned braille_left[5] = {0x00, 0x40, 0x44, 0x46, 0x47};
static const unsigned braille_right[5] = {0x00, 0x80, 0xA0, 0xB0, 0xB8};
static const wchar_t block_glyph[9] = {
    L' ', 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588};
static const wchar_t ascii_glyph[4] = {L' ', L'.', L':', L'|'};

static const char *const glyph_names[GLYPHS_COUNT] = {"braille", "block", "ascii"};

chart_glyphs chart_glyphs_from_locale(void)
{
    const char *cs = nl_langinfo(CODESET);
    if (cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8")))
        return GLYPHS_BRAILLE;
    return GLYPHS_ASCII;
}

const char *chart_glyphs_name(chart_glyphs g)
{
    return (unsigned)g < GLYPHS_COUNT ? glyph_names[g] : "?";
}

int chart_samples_per_col(chart_glyphs g)
{
    return g == GLYPHS_BRAILLE ? 2 : 1;
}

int chart_levels_per_row(chart_glyphs g)
{
    switch (g) {
    case GLYPHS_BRAILLE: return 4;
    case GLYPHS_BLOCK: return 8;
    default: return 3;
    }
}

/* Levels of a sample of height h (in levels) that fall into `row`. */
static int levels_in_row(double h, int row, int lpr)
{
    if (!(h > 0))                      /* also NaN */
        return 0;
    double k = floor(h - (double)row * lpr + 0.5);
    /* A value above zero that rounds to nothing would read as idle: a CPU
     * at 4 % must still show on a 0-100 % chart. */
    if (row == 0 && k < 1)
        return 1;
    if (k < 0)
        return 0;
    return k > lpr ? lpr : (int)k;
}

wchar_t chart_cell(chart_glyphs g, const double *h, int n, int row_from_bottom,
                   int levels_per_row)
{
    int lpr = levels_per_row;
    if (g == GLYPHS_BRAILLE) {
        if (lpr != 4)
            lpr = 4;
        unsigned bits = braille_left[levels_in_row(h[0], row_from_bottom, lpr)];
        if (n > 1)
            bits |= braille_right[levels_in_row(h[1], row_from_bottom, lpr)];
        return bits ? (wchar_t)(0x2800 + bits) : L' ';
    }
    if (g == GLYPHS_BLOCK)
        return block_glyph[levels_in_row(h[0], row_from_bottom, 8)];
    return ascii_glyph[levels_in_row(h[0], row_from_bottom, 3)];
}

wchar_t chart_gap_glyph(chart_glyphs g)
{
    return g == GLYPHS_ASCII ? L'-' : 0x00B7;   /* middle dot */
}

/* Height in levels of value v on a rows-high chart; NaN stays NaN. */
static double chart_height(double v, double vmin, double vmax, int total)
{
    if (isnan(v))
        return v;
    double span = vmax - vmin;
    double f = span > 0 ? (v - vmin) / span : (v > vmin ? 1.0 : 0.0);
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    return f * total;
}

void chart_draw(WINDOW *w, int y, int x, int rows, int cols,
                const double *vals, size_t n, double vmin, double vmax,
                chart_glyphs g, int attr)
{
    int spc = chart_samples_per_col(g), lpr = chart_levels_per_row(g);
    attr_t a = (attr_t)attr & ~A_COLOR;
    short pair = (short)PAIR_NUMBER(attr);
    for (int c = 0; c < cols; c++) {
        double h[2] = {NAN, NAN};
        int gap = 1;
        for (int j = 0; j < spc; j++) {
            size_t idx = (size_t)c * spc + j;
            if (idx < n)
                h[j] = chart_height(vals[idx], vmin, vmax, rows * lpr);
            gap &= isnan(h[j]);
        }
        for (int r = 0; r < rows; r++) {
            wchar_t wc[2] = {chart_cell(g, h, spc, r, lpr), L'\0'};
            attr_t ca = a;
            if (gap && r == 0) {
                wc[0] = chart_gap_glyph(g);
                ca |= A_DIM;
            }
            cchar_t cc;
            setcchar(&cc, wc, ca, pair, NULL);
            mvwadd_wch(w, y + rows - 1 - r, x + c, &cc);
        }
    }
}
