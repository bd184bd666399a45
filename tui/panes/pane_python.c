/* pane_python: state, keys and the result cache of the python pane (see
 * pane_python.h); drawing is in pane_python_draw.c, the menu in
 * pane_python_menu.c. */
#include "tui/panes/pane_python_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/view/gpuview.h"
#include "tui/panes/pane_ext.h"
#include "tui/text/fmt.h"

static pane *py_create(void)
{
    pane *p = calloc(1, sizeof *p);
    if (p) {
        snprintf(p->sel_label, sizeof p->sel_label, "all windows, all nodes");
        snprintf(p->note, sizeof p->note, "whole job");
    }
    return p;
}

static void py_destroy(pane *p)
{
    if (!p)
        return;
    free(p->rows);
    free(p->menu);
    free(p);
}

/* 1 when [t0, t1) holds every window of the profiler: merging with no
 * time bound then gives the same rows, under a key that does not change
 * while a live window slides. A job with Python stats but no sample or
 * trace event yet has no window to select (t1 is 0): all of it then. */
static int window_holds_all(const pane *p, int64_t t0, int64_t t1)
{
    return !p->span_hi || t1 <= 0 || (t0 <= p->span_lo && t1 > p->span_hi);
}

void pane_python_selection(const pane *p, const view_state *v, int64_t t0_us, int64_t t1_us,
                           pystats_select *sel)
{
    pystats_select_all(sel, p->prof);
    if (v && v->step_focus) {
        /* The cross-filter: every node's windows that overlap the step,
         * whatever the menu chose (the step is on every node). */
        sel->t_lo_us = v->step_t0_us;
        sel->t_hi_us = v->step_t1_us;
        return;
    }
    sel->node = p->node;
    sel->jobphases = p->phases;
    sel->t_lo_us = p->t_lo;   /* the menu's one window wins: the user chose it */
    sel->t_hi_us = p->t_hi;
    if (!p->t_lo && !window_holds_all(p, t0_us, t1_us)) {
        sel->t_lo_us = t0_us;
        sel->t_hi_us = t1_us;
    }
}

static uint64_t selection_key(const pane *p, const pane_ctx *ctx)
{
    pystats_select sel;
    pane_python_selection(p, ctx->view, ctx->t0_us, ctx->t1_us, &sel);
    uint64_t h = pane_common_hash_str(PANE_COMMON_HASH_SEED, sel.node ? sel.node : "");
    h = pane_common_hash_u64(h, sel.jobphases);
    h = pane_common_hash_u64(h, (uint64_t)sel.t_lo_us);
    return pane_common_hash_u64(h, (uint64_t)sel.t_hi_us);
}

/* The border's note: which time the merge covers. */
static void note_range(pane *p, const pane_ctx *ctx)
{
    const view_state *v = ctx->view;
    if (v && v->step_focus)
        snprintf(p->note, sizeof p->note, "step %lld", v->step);
    else if (p->t_lo)
        snprintf(p->note, sizeof p->note, "one window");
    else if (window_holds_all(p, ctx->t0_us, ctx->t1_us))
        snprintf(p->note, sizeof p->note, "whole job");
    else {
        char a[16], b[16];
        int64_t span = ctx->t1_us - ctx->t0_us;
        snprintf(p->note, sizeof p->note, "%s-%s", fmt_clock(a, sizeof a, ctx->t0_us, span),
                 fmt_clock(b, sizeof b, ctx->t1_us, span));
    }
}

size_t pane_python_profiler_windows(const pystats_store *s, pystats_profiler prof)
{
    size_t n = 0;
    for (size_t i = 0; s && i < pystats_store_window_count(s); i++)
        n += pystats_store_window_at(s, i, NULL, NULL)->profiler == prof;
    return n;
}

/* Takes the merge from the loader's snapshot, asks the loader for
 * another when the selection or the sort changed (the old rows stay on
 * screen until it comes), and refilters. The pane never merges. */
