/* pane_python_draw: the python pane's table, the callers/callees view of
 * the zoomed pane, and the status line of the pane. */
#include <stdio.h>
#include <string.h>

#include "tui/panes/pane_python_internal.h"

/* Columns: rank, calls, tottime, percall, cumtime, percall, function; in
 * a narrow pane the percall columns go first, then the calls and cumtime,
 * so the function keeps PANE_NAME_MIN columns (tottime, the default
 * order, stays). */
enum { PC_CALLS, PC_TOT, PC_TPER, PC_CUM, PC_CPER, PC_N };
static const int PC_DROP[] = {PC_CALLS, PC_CUM};
static const int PC_W[PC_N] = {12, 9, 9, 9, 9};   /* a separator each */
#define PC_PERCALL_MIN 72   /* both percall columns from this width on */

typedef struct cols {
    int shown[PC_N];
    int func_x, func_w;
} cols;

static cols layout_cols(int width)
{
    cols c;
    int percall = width >= PC_PERCALL_MIN, w[PC_N];
    memcpy(w, PC_W, sizeof w);
    if (!percall)
        w[PC_TPER] = w[PC_CPER] = 0;
    c.func_x = pane_common_fit_cols(width, 4, w, PC_N, PC_DROP, NULL,
                                    sizeof PC_DROP / sizeof PC_DROP[0], c.shown);
    c.shown[PC_TPER] = c.shown[PC_CPER] = percall;
    c.func_w = width - c.func_x;
    return c;
}

/* The shown columns of text[PC_N], right-aligned, each after a space. */
static void put_cols(char *out, size_t cap, const cols *c, char text[PC_N][48])
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < PC_N && n < cap; i++)
        if (c->shown[i])
            n += (size_t)snprintf(out + n, cap - n, "%*s ", PC_W[i] - 1, text[i]);
}

static void put_nums(char *out, size_t cap, const pystats_call *k, int counts, const cols *c)
{
    char t[PC_N][48];
    pane_python_calls_text(k, counts, t[PC_CALLS], sizeof t[PC_CALLS]);
    double tp = counts && k->ncalls ? k->tottime / (double)k->ncalls : 0;
    double cp = counts && k->pcalls ? k->cumtime / (double)k->pcalls : 0;
    snprintf(t[PC_TOT], sizeof t[PC_TOT], "%.3f", k->tottime);
    snprintf(t[PC_TPER], sizeof t[PC_TPER], "%.3f", tp);
    snprintf(t[PC_CUM], sizeof t[PC_CUM], "%.3f", k->cumtime);
    snprintf(t[PC_CPER], sizeof t[PC_CPER], "%.3f", cp);
    put_cols(out, cap, c, t);
}

static void draw_header(pane *p, WINDOW *w, const pane_ctx *ctx, cols c)
{
    char info[512];
    size_t nw = pystats_result_window_count(p->r), nf = pystats_result_failed_count(p->r);
    const char *prof = p->prof == PYPROF_CPROFILE ? "cProfile" : "pyinstrument";
    int n;
    if (ctx->view->step_focus)
        n = snprintf(info, sizeof info, "%s | windows overlapping step %lld (%zu of %zu)", prof,
                     ctx->view->step, nw, p->nwin);
    else
        n = snprintf(info, sizeof info, "%s | %s | %zu window%s%s", prof, p->sel_label,
                     nw, nw == 1 ? "" : "s",
                     ctx->vd && viewdata_gpu_ranks(ctx->vd) ? " | o source" : "");
    if (nf && n > 0 && (size_t)n < sizeof info)
        n += snprintf(info + n, sizeof info - (size_t)n, " (%zu failed)", nf);
    if (n > 0 && (size_t)n < sizeof info)
        snprintf(info + n, sizeof info - (size_t)n, " | sort %s%s%s%s",
                 pystats_sort_name(p->sort), p->filter[0] || p->filter_edit ? " | /" : "",
                 p->filter, p->filter_edit ? "_" : "");
    pane_common_put(w, 0, 0, -1, info, theme_attr(ctx->th, ROLE_TITLE));
    char hdr[256], heads[PC_N][48] = {"ncalls", "tottime", "percall", "cumtime", "percall"};
    snprintf(hdr, sizeof hdr, "  # ");
    put_cols(hdr + 4, sizeof hdr - 4, &c, heads);
    pane_common_put(w, 1, 0, -1, hdr, theme_attr(ctx->th, ROLE_LABEL));
    pane_common_put(w, 1, c.func_x, c.func_w, "filename:lineno(function)",
                    theme_attr(ctx->th, ROLE_LABEL));
}

