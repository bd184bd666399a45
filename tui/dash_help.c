/* dash_help: the `?` overlay listing every key (keep in step with
 * dash_keys.c). */
#include "dash_internal.h"

#include <string.h>

typedef struct help_line {
    const char *keys, *what;
} help_line;

static const help_line help[] = {
    {"q  Ctrl-C", "quit (the terminal is restored)"},
    {"?  F1", "this help (any key closes it)"},
    {"Tab  Shift-Tab", "next / previous pane"},
    {"h l  Left Right", "previous / next pane"},
    {"j k  Down Up", "select the next / previous node"},
    {"Enter", "zoom the focused pane to full screen"},
    {"Esc", "back from zoom"},
    {"/", "filter nodes by name (Enter keeps, Esc cancels)"},
    {":", "command: set Rule.param=value (e.g. :set StepOutlier.stddev=4)"},
    {"J", "alerts pane: jump to the selected alert's time span"},
    {"space", "pause / resume following live data"},
    {"+  -", "zoom the time range in / out"},
    {"[  ]", "scrub back / forward by half the range"},
    {"0", "back to live"},
    {"c", "CPU total / per core"},
    {"t", "next color theme"},
    {"g", "next graph symbols (braille, block, ascii)"},
    {"Ctrl-L", "repaint the screen"},
    {"mouse click", "select a pane (and a node in it)"},
};

void dash_draw_help(dash *d)
{
    size_t n = sizeof help / sizeof help[0];
    int h = (int)n + 4, w = 72;
    int rows = d->lay.rows, cols = d->lay.cols;
    if (w > cols - 2)
        w = cols - 2;
    if (h > rows - 2)
        h = rows - 2;
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
    for (size_t i = 0; i < n && (int)i + 2 < h - 1; i++) {
        wattrset(hw, theme_attr(d->th, ROLE_LABEL) | A_BOLD);
        mvwaddnstr(hw, (int)i + 2, 2, help[i].keys, w - 4);
        wattrset(hw, theme_attr(d->th, ROLE_DEFAULT));
        if (w > 24)
            mvwaddnstr(hw, (int)i + 2, 22, help[i].what, w - 24);
    }
    wattrset(hw, 0);
    touchwin(hw);
    wnoutrefresh(hw);
}
