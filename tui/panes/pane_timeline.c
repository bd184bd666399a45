/* pane_timeline: see pane_timeline.h. Pure helpers, the state shared by
 * the three views, the keys that switch between them, stamp and vtable.
 * The views draw in pane_timeline_steps.c, _loader.c and _events.c. */
#include "tui/panes/pane_timeline_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panes/pane_steps.h"
#include "model/view/stepsview.h"
#include "tui/text/sanitize.h"
#include "tui/theme/theme.h"

const char *pane_timeline_view_name(tl_view v)
{
    static const char *const names[TL_NVIEWS] = {"steps", "loader", "events"};
    return v < TL_NVIEWS ? names[v] : "?";
}

/* Splits `cells` among part[0..n) (negatives count as 0) in proportion:
 * floors first, then one more cell each to the parts that lost most
 * (largest remainder), so the bar keeps its exact length. */
static void split_cells(const int64_t *part, int n, int cells, int *out)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        sum += part[i] > 0 ? part[i] : 0;
        out[i] = 0;
    }
    if (sum <= 0 || cells <= 0)
        return;
    double rem[TL_OTHER + TL_GPU_NPARTS];
    int used = 0;
    for (int i = 0; i < n; i++) {
        double exact = (double)cells * (double)(part[i] > 0 ? part[i] : 0) / (double)sum;
        out[i] = (int)exact;
        rem[i] = exact - out[i];
        used += out[i];
    }
    while (used < cells) {
        int best = 0;
        for (int i = 1; i < n; i++)
            if (rem[i] > rem[best])
                best = i;
        out[best]++;
        rem[best] = -1.0;
        used++;
    }
}

void pane_timeline_bar_parts(const step_breakdown *b, int cells, int out[TL_OTHER + 1])
{
    int64_t part[TL_OTHER + 1];
    for (int i = 0; i < SB_NCAT; i++)
        part[i] = b->cat_us[i];
    part[TL_OTHER] = b->other_us;
    split_cells(part, TL_OTHER + 1, cells, out);
}

void pane_timeline_gpu_parts(const gpu_step *g, int cells, int out[TL_GPU_NPARTS])
{
    const int64_t part[TL_GPU_NPARTS] = {g->compute_us, g->comm_us, g->memory_us, g->idle_us};
    split_cells(part, TL_GPU_NPARTS, cells, out);
}

const char *pane_timeline_gpu_part_name(int part)
{
    static const char *const names[TL_GPU_NPARTS] = {"compute", "comm", "memory", "idle"};
    return part >= 0 && part < TL_GPU_NPARTS ? names[part] : "";
}

/* Lower median of the durations: O(n^2), n being a screenful of bars. */
static int64_t median_dur(const step_breakdown *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t below = 0, same = 0;
        for (size_t j = 0; j < n; j++) {
            below += b[j].dur_us < b[i].dur_us;
            same += b[j].dur_us == b[i].dur_us;
        }
        if (below <= (n - 1) / 2 && (n - 1) / 2 < below + same)
            return b[i].dur_us;
    }
    return 0;
}

void pane_timeline_mark_slow(const step_breakdown *b, size_t n, size_t top,
                             double threshold, int *slow)
{
    for (size_t i = 0; i < n; i++)
        slow[i] = (double)b[i].dur_us > threshold;
    double floor_us = TL_SLOW_OVER_MEDIAN * (double)median_dur(b, n);
    for (size_t k = 0; k < top && k < n; k++) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (slow[i] != 2 && (best == n || b[i].dur_us > b[best].dur_us))
                best = i;
        if (best == n || (double)b[best].dur_us <= floor_us)
            break;
        slow[best] = 2;
    }
    for (size_t i = 0; i < n; i++)
        slow[i] = slow[i] != 0;
}

size_t pane_timeline_find_sel(const step_breakdown *b, size_t n, int64_t sel_start_us)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; sel_start_us && i < n; i++)
        if (b[i].start_us == sel_start_us)
            return i;
    return n - 1;
}

void pane_timeline_data_share(const step_breakdown *b, size_t n, int64_t *data_us,
                              int64_t *step_us)
{
    *data_us = *step_us = 0;
    for (size_t i = 0; i < n; i++) {
        *data_us += b[i].cat_us[SB_DATA];
        *step_us += b[i].dur_us;
    }
}

/* ---- shared by the views ---------------------------------------------- */