static void draw_rows(pane *p, WINDOW *w, const pane_ctx *ctx, cols c, int y0, int y1)
{
    int counts = p->prof == PYPROF_CPROFILE;
    size_t fit = y1 > y0 ? (size_t)(y1 - y0) : 1;
    p->top = pane_common_scroll_top(p->top, p->sel, p->nrows, fit);
    for (size_t i = p->top; i < p->nrows && y0 < y1; i++, y0++) {
        const pystats_func *f = pystats_result_at(p->r, p->rows[i]);
        int attr = theme_attr(ctx->th, i == p->sel ? ROLE_SELECTED : ROLE_DEFAULT);
        char nums[160], fn[1024];
        snprintf(fn, sizeof fn, "%3zu ", p->rows[i] + 1);
        put_nums(nums, sizeof nums, &f->c, counts, &c);
        mvwhline(w, y0, 0, ' ' | (chtype)attr, getmaxx(w));
        pane_common_put(w, y0, 0, 4, fn, attr);
        pane_common_put(w, y0, 4, c.func_x - 4, nums, attr);
        pane_python_func_text(f, c.func_w, fn, sizeof fn);
        pane_common_put(w, y0, c.func_x, c.func_w, fn, attr);
    }
}

/* One list of edges under a label; returns the next free row. */
static int draw_edges(pane *p, WINDOW *w, const pane_ctx *ctx, cols c, int y, int y1,
                      const char *label, const pystats_edge *e, size_t n)
{
    if (y >= y1)
        return y;
    char head[64];
    snprintf(head, sizeof head, "%s (%zu)", label, n);
    pane_common_put(w, y++, 0, -1, head, theme_attr(ctx->th, ROLE_LABEL));
    for (size_t i = 0; i < n && y < y1; i++, y++) {
        char nums[160], fn[1024];
        put_nums(nums, sizeof nums, &e[i].peer.c, p->prof == PYPROF_CPROFILE, &c);
        pane_common_put(w, y, 4, c.func_x - 4, nums, theme_attr(ctx->th, ROLE_DEFAULT));
        pane_python_func_text(&e[i].peer, c.func_w, fn, sizeof fn);
        pane_common_put(w, y, c.func_x, c.func_w, fn, theme_attr(ctx->th, ROLE_DEFAULT));
    }
    return y;
}

static void draw_detail(pane *p, WINDOW *w, const pane_ctx *ctx, cols c, int y0)
{
    int h = getmaxy(w);
    if (!p->nrows || y0 >= h)
        return;
    size_t at = p->rows[p->sel];
    char fn[1024];
    pane_python_func_text(pystats_result_at(p->r, at), getmaxx(w) - 12, fn, sizeof fn);
    char head[1100];
    snprintf(head, sizeof head, "%s:", fn);
    mvwhline(w, y0, 0, ACS_HLINE, getmaxx(w));
    pane_common_put(w, y0++, 2, -1, head, theme_attr(ctx->th, ROLE_TITLE));
    const pystats_edge *e;
    size_t n = pystats_result_callers(p->r, at, &e);
    int mid = y0 + (h - y0) / 2;
    int y = draw_edges(p, w, ctx, c, y0, n ? mid : y0 + 2, "called by", e, n);
    n = pystats_result_callees(p->r, at, &e);
    draw_edges(p, w, ctx, c, y, h, "calls", e, n);
}

void pane_python_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    pane_python_refresh(p, ctx);
    if (p->src != PYSRC_STATS) {
        pane_python_kineto_draw(p, w, ctx);
        return;
    }
    int h = getmaxy(w);
    if (!p->have || !p->r) {
        pane_common_put(w, 0, 0, -1, p->have ? "merging the Python profiler stats..."
                        : "no Python profiler stats in this job (cProfile or "
                        "pyinstrument under framework/)", theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    cols c = layout_cols(getmaxx(w));
    draw_header(p, w, ctx, c);
    if (p->menu_on) {
        pane_python_menu_draw(p, w, ctx, 2);
        return;
    }
    if (!p->nrows) {
        char msg[160];
        if (ctx->view->step_focus && pystats_result_window_count(p->r) == 0)
            snprintf(msg, sizeof msg, "no profiled window overlaps step %lld (Esc: back)",
                     ctx->view->step);
        else
            snprintf(msg, sizeof msg, "%s", p->filter[0] ? "no function matches the filter"
                                                         : "no functions in the selected windows");
        pane_common_put(w, 2, 0, -1, msg, theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    int table_end = ctx->view->zoomed ? 2 + (h - 2) / 2 : h;
    draw_rows(p, w, ctx, c, 2, table_end);
    if (ctx->view->zoomed)
        draw_detail(p, w, ctx, c, table_end);
}
