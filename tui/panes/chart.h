/* chart: draws a series of values into a rectangle with one of three glyph
 * sets — braille (2 samples per cell, 4 levels per row), block elements
 * (1 sample per cell, 8 levels), ASCII (1 sample per cell, ` .:|`, 3 levels) —
 * chosen once from the locale (nl_langinfo(CODESET) == UTF-8) or a flag.
 * The glyph math (value → cell pattern) is pure and unit-tested; only
 * chart_draw touches curses (setcchar + mvwadd_wch). */
#ifndef SMTOP_CHART_H
#define SMTOP_CHART_H

#include <curses.h>
#include <stddef.h>
#include <wchar.h>

typedef enum chart_glyphs {
    GLYPHS_BRAILLE = 0,
    GLYPHS_BLOCK,
    GLYPHS_ASCII,
    GLYPHS_COUNT
} chart_glyphs;

/* GLYPHS_BRAILLE when the locale is UTF-8, else GLYPHS_ASCII. */
chart_glyphs chart_glyphs_from_locale(void);
const char *chart_glyphs_name(chart_glyphs g);

/* Samples per terminal column for a glyph set (2 for braille, else 1). */
int chart_samples_per_col(chart_glyphs g);

/* Pure: the dim mark drawn on the bottom row of a column without data
 * (U+00B7 middle dot; '-' in ASCII), so "no data" never looks like 0,
 * which is an empty cell. */
wchar_t chart_gap_glyph(chart_glyphs g);

/* Pure: the wide character for cell (row from the bottom, 0-based) of a
 * column whose samples are the `n` (1 or 2) heights `h[]` in units of
 * "levels" (0 .. rows*levels_per_row). Returns L' ' for an empty cell.
 * Any height above 0 fills at least one level of the bottom row: a value
 * too small to round to a level must not look like zero. */
wchar_t chart_cell(chart_glyphs g, const double *h, int n, int row_from_bottom,
                   int levels_per_row);
int chart_levels_per_row(chart_glyphs g);

/* Draws an area chart of vals[0..n) into the rows×cols rectangle at (y, x)
 * of w: column c shows samples c*spc .. c*spc+spc-1 (spc =
 * chart_samples_per_col(g)), so pass n = cols*spc values, oldest first;
 * a column whose samples are all missing or NaN shows the gap glyph
 * (dim) on its bottom row, a column of zeros stays blank. Values are scaled so vmin
 * is the bottom and vmax the top (clamped). attr is a theme attribute
 * (color pair and flags, as from theme_attr). Every cell of the rectangle
 * is written (empty cells as spaces), so no stale cells remain. */
void chart_draw(WINDOW *w, int y, int x, int rows, int cols,
                const double *vals, size_t n, double vmin, double vmax,
                chart_glyphs g, int attr);

#endif