const tlview *pane_timeline_view(pane *p, const pane_ctx *ctx)
{
    const tlview *tv = ctx->vd ? viewdata_answer(ctx->vd, &tlview_query) : NULL;
    if (tv && !tv->why)
        pane_common_process_text(p->who, sizeof p->who, ctx->vd, tv->node, tv->shown, tv->proc_k,
                                 tv->nprocs);
    return tv;
}

/* Columns the tabs take: "steps|loader|events". */
static int tabs_cols(void)
{
    int n = TL_NVIEWS - 1;
    for (int v = 0; v < TL_NVIEWS; v++)
        n += (int)strlen(pane_timeline_view_name((tl_view)v));
    return n;
}

void pane_timeline_draw_tabs(const pane *p, WINDOW *w, const pane_ctx *ctx, const char *extra)
{
    int x = 0;
    if (extra && *extra && getmaxx(w) - tabs_cols() - 2 < sanitize_cols(extra)) {
        /* A narrow pane: the shown view's name alone, so the header's
         * range and node fit (the help lists the other views). */
        x = pane_common_put(w, 0, 0, -1, pane_timeline_view_name(p->view),
                            theme_attr(ctx->th, ROLE_SELECTED) | (int)A_BOLD);
        pane_common_put(w, 0, x + 2, -1, extra, theme_attr(ctx->th, ROLE_TITLE));
        return;
    }
    for (int v = 0; v < TL_NVIEWS; v++) {
        if (v)
            x += pane_common_put(w, 0, x, -1, "|", theme_attr(ctx->th, ROLE_DIM));
        int attr = (int)p->view == v ? theme_attr(ctx->th, ROLE_SELECTED) | (int)A_BOLD
                                     : theme_attr(ctx->th, ROLE_DIM);
        x += pane_common_put(w, 0, x, -1, pane_timeline_view_name((tl_view)v), attr);
    }
    if (extra && *extra)
        pane_common_put(w, 0, x + 2, -1, extra, theme_attr(ctx->th, ROLE_TITLE));
}

void pane_timeline_draw_message(WINDOW *w, const char *msg, const pane_ctx *ctx)
{
    int h = getmaxy(w), W = getmaxx(w), len = (int)strlen(msg);
    int x = len < W ? (W - len) / 2 : 0;
    pane_common_put(w, h > 2 ? 1 + (h - 1) / 2 : h - 1, x, -1, msg, theme_attr(ctx->th, ROLE_DIM));
}

size_t pane_timeline_load_steps(pane *p, const tlview *tv, size_t first, size_t fit)
{
    if (fit > TL_MAX_BARS)
        fit = TL_MAX_BARS;
    if (first < tv->sb_first || first >= tv->sb_first + tv->nsb)
        return 0;   /* not built yet: the next snapshot brings them */
    size_t n = tv->sb_first + tv->nsb - first;
    n = n < fit ? n : fit;
    memcpy(p->sb, tv->sb + (first - tv->sb_first), n * sizeof *p->sb);
    p->has_gpu = tv->has_gpu;
    if (tv->has_gpu)
        memcpy(p->gsb, tv->gsb + (first - tv->sb_first), n * sizeof *p->gsb);
    pane_timeline_mark_slow(p->sb, n, 3, pane_steps_outlier_threshold(&tv->step_sum), p->slow);
    return n;
}

/* ---- vtable ----------------------------------------------------------- */

static pane *tl_create(void) { return calloc(1, sizeof(pane)); }
static void tl_destroy(pane *p) { free(p); }

/* Draws from the loader's view data (model/view/tlview.h): no model lock. */
static void tl_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    const tlview *tv = pane_timeline_view(p, ctx);
    if (!tv || tv->why) {
        pane_timeline_draw_tabs(p, w, ctx, "");
        pane_timeline_draw_message(w, tv ? tv->why : "waiting for data", ctx);
        return;
    }
    switch (p->view) {
    case TL_STEPS: pane_timeline_draw_steps(p, w, ctx, tv); break;
    case TL_LOADER: pane_timeline_draw_loader(p, w, ctx, tv); break;
    default: pane_timeline_draw_events(p, w, ctx, tv); break;
    }
}

static int tl_on_key(pane *p, int ch, pane_ctx *ctx)
{
    if (p->filter_edit)
        return pane_timeline_events_key(p, ch, ctx);
    if (ch == 'v') {
        p->view = (tl_view)((p->view + 1) % TL_NVIEWS);
        return 1;
    }
    const char *why = "";
    if (pane_common_key_process(ch, ctx, pane_common_traced_node(ctx, &why))) {
        p->sel_start_us = 0;   /* another writer: its newest step */
        p->ev_sel = p->ev_top = 0;
        return 1;
    }
    switch (p->view) {
    case TL_STEPS: return pane_timeline_steps_key(p, ch, ctx);
    case TL_EVENTS: return pane_timeline_events_key(p, ch, ctx);
    default: return 0;   /* loader: j/k keep selecting the node */
    }
}

