/* pane_system: see pane_system.h. Pure helpers first, then drawing. */
#include "tui/panes/pane_system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_common.h"
#include "tui/panes/panes_builtin.h"
#include "tui/text/step_focus.h"
#include "model/view/sysview.h"

static int is_util_series(const sysview_metric *m)
{
    return strcmp(fmt_unit_for_dimension(m->dimension), "%") == 0 ||
           strcmp(fmt_unit_for_dimension(m->name), "%") == 0;
}

void pane_system_metric_from(const sysview_metric *in, sys_metric *m)
{
    static const theme_role roles[] = {
        [SYSVIEW_CPU] = ROLE_GRAPH_CPU, [SYSVIEW_GPU] = ROLE_GRAPH_GPU,
        [SYSVIEW_GPUMEM] = ROLE_GRAPH_GPUMEM, [SYSVIEW_MEM] = ROLE_GRAPH_MEM,
        [SYSVIEW_IO] = ROLE_GRAPH_IO, [SYSVIEW_NET] = ROLE_GRAPH_NET,
        [SYSVIEW_OTHER] = ROLE_GRAPH_OTHER,
    };
    m->s = in->s;
    m->role = roles[in->kind];
    m->util = in->percent || is_util_series(in);
    m->unit = m->util ? "%" : fmt_unit_for_dimension(in->dimension);
    m->scale = m->util ? 1.0 : fmt_scale_for_dimension(in->dimension);
    snprintf(m->label, sizeof m->label, "%s", in->label);
}

size_t pane_system_node_metrics(const model_node *nd, int per_core, sys_metric *out,
                                size_t max)
{
    sysview_metric tmp[64];
    size_t n = sysview_node_metrics(nd, per_core, tmp, max < 64 ? max : 64);
    for (size_t i = 0; i < n; i++)
        pane_system_metric_from(&tmp[i], &out[i]);
    return n;
}

int pane_system_chart_rows(int h, size_t nodes, size_t metrics)
{
    if (metrics == 0 || (size_t)h <= nodes)
        return 1;
    size_t r = ((size_t)h - nodes) / metrics;
    return r < 1 ? 1 : r > 4 ? 4 : (int)r;
}

void pane_system_hold_gaps(double *vals, size_t n)
{
    size_t last = n;   /* index of the previous value */
    for (size_t i = 0; i < n; i++) {
        if (isnan(vals[i]))
            continue;
        for (size_t k = last + 1; last < n && k < i; k++)
            vals[k] = vals[last];
        last = i;
    }
}

long pane_system_scroll_line(long top, size_t sel, const int *heights, size_t n, int h)
{
    if (n == 0 || h <= 0)
        return 0;
    if (sel >= n)
        sel = n - 1;
    long start = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == sel)
            start = total;
        total += heights[i];
    }
    long len = heights[sel];
    if (len >= h || start < top)
        top = start;
    else if (start + len > top + h)
        top = start + len - h;
    if (top > total - h)
        top = total - h;
    return top < 0 ? 0 : top;
}

/* ---- drawing ---------------------------------------------------------- */

#define SYS_MAX_NODES 1024
#define SYS_MAX_METRICS 256
#define SYS_MAX_BINS 1024
#define SYS_VALUE_W 9     /* "412 MB/s", "100%" */
#define SYS_AVG_W 14      /* "avg 51.5 MB/s" + gap */

sys_columns pane_system_columns_for(int W)
{
    sys_columns c;
    c.label_x = 1;
    c.graph_x = W / 5 < 9 ? 9 : W / 5 > 16 ? 16 : W / 5;
    c.value_right = W - 1;
    /* Scale top and current value beside the graph; the window mean only
     * while the graph stays wide: the graph is the point of the pane. */
    int right = W - 2 * (SYS_VALUE_W + 1);
    c.axis_x = right + 1;
    c.avg_x = -1;
    if (right - c.graph_x - SYS_AVG_W >= 100) {
        right -= SYS_AVG_W;
        c.avg_x = right + 1;
    }
    c.graph_w = right - c.graph_x;
    if (c.graph_w < 0)
        c.graph_w = 0;
    return c;
}

struct pane {
    long top_line;                /* first line shown of the blocks */
    size_t top;                   /* first node with a line shown */
    size_t drawn;                 /* nodes at the last draw (heights[] valid) */
    int heights[SYS_MAX_NODES];
    int rows[SYS_MAX_NODES];      /* chart rows of each node's metrics */
    size_t counts[SYS_MAX_NODES]; /* charts of each node */
    double vals[SYS_MAX_BINS];
    char note[64];                /* the border's source note */
};

