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
#include <time.h>
#include <unistd.h>

#include "model/util/fnv.h"
#include "model/view/freshness.h"
#include "tui/panes/chart.h"
#include "tui/text/sanitize.h"

/* Whether the job is still writing (the header's LIVE badge). */
static int job_live(const dash *d, const viewdata *vd, int64_t now_us)
{
    return vd && viewdata_newest_us(vd) > 0 &&
           freshness_writing(viewdata_freshness(vd, now_us,
                                                d->o ? (int64_t)d->o->interval_ms * 1000 : 0));
}

void dash_ctx(dash *d, pane_ctx *ctx, int64_t now_us)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->view = &d->view;
    ctx->th = d->th;
    ctx->now_us = now_us;
    ctx->vd = d->snap ? viewsnap_view(d->snap) : NULL;
    /* The window of the data on screen: the snapshot's newest sample,
     * read without the model lock. */
    view_window(&d->view, ctx->vd ? viewdata_newest_us(ctx->vd) : 0, &ctx->t0_us, &ctx->t1_us);
    ctx->ext = &d->ext;
    ctx->job_live = job_live(d, ctx->vd, now_us);
    ctx->following = ctx->job_live && d->view.live && !d->view.paused && !d->view.step_focus;
}

/* A job that had stopped writing when the dashboard opened (STALE or
 * ENDED, once the backfill is done) opens on the whole job: the window
 * fits its data, and that is where 0 returns. While the view stays so,
 * it keeps fitting the data the snapshots add. */
static void fit_stopped_job(dash *d, int64_t now_us)
{
    const viewdata *vd = d->snap ? viewsnap_view(d->snap) : NULL;
    if (d->fit_mode < 0 || !vd || viewdata_newest_us(vd) <= 0)
        return;
    if (d->fit_mode == 0) {
        scan_stats st;
        scanner_get_stats(job_scanner(d->j), &st);
        /* Decided once the first pass has read the job to its end: a
         * snapshot of a pass still reading holds only its newest files. */
        if (d->backfill || st.passes < 1 || viewdata_model_generation(vd) == 0)
            return;
        d->fit_mode = !job_live(d, vd, now_us) && view_untouched(&d->view) ? 1 : -1;
    }
    if (d->fit_mode != 1 || !view_untouched(&d->view))
        return;
    if (job_live(d, vd, now_us)) {
        /* It was only catching up (a generator writing its history, a
         * writer back from a pause): live again, the usual 5 minutes. */
        view_home_default(&d->view);
        d->fit_mode = -1;
        return;
    }
    view_fit(&d->view, viewdata_first_us(vd), viewdata_newest_us(vd));
    d->view.home_span_us = d->view.span_us;
}

static void draw_border(dash *d, size_t i)
{
    dash_pane *p = &d->panes[i];
    int focus = (int)i == d->view.focus;
    int a = theme_attr(d->th, focus ? ROLE_BORDER_FOCUS : ROLE_BORDER);
    wattrset(p->outer, a);
    box(p->outer, 0, 0);
    char title[128];
    const char *note = p->vt->whole_job ? "whole job" : p->note;
    /* Brackets mark the focused pane without colour too. A title too long
     * for the border keeps its first word, so the time range still shows
     * ("Python - 20:24:00-20:29:00" in a 38-column pane). */
    int words = (int)strlen(p->vt->title);
    for (int pass = 0; pass < 2; pass++) {
        snprintf(title, sizeof title, "%s%zu %.*s%s%s%s%s", focus ? "[" : " ", i + 1, words,
                 p->vt->title, d->view.zoomed ? " (Esc: back)" : "", note[0] ? " - " : "",
                 note, focus ? "]" : " ");
        if (!note[0] || sanitize_cols(title) <= getmaxx(p->outer) - 4)
            break;
        words = (int)strcspn(p->vt->title, " ");
    }
    char safe[192];
    sanitize_str(title, safe, sizeof safe, getmaxx(p->outer) - 4);
    wattrset(p->outer, theme_attr(d->th, ROLE_TITLE) | (focus ? A_REVERSE : 0));
    mvwaddstr(p->outer, 0, 2, safe);
    wattrset(p->outer, 0);
    wnoutrefresh(p->outer);
    p->border_dirty = 0;
}

static double mono_ms(void);
static int backfilling(dash *d);

/* While a backfill runs, every pass changes what the model panes show. A
 * frame drawn for a key then redraws a pane only when the view changed
 * (the key moved or zoomed it), the pane was marked dirty (the key was
 * its own), or its last draw is DASH_BACKFILL_FRAME_MS old: a key that
 * touches one pane or the help overlay is answered without redrawing
 * every chart over the growing model. */
#define DASH_BACKFILL_FRAME_MS 250

static int draw_due(const dash *d, const dash_pane *p, double now_ms)
{
    return !d->backfill || p->view_key != d->view_key ||
           now_ms - p->drawn_ms >= DASH_BACKFILL_FRAME_MS;
}

