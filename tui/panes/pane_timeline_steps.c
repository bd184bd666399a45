/* pane_timeline_steps: the step-timeline view — one bar per step, newest
 * at the bottom, split into data / forward / backward / comm / other, or,
 * for a PyTorch profiler rank, into its GPU's compute / comm / memory /
 * idle. */
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

/* A Kineto rank's GPU split: compute, comm, memory, idle. */
static const wchar_t gpu_glyph[TL_GPU_NPARTS] = {L'█', L'░', L'▒', L'·'};
static const wchar_t gpu_ascii[TL_GPU_NPARTS] = {L'C', L'c', L'm', L'.'};
static const theme_role gpu_role[TL_GPU_NPARTS] = {
    ROLE_GRAPH_GPU, ROLE_GRAPH_NET, ROLE_GRAPH_IO, ROLE_DIM,
};

static wchar_t glyph_of(const pane_ctx *ctx, int part)
{
    return ctx->view->glyphs == GLYPHS_ASCII ? part_ascii[part] : part_glyph[part];
}

static wchar_t gpu_glyph_of(const pane_ctx *ctx, int part)
{
    return ctx->view->glyphs == GLYPHS_ASCII ? gpu_ascii[part] : gpu_glyph[part];
}

static void draw_gpu_legend(WINDOW *w, int y, const pane_ctx *ctx)
{
    int x = pane_common_put(w, y, 0, -1, "GPU ", theme_attr(ctx->th, ROLE_LABEL));
    for (int i = 0; i < TL_GPU_NPARTS; i++) {
        pane_common_put_wch(w, y, x, gpu_glyph_of(ctx, i), theme_attr(ctx->th, gpu_role[i]));
        x += 2;
        x += pane_common_put(w, y, x, -1, pane_timeline_gpu_part_name(i),
                             theme_attr(ctx->th, ROLE_LABEL)) + 2;
    }
    x += pane_common_put(w, y, x, -1, "! slow", theme_attr(ctx->th, ROLE_STEP_OUTLIER)) + 2;
    pane_common_put(w, y, x, -1, "- not analysed", theme_attr(ctx->th, ROLE_DIM));
}

static void draw_gpu_bar(WINDOW *w, int y, int x, int cells, const gpu_step *g,
                         const pane_ctx *ctx)
{
    int parts[TL_GPU_NPARTS];
    pane_timeline_gpu_parts(g, cells, parts);
    for (int i = 0; i < TL_GPU_NPARTS; i++) {
        int attr = theme_attr(ctx->th, gpu_role[i]);
        for (int k = 0; k < parts[i]; k++)
            pane_common_put_wch(w, y, x++, gpu_glyph_of(ctx, i), attr);
    }
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
        if (p->has_gpu && p->gsb[i].dur_us > 0)
            draw_gpu_bar(w, y, 8, cells > 0 ? cells : 1, &p->gsb[i], ctx);
        else if (p->has_gpu)   /* a trace's last step: HTA's analysis leaves it out */
            for (int k = 0; k < (cells > 0 ? cells : 1); k++)
                pane_common_put_wch(w, y, 8 + k, L'-', theme_attr(ctx->th, ROLE_DIM));
        else
            draw_bar(w, y, 8, cells > 0 ? cells : 1, b, ctx);
    }
    int slow = p->slow[i];
    fmt_duration(dur, sizeof dur, (double)b->dur_us);
    pane_common_put_right(w, y, W - 3, 8, dur,
                          theme_attr(ctx->th, slow ? ROLE_STEP_OUTLIER : ROLE_DIM));
    if (slow)
        pane_common_put(w, y, W - 1, 1, "!", theme_attr(ctx->th, ROLE_STEP_OUTLIER) | (int)A_BOLD);
}

/* The retained index of the step a focus (J/f) names on this node: the
 * newest with its number, else the one that starts at the focus. */
static size_t focused_index(const tlview *tv, const view_state *v, size_t n)
{
    for (size_t i = n; v->step >= 0 && i-- > 0;)
        if (tv->recent[i].step == v->step)
            return i;
    size_t k = tlview_recent_upto(tv, v->step_t0_us);
    return k ? k - 1 : 0;
}

static int64_t start_at(const tlview *tv, size_t i)
{
    return i < tv->nrecent ? tv->recent[i].start_us : 0;
}

/* The selected step's retained index among n: the picked one, else the
 * focused step (moved to once per focus), else the last that starts in
 * the selected window (the newest while live). */
static size_t cursor(pane *p, const tlview *tv, const pane_ctx *ctx, size_t n)
{
    const view_state *v = ctx->view;
    if (!v->step_focus)
        p->focus_t0 = 0;
    else if (v->step_t0_us != p->focus_t0) {
        p->focus_t0 = v->step_t0_us;
        p->sel_start_us = start_at(tv, focused_index(tv, v, n));
        p->top_us = 0;
    }
    if (p->sel_start_us) {
        size_t k = tlview_recent_upto(tv, p->sel_start_us);
        return k ? k - 1 : 0;
    }
    if (v->live || ctx->t1_us <= 0)
        return n - 1;
    size_t k = tlview_recent_upto(tv, ctx->t1_us - 1);
    return k ? k - 1 : 0;
}

/* The top bar's index: where the user scrolled to, moved just enough to
 * keep the selection on screen (the bottom follows it otherwise). */
static size_t first_bar(const pane *p, const tlview *tv, size_t n, size_t sel, size_t fit)
{
    size_t first = sel + 1 > fit ? sel + 1 - fit : 0;
    if (p->top_us) {
        size_t k = tlview_recent_upto(tv, p->top_us);
        first = k ? k - 1 : 0;
    }
    if (sel < first)
        first = sel;
    if (sel >= first + fit)
        first = sel + 1 - fit;
    if (n > fit && first > n - fit)
        first = n - fit;
    return first;
}