void pane_python_refresh(pane *p, const pane_ctx *ctx)
{
    const dash_ext *ext = ctx->ext;
    const viewsnap *snap = ext ? ext->snap : NULL;
    p->have = snap && viewsnap_python_profiler(snap, &p->prof, &p->nwin);
    p->r = NULL;
    p->nrows = 0;
    snprintf(p->note, sizeof p->note, "whole job");
    pane_python_pick_source(p, ctx);
    if (p->src != PYSRC_STATS) {
        /* The traces' tables over the steps in the window, or the whole
         * job (every event) when the window holds every step: the answer
         * says which. */
        const gpuview_top *t = ctx->vd ? viewdata_answer(ctx->vd, &gpuview_top_query) : NULL;
        char a[16], b[16];
        int64_t span = t ? t->t1_us - t->t0_us : 0;
        if (t && t->windowed && ctx->view && ctx->view->step_focus)
            snprintf(p->note, sizeof p->note, "%s, step %lld", pane_python_source_name(p),
                     ctx->view->step);
        else if (t && t->windowed)
            snprintf(p->note, sizeof p->note, "%s, %s-%s", pane_python_source_name(p),
                     fmt_clock(a, sizeof a, t->t0_us, span), fmt_clock(b, sizeof b, t->t1_us, span));
        else
            snprintf(p->note, sizeof p->note, "%s, whole job", pane_python_source_name(p));
        pane_python_kineto_count(p, ctx);
        return;
    }
    if (!p->have)
        return;
    viewsnap_python_span(snap, &p->span_lo, &p->span_hi);
    note_range(p, ctx);
    uint64_t key = pane_common_hash_u64(selection_key(p, ctx), (uint64_t)p->sort);
    if (key != p->asked_key && ext->want_python) {
        pystats_select sel;
        pane_python_selection(p, ctx->view, ctx->t0_us, ctx->t1_us, &sel);
        ext->want_python(ext->want_ud, &sel, p->sort, key);
        p->asked_key = key;
    }
    uint64_t got;
    p->r = viewsnap_python(snap, &got);
    if (!p->r)
        return;
    size_t n = pystats_result_count(p->r);
    if (n > p->caprows) {
        size_t *rows = realloc(p->rows, n * sizeof *rows);
        if (!rows)
            return;
        p->rows = rows;
        p->caprows = n;
    }
    for (size_t i = 0; i < n; i++)
        if (pane_python_filter_match(pystats_result_at(p->r, i), p->filter))
            p->rows[p->nrows++] = i;
    if (p->sel >= p->nrows)
        p->sel = p->nrows ? p->nrows - 1 : 0;
}

/* The `/` prompt inside the pane: every key goes here until Enter/Esc. */
static int filter_key(pane *p, int ch)
{
    pane_common_edit_prompt(p->filter, sizeof p->filter, ch, &p->filter_edit);
    p->sel = p->top = 0;
    return 1;
}

static int move_key(pane *p, int ch, int page)
{
    size_t n = p->nrows;
    switch (ch) {
    case KEY_UP: case 'k': p->sel = p->sel ? p->sel - 1 : 0; return 1;
    case KEY_DOWN: case 'j': p->sel = p->sel + 1 < n ? p->sel + 1 : p->sel; return 1;
    case KEY_PPAGE: p->sel = p->sel > (size_t)page ? p->sel - (size_t)page : 0; return 1;
    case KEY_NPAGE: p->sel = n && p->sel + (size_t)page < n ? p->sel + (size_t)page : (n ? n - 1 : 0); return 1;
    case KEY_HOME: p->sel = 0; return 1;
    case KEY_END: p->sel = n ? n - 1 : 0; return 1;
    default: return 0;
    }
}

/* The sort keys on a traces' table: s cycles, T the source's time, C
 * total time, N calls, M the longest call; P (primitive calls) is
 * cProfile's alone: said, with what to press instead. */
static int kineto_sort_key(pane *p, int ch)
{
    switch (ch) {
    case 's': p->ksort = (p->ksort + 1) % GPUVIEW_NSORT; break;
    case 'T': p->ksort = GPUVIEW_SORT_TIME; break;
    case 'C': p->ksort = GPUVIEW_SORT_TOTAL; break;
    case 'N': p->ksort = GPUVIEW_SORT_COUNT; break;
    case 'M': p->ksort = GPUVIEW_SORT_MAX; break;
    default:
        snprintf(p->keynote, sizeof p->keynote, "P (primitive calls) is cProfile's: N sorts by calls");
        break;
    }
    p->sel = p->top = 0;
    return 1;
}

static int py_on_key(pane *p, int ch, pane_ctx *ctx)
{
    if (p->filter_edit)
        return filter_key(p, ch);
    p->keynote[0] = '\0';   /* said once: the next key clears it */
    pane_python_refresh(p, ctx);
    if (p->menu_on)
        return pane_python_menu_key(p, ch, ctx);
    if (ch == 'o')
        return pane_python_next_source(p, ctx);
    if (p->src != PYSRC_STATS && (ch == 's' || (ch && strchr("TCNPM", ch))))
        return kineto_sort_key(p, ch);
    if (p->src != PYSRC_STATS && ch == 'w') {
        snprintf(p->keynote, sizeof p->keynote, "w: the traces have no windows (o: Python stats)");
        return 1;
    }
    switch (ch) {
    case 's': p->sort = pane_python_next_sort(p->sort); return 1;
    case 'T': p->sort = PYSORT_TOTTIME; return 1;
    case 'C': p->sort = PYSORT_CUMTIME; return 1;
    case 'N': p->sort = PYSORT_NCALLS; return 1;
    case 'P': p->sort = PYSORT_PCALLS; return 1;
    case '/': p->filter_edit = 1; return 1;
    case 'w': return pane_python_menu_open(p, ctx);
    case 27:
        if (p->filter[0] && !ctx->view->zoomed) {   /* Esc clears a kept filter first */
            p->filter[0] = '\0';
            return 1;
        }
        return 0;
    default: return move_key(p, ch, 10);
    }
}

static int py_modal(pane *p)
{
    return p->filter_edit || p->menu_on;
}

