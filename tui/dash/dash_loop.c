/* dash_loop: the event loop and the frame (see dash_internal.h).
 *
 * One poll() waits on the terminal, the loader's wakeup pipe and the
 * signalfd, with a timeout that keeps the "newest sample N s old" clock
 * ticking. Each frame redraws only panes whose stamp changed, each into its
 * own window (wnoutrefresh), then one doupdate(). */
#include "tui/dash/dash_internal.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "tui/panes/chart.h"
#include "tui/text/sanitize.h"

void dash_ctx(dash *d, pane_ctx *ctx, int64_t now_us)
{
    const model *m = job_model(d->j);
    memset(ctx, 0, sizeof *ctx);
    ctx->m = m;
    ctx->view = &d->view;
    ctx->th = d->th;
    ctx->now_us = now_us;
    view_window(&d->view, model_last_us(m), &ctx->t0_us, &ctx->t1_us);
    d->ext.pystats = job_pystats(d->j);
    d->ext.diff = d->diff;
    ctx->ext = &d->ext;
}

static void draw_border(dash *d, size_t i)
{
    dash_pane *p = &d->panes[i];
    int focus = (int)i == d->view.focus;
    int a = theme_attr(d->th, focus ? ROLE_BORDER_FOCUS : ROLE_BORDER);
    wattrset(p->outer, a);
    box(p->outer, 0, 0);
    char title[96];
    /* Brackets mark the focused pane without colour too. */
    snprintf(title, sizeof title, "%s%zu %s%s%s%s", focus ? "[" : " ", i + 1, p->vt->title,
             d->view.zoomed ? " (Esc: back)" : "", p->vt->whole_job ? " - whole job" : "",
             focus ? "]" : " ");
    char safe[128];
    sanitize_str(title, safe, sizeof safe, getmaxx(p->outer) - 4);
    wattrset(p->outer, theme_attr(d->th, ROLE_TITLE) | (focus ? A_REVERSE : 0));
    mvwaddstr(p->outer, 0, 2, safe);
    wattrset(p->outer, 0);
    wnoutrefresh(p->outer);
    p->border_dirty = 0;
}

/* Redraws pane i when its stamp changed; returns 1 when it drew. */
static int draw_pane(dash *d, size_t i, const pane_ctx *ctx)
{
    dash_pane *p = &d->panes[i];
    if (!p->inner)
        return 0;
    if (p->border_dirty)
        draw_border(d, i);
    uint64_t st = p->vt->stamp ? p->vt->stamp(p->p, ctx) : 0;
    if (!p->dirty && p->vt->stamp && st == p->stamp)
        return 0;
    werase(p->inner);
    wattrset(p->inner, 0);
    p->vt->draw(p->p, p->inner, ctx);
    wattrset(p->inner, 0);
    touchwin(p->inner);
    wnoutrefresh(p->inner);
    p->stamp = st;
    p->dirty = 0;
    return 1;
}

/* Columns of the text in [a, b), copied into buf (cap bytes). */
static int span_cols(const char *a, const char *b, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.*s", (int)(b - a), a);
    return sanitize_cols(buf);
}

/* Puts the words of text on rows from *y, centred, breaking lines at
 * spaces so that none is wider than cols: the sizes are never cut off.
 * A hand-made wrap because curses has none. */
static void put_wrapped(const char *text, int cols, int *y)
{
    char buf[256];
    const char *p = text;
    while (*p == ' ')
        p++;
    while (*p) {
        const char *end = p, *q = p;
        while (*q) {   /* whole words while they fit, at least one */
            const char *we = q;
            while (*we == ' ')
                we++;
            while (*we && *we != ' ')
                we++;
            if (end != p && span_cols(p, we, buf, sizeof buf) > cols)
                break;
            end = q = we;
        }
        int x = (cols - span_cols(p, end, buf, sizeof buf)) / 2;
        mvwaddstr(stdscr, (*y)++, x < 0 ? 0 : x, buf);
        for (p = end; *p == ' '; p++)
            ;
    }
}

static void draw_too_small(dash *d)
{
    int rows = d->lay.rows, cols = d->lay.cols;
    char need[64], have[64];
    const char *x = d->unicode ? "\u00d7" : "x";
    snprintf(need, sizeof need, "need %d%s%d,", LAYOUT_MIN_W, x, LAYOUT_MIN_H);
    snprintf(have, sizeof have, "have %d%s%d", cols, x, rows);
    werase(stdscr);
    int y = rows / 2 - 2 > 0 ? rows / 2 - 2 : 0;
    put_wrapped("terminal too small", cols, &y);
    char sizes[128];
    snprintf(sizes, sizeof sizes, "%s %s", need, have);
    put_wrapped(sizes, cols, &y);
    if (y < rows)
        put_wrapped("enlarge the window or press q to quit", cols, &y);
    wnoutrefresh(stdscr);
}

