/* pane_timeline_steps: the step-timeline view — one bar per step, newest
 * at the bottom, split into data / forward / backward / comm / other. */
#include <stdio.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_timeline_internal.h"
#include "tui/theme/theme.h"

/* Each part has its own glyph as well as its own color, so the split stays
 * readable without color (NO_COLOR, monochrome terminals). */
static const wchar_t part_glyph[TL_OTHER + 1] = {L'▒', L'█', L'▓', L'░', L'·'};
static const wchar_t part_ascii[TL_OTHER + 1] = {L'd', L'F', L'B', L'c', L'.'};
static const theme_role part_role[TL_OTHER + 1] = {
    ROLE_GRAPH_IO, ROLE_GRAPH_CPU, ROLE_GRAPH_GPU, ROLE_GRAPH_NET, ROLE_DIM,
};

static wchar_t glyph_of(const pane_ctx *ctx, int part)
{
    return ctx->view->glyphs == GLYPHS_ASCII ? part_ascii[part] : part_glyph[part];
}

static const char *part_name(int part)
{
    return part == TL_OTHER ? "other" : step_breakdown_cat_name((sb_cat)part);
}

static void draw_legend(WINDOW *w, int y, const pane_ctx *ctx)
{
    int x = 0;
    for (int i = 0; i <= TL_OTHER; i++) {
        pane_common_put_wch(w, y, x, glyph_of(ctx, i), theme_attr(ctx->th, part_role[i]));
        x += 2;
        x += pane_common_put(w, y, x, -1, part_name(i), theme_attr(ctx->th, ROLE_LABEL)) + 2;
    }
    pane_common_put(w, y, x, -1, "! slow", theme_attr(ctx->th, ROLE_STEP_OUTLIER));
}

static void draw_bar(WINDOW *w, int y, int x, int cells, const step_breakdown *b,
                     const pane_ctx *ctx)
{
    int parts[TL_OTHER + 1];
    pane_timeline_bar_parts(b, cells, parts);
    for (int i = 0; i <= TL_OTHER; i++) {
        int attr = theme_attr(ctx->th, part_role[i]);
        for (int k = 0; k < parts[i]; k++)
            pane_common_put_wch(w, y, x++, glyph_of(ctx, i), attr);
    }
}

/* Columns: selection mark, step number (6), bar, duration (8), slow mark. */
static void draw_row(const pane *p, WINDOW *w, int y, size_t i, int64_t max_us, int sel,
                     const pane_ctx *ctx)
{
    const step_breakdown *b = &p->sb[i];
    int W = getmaxx(w), barw = W - 8 - 10;
    char num[32], dur[FMT_BUF];
    if (b->step >= 0)
        snprintf(num, sizeof num, "%6lld", (long long)b->step);
    else
        snprintf(num, sizeof num, "%6s", "?");
    int focused = ctx->view->step_focus && ctx->view->step_t0_us == b->start_us;
    int lattr = theme_attr(ctx->th, sel ? ROLE_SELECTED : ROLE_LABEL);
    pane_common_put(w, y, 0, 1, sel ? ">" : focused ? "*" : " ", lattr);
    pane_common_put(w, y, 1, 6, num, lattr | (focused ? (int)A_BOLD : 0));
    if (barw > 0 && max_us > 0) {
        int cells = (int)((double)barw * (double)b->dur_us / (double)max_us + 0.5);
        draw_bar(w, y, 8, cells > 0 ? cells : 1, b, ctx);
    }
    int slow = p->slow[i];
    fmt_duration(dur, sizeof dur, (double)b->dur_us);
    pane_common_put_right(w, y, W - 3, 8, dur,
                          theme_attr(ctx->th, slow ? ROLE_STEP_OUTLIER : ROLE_DIM));
    if (slow)
        pane_common_put(w, y, W - 1, 1, "!", theme_attr(ctx->th, ROLE_STEP_OUTLIER) | (int)A_BOLD);
}

void pane_timeline_draw_steps(pane *p, WINDOW *w, const pane_ctx *ctx, const model_node *nd)
{
    const phase_stats *sp = pane_timeline_step_phase(nd);
    char head[400];
    const char *label = sp ? phase_stats_label(sp) : "";
    const char *mode = strrchr(label, '.');
    snprintf(head, sizeof head, "%s %s  j/k bar  f focus step", p->who,
             mode ? mode + 1 : label);
    pane_timeline_draw_tabs(p, w, ctx, head);
    int h = getmaxy(w), y0 = h >= 4 ? 2 : 1;
    if (y0 == 2)
        draw_legend(w, 1, ctx);
    p->fit = h > y0 ? (size_t)(h - y0) : 0;
    size_t n = pane_timeline_load_steps(p, nd, p->fit);
    if (n == 0) {
        pane_timeline_draw_message(w, "no steps on this node (no Step:* events)", ctx);
        return;
    }
    int64_t max_us = 0;
    for (size_t i = 0; i < n; i++)
        if (p->sb[i].dur_us > max_us)
            max_us = p->sb[i].dur_us;
    size_t sel = pane_timeline_find_sel(p->sb, n, p->sel_start_us);
    for (size_t i = 0; i < n; i++)
        draw_row(p, w, y0 + (int)i, i, max_us, i == sel, ctx);
}

int pane_timeline_steps_key(pane *p, int ch, pane_ctx *ctx)
{
    const char *why = "";
    const model_node *nd = pane_timeline_node(ctx, &why);
    size_t n = nd ? pane_timeline_load_steps(p, nd, p->fit ? p->fit : 1) : 0;
    if (n == 0)
        return 0;   /* no bars: j/k keep selecting the node */
    size_t sel = pane_timeline_find_sel(p->sb, n, p->sel_start_us);
    switch (ch) {
    case KEY_UP: case 'k': sel = sel ? sel - 1 : 0; break;
    case KEY_DOWN: case 'j': sel = sel + 1 < n ? sel + 1 : sel; break;
    case KEY_PPAGE: sel = sel > 10 ? sel - 10 : 0; break;
    case KEY_NPAGE: sel = sel + 10 < n ? sel + 10 : n - 1; break;
    case KEY_HOME: sel = 0; break;
    case KEY_END: sel = n - 1; break;
    case 'f': {
        const step_breakdown *b = &p->sb[sel];
        view_focus_step(ctx->view, (long long)b->step, b->start_us, b->start_us + b->dur_us);
        return 1;
    }
    default: return 0;
    }
    /* The newest bar follows live data; any other stays on its step. */
    p->sel_start_us = sel + 1 == n ? 0 : p->sb[sel].start_us;
    return 1;
}