/* Redraws pane i when its stamp changed; returns 1 when it drew. */
static int draw_pane(dash *d, size_t i, const pane_ctx *ctx)
{
    dash_pane *p = &d->panes[i];
    if (!p->inner)
        return 0;
    if (p->border_dirty)
        draw_border(d, i);
    double now = mono_ms();
    if (!p->dirty && !draw_due(d, p, now))
        return 0;
    uint64_t st = p->vt->stamp ? p->vt->stamp(p->p, ctx) : 0;
    if (!p->dirty && p->vt->stamp && st == p->stamp)
        return 0;
    p->view_key = d->view_key;
    p->drawn_ms = now;
    werase(p->inner);
    wattrset(p->inner, 0);
    p->vt->draw(p->p, p->inner, ctx);
    wattrset(p->inner, 0);
    touchwin(p->inner);
    wnoutrefresh(p->inner);
    p->stamp = st;
    p->dirty = 0;
    const char *note = p->vt->title_note ? p->vt->title_note(p->p, ctx) : NULL;
    if (note && strcmp(note, p->note) != 0) {
        snprintf(p->note, sizeof p->note, "%s", note);
        draw_border(d, i);
    }
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

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Every pane and the header draw from the loader's latest snapshot:
 * the frame takes no lock (the model lock is the loader's, held while it
 * ingests and builds; the snapshot is swapped under the loader's own
 * small mutex). */
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
    dash_view_request(d);
    dash_derive_take(d);
    d->backfill = d->ld && backfilling(d);
    fit_stopped_job(d, now);
    pane_ctx ctx;
    dash_ctx(d, &ctx, now);
    /* The view, and the request the snapshot's view data answers: the
     * answer to a key's request redraws at once even while backfilling. */
    d->view_key = fnv_add(FNV_SEED, &d->view, sizeof d->view);
    if (ctx.vd) {
        d->view_key = fnv_add(d->view_key, viewdata_request(ctx.vd), sizeof(viewdata_req));
        if (d->view_waiting &&
            !memcmp(viewdata_request(ctx.vd), &d->view_posted, sizeof d->view_posted))
            d->view_waiting = 0;
    }
    dash_panes_update(d, &ctx);
    dash_draw_header(d, &ctx);
    for (size_t i = 0; i < d->npanes; i++)
        drew |= draw_pane(d, i, &ctx);
    dash_draw_status(d, now);
    if (d->warn_on)
        dash_draw_warn(d);
    else if (d->help_on && (drew || !d->help))
        dash_draw_help(d);
    doupdate();
    /* Drawing may have moved a pane's scroll (the System pane's top node,
     * the Timeline's first bar): ask for what it will show next. */
    dash_view_request(d);
}

/* Reads every key that is waiting; with SMTOP_LOCK_STATS, times each. */
static void read_keys(dash *d)
{
    int ch;
    while (!d->quit && (ch = getch()) != ERR) {
        double t = mono_ms();
        dash_key(d, ch);
        if (d->key_log && d->key_n < DASH_LOCK_LOG)
            d->key_log[d->key_n++] = mono_ms() - t;
    }
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

enum { EV_KEY = 1, EV_LOADER = 2, EV_OTHER = 4 };

/* Waits up to timeout_ms; returns what woke it (0: the timeout). */
static int wait_events(dash *d, int timeout_ms)
{
    struct pollfd fds[3] = {
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = d->ld ? loader_fd(d->ld) : -1, .events = POLLIN},
        {.fd = d->o->sig_fd, .events = POLLIN},
    };
    if (d->term_in)
        fds[0].fd = -1;         /* headless: /dev/null is always "readable" */
    int n = poll(fds, 3, timeout_ms);
    if (n <= 0)
        return 0;
    int ev = 0;
    if (fds[1].revents & POLLIN) {
        loader_ack(d->ld);
        ev |= EV_LOADER;
    }
    if (fds[2].revents & POLLIN) {
        struct signalfd_siginfo si;
        while (read(d->o->sig_fd, &si, sizeof si) == (ssize_t)sizeof si)
            d->quit = 1;
        ev |= EV_OTHER;
    }
    if (fds[0].revents & (POLLHUP | POLLERR))
        d->quit = 1;            /* the terminal went away (ssh dropped) */
    if (fds[0].revents)
        ev |= EV_KEY;
    return ev;
}

/* While a backfill runs the loader signals after every pass and every
 * view data it builds within one; new data alone is drawn at most every
 * DASH_BACKFILL_FRAME_MS then. Keys, signals, the clock and the answer to
 * a view request a key made (view_waiting) still draw at once. */

static int backfilling(dash *d)
{
    scan_stats st;
    scanner_get_stats(job_scanner(d->j), &st);
    return st.scanning || st.files_pending > 0;
}

