/* dash_help: the `?` overlay listing every key, generated from the
 * dashboard's table (dash_keys) and each pane's (pane_vtbl.keys),
 * so no hand-kept copy can drift from what the keys do. */
#include "tui/dash/dash_internal.h"

#include <stdio.h>
#include <string.h>

/* The overlay's columns: COL_W cells each, COL_GAP apart, the keys in
 * the first KEYS_W; a longer description goes on in the next line. */
#define COL_W 37
#define COL_GAP 2
#define KEYS_W 13
#define WHAT_W (COL_W - KEYS_W)

typedef struct help_line {
    char keys[48];
    char what[WHAT_W + 1];
    int title;            /* a section title (keys holds it) */
} help_line;

#define HELP_MAX 240

/* The end of what's first line in at most WHAT_W bytes: at a space when
 * it is longer (ASCII: the tables' texts are). */
static size_t cut_at(const char *what)
{
    size_t n = strlen(what);
    if (n <= WHAT_W)
        return n;
    size_t at = WHAT_W;
    while (at > WHAT_W / 2 && what[at] != ' ')
        at--;
    return what[at] == ' ' ? at : WHAT_W;
}

static size_t add(help_line *out, size_t n, size_t cap, const char *keys, const char *what)
{
    do {
        if (n >= cap)
            return n;
        size_t k = what ? cut_at(what) : 0;
        snprintf(out[n].keys, sizeof out[n].keys, "%s", keys);
        snprintf(out[n].what, sizeof out[n].what, "%.*s", (int)k, what ? what : "");
        out[n].title = !what;
        n++;
        keys = "";
        what = what ? what + k + (what[k] == ' ') : NULL;
    } while (what && *what);
    return n;
}

/* The global keys, then a section per pane of this run ("2 Heatmap") with
 * that pane's table (entries without a description are status-line hints
 * only). Returns the count. */
static size_t help_lines(const dash *d, help_line *out, size_t cap)
{
    size_t n = 0;
    for (const dash_keydef *k = dash_keys; k->show.keys; k++)
        if (k->show.what)
            n = add(out, n, cap, k->show.keys, k->show.what);
    for (size_t i = 0; i < d->npanes; i++) {
        const pane_key *k = d->panes[i].vt->keys;
        if (!k || !k->keys)
            continue;
        char title[48];
        snprintf(title, sizeof title, "%zu %s", i + 1, d->panes[i].vt->title);
        n = add(out, n, cap, title, NULL);
        for (; k->keys; k++)
            if (k->what)
                n = add(out, n, cap, k->keys, k->what);
    }
    return n;
}

/* The overlay's frame over the pane area: as many columns as its width
 * holds, at most three; `fit` lines a column, the last row above the
 * frame for the hint. */
typedef struct help_frame {
    int h, w, ncols, fit;
    size_t page;        /* lines a screen shows: fit * ncols */
} help_frame;

static help_frame frame_of(const dash *d, size_t n)
{
    help_frame f;
    int top = d->lay.header.h, rows = d->lay.rows - top - 1, cols = d->lay.cols;
    f.ncols = (cols - 4 + COL_GAP) / (COL_W + COL_GAP);
    f.ncols = f.ncols < 1 ? 1 : f.ncols > 3 ? 3 : f.ncols;
    f.w = f.ncols * (COL_W + COL_GAP) - COL_GAP + 4;
    f.w = f.w > cols ? cols : f.w;
    int need = (int)((n + (size_t)f.ncols - 1) / (size_t)f.ncols);
    f.fit = rows - 3 < need ? rows - 3 : need;
    f.fit = f.fit < 1 ? 1 : f.fit;
    f.h = f.fit + 3;
    f.page = (size_t)f.fit * (size_t)f.ncols;
    return f;
}

