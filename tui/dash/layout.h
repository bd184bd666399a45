/* layout: the pure function from terminal size (and which panes exist,
 * and whether one is zoomed) to screen rectangles. No curses: unit-tested
 * at every size for overlap and bounds.
 *
 * Screen: rows 0-1 are the header (what is shown; the verdict and the
 * pane bar), the last row the status line, the rest the
 * panes. Pane 0 (the system pane in registry order) is the main pane; the
 * others share the remaining space — a column on the right when the
 * terminal is wide, a two-column grid below the main pane when it is not. */
#ifndef SMTOP_LAYOUT_H
#define SMTOP_LAYOUT_H

#include <stddef.h>

#define LAYOUT_MIN_W 80
#define LAYOUT_MIN_H 24
#define LAYOUT_MAX_PANES 8
#define LAYOUT_HEADER_H 2
/* Every shown pane gets at least this (outer size, border included). */
#define LAYOUT_PANE_MIN_H 5
#define LAYOUT_PANE_MIN_W 30
/* From this width on the secondary panes form a right-hand column. */
#define LAYOUT_WIDE_W 150

typedef struct layout_rect {
    int y, x, h, w;     /* h == 0 or w == 0: not shown */
} layout_rect;

typedef struct layout {
    int too_small;      /* 1: below LAYOUT_MIN_W x LAYOUT_MIN_H, nothing else set */
    int rows, cols;
    layout_rect header, status;
    size_t npanes;
    layout_rect pane[LAYOUT_MAX_PANES];
} layout;

/* Computes the layout of npanes panes (capped at LAYOUT_MAX_PANES) on a
 * rows x cols terminal. zoomed is the index of a pane that fills the whole
 * pane area (the others get empty rectangles), or -1. Always succeeds. */
void layout_compute(int rows, int cols, size_t npanes, int zoomed, layout *out);

/* Index of the shown pane containing (y, x), or -1. */
int layout_pane_at(const layout *l, int y, int x);

#endif
