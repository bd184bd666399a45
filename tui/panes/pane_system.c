/* pane_system: see pane_system.h. Pure helpers first, then drawing. */
#include "tui/panes/pane_system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_common.h"
#include "tui/panes/panes_builtin.h"
#include "tui/dash/step_focus.h"
#include "model/series_iter.h"

static int add_metric(sys_metric *out, size_t max, size_t *n, const series *s,
                      theme_role role, int util, const char *fmt, const char *arg)
{
    if (!s || *n >= max)
        return 0;
    sys_metric *m = &out[(*n)++];
    m->s = s;
    m->role = role;
    m->util = util;
    m->unit = util ? "%" : fmt_unit_for_dimension(series_dimension(s));
    m->scale = util ? 1.0 : fmt_scale_for_dimension(series_dimension(s));
    snprintf(m->label, sizeof m->label, fmt, arg);
    return 1;
}

/* Series the fixed groups above do not cover (custom "Algorithm"
 * dimensions, unknown types) still belong on screen: a job that reports
 * them expects to see them. */
static int is_known_type(const char *t)
{
    static const char *const known[] = {"cpu", "gpu", "memory", "i/o", "network"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(t, known[i]) == 0)
            return 1;
    return 0;
}

static int is_util_series(const series *s)
{
    return strcmp(fmt_unit_for_dimension(series_dimension(s)), "%") == 0 ||
           strcmp(fmt_unit_for_dimension(series_name(s)), "%") == 0;
}

/* "nvme0n1 read" from name "nvme0n1" and dimension "ReadThroughputMB":
 * one device usually has a read and a write (or sent/received) series,
 * and only the dimension's first word tells them apart. */