void pane_timeline_draw_steps(pane *p, WINDOW *w, const pane_ctx *ctx, const tlview *tv)
{
    char head[400];
    const char *label = tv->step_label;
    const char *mode = strrchr(label, '.');
    size_t total = tv->nrecent;
    int h = getmaxy(w), y0 = h >= 4 ? 2 : 1;
    p->fit = h > y0 ? (size_t)(h - y0) : 0;
    size_t sel = total ? cursor(p, tv, ctx, total) : 0;
    p->first = total ? first_bar(p, tv, total, sel, p->fit) : 0;
    p->y0 = y0;
    size_t n = total ? pane_timeline_load_steps(p, tv, p->first, p->fit) : 0;
    /* The bars shown, even while the loader is still building some (a
     * taller pane, a jump): they follow with the next snapshot. */
    size_t want = total - p->first < p->fit ? total - p->first : p->fit;
    /* The range first: at 80 columns it is what a narrow header keeps.
     * Named by the step numbers the bars carry, then which of the
     * retained steps they are ("steps 4402-4403 (3999-4000/4096)"), so the
     * header never reads as other steps than the rows. */
    char range[96];
    if (n > 0 && p->sb[0].step >= 0 && p->sb[n - 1].step >= 0 && getmaxx(w) < 70)
        snprintf(range, sizeof range, "step %lld-%lld", (long long)p->sb[0].step,
                 (long long)p->sb[n - 1].step);   /* narrow: mode and node must fit */
    else if (n > 0 && p->sb[0].step >= 0 && p->sb[n - 1].step >= 0)
        snprintf(range, sizeof range, "step %lld-%lld (%zu-%zu/%zu)", (long long)p->sb[0].step,
                 (long long)p->sb[n - 1].step, p->first + 1, p->first + n, total);
    else
        snprintf(range, sizeof range, "%zu-%zu/%zu", want ? p->first + 1 : 0, p->first + want,
                 total);
    snprintf(head, sizeof head, "%s %.150s %.150s  f focus", range, mode ? mode + 1 : label, p->who);
    pane_timeline_draw_tabs(p, w, ctx, head);
    if (y0 == 2 && n && p->has_gpu)
        draw_gpu_legend(w, 1, ctx);
    else if (y0 == 2)
        draw_legend(w, 1, ctx);
    if (n == 0) {
        pane_timeline_draw_message(w, total ? "loading these steps"
                                            : "no steps on this node (no Step:* events)", ctx);
        return;
    }
    int64_t max_us = 0;
    for (size_t i = 0; i < n; i++)
        if (p->sb[i].dur_us > max_us)
            max_us = p->sb[i].dur_us;
    for (size_t i = 0; i < n; i++)
        draw_row(p, w, y0 + (int)i, i, max_us, p->first + i == sel, ctx);
}

/* Moves the selection to retained index i of n (the newest while live
 * follows new steps) and keeps the scroll unless i leaves the screen. */
static void select_index(pane *p, const tlview *tv, size_t i, size_t n, const pane_ctx *ctx)
{
    p->sel_start_us = i + 1 == n && ctx->view->live ? 0 : start_at(tv, i);
    if (i < p->first || i >= p->first + p->fit || !p->sel_start_us)
        p->top_us = 0;
    else
        p->top_us = start_at(tv, p->first);
}

/* Keys and clicks move along the steps of the snapshot on screen. */
static const tlview *shown_steps(pane *p, const pane_ctx *ctx)
{
    const tlview *tv = pane_timeline_view(p, ctx);
    return tv && !tv->why && tv->nrecent ? tv : NULL;
}

int pane_timeline_steps_key(pane *p, int ch, pane_ctx *ctx)
{
    const tlview *tv = shown_steps(p, ctx);
    if (!tv)
        return 0;   /* no bars: j/k keep selecting the node */
    size_t n = tv->nrecent;
    size_t sel = cursor(p, tv, ctx, n), page = p->fit > 1 ? p->fit - 1 : 1;
    switch (ch) {
    case KEY_UP: case 'k': sel = sel ? sel - 1 : 0; break;
    case KEY_DOWN: case 'j': sel = sel + 1 < n ? sel + 1 : sel; break;
    case KEY_PPAGE: sel = sel > page ? sel - page : 0; break;
    case KEY_NPAGE: sel = sel + page < n ? sel + page : n - 1; break;
    case KEY_HOME: sel = 0; break;
    case KEY_END: sel = n - 1; break;
    case 'f': {
        const phase_event *ev = &tv->recent[sel];
        /* The step's own window on this node: the nodes are not in step,
         * so the union of step N everywhere is not this step. */
        view_focus_step(ctx->view, ev->step, ev->start_us, ev->start_us + ev->dur_us);
        view_focus_node(ctx->view, tv->shown[0] ? tv->shown : tv->node);
        p->focus_t0 = ctx->view->step_t0_us;
        p->sel_start_us = ev->start_us;
        return 1;
    }
    default: return 0;
    }
    select_index(p, tv, sel, n, ctx);
    return 1;
}

int pane_timeline_steps_click(pane *p, int y, pane_ctx *ctx)
{
    const tlview *tv = shown_steps(p, ctx);
    size_t n = tv ? tv->nrecent : 0;
    if (y < p->y0 || (size_t)(y - p->y0) >= p->fit || p->first + (size_t)(y - p->y0) >= n)
        return 0;
    select_index(p, tv, p->first + (size_t)(y - p->y0), n, ctx);
    return 1;
}