static pane *sys_create(void) { return calloc(1, sizeof(pane)); }
static void sys_destroy(pane *p) { free(p); }

/* v is a raw value: scaled here into the metric's unit. */
static char *format_value(char *buf, size_t cap, const sys_metric *m, double v)
{
    return m->util ? fmt_percent(buf, cap, v) : fmt_si(buf, cap, v * m->scale, m->unit);
}

/* The mean over the window into text ("avg 42.0%"); 0 when none. */
static int window_mean_text(char *text, size_t cap, const sys_metric *m,
                            const sysview_chart *ch)
{
    if (!ch->have_mean)
        return 0;
    char v[FMT_BUF];
    format_value(v, sizeof v, m, ch->mean);
    snprintf(text, cap, "avg %s", v);
    return 1;
}

/* A focused step's window holding fewer than three samples of m (they
 * are 100 ms to 1 s apart, a step often shorter): the values as text, or
 * the nearest sample outside, instead of a chart of one dot. 0 when there
 * are enough samples for a chart. */
static int draw_step_samples(WINDOW *w, int y, const sys_columns *c, const sys_metric *m,
                             const sysview_chart *ch, const pane_ctx *ctx)
{
    size_t k = ch->step_k;
    if (k >= 3)
        return 0;
    char line[160], a[FMT_BUF], b[FMT_BUF], t[32];
    long long step = ctx->view->step;
    if (k == 0 && ch->have_near) {
        format_value(a, sizeof a, m, ch->near_v);
        snprintf(line, sizeof line, "no samples inside step %lld; nearest %s at %s", step, a,
                 step_focus_clock(t, sizeof t, ch->near_us));
    } else if (k == 0) {
        snprintf(line, sizeof line, "no samples inside step %lld's window", step);
    } else {
        format_value(a, sizeof a, m, ch->step_v[0]);
        if (k == 2)
            format_value(b, sizeof b, m, ch->step_v[1]);
        snprintf(line, sizeof line, "%zu sample%s in step %lld: %s%s%s", k, k == 1 ? "" : "s",
                 step, a, k == 2 ? "  " : "", k == 2 ? b : "");
    }
    pane_common_put(w, y, c->graph_x + 1, getmaxx(w) - c->graph_x - 2, line,
                    theme_attr(ctx->th, k ? ROLE_DEFAULT : ROLE_DIM));
    return 1;
}

/* The numbers around a chart: the scale's top (and its 0 on the bottom
 * row of a taller chart) and the current value right of the graph; the
 * window mean in its column when wide, else under the label of a chart
 * tall enough to have room there. */
static void draw_metric_text(WINDOW *w, int y, int rows, const sys_columns *c,
                             const sys_metric *m, double top, const sysview_chart *ch,
                             const pane_ctx *ctx)
{
    char text[FMT_BUF + 8], val[FMT_BUF];
    int dim = theme_attr(ctx->th, ROLE_DIM), def = theme_attr(ctx->th, ROLE_DEFAULT);
    int lw = c->graph_x - c->label_x - 1;
    int scale_right = c->axis_x + SYS_VALUE_W - 1;
    format_value(text, sizeof text, m, top);
    pane_common_put_right(w, y, scale_right, SYS_VALUE_W, text, dim);
    if (ch->have_cur)
        pane_common_put_right(w, y, c->value_right, SYS_VALUE_W,
                              format_value(val, sizeof val, m, ch->cur), def);
    int mean = (c->avg_x >= 0 || rows > 1) && window_mean_text(text, sizeof text, m, ch);
    if (c->avg_x >= 0 && mean)
        pane_common_put(w, y, c->avg_x, SYS_AVG_W - 1, text, dim);
    if (rows <= 1)
        return;
    pane_common_put_right(w, y + rows - 1, scale_right, SYS_VALUE_W, m->util ? "0%" : "0", dim);
    if (c->avg_x < 0 && mean)
        pane_common_put(w, y + 1, c->label_x + 1, lw - 1, text, dim);
}

/* Bins per chart for a graph of c's width. */
static size_t chart_bins(const sys_columns *c, chart_glyphs g)
{
    size_t nb = (size_t)(c->graph_w > 0 ? c->graph_w : 0) * (size_t)chart_samples_per_col(g);
    return nb > SYS_MAX_BINS ? SYS_MAX_BINS : nb;
}

