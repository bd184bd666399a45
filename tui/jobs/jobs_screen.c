/* jobs_screen: the job list's terminal, loop and keys; see jobs_screen.h. */
#include "tui/jobs/jobs_screen.h"

#include <langinfo.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/aws/aws_region.h"
#include "tui/jobs/jobs_ui.h"
#include "tui/term/term_modes.h"
#include "tui/term/term_signals.h"
#include "tui/text/fmt.h"

/* The terminal in curses mode. A dashboard opened from the list makes a
 * screen of its own, so the list's is deleted before and made anew after
 * (one newterm per open: ncurses does not resume a screen that another
 * screen's endwin has left). */
static int screen_term(jobs_ui *u, sm_err *err)
{
    if (!(u->scr = newterm(NULL, stdout, stdin)))
        return sm_err_set(err, SM_ERR_USAGE, "cannot use terminal type '%s': set TERM "
                          "(e.g. TERM=xterm-256color), or use `smtop jobs --json`",
                          getenv("TERM") ? getenv("TERM") : "(unset)");
    set_term(u->scr);
    term_modes_set();
    theme_apply(u->th, theme_detect_depth(0));
    return 0;
}

static void screen_unterm(jobs_ui *u)
{
    if (u->scr) {
        endwin();
        delscreen(u->scr);
        u->scr = NULL;
    }
}

static int screen_open(jobs_ui *u, sm_err *err)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return sm_err_set(err, SM_ERR_USAGE, "the job list needs a terminal; use "
                          "`smtop jobs --json` for scripts");
    char warn[256];
    if (!(u->th = theme_load("default", warn, sizeof warn, err)))
        return -1;
    u->ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
    return screen_term(u, err);
}

static void screen_close(jobs_ui *u)
{
    screen_unterm(u);
    theme_free(u->th);
}

/* Enter: the selected job's dashboard, in this process; Esc there comes
 * back. Returns 1 when the dashboard left a hung request, or the
 * terminal is gone. */
static int open_dashboard(jobs_ui *u)
{
    if (!u->nidx || u->cur < u->top || u->cur - u->top >= u->npage)
        return 0;
    const jobrow *r = &u->page[u->cur - u->top];
    if (!r->profiler_url[0] && (u->a->spec || !r->described)) {
        snprintf(u->notice, sizeof u->notice, "%s: no profiler output known (%s)", r->name,
                 u->a->spec ? "Debugger off" : "not described yet");
        return 0;
    }
    /* without profiler output, the dashboard shows CloudWatch's metrics */
    char url[sizeof r->profiler_url];
    snprintf(url, sizeof url, "%s", r->profiler_url[0] ? r->profiler_url : r->name);
    jobrow row = *r;
    screen_unterm(u);
    int hung = 0;
    int rc = u->open(u->open_ud, url, u->a->spec ? NULL : &row, &hung);
    sm_err err = {0};
    if (screen_term(u, &err) < 0)
        return 1;   /* no terminal any more: end */
    u->notice[0] = '\0';
    if (rc != 0 && !hung)
        snprintf(u->notice, sizeof u->notice, "the dashboard of %.200s ended with status %d: "
                 "run `smtop %.400s` to see why", r->name, rc, url);
    jobs_ui_refresh(u);
    return hung;
}

static void move_cursor(jobs_ui *u, long delta)
{
    long c = (long)u->cur + delta;
    if (c < 0 || !u->nidx)
        c = 0;
    if (u->nidx && c >= (long)u->nidx)
        c = (long)u->nidx - 1;
    u->cur = (size_t)c;
    u->cur_name[0] = '\0';   /* the cursor moved: follow the place, not a name */
    jobs_ui_refresh(u);
}

static void edit_filter(jobs_ui *u, int ch)
{
    size_t n = strlen(u->filter);
    if (ch == 27) {
        snprintf(u->filter, sizeof u->filter, "%s", u->filter_before);
        u->editing = 0;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        u->editing = 0;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n)
            u->filter[n - 1] = '\0';
    } else if (ch >= 32 && ch < 127 && n + 1 < sizeof u->filter) {
        u->filter[n] = (char)ch;
        u->filter[n + 1] = '\0';
    }
    jobs_ui_refresh(u);
}