static uint64_t py_stamp(pane *p, const pane_ctx *ctx)
{
    const dash_ext *ext = ctx->ext;
    uint64_t h = pane_common_hash_view(PANE_COMMON_HASH_SEED, ctx);
    h = pane_common_hash_u64(h, ext && ext->snap ? viewsnap_generation(ext->snap) + 1 : 0);
    h = pane_common_hash_u64(h, selection_key(p, ctx));
    h = pane_common_hash_u64(h, (uint64_t)p->ksort);
    h = pane_common_hash_str(h, p->keynote);
    h = pane_common_hash_u64(h, ((uint64_t)p->sort << 8) | ((uint64_t)p->filter_edit << 4) |
                              ((uint64_t)p->menu_on << 2) | (uint64_t)ctx->view->zoomed);
    h = pane_common_hash_u64(h, p->sel);
    h = pane_common_hash_u64(h, p->menu_sel);
    h = pane_common_hash_u64(h, (uint64_t)p->src);
    h = pane_common_hash_u64(h, ctx->vd ? viewdata_gpu_ranks(ctx->vd) : 0);
    h = pane_common_hash_u64(h, (uint64_t)(uintptr_t)(ctx->vd ? viewdata_answer(ctx->vd, &gpuview_top_query) : NULL));
    return pane_common_hash_str(h, p->filter);
}

/* A click on a function's row selects it (the rows follow 2 header lines). */
static int py_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    pane_python_refresh(p, ctx);
    size_t row = p->top + (size_t)(y - 2);
    if (y < 2 || row >= p->nrows || p->menu_on || p->filter_edit)
        return 0;
    p->sel = row;
    return 1;
}

static const char *py_title_note(pane *p, const pane_ctx *ctx)
{
    (void)ctx;
    return p->note;
}

/* Nothing to show until the job has Python profiler stats; before any
 * node is read the pane stays (the job may still be starting). */
static const char *py_absent(pane *p, const pane_ctx *ctx)
{
    (void)p;
    const dash_ext *ext = ctx->ext;
    size_t windows = 0;
    if (ext && ext->snap)
        viewsnap_python_profiler(ext->snap, NULL, &windows);
    if (!ctx->vd || viewdata_node_total(ctx->vd) == 0 || windows > 0 ||
        viewdata_gpu_ranks(ctx->vd) > 0)
        return NULL;
    return "Python stats|Python";
}

/* The traces' table the loader builds while the pane shows one. */
static void py_request(pane *p, WINDOW *w, const view_state *v, viewdata_req *q)
{
    (void)w;
    (void)v;
    if (p->src == PYSRC_STATS)
        return;
    gpuview_top_params tp;
    memset(&tp, 0, sizeof tp);   /* compared bytewise: no stray padding */
    tp.src = (gpuview_src)(p->src - 1);
    tp.max = 200;
    tp.sort = (gpuview_sort)p->ksort;
    viewdata_ask_for(q, &gpuview_top_query, &tp, sizeof tp);
}

/* The source line, the column heads and the head of the table: its
 * first PY_SAY_ROWS rows (it scrolls, and its tail adds little), so a
 * long table takes the wide slot from a Heatmap of three nodes at most
 * (a tie goes to the later pane) or from one or two alerts, never from
 * more. 0 before it has a row. From
 * the snapshot: the Python stats' merge, or the traces' table the loader
 * built for the source shown. */
#define PY_SAY_ROWS 4

static int py_say(pane *p, const pane_ctx *ctx)
{
    size_t n = 0;
    pane_python_pick_source(p, ctx);   /* what the next draw shows */
    if (p->src != PYSRC_STATS) {
        const gpuview_top *t = ctx->vd ? viewdata_answer(ctx->vd, &gpuview_top_query) : NULL;
        if (!t || (int)t->src != p->src - 1)
            return -1;   /* the loader builds the table for the next frame */
        n = t->n;
    } else {
        const dash_ext *ext = ctx->ext;
        uint64_t got;
        const pystats_result *r = ext && ext->snap ? viewsnap_python(ext->snap, &got) : NULL;
        n = r ? pystats_result_count(r) : 0;
    }
    return n ? 2 + (int)(n < PY_SAY_ROWS ? n : PY_SAY_ROWS) : 0;
}

static const pane_key py_keys[] = {
    {"j k  Dn Up", "function", "select a function"},
    {"o", "source", "cProfile/pyinstrument; traces: ops, kernels, Python, GPU idle, path"},
    {"s", "sort", "cycle the sort key"},
    {"T C N P", NULL, "tottime cumtime calls prim (traces: self total calls; M max)"},
    {"w", "window", "window / node menu"},
    {"/  Esc", "filter", "filter functions / clear"},
    {"Enter", NULL, "zoom: callers, callees"},
    {NULL, NULL, NULL},
};

const pane_vtbl pane_python_vtbl = {
    .id = "python",
    .title = "Top functions",
    .create = py_create,
    .destroy = py_destroy,
    .draw = pane_python_draw,
    .on_key = py_on_key,
    .on_click = py_on_click,
    .stamp = py_stamp,
    .modal = py_modal,
    .keys = py_keys,
    .title_note = py_title_note,
    .absent = py_absent,
    .request = py_request,
    .say = py_say,
};
