/* dash_help: the `?` overlay listing every key, generated from the
 * dashboard's table (dash_keys) and each pane's (pane_vtbl.keys),
 * so no hand-kept copy can drift from what the keys do. */
#include "tui/dash/dash_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct help_line {
    char keys[48];
    const char *what;     /* NULL: a section title */
    int pane;             /* the pane of a section line, -1 for global */
} help_line;

#define HELP_MAX 160

static size_t add(help_line *out, size_t n, size_t cap, const char *keys, const char *what,
                  int pane)
{
    if (n >= cap)
        return n;
    snprintf(out[n].keys, sizeof out[n].keys, "%s", keys);
    out[n].what = what;
    out[n].pane = pane;
    return n + 1;
}

/* The global keys, then a section per pane of this run ("2 Heatmap") with
 * that pane's table (entries without a description are status-line hints
 * only). Returns the count. */
static size_t help_lines(const dash *d, help_line *out, size_t cap)
{
    size_t n = 0;
    for (const dash_keydef *k = dash_keys; k->show.keys; k++)
        if (k->show.what)
            n = add(out, n, cap, k->show.keys, k->show.what, -1);
    for (size_t i = 0; i < d->npanes; i++) {
        const pane_key *k = d->panes[i].vt->keys;
        if (!k || !k->keys)
            continue;
        char title[48];
        snprintf(title, sizeof title, "%zu %s", i + 1, d->panes[i].vt->title);
        n = add(out, n, cap, title, NULL, (int)i);
        for (; k->keys; k++)
            if (k->what)
                n = add(out, n, cap, k->keys, k->what, (int)i);
    }
    return n;
}

/* Index of the first pane section: where the second column starts. */
static size_t first_section(const help_line *help, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!help[i].what)
            return i;
    return n;
}

/* Draws the lines help[idx[0..k)) as one column at x, `w` cells wide,
 * descriptions starting `kw` cells in. */
static void draw_column(dash *d, const help_line *help, const size_t *idx, size_t k,
                        WINDOW *hw, int x, int w, int h, int kw)
{
    for (size_t j = 0; j < k && (int)j + 1 < h - 1; j++) {
        const help_line *l = &help[idx[j]];
        int y = (int)j + 1;
        if (!l->what) {
            wattrset(hw, theme_attr(d->th, ROLE_TITLE));
            mvwaddnstr(hw, y, x, l->keys, w);
            continue;
        }
        wattrset(hw, theme_attr(d->th, ROLE_LABEL) | A_BOLD);
        mvwaddnstr(hw, y, x, l->keys, kw - 1);
        wattrset(hw, theme_attr(d->th, ROLE_DEFAULT));
        if (w > kw + 2)
            mvwaddnstr(hw, y, x + kw, l->what, w - kw);
    }
}

/* The pane sections for the second column when they do not all fit in
 * `fit` lines: whole sections from the `page`-th pane on (wrapping), the
 * focused pane's first at page 0. Returns the count put into idx. */
static size_t pane_page(const dash *d, const help_line *help, size_t n, size_t split,
                        int page, int fit, size_t *idx)
{
    int np = (int)d->npanes, first = ((d->view.focus + page) % np + np) % np;
    size_t k = 0;
    for (int step = 0; step < np; step++) {
        int pane = (first + step) % np;
        size_t from = n, len = 0;
        for (size_t i = split; i < n; i++)
            if (help[i].pane == pane) {
                from = from == n ? i : from;
                len++;
            }
        if (len == 0)
            continue;
        if ((int)(k + len) > fit)
            break;
        for (size_t i = from; i < from + len; i++)
            idx[k++] = i;
    }
    return k;
}

void dash_draw_help(dash *d)
{
    help_line help[HELP_MAX];
    size_t idx[HELP_MAX];
    size_t n = help_lines(d, help, HELP_MAX), split = first_section(help, n);
    /* Within the pane area: the header (and its verdict) and the status
     * line stay in view. An overlay as wide or as tall as that area covers
     * it exactly, so no pane border peeks out beside its frame. */
    int top = d->lay.header.h, rows = d->lay.rows - top - 1, cols = d->lay.cols;
    int two = (int)n + 2 > rows;
    int h = two ? (int)(split > n - split ? split : n - split) + 2 : (int)n + 2;
    int w = two ? 124 : 72;
    if (w > cols - 4)
        w = cols;
    if (h > rows - 2)
        h = rows;
    if (d->help && (getmaxy(d->help) != h || getmaxx(d->help) != w)) {
        delwin(d->help);
        d->help = NULL;
    }
    if (!d->help) {
        d->help = newwin(h, w, top + (rows - h) / 2, (cols - w) / 2);
        if (!d->help)
            return;
    }
    WINDOW *hw = d->help;
    werase(hw);
    wattrset(hw, theme_attr(d->th, ROLE_BORDER_FOCUS));
    box(hw, 0, 0);
    wattrset(hw, theme_attr(d->th, ROLE_TITLE));
    mvwaddstr(hw, 0, 2, " smtop keys ");
    if (two) {
        int cw = (w - 5) / 2, fit = h - 2;
        for (size_t i = 0; i < split; i++)
            idx[i] = i;
        draw_column(d, help, idx, split, hw, 2, cw, h, 13);
        size_t k = n - split;
        if ((int)k > fit - 1) {
            /* Not all pane sections fit: a page of them, the focused
             * pane's first; h/l turn the page. */
            k = pane_page(d, help, n, split, d->help_page, fit - 1, idx);
            wattrset(hw, theme_attr(d->th, ROLE_DIM));
            mvwaddnstr(hw, h - 2, 3 + cw, "h l: other panes' keys", cw);
        } else {
            for (size_t i = 0; i < k; i++)
                idx[i] = split + i;
        }
        draw_column(d, help, idx, k, hw, 3 + cw, cw, h, 11);
    } else {
        for (size_t i = 0; i < n; i++)
            idx[i] = i;
        draw_column(d, help, idx, n, hw, 2, w - 4, h, 18);
    }
    wattrset(hw, 0);
    touchwin(hw);
    wnoutrefresh(hw);
}
