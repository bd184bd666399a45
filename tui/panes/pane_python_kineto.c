/* pane_python_kineto: the top-functions pane's PyTorch profiler sources
 * (Kineto CPU ops, GPU kernels, Python functions) over every rank (the
 * ranks of the nodes a node filter passes), from
 * the loader's view data (model/view/gpuview.h), and the source picker
 * shared with the cProfile / pyinstrument table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/util/pct.h"
#include "model/view/gpuview.h"
#include "tui/panes/pane_python_internal.h"
#include "tui/text/fmt.h"

/* What the pane can show now: Python stats when the job has them, the
 * Kineto sources when it has ranks. */
static int src_ok(const pane *p, const pane_ctx *ctx, int src)
{
    if (src == PYSRC_STATS)
        return p->have;
    return ctx->vd && viewdata_gpu_ranks(ctx->vd) > 0;
}

void pane_python_pick_source(pane *p, const pane_ctx *ctx)
{
    if (src_ok(p, ctx, p->src))
        return;
    for (int s = 0; s < PYSRC_N; s++)
        if (src_ok(p, ctx, s)) {
            p->src = s;
            return;
        }
}

int pane_python_next_source(pane *p, const pane_ctx *ctx)
{
    for (int k = 1; k <= PYSRC_N; k++) {
        int s = (p->src + k) % PYSRC_N;
        if (src_ok(p, ctx, s)) {
            int moved = s != p->src;
            p->src = s;
            p->sel = p->top = 0;
            return moved;
        }
    }
    return 0;
}

const char *pane_python_source_name(const pane *p)
{
    if (p->src == PYSRC_STATS)
        return p->prof == PYPROF_CPROFILE ? "cProfile" : "pyinstrument";
    return gpuview_src_name((gpuview_src)(p->src - 1));
}

/* Rows of the view data's top passing the filter (a case-insensitive
 * substring of the shown name) into p->rows. */
static const gpuview_top *kineto_rows(pane *p, const pane_ctx *ctx)
{
    const gpuview_top *t = ctx->vd ? viewdata_answer(ctx->vd, &gpuview_top_query) : NULL;
    p->nrows = 0;
    if (!t || (int)t->src != p->src - 1)
        return NULL;   /* the loader builds it for the next frame */
    if (t->n > p->caprows) {
        size_t *rows = realloc(p->rows, t->n * sizeof *rows);
        if (!rows)
            return NULL;
        p->rows = rows;
        p->caprows = t->n;
    }
    for (size_t i = 0; i < t->n; i++) {
        const char *name = t->rows[i].name;   /* clean since its trace was kept */
        if (!p->filter[0] || strcasestr(name, p->filter))
            p->rows[p->nrows++] = i;
    }
    if (p->sel >= p->nrows)
        p->sel = p->nrows ? p->nrows - 1 : 0;
    return t;
}

size_t pane_python_kineto_count(pane *p, const pane_ctx *ctx)
{
    kineto_rows(p, ctx);
    return p->nrows;
}

/* The figure columns: count, self (a kernel's total), %, mean, max,
 * each with its separator; in a narrow pane max, mean, count and % give
 * way, in that order, so the name keeps PANE_NAME_MIN columns (self, the
 * rows' order, stays). */
#define KCOL_N 5
static const int KCOL_W[KCOL_N] = {9, 10, 7, 10, 10};
static const int KCOL_DROP[KCOL_N - 1] = {4, 3, 0, 2};

typedef struct kcols {
    int shown[KCOL_N];
} kcols;

static void kcols_fit(int width, kcols *c)
{
    pane_common_fit_cols(width, 3 + 2, KCOL_W, KCOL_N, KCOL_DROP, NULL, KCOL_N - 1, c->shown);
}

/* What the rows of the host's idle causes and of the critical path are
 * shares of, over the same steps: the GPU's split of them, or the path's
 * length by HTA's class, the largest first so that a narrow pane keeps
 * the lead (classes under 0.5 % left out, as the report). */
static void figures_info(const gpuview_top *t, char *buf, size_t n)
{
    char d[FMT_BUF];
    if (t->src == GPUVIEW_IDLE) {
        fmt_duration(d, sizeof d, (double)t->idle_us);
        snprintf(buf, n, "%lld steps: GPU idle %.1f %% (%s), compute %.1f %%, other %.1f %%",
                 (long long)t->steps, pct_of(t->idle_us, t->span_us, 0), d,
                 pct_of(t->compute_us, t->span_us, 0), pct_of(t->non_compute_us, t->span_us, 0));
        return;
    }
    fmt_duration(d, sizeof d, (double)t->path_us);
    int k = snprintf(buf, n, "%lld steps, path %s:", (long long)t->path_steps, d);
    int done[GPU_BOUND_N] = {0};
    for (int left = GPU_BOUND_N; left > 0 && k > 0 && (size_t)k < n; left--) {
        int b = -1;
        for (int c = 0; c < GPU_BOUND_N; c++)
            if (!done[c] && (b < 0 || t->bound_us[c] > t->bound_us[b]))
                b = c;
        done[b] = 1;
        if (pct_of(t->bound_us[b], t->path_us, 0) >= 0.5)
            k += snprintf(buf + k, n - (size_t)k, " %s %.0f %%", gpu_bound_name(b),
                          pct_of(t->bound_us[b], t->path_us, 0));
    }
}

/* The column heads of source src (count, time, %, mean, max). */
static void col_heads(gpuview_src src, const char *heads[KCOL_N])
{
    static const char *const count[GPUVIEW_NSRC] = {"count", "count", "count", "threads",
                                                    "ranks"};
    static const char *const time[GPUVIEW_NSRC] = {"self", "total", "self", "idle", "on path"};
    heads[0] = count[src];
    heads[1] = time[src];
    heads[2] = "%";
    heads[3] = "mean";
    heads[4] = "max";
}

