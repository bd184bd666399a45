/* jobs_draw: the job list's view and frame; see jobs_ui.h. */
#include "tui/jobs/jobs_ui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/util/vec.h"
#include "tui/jobs/jobs_cells.h"
#include "tui/text/sanitize.h"

int jobs_ui_rows(void)
{
    int r = LINES - 4;   /* title, column header, the job's line, status line */
    return r < 1 ? 1 : r > JOBS_MAX_ROWS ? JOBS_MAX_ROWS : r;
}

/* The cursor's index in the new view: its job's, else the same place. */
static void keep_cursor(jobs_ui *u, const joblist *l)
{
    if (u->cur_name[0])
        for (size_t i = 0; i < u->nidx; i++)
            if (!strcmp(joblist_at(l, u->idx[i])->name, u->cur_name)) {
                u->cur = i;
                break;
            }
    if (u->cur >= u->nidx)
        u->cur = u->nidx ? u->nidx - 1 : 0;
    size_t rows = (size_t)jobs_ui_rows();
    if (u->cur < u->top)
        u->top = u->cur;
    if (u->cur >= u->top + rows)
        u->top = u->cur + 1 - rows;
    if (u->top + rows > u->nidx)
        u->top = u->nidx > rows ? u->nidx - rows : 0;
}

static void copy_page(jobs_ui *u, const joblist *l)
{
    size_t rows = (size_t)jobs_ui_rows();
    u->npage = 0;
    for (size_t i = u->top; i < u->nidx && u->npage < rows; i++)
        u->page[u->npage++] = *joblist_at(l, u->idx[i]);
    if (u->nidx)
        snprintf(u->cur_name, sizeof u->cur_name, "%s", joblist_at(l, u->idx[u->cur])->name);
}

void jobs_ui_refresh(jobs_ui *u)
{
    pthread_mutex_t *mu = jobs_feed_lock(u->feed);
    const char *names[JOBS_MAX_ROWS];
    u->gen_seen = jobs_feed_generation(u->feed);
    pthread_mutex_lock(mu);
    joblist *l = jobs_feed_list(u->feed);
    u->total = joblist_count(l);
    if (vec_grow(&u->idx, &u->idx_cap, u->total + 1, sizeof *u->idx, 256) == 0) {
        joblist_view_opts o = {.filter = u->filter, .sort = u->sort, .desc = u->desc,
                               .faults_only = u->faults, .now_s = (double)time(NULL),
                               .stale_s = 600};
        long n = joblist_view(l, &o, u->idx, u->idx_cap);
        u->nidx = n > 0 ? (size_t)n : 0;
    }
    keep_cursor(u, l);
    copy_page(u, l);
    pthread_mutex_unlock(mu);
    for (size_t i = 0; i < u->npage; i++)
        names[i] = u->page[i].name;
    jobs_feed_want(u->feed, names, u->npage);
    u->dirty = 1;
}

static int status_role(const jobrow *r)
{
    if (!strcmp(r->status, "InProgress"))
        return ROLE_STATUS_LIVE;
    if (!strcmp(r->status, "Failed"))
        return ROLE_ALERT_HIGH;
    if (!strcmp(r->status, "Stopped") || !strcmp(r->status, "Stopping"))
        return ROLE_ALERT_MED;
    if (!strcmp(r->status, "Completed"))
        return ROLE_OK;
    return ROLE_DIM;
}

static void draw_title(jobs_ui *u)
{
    char line[512], safe[512], shown[48] = "", filt[160] = "";
    if (u->nidx != u->total)
        snprintf(shown, sizeof shown, " (%zu shown)", u->nidx);
    if (u->filter[0] && !u->editing)
        snprintf(filt, sizeof filt, " - filter %s", u->filter);
    snprintf(line, sizeof line, "smtop jobs - %s - %zu jobs%s%s%s", u->where, u->total,
             shown, u->faults ? " - faults only" : "", filt);
    sanitize_str(line, safe, sizeof safe, COLS);
    attrset(theme_attr(u->th, ROLE_TITLE) | A_BOLD);
    mvhline(0, 0, ' ', COLS);
    mvaddstr(0, 0, safe);
    attrset(0);
}

static void draw_header(jobs_ui *u, const jobcol *cols, size_t nc, int name_w)
{
    int x = 0;
    attrset(theme_attr(u->th, ROLE_LABEL) | A_BOLD);
    mvhline(1, 0, ' ', COLS);
    for (size_t i = 0; i < nc; i++) {
        char t[96];
        int w = cols[i] == JOBCOL_NAME ? name_w : jobs_cells_width(cols[i]);
        jobs_cells_title(cols[i], w, cols[i] == u->sort, u->desc, u->ascii, t, sizeof t);
        int sorted = cols[i] == u->sort;
        if (sorted)
            attron(A_REVERSE);
        mvaddstr(1, x, t);
        if (sorted)
            attroff(A_REVERSE);
        x += w + 1;
    }
    attrset(0);
}

