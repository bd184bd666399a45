/* dash_warn: a view of lines over the pane area, scrolled with j/k and
 * the page keys, long lines with ←/→; q, Esc or its own key close it. It
 * takes the help overlay's place, so the header and the status line stay
 * in view. Two views share it:
 *   W  the warnings, k9s' event view for the scan: one line per problem
 *      the scanner noted ("system/…/x.json: line 17: 3 corrupt lines
 *      skipped"), oldest first, then one per file not read (the lines
 *      `smtop report` lists and the status line counts: io/job/job_warn.h);
 *   !  the findings with their cause and fix (dash_why.c). */
#include "tui/dash/dash_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/run/job_warn.h"
#include "model/util/vec.h"
#include "tui/text/sanitize.h"

/* The overlay's window over the pane area (d->help), made when missing. */
static WINDOW *warn_window(dash *d)
{
    int top = d->lay.header.h, h = d->lay.rows - top - 1, w = d->lay.cols;
    if (d->help && (getmaxy(d->help) != h || getmaxx(d->help) != w)) {
        delwin(d->help);
        d->help = NULL;
    }
    if (!d->help)
        d->help = newwin(h, w, top, 0);
    return d->help;
}

/* The rows a page shows: the window less its frame and title row. */
static int page_rows(const dash *d)
{
    int h = d->lay.rows - d->lay.header.h - 1 - 3;
    return h > 1 ? h : 1;
}

void dash_warn_open(dash *d, int view)
{
    d->warn_on = view;
    d->warn_left = 0;
    /* warnings: the newest at the bottom, as a log; findings: the worst first */
    d->warn_top = view == DASH_VIEW_WARN ? SIZE_MAX : 0;
    if (d->help) {
        delwin(d->help);
        d->help = NULL;
    }
}

void dash_warn_close(dash *d)
{
    d->warn_on = 0;
    if (d->help) {
        delwin(d->help);
        d->help = NULL;
    }
    dash_mark_all(d);
}

void dash_warn_key(dash *d, int ch)
{
    int page = page_rows(d);
    switch (ch) {
    case 'q': case 27: case 'W': case '!':
        dash_warn_close(d);
        return;
    case 3:
        d->quit = DASH_QUIT_KEY;
        return;
    case 'j': case KEY_DOWN:
        d->warn_top = d->warn_top == SIZE_MAX ? SIZE_MAX : d->warn_top + 1;
        break;
    case 'k': case KEY_UP:
        d->warn_top = d->warn_top == SIZE_MAX ? SIZE_MAX - 1 : (d->warn_top ? d->warn_top - 1 : 0);
        break;
    case KEY_NPAGE: case ' ':
        d->warn_top = d->warn_top >= SIZE_MAX - 1 ? SIZE_MAX : d->warn_top + (size_t)page;
        break;
    case KEY_PPAGE:
        d->warn_top = d->warn_top >= SIZE_MAX - 1 ? SIZE_MAX - 2 : d->warn_top > (size_t)page
                      ? d->warn_top - (size_t)page : 0;
        break;
    case KEY_HOME: case 'g':
        d->warn_top = 0;
        break;
    case KEY_END: case 'G':
        d->warn_top = SIZE_MAX;
        break;
    case 'l': case KEY_RIGHT:
        d->warn_left += 20;
        break;
    case 'h': case KEY_LEFT:
        d->warn_left = d->warn_left > 20 ? d->warn_left - 20 : 0;
        break;
    default:
        return;
    }
    if (d->help)
        werase(d->help);
}

/* The first line shown of n on a page of `rows`: warn_top, clamped; the
 * SIZE_MAX marks (the end, one up, one page up from the end) resolved. */
static size_t first_shown(dash *d, size_t n, int rows)
{
    size_t last = n > (size_t)rows ? n - (size_t)rows : 0;
    if (d->warn_top == SIZE_MAX)
        return last;
    if (d->warn_top == SIZE_MAX - 1)
        d->warn_top = last ? last - 1 : 0;
    else if (d->warn_top == SIZE_MAX - 2)
        d->warn_top = last > (size_t)rows ? last - (size_t)rows : 0;
    if (d->warn_top > last)
        d->warn_top = last;
    return d->warn_top;
}

typedef struct warn_lines {
    char (*v)[SCANNER_MSG_LEN + 1100];
    size_t n, cap;
} warn_lines;

static void keep_line(void *ud, const char *text)
{
    warn_lines *w = ud;
    if (vec_grow(&w->v, &w->cap, w->n + 1, sizeof *w->v, 64) == 0)
        snprintf(w->v[w->n++], sizeof w->v[0], "%s", text);
}

/* The warnings view's lines (the lines the status line counts, and
 * `smtop report` lists), its title and its key line. */
static void warn_view_lines(dash *d, warn_lines *wl, char *title, size_t tcap, const char **keys)
{
    job_warn_counts c;
    job_warn_get_counts(d->j, &c);
    job_warn_lines(d->j, dash_job_ended(d, dash_now_us()), keep_line, NULL, wl);
    snprintf(title, tcap, " warnings: %lld noted, %lld file%s not read (%lld trace%s), "
             "%lld corrupt lines ", (long long)c.noted, (long long)c.unread_files,
             c.unread_files == 1 ? "" : "s", (long long)c.traces_unread,
             c.traces_unread == 1 ? "" : "s", (long long)c.corrupt_lines);
    *keys = wl->n ? "file: problem, oldest first, then files not read    j/k Pg Home End "
                    "scroll  h/l sideways  q Esc close"
                  : "nothing to report: every file read cleanly so far";
}

void dash_draw_warn(dash *d)
{
    WINDOW *w = warn_window(d);
    if (!w)
        return;
    warn_lines wl = {0};
    char title[200];
    const char *keys = "what is wrong, its cause, its fix, where to look    j/k Pg Home End "
                       "scroll  q Esc ! close";
    int h = getmaxy(w), cols = getmaxx(w), rows = h - 3;
    if (d->warn_on == DASH_VIEW_WHY)
        dash_why_lines(d, cols - 4, keep_line, &wl, title, sizeof title);
    else
        warn_view_lines(d, &wl, title, sizeof title, &keys);
    size_t n = wl.n;
    werase(w);
    wattrset(w, theme_attr(d->th, ROLE_BORDER_FOCUS));
    box(w, 0, 0);
    wattrset(w, theme_attr(d->th, ROLE_TITLE));
    mvwaddnstr(w, 0, 2, title, cols - 4);
    size_t first = first_shown(d, n, rows);
    wattrset(w, theme_attr(d->th, ROLE_DIM));
    mvwaddnstr(w, 1, 2, keys, cols - 4);
    wattrset(w, theme_attr(d->th, ROLE_DEFAULT));
    for (int r = 0; r < rows && first + (size_t)r < n; r++) {
        const char *m = wl.v[first + (size_t)r];
        size_t len = strlen(m), off = d->warn_left < len ? d->warn_left : len;
        char safe[sizeof wl.v[0] * 2];
        sanitize_text(m + off, len - off, safe, sizeof safe, cols - 4);
        mvwaddstr(w, 2 + r, 2, safe);
    }
    if (n > (size_t)rows) {
        char pos[48];
        snprintf(pos, sizeof pos, " %zu-%zu/%zu ", first + 1,
                 first + (size_t)rows < n ? first + (size_t)rows : n, n);
        wattrset(w, theme_attr(d->th, ROLE_DIM));
        mvwaddstr(w, h - 1, cols - 2 - (int)strlen(pos), pos);
    }
    wattrset(w, 0);
    free(wl.v);
    touchwin(w);
    wnoutrefresh(w);
}
