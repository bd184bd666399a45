/* dash_help: the `?` overlay listing every key (keep in step with
 * dash_keys.c). */
#include "tui/dash/dash_internal.h"

#include <string.h>

typedef struct help_line {
    const char *keys, *what;
} help_line;

/* A NULL `what` starts a section; the pane sections go to the second
 * column when the overlay does not fit the terminal in one. */
static const help_line help[] = {
    /* Descriptions fit 23 cells: the two-column overlay on 80x24. */
    {"q  Ctrl-C", "quit"},
    {"?  F1", "this help"},
    {"Tab S-Tab", "next / previous pane"},
    {"h l  Lt Rt", "previous / next pane"},
    {"j k  Dn Up", "next / previous node"},
    {"Enter  Esc", "zoom pane / back"},
    {"/", "filter nodes by name"},
    {":", "command (:set R.p=v)"},
    {"space", "pause / resume live"},
    {"+  -", "zoom time range in/out"},
    {"[  ]", "scrub back / forward"},
    {"0", "back to live (unfocus)"},
    {"c", "CPU total / per core"},
    {"p  P", "rank in Steps/Timeline"},
    {"t  g", "theme / graph symbols"},
    {"Ctrl-L", "repaint the screen"},
    {"mouse click", "select pane and node"},
    {"Steps pane", NULL},
    {"h l", "previous / next phase"},
    {", . < >", "step cursor older/newer"},
    {"o O", "previous / next outlier"},
    {"f", "focus step in all panes"},
    {"Timeline pane", NULL},
    {"v", "steps / loader / events"},
    {"j k  f", "select step, focus it"},
    {"s  /", "events: sort / filter"},
    {"Python pane", NULL},
    {"s", "cycle the sort key"},
    {"T C N P", "tottime cumtime calls prim"},
    {"w", "window / node menu"},
    {"/", "filter functions"},
    {"Enter", "zoom: callers, callees"},
    {"Alerts pane", NULL},
    {"J", "jump / focus the step"},
    {"Diff (--baseline)", NULL},
    {"j k  g", "scroll / back to top"},
};

/* Index of the first pane section: where the second column starts. */
static size_t first_section(size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!help[i].what)
            return i;
    return n;
}

/* Draws help[from, to) as one column at x, `w` cells wide, descriptions
 * starting `kw` cells in. */
static void draw_column(dash *d, WINDOW *hw, size_t from, size_t to, int x, int w, int h,
                        int kw)
{
    for (size_t i = from; i < to && (int)(i - from) + 2 < h - 1; i++) {
        int y = (int)(i - from) + 2;
        if (!help[i].what) {
            wattrset(hw, theme_attr(d->th, ROLE_TITLE));
            mvwaddnstr(hw, y, x, help[i].keys, w);
            continue;
        }
        wattrset(hw, theme_attr(d->th, ROLE_LABEL) | A_BOLD);
        mvwaddnstr(hw, y, x, help[i].keys, kw - 1);
        wattrset(hw, theme_attr(d->th, ROLE_DEFAULT));
        if (w > kw + 2)
            mvwaddnstr(hw, y, x + kw, help[i].what, w - kw);
    }
}

void dash_draw_help(dash *d)
{
    size_t n = sizeof help / sizeof help[0], split = first_section(n);
    int rows = d->lay.rows, cols = d->lay.cols;
    int two = (int)n + 4 > rows - 2;
    int h = two ? (int)(split > n - split ? split : n - split) + 4 : (int)n + 4;
    int w = two ? 124 : 72;
    if (w > cols - 2)
        w = cols - 2;
    if (h > rows - 2)
        h = rows - 2;
    if (d->help && (getmaxy(d->help) != h || getmaxx(d->help) != w)) {
        delwin(d->help);
        d->help = NULL;
    }
    if (!d->help) {
        d->help = newwin(h, w, (rows - h) / 2, (cols - w) / 2);
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
        int cw = (w - 5) / 2;
        draw_column(d, hw, 0, split, 2, cw, h, 13);
        draw_column(d, hw, split, n, 3 + cw, cw, h, 9);   /* pane keys are short */
    } else {
        draw_column(d, hw, 0, n, 2, w - 4, h, 18);
    }
    wattrset(hw, 0);
    touchwin(hw);
    wnoutrefresh(hw);
}
