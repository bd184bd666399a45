/* pane_timeline_events: the events view — the selected node's (or writer's)
 * framework events in the visible window, by start or by duration, filtered by name
 * through the pane's own `/` prompt. */
#include <stdio.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_timeline_internal.h"
#include "tui/theme/theme.h"

static void draw_header(const pane *p, WINDOW *w, const pane_ctx *ctx)
{
    char head[400];
    snprintf(head, sizeof head, "%s  by %s (s)%s%s", p->who,
             p->order == EW_BY_DURATION ? "duration" : "start",
             p->filter[0] ? "  /" : "", p->filter);
    pane_timeline_draw_tabs(p, w, ctx, head);
}

static void draw_row(WINDOW *w, int y, const ew_event *e, int sel, const pane_ctx *ctx)
{
    char line[160], dur[FMT_BUF], step[32];
    if (e->step >= 0)
        snprintf(step, sizeof step, "%lld", (long long)e->step);
    else
        snprintf(step, sizeof step, "-");
    /* Start relative to the window: long events may begin before it. */
    snprintf(line, sizeof line, "%+10.3fs %8s %6s ", (double)(e->start_us - ctx->t0_us) / 1e6,
             fmt_duration(dur, sizeof dur, (double)e->dur_us), step);
    int attr = theme_attr(ctx->th, sel ? ROLE_SELECTED : ROLE_DEFAULT);
    if (sel)
        mvwhline(w, y, 0, ' ' | (chtype)attr, getmaxx(w));
    int x = pane_common_put(w, y, 0, -1, line, attr);
    pane_common_put(w, y, x, -1, e->label, sel ? attr : theme_attr(ctx->th, ROLE_LABEL));
}

void pane_timeline_draw_events(pane *p, WINDOW *w, const pane_ctx *ctx, const tlview *tv)
{
    draw_header(p, w, ctx);
    int h = getmaxy(w), W = getmaxx(w);
    int y1 = p->filter_edit ? h - 1 : h;
    if (p->filter_edit) {
        char prompt[96];
        snprintf(prompt, sizeof prompt, "filter events: /%s_", p->filter);
        pane_common_put(w, h - 1, 0, -1, prompt, theme_attr(ctx->th, ROLE_STATUS));
    }
    size_t n = tv->nev;
    p->ev_n = n;
    if (p->ev_sel >= n)
        p->ev_sel = n ? n - 1 : 0;
    char cnt[64];
    snprintf(cnt, sizeof cnt, "%zu event%s", n, n == 1 ? "" : "s");
    if (h >= 3) {
        pane_common_put(w, 1, 0, -1, "      start      dur   step name", theme_attr(ctx->th, ROLE_LABEL));
        pane_common_put_right(w, 1, W - 1, 16, cnt, theme_attr(ctx->th, ROLE_DIM));
    }
    int y0 = h >= 3 ? 2 : 1;
    if (n == 0) {
        pane_timeline_draw_message(w, p->filter[0] ? "no events in this window match the filter"
                                            : "no framework events in this window", ctx);
    } else if (y1 > y0) {
        size_t fit = (size_t)(y1 - y0);
        p->ev_top = pane_common_scroll_top(p->ev_top, p->ev_sel, n, fit);
        for (size_t i = p->ev_top; i < n && y0 < y1; i++, y0++)
            draw_row(w, y0, &tv->ev[i], i == p->ev_sel, ctx);
    }
}

/* The `/` prompt: typing narrows live, Enter keeps, Esc clears. */
static int filter_key(pane *p, int ch)
{
    pane_common_edit_prompt(p->filter, sizeof p->filter, ch, &p->filter_edit);
    p->ev_sel = p->ev_top = 0;
    return 1;
}

int pane_timeline_events_key(pane *p, int ch, pane_ctx *ctx)
{
    (void)ctx;
    if (p->filter_edit)
        return filter_key(p, ch);
    size_t n = p->ev_n, s = p->ev_sel;
    switch (ch) {
    case 's':
        p->order = p->order == EW_BY_START ? EW_BY_DURATION : EW_BY_START;
        p->ev_sel = p->ev_top = 0;
        return 1;
    case '/': p->filter_edit = 1; return 1;
    case KEY_UP: case 'k': p->ev_sel = s ? s - 1 : 0; return 1;
    case KEY_DOWN: case 'j': p->ev_sel = s + 1 < n ? s + 1 : s; return 1;
    case KEY_PPAGE: p->ev_sel = s > 10 ? s - 10 : 0; return 1;
    case KEY_NPAGE: p->ev_sel = s + 10 < n ? s + 10 : (n ? n - 1 : 0); return 1;
    case KEY_HOME: p->ev_sel = 0; return 1;
    case KEY_END: p->ev_sel = n ? n - 1 : 0; return 1;
    default: return 0;
    }
}
