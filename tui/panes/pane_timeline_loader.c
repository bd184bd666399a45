/* pane_timeline_loader: the data-loader view — how much of each step went
 * to loading data, the loader workers seen, and the GetNext latencies. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_steps.h"
#include "tui/panes/pane_timeline_internal.h"
#include "tui/theme/theme.h"

#define TL_HIST_ROWS 64

static void draw_workers(WINDOW *w, int y, const tlview *tv, const pane_ctx *ctx)
{
    char line[256];
    if (tv->worker_labels == 0)
        snprintf(line, sizeof line, "workers: none seen (no DataLoaderWorker events)");
    else
        snprintf(line, sizeof line, "workers: up to %ld in parallel, %lld events, %zu label%s",
                 tv->worker_par, (long long)tv->worker_events, tv->worker_labels,
                 tv->worker_labels == 1 ? "" : "s");
    pane_common_put(w, y, 0, -1, line, theme_attr(ctx->th, ROLE_DEFAULT));
}

/* Newest steps at the bottom of rows [y0, y1) in columns [x, x + cw). */
static void draw_per_step(const pane *p, size_t n, WINDOW *w, int y0, int y1, int x, int cw,
                          const pane_ctx *ctx)
{
    if (y1 - y0 >= 3)
        pane_common_put(w, y0++, x, cw, "  step     data  share", theme_attr(ctx->th, ROLE_LABEL));
    size_t rows = y1 > y0 ? (size_t)(y1 - y0) : 0;
    size_t first = n > rows ? n - rows : 0;
    int barw = cw - 24;
    for (size_t i = first; i < n; i++, y0++) {
        const step_breakdown *b = &p->sb[i];
        double share = b->dur_us > 0 ? 100.0 * (double)b->cat_us[SB_DATA] / (double)b->dur_us : 0;
        char line[96], d[FMT_BUF], pc[FMT_BUF];
        snprintf(line, sizeof line, "%6lld %8s %6s", (long long)b->step,
                 fmt_duration(d, sizeof d, (double)b->cat_us[SB_DATA]),
                 fmt_percent(pc, sizeof pc, share));
        pane_common_put(w, y0, x, cw, line, theme_attr(ctx->th, ROLE_DEFAULT));
        int cells = barw > 0 ? (int)(barw * share / 100.0 + 0.5) : 0;
        for (int k = 0; k < cells; k++)
            pane_common_put_wch(w, y0, x + 23 + k, ctx->view->glyphs == GLYPHS_ASCII ? L'#' : L'▒',
                                theme_attr(ctx->th, ROLE_GRAPH_IO));
    }
}

static void draw_hist(const tlview *tv, WINDOW *w, int y0, int y1, int x, int cw,
                      const pane_ctx *ctx)
{
    const uint32_t *counts = tv->getnext;
    uint64_t total = tv->getnext_total;
    char head[96];
    snprintf(head, sizeof head, "GetNext latency (%llu calls)", (unsigned long long)total);
    pane_common_put(w, y0, x, cw, total ? head : "GetNext latency: no GetNext events",
                    theme_attr(ctx->th, ROLE_LABEL));
    steps_hist_row rows[TL_HIST_ROWS];
    int max_rows = y1 - y0 - 1;
    if (max_rows <= 0 || total == 0)
        return;
    size_t n = pane_steps_hist_rows(counts, PHASE_HIST_BUCKETS,
                                    (size_t)(max_rows < TL_HIST_ROWS ? max_rows : TL_HIST_ROWS), rows);
    uint64_t maxc = 1;
    for (size_t r = 0; r < n; r++)
        maxc = rows[r].count > maxc ? rows[r].count : maxc;
    int barw = cw - 9 - 8;
    for (size_t r = 0; r < n; r++) {
        int y = y0 + 1 + (int)r;
        char lab[FMT_BUF], cnt[32];
        fmt_duration(lab, sizeof lab, phase_hist_lower_us(rows[r].b0));
        pane_common_put(w, y, x, 8, lab, theme_attr(ctx->th, ROLE_LABEL));
        int cells = barw > 0 ? (int)((double)barw * (double)rows[r].count / (double)maxc + 0.5) : 0;
        for (int k = 0; k < cells; k++)
            pane_common_put_wch(w, y, x + 9 + k, ctx->view->glyphs == GLYPHS_ASCII ? L'#' : L'█',
                                theme_attr(ctx->th, ROLE_STEP_BAR));
        snprintf(cnt, sizeof cnt, "%llu", (unsigned long long)rows[r].count);
        pane_common_put_right(w, y, x + cw - 1, 7, cnt, theme_attr(ctx->th, ROLE_DIM));
    }
}

void pane_timeline_draw_loader(pane *p, WINDOW *w, const pane_ctx *ctx, const tlview *tv)
{
    char head[260];
    snprintf(head, sizeof head, "%s data loading", p->who);
    pane_timeline_draw_tabs(p, w, ctx, head);
    if (!tv->has_loader) {
        pane_timeline_draw_message(w, "no data-loader events (framework profiling off, "
                               "or not a PyTorch/TF data pipeline)", ctx);
        return;
    }
    int h = getmaxy(w), W = getmaxx(w);
    size_t n = pane_timeline_load_steps(p, tv, tv->sb_first, TL_MAX_BARS);
    int64_t data_us = 0, step_us = 0;
    pane_timeline_data_share(p->sb, n, &data_us, &step_us);
    char line[256], a[FMT_BUF], b[FMT_BUF];
    if (n)
        snprintf(line, sizeof line, "data %s/step, %s of step time (last %zu steps)",
                 fmt_duration(a, sizeof a, (double)data_us / (double)n),
                 fmt_percent(b, sizeof b, step_us ? 100.0 * (double)data_us / (double)step_us : 0),
                 n);
    else
        snprintf(line, sizeof line, "no steps to share data loading with (no Step:* events)");
    pane_common_put(w, 1, 0, -1, line, theme_attr(ctx->th, ROLE_DEFAULT));
    draw_workers(w, 2, tv, ctx);
    if (h <= 3)
        return;
    /* Side by side when wide enough, else the per-step list above the histogram. */
    if (W >= 70) {
        int lw = W / 2;
        draw_per_step(p, n, w, 3, h, 0, lw - 1, ctx);
        draw_hist(tv, w, 3, h, lw, W - lw, ctx);
    } else {
        int mid = 3 + (h - 3) / 2;
        draw_per_step(p, n, w, 3, mid, 0, W, ctx);
        draw_hist(tv, w, mid, h, 0, W, ctx);
    }
}