static void draw_row(jobs_ui *u, int y, const jobrow *r, int selected, const jobcol *cols,
                     size_t nc, int name_w, double now)
{
    int x = 0, base = selected ? theme_attr(u->th, ROLE_SELECTED) | A_REVERSE : 0;
    attrset(base);
    mvhline(y, 0, ' ', COLS);
    for (size_t i = 0; i < nc; i++) {
        char cell[600];
        int w = cols[i] == JOBCOL_NAME ? name_w : jobs_cells_width(cols[i]);
        jobs_cells_text(r, cols[i], w, now, cell, sizeof cell);
        int attr = base;
        if (cols[i] == JOBCOL_STATUS && !selected)
            attr = theme_attr(u->th, status_role(r));
        if (cols[i] == JOBCOL_ALERTS && r->alerts && !selected)
            attr = theme_attr(u->th, ROLE_ALERT_HIGH) | A_BOLD;
        attrset(attr);
        mvaddstr(y, x, cell);
        x += w + 1;
    }
    attrset(0);
}

/* The selected job's line: what the columns have no room for — the
 * status in words (Failed: its reason), then where its data is. */
static void draw_detail(jobs_ui *u)
{
    char line[1400], safe[1400];
    mvhline(LINES - 2, 0, ' ', COLS);
    if (!u->nidx || u->cur < u->top || u->cur - u->top >= u->npage)
        return;
    const jobrow *r = &u->page[u->cur - u->top];
    const char *what = r->failure[0] ? r->failure : r->secondary;
    snprintf(line, sizeof line, "%s: %s%s%s%s - %s", r->name, r->status[0] ? r->status : "?",
             *what && strcmp(what, r->status) ? ": " : "",
             *what && strcmp(what, r->status) ? what : "",
             r->groups > 1 ? " (instance groups)" : "",
             r->profiler_url[0] ? r->profiler_url
                                : r->described ? "no profiler output (Debugger off)"
                                               : "not described yet");
    sanitize_str(line, safe, sizeof safe, COLS - 1);
    attrset(theme_attr(u->th, !strcmp(r->status, "Failed") ? ROLE_ALERT_HIGH : ROLE_DIM));
    mvaddstr(LINES - 2, 0, safe);
    attrset(0);
}

/* "j/k move  / filter  ...": the key table's hints. */
static void key_hints(char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (const jobs_keydef *k = jobs_keys; k->keys && n < cap; k++)
        if (k->hint)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "  " : "", k->hint);
}

static void draw_status(jobs_ui *u)
{
    char line[1100], safe[1100];
    int is_err = 0, role = ROLE_STATUS;
    mvhline(LINES - 1, 0, ' ', COLS);
    if (u->editing) {
        snprintf(line, sizeof line, "/%s", u->filter);
    } else {
        jobs_feed_status(u->feed, line, sizeof line, &is_err);
        if (u->notice[0])
            snprintf(line, sizeof line, "%s", u->notice);
        else if (!line[0])
            key_hints(line, sizeof line);
        role = is_err ? ROLE_ERROR : ROLE_STATUS;
    }
    sanitize_str(line, safe, sizeof safe, COLS - 1);
    attrset(theme_attr(u->th, role));
    mvaddstr(LINES - 1, 0, safe);
    attrset(0);
}

/* The help overlay: the key table's lines, then what the columns mean. */
static void draw_help(jobs_ui *u)
{
    static const char *const foot[] = {
        "",
        "GPU% CPU% MEM%: mean of the last 5 min; * = per-host sums, type unknown",
        "any key closes this help"};
    size_t nkeys = 0;
    for (const jobs_keydef *k = jobs_keys; k->keys; k++)
        nkeys += k->what != NULL;
    size_t nfoot = sizeof foot / sizeof foot[0], n = 2 + nkeys + nfoot;
    int h = (int)n + 2, w = 76 < COLS ? 76 : COLS, y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
    WINDOW *win = newwin(h < LINES ? h : LINES, w, y0 > 0 ? y0 : 0, x0 > 0 ? x0 : 0);
    if (!win)
        return;
    werase(win);
    wattrset(win, theme_attr(u->th, ROLE_BORDER_FOCUS));
    box(win, 0, 0);
    wattrset(win, 0);
    int y = 1, last = getmaxy(win) - 1;
    if (y < last)
        mvwaddnstr(win, y++, 2, "smtop jobs - keys", w - 4);
    y++;
    for (const jobs_keydef *k = jobs_keys; k->keys && y < last; k++)
        if (k->what) {
            char line[160];
            snprintf(line, sizeof line, "%-18s %s", k->keys, k->what);
            mvwaddnstr(win, y++, 2, line, w - 4);
        }
    for (size_t i = 0; i < nfoot && y < last; i++)
        mvwaddnstr(win, y++, 2, foot[i], w - 4);
    wnoutrefresh(win);
    delwin(win);
}

void jobs_ui_draw(jobs_ui *u)
{
    jobcol cols[JOBCOL_COUNT];
    int name_w = 16;
    size_t nc = jobs_cells_layout(COLS, cols, &name_w);
    double now = (double)time(NULL);
    erase();
    draw_title(u);
    draw_header(u, cols, nc, name_w);
    for (size_t i = 0; i < u->npage; i++)
        draw_row(u, 2 + (int)i, &u->page[i], u->top + i == u->cur, cols, nc, name_w, now);
    if (!u->nidx) {
        attrset(theme_attr(u->th, ROLE_DIM));
        mvaddstr(3, 2, jobs_feed_listed(u->feed)
                           ? (u->total ? "no job matches the filter" : "no jobs in this range")
                           : "listing jobs...");
        attrset(0);
    }
    draw_detail(u);
    draw_status(u);
    wnoutrefresh(stdscr);
    if (u->help)
        draw_help(u);
    doupdate();
    u->dirty = 0;
}