static void set_sort(jobs_ui *u, int col, int desc)
{
    u->sort = (jobcol)((col + JOBCOL_COUNT) % JOBCOL_COUNT);
    u->desc = desc;
    jobs_ui_refresh(u);
}

/* ---- what each key of the table does: 0 stay, 1 quit, 2 quit at once
 * (a dashboard left a hung request). */

static int key_quit(jobs_ui *u, int ch)
{
    (void)u, (void)ch;
    return 1;
}

static int key_move(jobs_ui *u, int ch)
{
    move_cursor(u, ch == 'j' || ch == KEY_DOWN ? 1 : -1);
    return 0;
}

static int key_page(jobs_ui *u, int ch)
{
    long page = jobs_ui_rows();
    if (ch == KEY_NPAGE || ch == ' ')
        move_cursor(u, page);
    else if (ch == KEY_PPAGE)
        move_cursor(u, -page);
    else
        move_cursor(u, ch == 'g' || ch == KEY_HOME ? -(long)u->nidx : (long)u->nidx);
    return 0;
}

static int key_filter(jobs_ui *u, int ch)
{
    (void)ch;
    snprintf(u->filter_before, sizeof u->filter_before, "%s", u->filter);
    u->editing = 1;
    u->dirty = 1;
    return 0;
}

static int key_clear(jobs_ui *u, int ch)
{
    (void)ch;
    u->filter[0] = '\0';
    jobs_ui_refresh(u);
    return 0;
}

static int key_sort(jobs_ui *u, int ch)
{
    if (ch == 'S')
        set_sort(u, (int)u->sort, !u->desc);
    else
        set_sort(u, (int)u->sort + (ch == '<' ? -1 : 1), u->desc);
    return 0;
}

static int key_faults(jobs_ui *u, int ch)
{
    (void)ch;
    u->faults = !u->faults;
    jobs_ui_refresh(u);
    return 0;
}

static int key_help(jobs_ui *u, int ch)
{
    (void)ch;
    u->help = 1;
    u->dirty = 1;
    return 0;
}

static int key_open(jobs_ui *u, int ch)
{
    (void)ch;
    return open_dashboard(u) ? 2 : 0;
}

static int key_resize(jobs_ui *u, int ch)
{
    (void)ch;
    jobs_ui_refresh(u);
    return 0;
}

/* The list's keys: dispatch (on_key), the help overlay and the status
 * line's hints (jobs_draw.c) are read from this one table, in help
 * order. */
const jobs_keydef jobs_keys[] = {
    {{'j', 'k', KEY_DOWN, KEY_UP}, "j / k, Down / Up", "move", "j/k move", key_move},
    {{KEY_NPAGE, ' ', KEY_PPAGE, 'g', KEY_HOME, 'G', KEY_END}, "PgDn / PgUp, g / G",
     "page, first, last", NULL, key_page},
    {{'/'}, "/", "filter by name: substrings, a|b, ^start, end$", "/ filter", key_filter},
    {{'s', 'S'}, "s / S", "sort by the next column / reverse the order", "s sort", key_sort},
    {{'<', '>'}, "< / >", "sort by the column left / right of the current", NULL, key_sort},
    {{'f'}, "f", "faults only: Failed, alerts, idle GPUs, stale", "f faults", key_faults},
    {{'\n', '\r', KEY_ENTER}, "Enter", "open the job's dashboard (Esc there: back here)",
     "Enter open", key_open},
    {{27}, "Esc", "clear the filter", NULL, key_clear},
    {{'?', KEY_F(1)}, "?", NULL, "? help", key_help},
    {{'q', 'Q', 3}, "q", "quit", "q quit", key_quit},
    {{KEY_RESIZE}, "", NULL, NULL, key_resize},
    {{0}, NULL, NULL, NULL, NULL},
};

/* Returns 1 to quit, 2 to quit at once (a hung request). */
static int on_key(jobs_ui *u, int ch)
{
    u->notice[0] = '\0';
    if (u->editing) {
        edit_filter(u, ch);
        return 0;
    }
    if (u->help) {
        u->help = 0;
        u->dirty = 1;
        return ch == 'q' || ch == 3;
    }
    for (const jobs_keydef *k = jobs_keys; k->keys; k++)
        for (size_t i = 0; i < JOBS_KEY_CODES && k->codes[i]; i++)
            if (k->codes[i] == ch)
                return k->act(u, ch);
    return 0;
}