static const char *device_label(const series *s, const char *kind, char *buf, size_t cap)
{
    const char *d = series_dimension(s);
    size_t w = 1;
    while (d[0] && d[w] && !(d[w] >= 'A' && d[w] <= 'Z'))
        w++;
    char word[16];
    snprintf(word, sizeof word, "%.*s", (int)(w < 15 ? w : 15), d);
    for (char *c = word; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    const char *name = series_name(s);
    snprintf(buf, cap, "%s %s", *name ? name : kind, word);
    return buf;
}

size_t pane_system_node_metrics(const model_node *nd, int per_core, sys_metric *out,
                                size_t max)
{
    char dev[64];
    size_t n = 0;
    char buf[21];
    add_metric(out, max, &n, model_node_cpu_total(nd), ROLE_GRAPH_CPU, 1, "cpu%s", "");
    for (size_t i = 0; per_core && i < model_node_cpu_count(nd); i++) {
        snprintf(buf, sizeof buf, "%zu", i);
        add_metric(out, max, &n, model_node_cpu_core(nd, i), ROLE_GRAPH_CPU, 1, " cpu%s", buf);
    }
    for (size_t i = 0; i < model_node_gpu_count(nd); i++) {
        const char *name = model_node_gpu_name(nd, i);
        add_metric(out, max, &n, model_node_gpu_util(nd, i), ROLE_GRAPH_GPU, 1, "%s", name);
        if (strncmp(name, "gpu", 3) == 0)
            add_metric(out, max, &n, model_node_gpu_mem(nd, i), ROLE_GRAPH_GPUMEM, 1, "gmem%s", name + 3);
        else
            add_metric(out, max, &n, model_node_gpu_mem(nd, i), ROLE_GRAPH_GPUMEM, 1, "mem %s", name);
    }
    const series *hm = model_node_host_mem(nd);
    add_metric(out, max, &n, hm, ROLE_GRAPH_MEM, hm ? is_util_series(hm) : 0, "mem%s", "");
    for (size_t i = 0; i < model_node_io_count(nd); i++) {
        const series *s = model_node_io_at(nd, i);
        add_metric(out, max, &n, s, ROLE_GRAPH_IO, is_util_series(s), "%s",
                   device_label(s, "io", dev, sizeof dev));
    }
    for (size_t i = 0; i < model_node_net_count(nd); i++) {
        const series *s = model_node_net_at(nd, i);
        add_metric(out, max, &n, s, ROLE_GRAPH_NET, is_util_series(s), "%s",
                   device_label(s, "net", dev, sizeof dev));
    }
    for (size_t i = 0; i < model_node_series_count(nd); i++) {
        const series *s = model_node_series_at(nd, i);
        if (is_known_type(series_type(s)))
            continue;
        const char *nm = *series_name(s) ? series_name(s) : series_dimension(s);
        add_metric(out, max, &n, s, ROLE_GRAPH_OTHER, is_util_series(s), "%s", nm);
    }
    return n;
}

int pane_system_chart_rows(int h, size_t nodes, size_t metrics)
{
    if (metrics == 0 || (size_t)h <= nodes)
        return 1;
    size_t r = ((size_t)h - nodes) / metrics;
    return r < 1 ? 1 : r > 4 ? 4 : (int)r;
}

double pane_system_scale_top(const series_bin *b, size_t n, int util)
{
    if (util)
        return 100.0;
    double top = 0;
    for (size_t i = 0; i < n; i++)
        if (b[i].count > 0 && b[i].max > top)
            top = b[i].max;
    return top > 0 ? top : 1.0;
}

size_t pane_system_bin_values(const series_bin *b, size_t n, double *vals)
{
    size_t have = 0;
    for (size_t i = 0; i < n; i++) {
        vals[i] = b[i].count > 0 ? b[i].mean : NAN;
        have += b[i].count > 0;
    }
    return have;
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

typedef struct near_walk {
    int64_t t0, t1;
    double *vals;
    size_t max, inside;
    int have;
    int64_t near_us, dist;
    double near_v;
} near_walk;

static int near_visit(void *ud, const series_point *pt)
{
    near_walk *nw = ud;
    if (pt->t_us >= nw->t0 && pt->t_us < nw->t1) {
        if (nw->inside < nw->max)
            nw->vals[nw->inside] = pt->mean;
        nw->inside++;
        return 0;
    }
    int64_t d = pt->t_us < nw->t0 ? nw->t0 - pt->t_us : pt->t_us - nw->t1;
    if (!nw->have || d < nw->dist) {
        nw->have = 1;
        nw->dist = d;
        nw->near_us = pt->t_us;
        nw->near_v = pt->mean;
    }
    return 0;
}

/* SageMaker samples every 100 ms to 60 s: a minute on each side of the
 * step finds its nearest sample at any interval without walking the whole
 * series. */
#define SYS_NEAR_US (60LL * 1000000)

size_t pane_system_step_samples(const series *s, int64_t t0_us, int64_t t1_us,
                                double *vals, size_t max, int *have_near, int64_t *near_us,
                                double *near_v)
{
    near_walk nw = {.t0 = t0_us, .t1 = t1_us, .vals = vals, .max = max};
    series_visit(s, t0_us - SYS_NEAR_US, t1_us + SYS_NEAR_US, near_visit, &nw);
    *have_near = nw.have;
    *near_us = nw.near_us;
    *near_v = nw.near_v;
    return nw.inside;
}

int pane_system_current_value(const series *s, int64_t t0_us, int64_t t1_us,
                              const series_bin *b, size_t n, double *out)
{
    series_summary sum;
    series_get_summary(s, &sum);
    if (sum.count > 0 && sum.last_us >= t0_us && sum.last_us < t1_us) {
        *out = sum.last_value;
        return 1;
    }
    for (size_t i = n; i-- > 0;)
        if (b[i].count > 0) {
            *out = b[i].mean;
            return 1;
        }
    return 0;
}

size_t pane_system_scroll_top(size_t top, size_t sel, const int *heights, size_t n, int h)
{
    if (n == 0)
        return 0;
    if (sel >= n)
        sel = n - 1;
    if (top > sel)
        top = sel;
    /* Move down until the selected block ends inside the pane. */
    for (;;) {
        long used = 0;
        for (size_t i = top; i <= sel; i++)
            used += heights[i];
        if (used <= h || top == sel)
            break;
        top++;
    }
    return top;
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
    size_t top;
    const model_node *nodes[SYS_MAX_NODES];
    int heights[SYS_MAX_NODES];
    int rows[SYS_MAX_NODES];      /* chart rows of each node's metrics */
    size_t counts[SYS_MAX_NODES]; /* charts of each node (pane_system_node_metrics) */
    sys_metric metrics[SYS_MAX_METRICS];
    series_bin bins[SYS_MAX_BINS];
    double vals[SYS_MAX_BINS];
};

static pane *sys_create(void) { return calloc(1, sizeof(pane)); }
static void sys_destroy(pane *p) { free(p); }

/* v is a raw value: scaled here into the metric's unit. */
static char *format_value(char *buf, size_t cap, const sys_metric *m, double v)
{
    return m->util ? fmt_percent(buf, cap, v) : fmt_si(buf, cap, v * m->scale, m->unit);
}

/* The mean over the window into text ("avg 42.0%"); 0 when none. */
static int window_mean_text(char *text, size_t cap, const sys_metric *m, const pane_ctx *ctx)
{
    series_summary sum;
    series_range_summary(m->s, ctx->t0_us, ctx->t1_us, &sum);
    if (sum.count <= 0)
        return 0;
    char v[FMT_BUF];
    format_value(v, sizeof v, m, sum.mean);
    snprintf(text, cap, "avg %s", v);
    return 1;
}

/* A focused step's window holding fewer than three samples of m (they
 * are 100 ms to 1 s apart, a step often shorter): the values as text, or
 * the nearest sample outside, instead of a chart of one dot. 0 when there
 * are enough samples for a chart. */
static int draw_step_samples(WINDOW *w, int y, const sys_columns *c, const sys_metric *m,
                             const pane_ctx *ctx)
{
    double v[3], nv;
    int have_near;
    int64_t nt;
    size_t k = pane_system_step_samples(m->s, ctx->t0_us, ctx->t1_us, v, 3, &have_near, &nt, &nv);
    if (k >= 3)
        return 0;
    char line[160], a[FMT_BUF], b[FMT_BUF], t[32];
    long long step = ctx->view->step;
    if (k == 0 && have_near) {
        format_value(a, sizeof a, m, nv);
        snprintf(line, sizeof line, "no samples inside step %lld; nearest %s at %s", step, a,
                 step_focus_clock(t, sizeof t, nt));
    } else if (k == 0) {
        snprintf(line, sizeof line, "no samples inside step %lld's window", step);
    } else {
        format_value(a, sizeof a, m, v[0]);
        if (k == 2)
            format_value(b, sizeof b, m, v[1]);
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
                             const sys_metric *m, double top, int have_cur, double cur,
                             const pane_ctx *ctx)
{
    char text[FMT_BUF + 8], val[FMT_BUF];
    int dim = theme_attr(ctx->th, ROLE_DIM), def = theme_attr(ctx->th, ROLE_DEFAULT);
    int lw = c->graph_x - c->label_x - 1;
    int scale_right = c->axis_x + SYS_VALUE_W - 1;
    format_value(text, sizeof text, m, top);
    pane_common_put_right(w, y, scale_right, SYS_VALUE_W, text, dim);
    if (have_cur)
        pane_common_put_right(w, y, c->value_right, SYS_VALUE_W,
                              format_value(val, sizeof val, m, cur), def);
    /* The mean costs a range scan: only when it has a place. */
    int mean = (c->avg_x >= 0 || rows > 1) && window_mean_text(text, sizeof text, m, ctx);
    if (c->avg_x >= 0 && mean)
        pane_common_put(w, y, c->avg_x, SYS_AVG_W - 1, text, dim);
    if (rows <= 1)
        return;
    pane_common_put_right(w, y + rows - 1, scale_right, SYS_VALUE_W, m->util ? "0%" : "0", dim);
    if (c->avg_x < 0 && mean)
        pane_common_put(w, y + 1, c->label_x + 1, lw - 1, text, dim);
}

/* One chart: label, graph over `rows` lines and its numbers. Every chart
 * of the pane uses the same columns so time lines up. */
static void draw_metric(pane *p, WINDOW *w, int y, int rows, const sys_columns *c,
                        const sys_metric *m, const pane_ctx *ctx)
{
    if (y + rows > getmaxy(w))
        rows = getmaxy(w) - y;
    chart_glyphs g = ctx->view->glyphs;
    int spc = chart_samples_per_col(g);
    pane_common_put(w, y, c->label_x, c->graph_x - c->label_x - 1, m->label,
                    theme_attr(ctx->th, ROLE_LABEL));
    if (c->graph_w < 1 || rows < 1)
        return;
    size_t nb = (size_t)c->graph_w * (size_t)spc;
    if (nb > SYS_MAX_BINS)
        nb = SYS_MAX_BINS;
    if (ctx->view->step_focus && draw_step_samples(w, y, c, m, ctx))
        return;
    series_query(m->s, ctx->t0_us, ctx->t1_us, nb, p->bins);
    size_t have = pane_system_bin_values(p->bins, nb, p->vals);
    if (ctx->view->step_focus)
        pane_system_hold_gaps(p->vals, nb);
    if (have == 0) {
        pane_common_put(w, y, c->graph_x + 1, c->graph_w - 1, "no data in this window",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    double top = pane_system_scale_top(p->bins, nb, m->util), cur = 0;
    chart_draw(w, y, c->graph_x, rows, (int)(nb / (size_t)spc), p->vals, nb, 0.0, top, g,
               theme_attr(ctx->th, m->role));
    int have_cur = pane_system_current_value(m->s, ctx->t0_us, ctx->t1_us, p->bins, nb, &cur);
    draw_metric_text(w, y, rows, c, m, top, have_cur, cur, ctx);
}

static void draw_node_header(WINDOW *w, int y, const model_node *nd, int sel,
                             const sys_columns *c, int rows, const pane_ctx *ctx)
{
    char line[160];
    if (model_node_series_count(nd) == 0)
        snprintf(line, sizeof line, "%s %s  (framework trace events only)", sel ? ">" : " ",
                 model_node_id(nd));
    else
        snprintf(line, sizeof line, "%s %s  %zu cpu  %zu gpu%s", sel ? ">" : " ", model_node_id(nd),
                 model_node_cpu_count(nd), model_node_gpu_count(nd),
                 model_node_phase_count(nd) ? "" : "  (system metrics only)");
    pane_common_put(w, y, 0, -1, line, theme_attr(ctx->th, sel ? ROLE_SELECTED : ROLE_TITLE));
    /* Name the number columns once per node, over where they stand. */
    (void)rows;
    if (model_node_series_count(nd) && c->graph_w > 0) {
        int dim = theme_attr(ctx->th, ROLE_DIM);
        pane_common_put_right(w, y, c->axis_x + SYS_VALUE_W - 1, SYS_VALUE_W, "scale", dim);
        pane_common_put_right(w, y, c->value_right, SYS_VALUE_W, "now", dim);
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

static void sys_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    int H = getmaxy(w);
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, p->nodes, SYS_MAX_NODES);
    n = n > SYS_MAX_NODES ? SYS_MAX_NODES : n;
    if (n == 0) {
        pane_common_put(w, H / 2, 1, -1, model_node_count(ctx->m) ? "no node matches the filter"
                                                              : "waiting for data",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    size_t sel = pane_common_selected(ctx->view, n);
    /* Counted once: listing a node's metrics formats every label. */
    for (size_t i = 0; i < n; i++)
        p->counts[i] = pane_system_node_metrics(p->nodes[i], ctx->view->per_core, p->metrics,
                                                SYS_MAX_METRICS);
    plan_rows(p, n, sel, H - 1);
    int axis = p->rows[sel] > 1;  /* tall graphs: spare a line for times */
    if (!axis)
        plan_rows(p, n, sel, H);
    int avail = H - axis, y = 0;
    sys_columns c = pane_system_columns_for(getmaxx(w));
    p->top = pane_system_scroll_top(p->top, sel, p->heights, n, avail);
    for (size_t i = p->top; i < n && y < avail; i++) {
        int rows = p->rows[i];
        draw_node_header(w, y++, p->nodes[i], i == sel, &c, rows, ctx);
        size_t k = pane_system_node_metrics(p->nodes[i], ctx->view->per_core, p->metrics, SYS_MAX_METRICS);
        if (k == 0 && y < avail)
            pane_common_put(w, y++, 1, -1, "no system metrics", theme_attr(ctx->th, ROLE_DIM));
        for (size_t j = 0; j < k && y < avail; j++, y += rows)
            draw_metric(p, w, y, y + rows <= avail ? rows : avail - y, &c, &p->metrics[j], ctx);
    }
    if (axis)
        draw_time_axis(w, H - 1, &c, ctx);
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
    uint64_t h = pane_common_hash_view(PANE_COMMON_HASH_SEED, ctx);
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, p->nodes, SYS_MAX_NODES);
    h = pane_common_hash_u64(h, n);
    for (size_t i = 0; i < n && i < SYS_MAX_NODES; i++)
        h = pane_common_hash_u64(h, model_node_generation(p->nodes[i]));
    return h;
}

/* A click on a node's header or chart selects that node. */
static int sys_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, NULL, 0);
    int at = 0;
    for (size_t i = p->top; i < n && i < SYS_MAX_NODES; i++) {
        at += p->heights[i];
        if (y < at) {
            ctx->view->selected_node = i;
            return 1;
        }
    }
    return 0;
}

static const pane_key sys_keys[] = {
    {"j k  Dn Up", "node", "select node"},
    {"c", "per core", "CPU total / per core"},
    {NULL, NULL, NULL},
};

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
};
