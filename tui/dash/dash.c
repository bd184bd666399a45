/* dash: the screen and its windows (see dash_internal.h). */
#include "tui/dash/dash_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <term.h>
#include <unistd.h>

#include "tui/dash/fatal_restore.h"
#include "tui/panes/chart.h"
#include "tui/text/sanitize.h"
#include "tui/term/term_modes.h"

int64_t dash_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Checks TERM before newterm: an unknown type (which newterm would
 * refuse after allocating, and leak) or one that cannot move the cursor
 * (TERM=dumb, a printing terminal: a blank or garbled screen) gets a
 * message saying what to do instead. setupterm writes nothing. */
static int check_terminal(const char *term, sm_err *err)
{
    int status = 0;
    if (setupterm((char *)term, STDOUT_FILENO, &status) != OK)
        return sm_err_set(err, SM_ERR_USAGE, "cannot use terminal type '%s': set TERM "
                          "(e.g. TERM=xterm-256color), or use `smtop report SRC` for "
                          "plain text", term ? term : "(unset)");
    const char *cup = tigetstr("cup");
    int addressable = cup && cup != (const char *)-1;
    del_curterm(cur_term);
    if (!addressable)
        return sm_err_set(err, SM_ERR_USAGE, "terminal type '%s' cannot move the cursor, "
                          "so the dashboard cannot draw: run it in a full-screen terminal "
                          "(e.g. TERM=xterm-256color), or use `smtop report SRC` for "
                          "plain text", term);
    return 0;
}

/* Headless runs (--frames, benchmarks) draw into /dev/null so CI needs no
 * terminal; TERM falls back to a common entry. */
static int open_terminal(dash *d, sm_err *err)
{
    int headless = (d->o->frames > 0 || d->o->bench_frames > 0) && !isatty(STDOUT_FILENO);
    const char *term = getenv("TERM");
    if (headless) {
        d->term_out = fopen("/dev/null", "w");
        d->term_in = fopen("/dev/null", "r");
        if (!d->term_out || !d->term_in)
            return sm_err_set(err, SM_ERR_IO, "cannot open /dev/null");
        if (!term || !term[0])
            term = "xterm-256color";
        d->scr = newterm(term, d->term_out, d->term_in);
    } else {
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
            return sm_err_set(err, SM_ERR_USAGE,
                              "the dashboard needs a terminal; use `smtop report SRC` "
                              "for plain text");
        if (check_terminal(term, err) != 0)
            return -1;
        d->scr = newterm(NULL, stdout, stdin);
    }
    if (!d->scr)
        return sm_err_set(err, SM_ERR_USAGE, "cannot use terminal type '%s': set TERM "
                          "(e.g. TERM=xterm-256color), or use `smtop report SRC` for "
                          "plain text", term ? term : "(unset)");
    return 0;
}

int dash_screen_open(dash *d, sm_err *err)
{
    if (open_terminal(d, err) != 0)
        return -1;
    set_term(d->scr);
    if (!d->term_out)
        d->fatal_restore = fatal_restore_install(STDOUT_FILENO) == 0;
    term_modes_set();
    mmask_t wheel = BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
    wheel |= BUTTON5_PRESSED;
#endif
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | wheel, NULL);
    mouseinterval(0);
    d->depth = theme_detect_depth(d->o->no_color);
    theme_apply(d->th, d->depth);
    dash_relayout(d);
    return 0;
}

static void free_windows(dash *d)
{
    for (size_t i = 0; i < d->npanes; i++) {
        dash_pane *p = &d->panes[i];
        if (p->inner)
            delwin(p->inner);
        if (p->outer)
            delwin(p->outer);
        p->inner = p->outer = NULL;
    }
    if (d->header)
        delwin(d->header);
    if (d->status)
        delwin(d->status);
    if (d->help)
        delwin(d->help);
    d->header = d->status = d->help = NULL;
}