/* The first line shown, help_top clamped so that the last page is full. */
static size_t first_line(dash *d, const help_frame *f, size_t n)
{
    size_t last = n > f->page ? n - f->page : 0;
    if (d->help_top > last)
        d->help_top = last;
    return d->help_top;
}

/* One line at (y, x) of a column: a section title, or keys and what. */
static void draw_line(dash *d, WINDOW *hw, const help_line *l, int y, int x)
{
    if (l->title) {
        wattrset(hw, theme_attr(d->th, ROLE_TITLE));
        mvwaddnstr(hw, y, x, l->keys, COL_W);
        return;
    }
    wattrset(hw, theme_attr(d->th, ROLE_LABEL) | A_BOLD);
    mvwaddnstr(hw, y, x, l->keys, KEYS_W - 1);
    wattrset(hw, theme_attr(d->th, ROLE_DEFAULT));
    mvwaddnstr(hw, y, x + KEYS_W, l->what, WHAT_W);
}

void dash_draw_help(dash *d)
{
    help_line help[HELP_MAX];
    size_t n = help_lines(d, help, HELP_MAX);
    help_frame f = frame_of(d, n);
    int top = d->lay.header.h, rows = d->lay.rows - top - 1, cols = d->lay.cols;
    if (d->help && (getmaxy(d->help) != f.h || getmaxx(d->help) != f.w)) {
        delwin(d->help);
        d->help = NULL;
    }
    if (!d->help && !(d->help = newwin(f.h, f.w, top + (rows - f.h) / 2, (cols - f.w) / 2)))
        return;
    WINDOW *hw = d->help;
    werase(hw);
    wattrset(hw, theme_attr(d->th, ROLE_BORDER_FOCUS));
    box(hw, 0, 0);
    wattrset(hw, theme_attr(d->th, ROLE_TITLE));
    mvwaddstr(hw, 0, 2, " smtop keys ");
    /* Lines flow down the columns: every line is drawn once, in a column
     * of its own width, so none overwrites another. */
    size_t first = first_line(d, &f, n);
    for (size_t i = first; i < n && i < first + f.page; i++) {
        int c = (int)((i - first) / (size_t)f.fit), y = (int)((i - first) % (size_t)f.fit) + 1;
        draw_line(d, hw, &help[i], y, 2 + c * (COL_W + COL_GAP));
    }
    char hint[96];
    if (n > f.page)
        snprintf(hint, sizeof hint, "lines %zu-%zu of %zu  j/k PgUp/PgDn scroll  ? q Esc close",
                 first + 1, first + f.page < n ? first + f.page : n, n);
    else
        snprintf(hint, sizeof hint, "? q Esc close");
    wattrset(hw, theme_attr(d->th, ROLE_DIM));
    mvwaddnstr(hw, f.h - 2, 2, hint, f.w - 4);
    wattrset(hw, 0);
    touchwin(hw);
    wnoutrefresh(hw);
}

int dash_help_key(dash *d, int ch)
{
    help_line help[HELP_MAX];
    size_t n = help_lines(d, help, HELP_MAX);
    help_frame f = frame_of(d, n);
    size_t at = first_line(d, &f, n);
    switch (ch) {
    case '?': case 'q': case 27: case KEY_F(1):
        return 1;
    case 'j': case KEY_DOWN: at++; break;
    case 'k': case KEY_UP: at = at ? at - 1 : 0; break;
    case KEY_NPAGE: case ' ': case 'l': case KEY_RIGHT: at += f.page; break;
    case KEY_PPAGE: case 'h': case KEY_LEFT: at = at > f.page ? at - f.page : 0; break;
    case 'g': case KEY_HOME: at = 0; break;
    case 'G': case KEY_END: at = n; break;
    default: return 0;   /* only ?, q and Esc close it */
    }
    d->help_top = at;
    first_line(d, &f, n);
    if (d->help) {
        delwin(d->help);   /* redrawn on the next frame */
        d->help = NULL;
    }
    return 0;
}