static int tl_modal(pane *p)
{
    return p->filter_edit;
}

static uint64_t tl_stamp(pane *p, const pane_ctx *ctx)
{
    uint64_t h = pane_common_hash_view(PANE_COMMON_HASH_SEED, ctx);
    h = pane_common_hash_viewdata(h, ctx);
    h = pane_common_hash_u64(h, ((uint64_t)p->view << 8) | ((uint64_t)p->order << 4) |
                              ((uint64_t)p->filter_edit << 2) | (uint64_t)ctx->view->zoomed);
    h = pane_common_hash_u64(h, (uint64_t)p->sel_start_us);
    h = pane_common_hash_u64(h, (uint64_t)p->top_us);
    h = pane_common_hash_u64(h, (uint64_t)ctx->view->step_focus);
    h = pane_common_hash_u64(h, (uint64_t)ctx->view->step_t0_us);
    h = pane_common_hash_u64(h, p->ev_sel);
    return pane_common_hash_str(h, p->filter);
}

/* The loader builds what the view on screen shows: its bars (from the
 * last draw) or the events view's filter and order. */
static void tl_request(pane *p, WINDOW *w, const view_state *v, viewdata_req *q)
{
    (void)w;
    tlview_params tp;
    memset(&tp, 0, sizeof tp);   /* compared bytewise: no stray padding */
    tp.view = p->view == TL_STEPS ? TLVIEW_STEPS : p->view == TL_LOADER ? TLVIEW_LOADER
                                                                         : TLVIEW_EVENTS;
    if (p->view == TL_STEPS) {
        /* Following the newest step: "the newest bars", not an index that
         * moves with every step a backfill adds (each would be a request). */
        int follow = !p->sel_start_us && !p->top_us && v->live && !v->step_focus;
        tp.first = follow ? TLVIEW_NEWEST : p->first;
        tp.fit = p->fit;
    }
    if (p->view == TL_EVENTS) {
        snprintf(tp.filter, sizeof tp.filter, "%s", p->filter);
        tp.order = (int)p->order;
    }
    viewdata_ask_for(q, &tlview_query, &tp, sizeof tp);
}

static int tl_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    return p->view == TL_STEPS && pane_timeline_steps_click(p, y, ctx);
}

static const char *tl_absent(pane *p, const pane_ctx *ctx)
{
    (void)p;
    return pane_common_absent_traces(ctx);
}

/* Its head line and the newest TL_SAY_ROWS bars (or events): a bar per
 * step, as many as its height allows, so what it has to say does not
 * grow with the job; it takes the wide slot only where no other pane has
 * more than a line or two. 0 without steps or events. */
#define TL_SAY_ROWS 2

static int tl_say(pane *p, const pane_ctx *ctx)
{
    (void)p;
    const tlview *tv = ctx->vd ? viewdata_answer(ctx->vd, &tlview_query) : NULL;
    if (!tv || tv->why)
        return 0;
    size_t n = tv->nrecent > tv->nev ? tv->nrecent : tv->nev;
    return n ? 1 + (int)(n < TL_SAY_ROWS ? n : TL_SAY_ROWS) : 0;
}

static const pane_key tl_keys[] = {
    {"v", "view", "steps / loader / events"},
    {"j k", "step", "select step or event"},
    {"PgUp Home", NULL, "steps: back to the oldest"},
    {"f", "focus", "focus the step"},
    {"s  /", NULL, "events: sort / filter"},
    {"r R", NULL, "pick a rank (writer)"},
    {NULL, NULL, NULL},
};

const pane_vtbl pane_timeline_vtbl = {
    .id = "timeline",
    .title = "Timeline",
    .create = tl_create,
    .destroy = tl_destroy,
    .draw = tl_draw,
    .on_key = tl_on_key,
    .on_click = tl_on_click,
    .stamp = tl_stamp,
    .modal = tl_modal,
    .keys = tl_keys,
    /* Its bars end at the selected window's last step (the newest while
     * live), so it follows `+ - [ ]`; no "whole job" in its border. */
    .absent = tl_absent,
    .request = tl_request,
    .say = tl_say,
};