void dash_frame(dash *d)
{
    int64_t now = dash_now_us();
    if (d->lay.too_small) {
        if (d->st_last[0] != '!') {
            draw_too_small(d);
            snprintf(d->st_last, sizeof d->st_last, "!");
        }
        doupdate();
        return;
    }
    int drew = 0;
    dash_diff_refresh(d, now);
    pthread_mutex_lock(job_lock(d->j));
    pane_ctx ctx;
    dash_ctx(d, &ctx, now);
    dash_panes_update(d, &ctx);
    for (size_t i = 0; i < d->npanes; i++)
        drew |= draw_pane(d, i, &ctx);
    dash_draw_header(d, now);
    pthread_mutex_unlock(job_lock(d->j));
    dash_draw_status(d, now);
    if (d->help_on && (drew || !d->help))
        dash_draw_help(d);
    doupdate();
}

/* Reads every key that is waiting. */
static void read_keys(dash *d)
{
    int ch;
    while (!d->quit && (ch = getch()) != ERR)
        dash_key(d, ch);
}

/* Poll timeout: a second keeps the lag clock honest; faster while a scan
 * backfills so progress shows; headless runs just spin frames. */
static int frame_timeout(dash *d)
{
    if (d->o->frames > 0 || d->o->bench_frames > 0)
        return 10;
    scan_stats st;
    scanner_get_stats(job_scanner(d->j), &st);
    return st.scanning ? 250 : 1000;
}

static void wait_events(dash *d)
{
    struct pollfd fds[3] = {
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = d->ld ? loader_fd(d->ld) : -1, .events = POLLIN},
        {.fd = d->o->sig_fd, .events = POLLIN},
    };
    if (d->term_in)
        fds[0].fd = -1;         /* headless: /dev/null is always "readable" */
    int n = poll(fds, 3, frame_timeout(d));
    if (n <= 0)
        return;
    if (fds[1].revents & POLLIN)
        loader_ack(d->ld);
    if (fds[2].revents & POLLIN) {
        struct signalfd_siginfo si;
        while (read(d->o->sig_fd, &si, sizeof si) == (ssize_t)sizeof si)
            d->quit = 1;
    }
    if (fds[0].revents & (POLLHUP | POLLERR))
        d->quit = 1;            /* the terminal went away (ssh dropped) */
}

static void run_loop(dash *d)
{
    long frames = 0;
    while (!d->quit) {
        dash_frame(d);
        if (d->o->frames > 0 && ++frames >= d->o->frames)
            break;
        wait_events(d);
        read_keys(d);
    }
}

/* Loads the theme list and the starting theme; warnings go to stderr now
 * (they stay visible after the dashboard ends) and to the status line. */
static int dash_init(dash *d, job *j, const dash_opts *o, sm_err *err)
{
    memset(d, 0, sizeof *d);
    d->j = j;
    d->o = o;
    d->unicode = chart_glyphs_from_locale() == GLYPHS_BRAILLE;
    view_init(&d->view, o->glyphs >= 0 ? (chart_glyphs)o->glyphs
                                       : chart_glyphs_from_locale());
    d->nthemes = theme_list(d->themes, DASH_MAX_THEMES, NULL);
    char warn[1024] = "";
    d->th = theme_load(o->theme ? o->theme : "default", warn, sizeof warn, err);
    if (!d->th)
        return -1;
    for (size_t i = 0; i < d->nthemes; i++)
        if (!strcmp(d->themes[i], theme_name(d->th)))
            d->theme_idx = i;
    if (warn[0]) {
        fputs(warn, stderr);
        char *nl = strchr(warn, '\n');
        if (nl)
            *nl = '\0';
        dash_notice(d, warn);
    }
    const pane_vtbl *shown[LAYOUT_MAX_PANES];
    d->npanes = panes_select(o->baseline != NULL, shown, LAYOUT_MAX_PANES);
    for (size_t i = 0; i < d->npanes; i++) {
        d->panes[i].vt = shown[i];
        if (!(d->panes[i].p = d->panes[i].vt->create()))
            return sm_err_set(err, SM_ERR_NOMEM, "out of memory creating the %s pane",
                              d->panes[i].vt->id);
    }
    dash_panes_configure(d, o->layout, o->shown, o->hidden);
    return dash_cmd_configure_rules(d, err);
}

static void dash_fini(dash *d)
{
    loader_stop(d->ld);
    d->ld = NULL;
    dash_screen_close(d);
    for (size_t i = 0; i < d->npanes; i++)
        if (d->panes[i].p)
            d->panes[i].vt->destroy(d->panes[i].p);
    dash_diff_free(d);
    theme_free(d->th);
}

int dash_bench(dash *d);   /* dash_bench.c */

int dash_run(job *j, const dash_opts *o, sm_err *err)
{
    dash *d = calloc(1, sizeof *d);
    if (!d)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = dash_init(d, j, o, err);
    if (rc == 0 && o->bench_frames <= 0 && !(d->ld = loader_start(j, o->interval_ms, err)))
        rc = -1;
    if (rc == 0)
        rc = dash_screen_open(d, err);
    if (rc == 0) {
        if (o->bench_frames > 0)
            rc = dash_bench(d);
        else
            run_loop(d);
    }
    sm_err serr = {0};
    if (rc == 0 && o->save_config && d->quit == DASH_QUIT_KEY &&
        dash_panes_save(d, &serr) < 0)
        fprintf(stderr, "smtop: layout not saved: %s\n", serr.msg);
    dash_fini(d);
    free(d);
    return rc;
}