void dash_screen_close(dash *d)
{
    if (!d->scr)
        return;
    free_windows(d);
    endwin();
    if (d->fatal_restore)
        fatal_restore_remove();
    d->fatal_restore = 0;
    delscreen(d->scr);
    d->scr = NULL;
    if (d->term_out)
        fclose(d->term_out);
    if (d->term_in)
        fclose(d->term_in);
    d->term_out = d->term_in = NULL;
}

void dash_mark_all(dash *d)
{
    for (size_t i = 0; i < d->npanes; i++)
        d->panes[i].dirty = d->panes[i].border_dirty = 1;
    d->hdr_last[0] = d->st_last[0] = '\0';
}

/* Moves the pane that says the most (d->wide_pick, dash_panes.c) into
 * the slot of l wider than every other secondary one (the last row of an
 * odd grid), the others keeping their order. No such slot: no change. */
static void widest_to_pick(const dash *d, const layout *l, size_t *vis, size_t nv)
{
    size_t wide = 0, from = nv;
    int maxw = -1, ties = 0;
    for (size_t k = 1; k < nv; k++) {
        if (l->pane[k].w > maxw)
            maxw = l->pane[k].w, wide = k, ties = 0;
        else if (l->pane[k].w == maxw)
            ties++;
        if ((int)vis[k] == d->wide_pick)
            from = k;
    }
    if (ties || !wide || from == nv || from == wide)
        return;
    size_t pick = vis[from];
    if (from < wide)
        memmove(vis + from, vis + from + 1, (wide - from) * sizeof *vis);
    else
        memmove(vis + wide + 1, vis + wide, (from - wide) * sizeof *vis);
    vis[wide] = pick;
}

void dash_relayout(dash *d)
{
    free_windows(d);
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    /* Lay out the shown panes only (dash_panes.c), then put each
     * rectangle back at its pane's index: hidden panes get none. */
    size_t vis[LAYOUT_MAX_PANES], nv = 0;
    int zi = -1;
    for (size_t i = 0; i < d->npanes; i++)
        if (!d->shown_mask || (d->shown_mask >> i) & 1u)
            vis[nv++] = i;
    layout tmp;
    layout_compute(rows, cols, nv, -1, &tmp);
    widest_to_pick(d, &tmp, vis, nv);
    for (size_t k = 0; k < nv; k++)
        if ((int)vis[k] == d->view.focus)
            zi = (int)k;
    layout_compute(rows, cols, nv, d->view.zoomed ? zi : -1, &tmp);
    d->lay = tmp;
    d->lay.npanes = d->npanes;
    memset(d->lay.pane, 0, sizeof d->lay.pane);
    for (size_t k = 0; k < nv; k++)
        d->lay.pane[vis[k]] = tmp.pane[k];
    werase(stdscr);
    wnoutrefresh(stdscr);
    if (!d->lay.too_small) {
        d->header = newwin(d->lay.header.h, cols, d->lay.header.y, 0);
        d->status = newwin(1, cols, d->lay.status.y, 0);
        for (size_t i = 0; i < d->npanes; i++) {
            const layout_rect *r = &d->lay.pane[i];
            dash_pane *p = &d->panes[i];
            if (r->h < 3 || r->w < 3)
                continue;
            p->outer = newwin(r->h, r->w, r->y, r->x);
            p->inner = p->outer ? derwin(p->outer, r->h - 2, r->w - 2, 1, 1) : NULL;
        }
    }
    dash_mark_all(d);
}

int dash_set_theme(dash *d, const char *name)
{
    char warn[1024] = "";
    sm_err err = {0};
    theme *t = theme_load(name, warn, sizeof warn, &err);
    if (!t) {
        dash_notice(d, err.msg);
        return -1;
    }
    theme_free(d->th);
    d->th = t;
    theme_apply(t, d->depth);
    char note[256];
    char *nl = strchr(warn, '\n');
    if (nl)
        *nl = '\0';
    snprintf(note, sizeof note, "theme %.60s%s%.150s", theme_name(t),
             warn[0] ? ": " : "", warn);
    dash_notice(d, note);
    dash_mark_all(d);
    /* Pair 0 and the background may have changed under cells whose text
     * did not: repaint the terminal, not only what differs. */
    clearok(curscr, TRUE);
    return 0;
}