/* One chart: label, graph over `rows` lines and its numbers. Every chart
 * of the pane uses the same columns so time lines up. The loader built
 * its numbers (model/view/sysview.h); a chart it has not built yet (a node
 * scrolled into view a moment ago, a wider pane) shows its label only
 * until the next snapshot. */
static void draw_metric(pane *p, WINDOW *w, int y, int rows, const sys_columns *c,
                        const sysview_chart *ch, const pane_ctx *ctx)
{
    if (y + rows > getmaxy(w))
        rows = getmaxy(w) - y;
    sys_metric m;
    pane_system_metric_from(&ch->m, &m);
    chart_glyphs g = ctx->view->glyphs;
    int spc = chart_samples_per_col(g);
    pane_common_put(w, y, c->label_x, c->graph_x - c->label_x - 1, m.label,
                    theme_attr(ctx->th, ROLE_LABEL));
    if (c->graph_w < 1 || rows < 1)
        return;
    if (ctx->view->step_focus && draw_step_samples(w, y, c, &m, ch, ctx))
        return;
    size_t nb = ch->nbins;
    if (nb == 0 || nb != chart_bins(c, g))
        return;
    memcpy(p->vals, ch->vals, nb * sizeof *p->vals);
    if (ctx->view->step_focus)
        pane_system_hold_gaps(p->vals, nb);
    if (ch->have == 0) {
        pane_common_put(w, y, c->graph_x + 1, c->graph_w - 1, "no data in this window",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    double top = m.util ? 100.0 : ch->top;
    chart_draw(w, y, c->graph_x, rows, (int)(nb / (size_t)spc), p->vals, nb, 0.0, top, g,
               theme_attr(ctx->th, m.role));
    draw_metric_text(w, y, rows, c, &m, top, ch, ctx);
}

static void draw_node_header(WINDOW *w, int y, const sysview_node *nd, int sel,
                             const sys_columns *c, const pane_ctx *ctx)
{
    char line[160], note[64];
    if (nd->nseries && pane_common_source_note(ctx, note, sizeof note)[0])
        snprintf(line, sizeof line, "%s %s  %s host means", sel ? ">" : " ", nd->id, note);
    else if (nd->nseries == 0)
        snprintf(line, sizeof line, "%s %s  (%s only)", sel ? ">" : " ", nd->id,
                 nd->count ? "GPU memory from the PyTorch profiler" : "framework trace events");
    else
        snprintf(line, sizeof line, "%s %s  %zu cpu  %zu gpu%s", sel ? ">" : " ", nd->id,
                 nd->cpus, nd->gpus, nd->phases ? "" : "  (system metrics only)");
    pane_common_put(w, y, 0, -1, line, theme_attr(ctx->th, sel ? ROLE_SELECTED : ROLE_TITLE));
    /* Name the number columns once per node, over where they stand. */
    if (nd->count && c->graph_w > 0) {
        int dim = theme_attr(ctx->th, ROLE_DIM);
        if (ctx->following) {
            pane_common_put_right(w, y, c->axis_x + SYS_VALUE_W - 1, SYS_VALUE_W, "scale", dim);
            pane_common_put_right(w, y, c->value_right, SYS_VALUE_W, "now", dim);
        } else {
            /* Not "now": the window ends in the past, or the job stopped
             * writing. The last value shown is from this time (it takes
             * the scale's header room). */
            char last[40], clock[FMT_BUF];
            int64_t newest = ctx->vd ? viewdata_newest_us(ctx->vd) : 0;
            int64_t t = ctx->t1_us - 1 < newest || newest <= 0 ? ctx->t1_us - 1 : newest;
            snprintf(last, sizeof last, "last %s", fmt_clock(clock, sizeof clock, t, 0));
            pane_common_put_right(w, y, c->value_right, 2 * SYS_VALUE_W + 1, last, dim);
        }
        if (c->avg_x >= 0)
            pane_common_put(w, y, c->avg_x, SYS_AVG_W - 1, "window", dim);
    }
}

/* A clock for time t on an axis spanning span: milliseconds for
 * sub-minute windows (a focused step) so the ends differ. */
static char *axis_clock(char *buf, size_t cap, int64_t t, int64_t span)
{
    if (span < 60LL * 1000000)
        return step_focus_clock(buf, cap, t);
    return fmt_clock(buf, cap, t, span);
}

/* Time axis under the graphs: start, end and ticks between them where
 * their labels fit, each label under a '|' tick on the graph's scale. */
static void draw_time_axis(WINDOW *w, int y, const sys_columns *c, const pane_ctx *ctx)
{
    char a[FMT_BUF];
    int64_t span = ctx->t1_us - ctx->t0_us;
    int attr = theme_attr(ctx->th, ROLE_DIM);
    if (c->graph_w < 20)
        return;
    axis_clock(a, sizeof a, ctx->t0_us, span);
    int label_w = (int)strlen(a) + 4;
    pane_common_put(w, y, c->graph_x, -1, a, attr);
    axis_clock(a, sizeof a, ctx->t1_us, span);
    pane_common_put_right(w, y, c->graph_x + c->graph_w - 1, -1, a, attr);
    int ticks = c->graph_w / (label_w * 2);
    for (int i = 1; i < ticks; i++) {
        int x = c->graph_x + c->graph_w * i / ticks;
        axis_clock(a, sizeof a, ctx->t0_us + span * i / ticks, span);
        pane_common_put_wch(w, y, x, L'|', attr);
        pane_common_put(w, y, x + 1, label_w - 2, a, attr);
    }
}

/* Block heights per node when node i's charts are rows[i] tall; total
 * charts to *total. */
static void measure_nodes(pane *p, size_t n, size_t *total)
{
    *total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = p->counts[i];
        p->heights[i] = 1 + (k ? (int)k * p->rows[i] : 1);
        *total += k;
    }
}

/* Chart rows per node: the same for all when every chart fits taller;
 * else 1, and the lines left over go to the selected node's charts so
 * the node in question reads as a graph rather than a strip. */
static void plan_rows(pane *p, size_t n, size_t sel, int avail)
{
    size_t total;
    for (size_t i = 0; i < n; i++)
        p->rows[i] = 1;
    measure_nodes(p, n, &total);
    int rows = pane_system_chart_rows(avail, n, total);
    long used = 0;
    for (size_t i = 0; i < n; i++) {
        p->rows[i] = rows;
        used += 1 + (long)(p->heights[i] - 1) * rows;
    }
    if (rows == 1 && used < avail) {
        size_t k = p->counts[sel];
        long extra = k ? (avail - used) / (long)k : 0;
        p->rows[sel] = 1 + (extra > 3 ? 3 : (int)extra);
    }
    measure_nodes(p, n, &total);
}

/* Node i's block from line y (negative: its first lines are above the
 * pane) down to avail. A node whose header is scrolled off keeps it on
 * the first line, so the charts there are never read as another node's. */
static void draw_node_block(pane *p, WINDOW *w, int y, int avail, const sysview *sv, size_t i,
                            int sel, const sys_columns *c, const pane_ctx *ctx)
{
    const sysview_node *nd = sysview_node_at(sv, i);
    int rows = p->rows[i], head = y;
    if (y >= 0)
        draw_node_header(w, y, nd, sel, c, ctx);
    y++;
    if (nd->count == 0 && y >= 0 && y < avail)
        pane_common_put(w, y, 1, -1, "no system metrics", theme_attr(ctx->th, ROLE_DIM));
    for (size_t j = 0; j < nd->count && y < avail; j++, y += rows)
        if (y >= 0 && (y > 0 || head >= 0))
            draw_metric(p, w, y, y + rows <= avail ? rows : avail - y, c,
                        sysview_chart_at(sv, nd->first + j), ctx);
    if (head < 0)
        draw_node_header(w, 0, nd, sel, c, ctx);
}

static const sysview *sys_view(const pane_ctx *ctx)
{
    return ctx->vd ? viewdata_answer(ctx->vd, &sysview_query) : NULL;
}

static void sys_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    int H = getmaxy(w);
    const sysview *sv = sys_view(ctx);
    size_t n = sv ? sysview_node_count(sv) : 0;
    n = n > SYS_MAX_NODES ? SYS_MAX_NODES : n;
    if (n == 0) {
        pane_common_put(w, H / 2, 1, -1, ctx->vd && viewdata_node_total(ctx->vd)
                                             ? "no node matches the filter" : "waiting for data",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    size_t sel = pane_common_selected(ctx->view, n);
    for (size_t i = 0; i < n; i++)
        p->counts[i] = sysview_node_at(sv, i)->count;
    plan_rows(p, n, sel, H - 1);
    int axis = p->rows[sel] > 1;  /* tall graphs: spare a line for times */
    if (!axis)
        plan_rows(p, n, sel, H);
    int avail = H - axis;
    sys_columns c = pane_system_columns_for(getmaxx(w));
    p->top_line = pane_system_scroll_line(p->top_line, sel, p->heights, n, avail);
    p->drawn = n;
    p->top = n;
    /* y: each block's line on screen, negative above the top. A chart cut
     * by the top edge is left out (only the selected node's charts are
     * taller than a line, and its block is shown whole). */
    long y = -p->top_line;
    for (size_t i = 0; i < n && y < avail; y += p->heights[i], i++) {
        if (y + p->heights[i] <= 0)
            continue;
        p->top = p->top < i ? p->top : i;
        draw_node_block(p, w, (int)y, avail, sv, i, i == sel, &c, ctx);
    }
    if (axis)
        draw_time_axis(w, H - 1, &c, ctx);
}

/* Nodes from top whose blocks fit in h lines at the last draw (at least
 * one; half the lines when nothing was drawn yet). */
static size_t nodes_on_screen(const pane *p, int h)
{
    if (p->drawn == 0)
        return (size_t)(h > 2 ? h / 2 : 1);
    size_t k = 0;
    long used = 0;
    for (size_t i = p->top; i < p->drawn && used < h; i++, k++)
        used += p->heights[i];
    return k ? k : 1;
}

/* The charts the loader builds: bins for the nodes on screen and a
 * screen's worth above and below (from the first shown or the selected
 * one), so j/k and scrolling find their charts built; the other nodes
 * list their charts without numbers (each would cost the loader a
 * series scan per chart). */
static void sys_request(pane *p, WINDOW *w, const view_state *v, viewdata_req *q)
{
    sys_columns c = pane_system_columns_for(getmaxx(w));
    size_t k = nodes_on_screen(p, getmaxy(w));
    size_t lo = p->top < v->selected_node ? p->top : v->selected_node;
    size_t hi = p->top > v->selected_node ? p->top : v->selected_node;
    sysview_params sp;
    memset(&sp, 0, sizeof sp);   /* compared bytewise: no stray padding */
    sp.per_core = v->per_core;
    sp.bins = chart_bins(&c, v->glyphs);
    sp.first = lo > k ? lo - k : 0;
    sp.count = hi - sp.first + 2 * k + 1;
    viewdata_ask_for(q, &sysview_query, &sp, sizeof sp);
}

static int sys_on_key(pane *p, int ch, pane_ctx *ctx)
{
    (void)p;
    if (ch == 'c') {
        ctx->view->per_core = !ctx->view->per_core;
        return 1;
    }
    return pane_common_key_select(ch, ctx);
}

static uint64_t sys_stamp(pane *p, const pane_ctx *ctx)
{
    (void)p;
    uint64_t h = pane_common_hash_view(PANE_COMMON_HASH_SEED, ctx);
    return pane_common_hash_viewdata(h, ctx);
}

/* A click on a node's header or chart selects that node. */
static int sys_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    const sysview *sv = sys_view(ctx);
    size_t n = sv ? sysview_node_count(sv) : 0;
    long at = 0, line = p->top_line + y;
    for (size_t i = 0; i < n && i < SYS_MAX_NODES && i < p->drawn; i++) {
        at += p->heights[i];
        if (line < at) {
            ctx->view->selected_node = i;
            return 1;
        }
    }
    return 0;
}

/* CloudWatch's charts say so in the border, with their resolution. */
static const char *sys_title_note(pane *p, const pane_ctx *ctx)
{
    return pane_common_source_note(ctx, p->note, sizeof p->note);
}

static const pane_key sys_keys[] = {
    {"j k  Dn Up", "node", "select node"},
    {"c", "per core", "CPU total / per core"},
    {NULL, NULL, NULL},
};

/* A job profiled with framework traces only gives this pane's room to
 * the panes that have data. */
static const char *sys_absent(pane *p, const pane_ctx *ctx)
{
    (void)p;
    return pane_common_absent_system(ctx);
}

const pane_vtbl pane_system_vtbl = {
    .id = "system",
    .title = "System",
    .create = sys_create,
    .destroy = sys_destroy,
    .draw = sys_draw,
    .on_key = sys_on_key,
    .on_click = sys_on_click,
    .stamp = sys_stamp,
    .keys = sys_keys,
    .absent = sys_absent,
    .title_note = sys_title_note,
    .request = sys_request,
};
