/* layout: terminal size → pane rectangles (see layout.h). Pure. */
#include "tui/dash/layout.h"

#include <string.h>

static layout_rect rect(int y, int x, int h, int w)
{
    layout_rect r = {y, x, h, w};
    return r;
}

/* Lays k rectangles out[0..k) over region g in c columns, row-major; the
 * last row's panes widen to fill it. Sizes differ by at most one cell. */
static void grid(layout_rect g, size_t k, int c, layout_rect *out)
{
    int r = (int)((k + (size_t)c - 1) / (size_t)c);
    int y = g.y;
    for (int row = 0; row < r; row++) {
        int h = g.h / r + (row < g.h % r ? 1 : 0);
        size_t first = (size_t)row * (size_t)c;
        int in_row = (int)(k - first < (size_t)c ? k - first : (size_t)c);
        int x = g.x;
        for (int col = 0; col < in_row; col++) {
            int w = g.w / in_row + (col < g.w % in_row ? 1 : 0);
            out[first + (size_t)col] = rect(y, x, h, w);
            x += w;
        }
        y += h;
    }
}

/* Columns (1..4) that fit k panes of the minimum size into h x w, or 0. */
static int grid_cols(size_t k, int h, int w)
{
    for (int c = 1; c <= 4; c++) {
        int r = (int)((k + (size_t)c - 1) / (size_t)c);
        if (w / c < LAYOUT_PANE_MIN_W)
            return 0;
        if (h / r >= LAYOUT_PANE_MIN_H)
            return c;
    }
    return 0;
}

/* Main pane on the left, the others in a column (or grid) on the right. */
static int layout_wide(layout_rect body, size_t n, layout_rect *out)
{
    int mw = body.w * 3 / 5;
    layout_rect side = rect(body.y, body.x + mw, body.h, body.w - mw);
    int c = grid_cols(n - 1, side.h, side.w);
    if (c == 0)
        return -1;
    out[0] = rect(body.y, body.x, body.h, mw);
    grid(side, n - 1, c, out + 1);
    return 0;
}

/* Main pane on top, the others in a grid below taking at least half. */
static void layout_narrow(layout_rect body, size_t n, layout_rect *out)
{
    size_t k = n - 1;
    int c = body.w / 2 >= LAYOUT_PANE_MIN_W && k > 1 ? 2 : 1;
    int r = (int)((k + (size_t)c - 1) / (size_t)c);
    int below = body.h / 2;
    if (below < r * LAYOUT_PANE_MIN_H)
        below = r * LAYOUT_PANE_MIN_H;
    if (body.h - below < LAYOUT_PANE_MIN_H)
        below = body.h - LAYOUT_PANE_MIN_H;
    out[0] = rect(body.y, body.x, body.h - below, body.w);
    grid(rect(body.y + body.h - below, body.x, below, body.w), k, c, out + 1);
}

void layout_compute(int rows, int cols, size_t npanes, int zoomed, layout *out)
{
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->cols = cols;
    if (rows < LAYOUT_MIN_H || cols < LAYOUT_MIN_W) {
        out->too_small = 1;
        return;
    }
    size_t n = npanes > LAYOUT_MAX_PANES ? LAYOUT_MAX_PANES : npanes;
    out->npanes = n;
    out->header = rect(0, 0, LAYOUT_HEADER_H, cols);
    out->status = rect(rows - 1, 0, 1, cols);
    layout_rect body = rect(LAYOUT_HEADER_H, 0, rows - 1 - LAYOUT_HEADER_H, cols);
    if (n == 0)
        return;
    if (zoomed >= 0 && (size_t)zoomed < n) {
        out->pane[zoomed] = body;
        return;
    }
    if (n == 1) {
        out->pane[0] = body;
        return;
    }
    if (cols >= LAYOUT_WIDE_W && layout_wide(body, n, out->pane) == 0)
        return;
    layout_narrow(body, n, out->pane);
}

int layout_pane_at(const layout *l, int y, int x)
{
    for (size_t i = 0; i < l->npanes; i++) {
        const layout_rect *r = &l->pane[i];
        if (r->h > 0 && r->w > 0 && y >= r->y && y < r->y + r->h &&
            x >= r->x && x < r->x + r->w)
            return (int)i;
    }
    return -1;
}