static void draw_head(const pane *p, WINDOW *w, const pane_ctx *ctx, const gpuview_top *t)
{
    char info[512], all[FMT_BUF];
    int kernels = t->src == GPUVIEW_KERNELS;
    fmt_duration(all, sizeof all, (double)t->all_us);
    /* "all 4 ranks", or under a node filter "2 of 4 ranks" */
    char ranks[64];
    size_t nr = viewdata_gpu_ranks(ctx->vd);
    if (t->ranks < nr)
        snprintf(ranks, sizeof ranks, "%zu of %zu ranks", t->ranks, nr);
    else
        snprintf(ranks, sizeof ranks, "all %zu rank%s", nr, nr == 1 ? "" : "s");
    const char *fl = p->filter[0] || p->filter_edit ? " | /" : "";
    const char *edit = p->filter_edit ? "_" : "";
    if (t->src >= GPUVIEW_IDLE) {   /* the figures first: a narrow pane cuts the rest */
        char figs[256];
        figures_info(t, figs, sizeof figs);
        snprintf(info, sizeof info, "%s | %s | %s | sort %s | %zu of %zu | o source%s%s%s",
                 gpuview_src_name(t->src), figs, ranks, gpuview_sort_name(t->sort, t->src), t->n,
                 t->total, fl, p->filter, edit);
    } else {
        snprintf(info, sizeof info, "%s | sort %s | %s | %zu of %zu, %s %s | o source%s%s%s",
                 gpuview_src_name(t->src), gpuview_sort_name(t->sort, t->src), ranks, t->n,
                 t->total, kernels ? "GPU" : "self", all, fl, p->filter, edit);
    }
    if (p->keynote[0])   /* what a key could not do here, in place of the line */
        pane_common_put(w, 0, 0, -1, p->keynote, theme_attr(ctx->th, ROLE_ALERT_MED));
    else
        pane_common_put(w, 0, 0, -1, info, theme_attr(ctx->th, ROLE_TITLE));
    char hdr[128];
    kcols c;
    kcols_fit(getmaxx(w), &c);
    const char *heads[KCOL_N];
    col_heads(t->src, heads);
    int n = snprintf(hdr, sizeof hdr, "  #");
    for (int i = 0; i < KCOL_N; i++)
        if (c.shown[i])
            n += snprintf(hdr + n, sizeof hdr - (size_t)n, " %*s", KCOL_W[i] - 1, heads[i]);
    snprintf(hdr + n, sizeof hdr - (size_t)n, "  %s", kernels ? "kernel" : "name");
    pane_common_put(w, 1, 0, -1, hdr, theme_attr(ctx->th, ROLE_LABEL));
}

static void draw_row(WINDOW *w, int y, size_t rank, const gpuview_row *r, int64_t all_us,
                     int kernels, int attr)
{
    int64_t key = kernels ? r->sum_us : r->self_us;
    char v[KCOL_N][FMT_BUF], line[256];
    snprintf(v[0], sizeof v[0], "%lld", (long long)r->count);
    fmt_duration(v[1], sizeof v[1], (double)key);
    snprintf(v[2], sizeof v[2], "%.1f%%", all_us > 0 ? 100.0 * (double)key / (double)all_us : 0.0);
    fmt_duration(v[3], sizeof v[3], r->count ? (double)r->sum_us / (double)r->count : 0);
    fmt_duration(v[4], sizeof v[4], (double)r->max_us);
    kcols c;
    kcols_fit(getmaxx(w), &c);
    int n = snprintf(line, sizeof line, "%3zu", rank + 1);
    for (int i = 0; i < KCOL_N; i++)
        if (c.shown[i])
            n += snprintf(line + n, sizeof line - (size_t)n, " %*s", KCOL_W[i] - 1, v[i]);
    snprintf(line + n, sizeof line - (size_t)n, "  ");
    mvwhline(w, y, 0, ' ' | (chtype)attr, getmaxx(w));
    int x = pane_common_put(w, y, 0, -1, line, attr);
    pane_common_put(w, y, x, getmaxx(w) - x, r->name, attr);
}

/* Why source src has no row. */
static const char *empty_note(gpuview_src src)
{
    switch (src) {
    case GPUVIEW_PYTHON:
        return "no python_function events in the traces (with_stack=True records them)";
    case GPUVIEW_IDLE:
        return "nothing on the host while the GPU was idle in these steps";
    case GPUVIEW_CPATH:
        return "no critical path in these steps (HTA's: ProfilerStep#N, each trace's last left "
               "out)";
    default:
        return "none in the traces";
    }
}

void pane_python_kineto_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    const gpuview_top *t = kineto_rows(p, ctx);
    if (!t) {
        pane_common_put(w, 0, 0, -1, "reading the PyTorch profiler traces...",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    draw_head(p, w, ctx, t);
    if (!p->nrows) {
        pane_common_put(w, 2, 0, -1,
                        p->filter[0] ? "no name matches the filter" : empty_note(t->src),
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    int h = getmaxy(w);
    size_t fit = h > 2 ? (size_t)(h - 2) : 1;
    p->top = pane_common_scroll_top(p->top, p->sel, p->nrows, fit);
    int y = 2;
    for (size_t i = p->top; i < p->nrows && y < h; i++, y++)
        draw_row(w, y, p->rows[i], &t->rows[p->rows[i]], t->all_us,
                 t->src == GPUVIEW_KERNELS,
                 theme_attr(ctx->th, i == p->sel ? ROLE_SELECTED : ROLE_DEFAULT));
}