/* Waits for the next reason to draw a frame, reading keys as they come. */
static void wait_frame(dash *d, double last_ms)
{
    int timeout = frame_timeout(d);
    for (;;) {
        int ev = wait_events(d, timeout);
        read_keys(d);
        if (d->quit || ev != EV_LOADER || d->o->frames > 0 || d->view_waiting || !backfilling(d))
            return;
        double left = last_ms + DASH_BACKFILL_FRAME_MS - mono_ms();
        if (left <= 0)
            return;
        timeout = (int)left + 1;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One SMTOP_LOCK_STATS line: median, p95 and max of v[0..n) (sorted). */
static void print_spread(const char *what, double *v, size_t n)
{
    if (!n)
        return;
    qsort(v, n, sizeof *v, cmp_double);
    fprintf(stderr, "lock: %zu %s: median %.3f ms, p95 %.3f ms, max %.3f ms\n", n, what,
            v[n / 2], v[(size_t)((double)n * 0.95)], v[n - 1]);
}

/* The SMTOP_LOCK_STATS summary: how long the frames and the keys took
 * (neither takes the model lock: a long one is not the loader's doing),
 * and the loader's answers to view requests. */
static void print_lock_stats(dash *d)
{
    print_spread("frames, no model lock taken, each drawn in", d->frame_log, d->frame_n);
    print_spread("keys and clicks, no model lock taken, each handled in", d->key_log,
                 d->key_n);
    if (d->ld) {
        uint64_t n;
        int64_t total_us, max_us;
        loader_view_stats(d->ld, &n, &total_us, &max_us);
        fprintf(stderr, "loader: %llu answers to view requests, %.1f ms in all, longest %.1f ms\n",
                (unsigned long long)n, total_us / 1e3, max_us / 1e3);
    }
}

static void run_loop(dash *d)
{
    long frames = 0;
    while (!d->quit) {
        double t = mono_ms();
        dash_frame(d);
        if (d->frame_log && d->frame_n < DASH_LOCK_LOG)
            d->frame_log[d->frame_n++] = mono_ms() - t;
        if (d->o->frames > 0 && ++frames >= d->o->frames)
            break;
        wait_frame(d, t);
    }
}

/* Loads the theme list and the starting theme; warnings go to stderr now
 * (they stay visible after the dashboard ends) and to the status line. */
static int dash_init(dash *d, job *j, const dash_opts *o, sm_err *err)
{
    memset(d, 0, sizeof *d);
    d->j = j;
    d->o = o;
    d->focus_want = -1;
    d->wide_pick = -1;
    /* The header's name until the first snapshot carries it: the loader
     * has not started, so no lock. */
    snprintf(d->place, sizeof d->place, "%s", job_describe(j));
    const char *ls = getenv("SMTOP_LOCK_STATS");
    if (ls && ls[0] == '1')
        d->frame_log = malloc(sizeof *d->frame_log * DASH_LOCK_LOG * 2);   /* NULL: off */
    if (d->frame_log)
        d->key_log = d->frame_log + DASH_LOCK_LOG;
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
        sanitize_fputs(warn, stderr);
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
    if (dash_cmd_configure_rules(d, err) != 0)
        return -1;
    return dash_derive_open(d, err);
}

/* How long quitting waits for a scan pass to notice the stop: a pass
 * blocked on the network or in a huge listing is left behind instead. */
#define DASH_STOP_WAIT_MS 250

/* Restores the terminal first, so the user's shell is back at once, then
 * stops the loader. 1 when the loader is still in a pass (it keeps using
 * the job), else 0. */
static int dash_fini(dash *d)
{
    dash_screen_close(d);
    if (d->frame_log)
        print_lock_stats(d);   /* after the screen is gone, so it stays readable */
    int stuck = loader_stop_within(d->ld, DASH_STOP_WAIT_MS) != 0;
    d->ld = NULL;
    if (stuck)   /* the thread still uses the viewbuild and the job; the process ends now */
        return 1;
    for (size_t i = 0; i < d->npanes; i++)
        if (d->panes[i].p)
            d->panes[i].vt->destroy(d->panes[i].p);
    dash_derive_close(d);
    free(d->frame_log);
    theme_free(d->th);
    return stuck;
}

int dash_bench(dash *d);   /* dash_bench.c */

int dash_run(job *j, const dash_opts *o, sm_err *err)
{
    dash *d = calloc(1, sizeof *d);
    if (!d)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = dash_init(d, j, o, err);
    loader_opts lo = {.interval_ms = o->interval_ms, .dv = d->dv};
    if (rc == 0 && o->bench_frames <= 0 && !(d->ld = loader_start_opts(j, &lo, err)))
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
    int unsaved = rc == 0 && o->save_config && d->quit == DASH_QUIT_KEY &&
                  dash_panes_save(d, &serr) < 0;
    int stuck = dash_fini(d);
    if (unsaved)   /* after the screen is gone, so it stays readable */
        fprintf(stderr, "smtop: layout not saved: %s\n", serr.msg);
    free(d);
    return rc == 0 && stuck ? DASH_LOADER_BUSY : rc;
}
