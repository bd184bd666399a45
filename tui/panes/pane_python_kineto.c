/* pane_python_kineto: the top-functions pane's PyTorch profiler sources
 * (Kineto CPU ops, GPU kernels, Python functions) over every rank (the
 * ranks of the nodes a node filter passes), from
 * the loader's view data (model/view/gpuview.h), and the source picker
 * shared with the cProfile / pyinstrument table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/decode/kineto_decode.h"
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
        char name[512];
        kineto_str_sanitize(sm_str_c(t->rows[i].name), name, sizeof name);
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

static void draw_head(const pane *p, WINDOW *w, const pane_ctx *ctx, const gpuview_top *t)
{
    char info[256], all[FMT_BUF];
    int kernels = t->src == GPUVIEW_KERNELS;
    fmt_duration(all, sizeof all, (double)t->all_us);
    /* "all 4 ranks", or under a node filter "2 of 4 ranks" */
    char ranks[64];
    size_t nr = viewdata_gpu_ranks(ctx->vd);
    if (t->ranks < nr)
        snprintf(ranks, sizeof ranks, "%zu of %zu ranks", t->ranks, nr);
    else
        snprintf(ranks, sizeof ranks, "all %zu rank%s", nr, nr == 1 ? "" : "s");
    snprintf(info, sizeof info, "%s | %s | %zu of %zu, %s %s | o source%s%s%s",
             gpuview_src_name(t->src), ranks, t->n, t->total,
             kernels ? "GPU" : "self", all, p->filter[0] || p->filter_edit ? " | /" : "",
             p->filter, p->filter_edit ? "_" : "");
    pane_common_put(w, 0, 0, -1, info, theme_attr(ctx->th, ROLE_TITLE));
    char hdr[128];
    snprintf(hdr, sizeof hdr, "  # %8s %9s %6s %9s %9s  %s", "count", kernels ? "total" : "self",
             "%", "mean", "max", kernels ? "kernel" : "name");
    pane_common_put(w, 1, 0, -1, hdr, theme_attr(ctx->th, ROLE_LABEL));
}

static void draw_row(WINDOW *w, int y, size_t rank, const gpuview_row *r, int64_t all_us,
                     int kernels, int attr)
{
    int64_t key = kernels ? r->sum_us : r->self_us;
    char a[FMT_BUF], mean[FMT_BUF], mx[FMT_BUF], line[256], name[1024];
    fmt_duration(a, sizeof a, (double)key);
    fmt_duration(mean, sizeof mean, r->count ? (double)r->sum_us / (double)r->count : 0);
    fmt_duration(mx, sizeof mx, (double)r->max_us);
    snprintf(line, sizeof line, "%3zu %8lld %9s %5.1f%% %9s %9s  ", rank + 1,
             (long long)r->count, a, all_us > 0 ? 100.0 * (double)key / (double)all_us : 0.0,
             mean, mx);
    mvwhline(w, y, 0, ' ' | (chtype)attr, getmaxx(w));
    int x = pane_common_put(w, y, 0, -1, line, attr);
    kineto_str_sanitize(sm_str_c(r->name), name, sizeof name);
    pane_common_put(w, y, x, getmaxx(w) - x, name, attr);
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
        pane_common_put(w, 2, 0, -1, p->filter[0] ? "no name matches the filter"
                        : t->src == GPUVIEW_PYTHON ? "no python_function events in the traces "
                                                     "(with_stack=True records them)"
                                                   : "none in the traces",
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