/* Waits for a key, a change of the list or a signal; ticks once a
 * second so ages and training times move without input. */
static int wait_input(jobs_ui *u)
{
    struct pollfd p[3] = {{.fd = STDIN_FILENO, .events = POLLIN},
                          {.fd = jobs_feed_fd(u->feed), .events = POLLIN},
                          {.fd = u->sig_fd, .events = POLLIN}};
    int n = poll(p, u->sig_fd >= 0 ? 3 : 2, 1000);
    if (n > 0 && (p[1].revents & POLLIN))
        jobs_feed_drain(u->feed);
    if (n > 0 && u->sig_fd >= 0 && (p[2].revents & POLLIN))
        return 1;
    /* The terminal went away (ssh dropped, tmux killed): without this the
     * loop spun on a hung-up stdin at a quarter of a core, for hours. */
    if (n > 0 && (p[0].revents & (POLLHUP | POLLERR | POLLNVAL)))
        return 1;
    if (n == 0)
        u->dirty = 1;   /* the clock moved */
    return 0;
}

static int screen_loop(jobs_ui *u)
{
    for (;;) {
        if (jobs_feed_generation(u->feed) != u->gen_seen)
            jobs_ui_refresh(u);
        if (u->dirty)
            jobs_ui_draw(u);
        if (wait_input(u))
            return 0;
        for (int ch; (ch = getch()) != ERR;) {
            int q = on_key(u, ch);
            if (q)
                return q == 2;
        }
    }
}

static jobs_api *screen_api(const jobs_args *a, sm_err *err)
{
    jobs_api_opts o = {.region = a->so.region, .profile = a->so.profile,
                       .since_s = a->since_s, .status = a->status, .name = a->name,
                       .limit = a->limit, .parallel = 4};
    return jobs_api_new(&o, err);
}

/* The API client, or the directory / S3 prefix of SOURCE. */
static int screen_feed_source(const jobs_args *a, jobs_api **api, source **src, sm_err *err)
{
    if (!a->spec)
        return (*api = screen_api(a, err)) ? 0 : -1;
    source_opts so = a->so;
    so.no_cache = 1;
    return (*src = source_open(a->spec, &so, err)) ? 0 : -1;
}

int jobs_screen_run(const jobs_args *a, jobs_open_fn open, void *ud, sm_err *err)
{
    jobs_ui u = {.a = a, .open = open, .open_ud = ud, .sort = a->sort, .desc = a->desc,
                 .faults = a->faults, .sig_fd = -1, .dirty = 1};
    char region[64];
    if (a->filter)
        snprintf(u.filter, sizeof u.filter, "%s", a->filter);
    aws_region_resolve(a->so.region, a->so.profile, region, sizeof region, NULL, 0);
    snprintf(u.where, sizeof u.where, "SageMaker %s", region);
    if (a->spec)
        snprintf(u.where, sizeof u.where, "%.120s", a->spec);
    jobs_api *api = NULL;
    source *src = NULL;
    int rc = -1;
    u.page = calloc(JOBS_MAX_ROWS, sizeof *u.page);
    if (!u.page || screen_feed_source(a, &api, &src, err) < 0 || screen_open(&u, err) < 0)
        goto out;
    u.sig_fd = term_block_signals();
    u.feed = src ? jobs_feed_start_scan(src, a->spec, a->interval_s, err)
                 : jobs_feed_start(api, jobs_files_new(&a->so), a->interval_s, err);
    api = NULL;
    src = NULL;
    if (!u.feed)
        goto out;
    jobs_ui_refresh(&u);
    rc = screen_loop(&u);
out:
    screen_close(&u);
    if (u.feed && rc == 1)
        return 1;   /* a hung dashboard thread: no joins */
    jobs_feed_stop(u.feed);
    jobs_api_free(api);
    if (src)
        source_free(src);
    if (u.sig_fd >= 0)
        close(u.sig_fd);
    free(u.page);
    free(u.idx);
    return rc;
}
