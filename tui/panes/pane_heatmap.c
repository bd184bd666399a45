/* pane_heatmap: see pane_heatmap.h. Pure helpers first, then drawing. */
#include "tui/panes/pane_heatmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/text/fmt.h"
#include "tui/panes/pane_common.h"
#include "tui/panes/panes_builtin.h"
#include "tui/theme/theme.h"

wchar_t pane_heatmap_ramp_char(chart_glyphs g, double pos)
{
    /* Eighths, so 50 % and 70 % differ in shape even without colour. */
    static const wchar_t uni[] = L" ▁▂▃▄▅▆▇█", asc[] = L" .:-=+*#@";
    if (isnan(pos))
        return L'-';
    if (pos < 0)
        pos = 0;
    if (pos > 1)
        pos = 1;
    /* Anything above zero gets at least the lightest shade: a busy-ish
     * device must not look like an empty cell. */
    int i = pos <= 0 ? 0 : 1 + (int)(pos * 8.0);
    if (i > 8)
        i = 8;
    return g == GLYPHS_ASCII ? asc[i] : uni[i];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pane_heatmap_median(const double *v, size_t n)
{
    double *t = malloc((n ? n : 1) * sizeof *t);
    size_t k = 0;
    if (!t)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            t[k++] = v[i];
    double med = NAN;
    if (k > 0) {
        qsort(t, k, sizeof *t, cmp_double);
        med = k % 2 ? t[k / 2] : (t[k / 2 - 1] + t[k / 2]) / 2.0;
    }
    free(t);
    return med;
}

static void consider(const double *v, size_t n, double floor, int by_steps,
                     heat_straggler *best)
{
    size_t have = 0;
    for (size_t i = 0; v && i < n; i++)
        have += !isnan(v[i]);
    if (have < 3)
        return;
    double med = pane_heatmap_median(v, n);
    double base = fabs(med) > floor ? fabs(med) : floor;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        double dev = fabs(v[i] - med) / base;
        if (dev >= 0.10 && dev > best->dev) {
            best->index = (long)i;
            best->by_steps = by_steps;
            best->value = v[i];
            best->median = med;
            best->dev = dev;
        }
    }
}

heat_straggler pane_heatmap_find_straggler(const double *gpu_util, const double *step_p50,
                                           size_t n)
{
    heat_straggler s = {-1, 0, NAN, NAN, 0.0};
    consider(gpu_util, n, 20.0, 0, &s);
    consider(step_p50, n, 1.0, 1, &s);
    return s;
}

const char *pane_heatmap_sort_name(heat_sort k)
{
    static const char *const names[HEAT_SORT_COUNT] = {"name", "worst gpu", "slowest step",
                                                       "stragglers"};
    return (unsigned)k < HEAT_SORT_COUNT ? names[k] : "?";
}

/* Sort context: qsort has no user pointer, so the keys travel with the
 * indices. */
typedef struct heat_key {
    size_t i;
    double k;   /* larger first; NaN last */
} heat_key;

static int cmp_key(const void *a, const void *b)
{
    const heat_key *x = a, *y = b;
    int xn = isnan(x->k), yn = isnan(y->k);
    if (xn != yn)
        return xn - yn;
    if (!xn && x->k != y->k)
        return x->k < y->k ? 1 : -1;
    return (x->i > y->i) - (x->i < y->i);   /* stable: model order */
}

/* Deviation of v from the median, relative, as the straggler check
 * measures it; NaN without a value. */
static double rel_dev(double v, double med, double floor)
{
    if (isnan(v) || isnan(med))
        return NAN;
    double base = fabs(med) > floor ? fabs(med) : floor;
    return fabs(v - med) / base;
}

void pane_heatmap_sort_order(heat_sort k, const double *gpu_util, const double *step_p50,
                     size_t n, size_t *order)
{
    heat_key *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys || k == HEAT_SORT_NAME) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        free(keys);
        return;
    }
    double gmed = pane_heatmap_median(gpu_util, n), smed = pane_heatmap_median(step_p50, n);
    for (size_t i = 0; i < n; i++) {
        keys[i].i = i;
        if (k == HEAT_SORT_WORST_GPU)
            keys[i].k = isnan(gpu_util[i]) ? NAN : -gpu_util[i];
        else if (k == HEAT_SORT_SLOWEST_STEP)
            keys[i].k = step_p50[i];
        else {
            double a = rel_dev(gpu_util[i], gmed, 20.0), b = rel_dev(step_p50[i], smed, 1.0);
            keys[i].k = isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
        }
    }
    qsort(keys, n, sizeof *keys, cmp_key);
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].i;
    free(keys);
}

void pane_heatmap_cell_geometry(int width, int label_w, int ncols, int final_w,
                                int *cell_w, int *gap)
{
    int avail = width - label_w - final_w;
    if (ncols < 1)
        ncols = 1;
    int per = avail / ncols;
    *gap = per >= 3 ? 1 : 0;
    int cw = per - *gap;
    *cell_w = cw < 1 ? 1 : cw > 6 ? 6 : cw;
}

/* ---- drawing ---------------------------------------------------------- */

#define HEAT_MAX_NODES 1024
#define HEAT_MAX_GPUS 16
#define HEAT_FINAL_W 7

typedef struct heat_row {
    double cpu, gpu[HEAT_MAX_GPUS], gmem, gpu_mean, p50;
} heat_row;

/* rows[i] is a cache: valid while row_node[i] / row_gen[i] and the window
 * (t0, t1) match, so a redraw without new data (resize, focus, theme)
 * costs no series scans — 64 nodes × 17 devices would otherwise be ~1000
 * range summaries per frame. */
struct pane {
    size_t top;
    heat_sort sort;
    size_t shown;                     /* nodes in order[] at the last draw */
    size_t order[HEAT_MAX_NODES];     /* display position -> node index */
    int64_t t0, t1;
    const model_node *nodes[HEAT_MAX_NODES];
    const model_node *row_node[HEAT_MAX_NODES];
    uint64_t row_gen[HEAT_MAX_NODES];
    heat_row rows[HEAT_MAX_NODES];
    double gpu_mean[HEAT_MAX_NODES], p50[HEAT_MAX_NODES];
};

static pane *heat_create(void) { return calloc(1, sizeof(pane)); }
static void heat_destroy(pane *p) { free(p); }

static double window_mean(const series *s, const pane_ctx *ctx)
{
    if (!s)
        return NAN;
    series_summary sum;
    series_range_summary(s, ctx->t0_us, ctx->t1_us, &sum);
    if (sum.count == 0 && ctx->view && ctx->view->step_focus) {
        /* A focused step is often shorter than the 100 ms - 1 s sampling
         * interval: its nearest samples (a second either side) say more
         * than an empty cell. */
        const int64_t pad = 1000000;
        series_range_summary(s, ctx->t0_us - pad, ctx->t1_us + pad, &sum);
    }
    return sum.count > 0 ? sum.mean : NAN;
}

/* Mean of the non-NaN values; NaN when none. */
static double mean_of(const double *v, size_t n)
{
    double t = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) {
            t += v[i];
            k++;
        }
    return k ? t / (double)k : NAN;
}

static void heat_fill_row(const model_node *nd, const pane_ctx *ctx, heat_row *r)
{
    size_t g = model_node_gpu_count(nd);
    double mem[HEAT_MAX_GPUS];
    if (g > HEAT_MAX_GPUS)
        g = HEAT_MAX_GPUS;
    r->cpu = window_mean(model_node_cpu_total(nd), ctx);
    for (size_t i = 0; i < HEAT_MAX_GPUS; i++)
        r->gpu[i] = NAN;
    for (size_t i = 0; i < g; i++) {
        r->gpu[i] = window_mean(model_node_gpu_util(nd, i), ctx);
        mem[i] = window_mean(model_node_gpu_mem(nd, i), ctx);
    }
    r->gmem = mean_of(mem, g);
    r->gpu_mean = mean_of(r->gpu, g);
    r->p50 = NAN;
    if (model_node_phase_count(nd) > 0 && phase_stats_kind(model_node_phase_at(nd, 0)) == PHASE_STEP) {
        phase_summary s;
        phase_stats_get_summary(model_node_phase_at(nd, 0), &s);
        if (s.count > 0)
            r->p50 = s.p50_us;
    }
}

static void draw_cell(WINDOW *w, int y, int x, int cw, double util, const pane_ctx *ctx)
{
    double pos = util / 100.0;
    int attr = isnan(util) ? theme_attr(ctx->th, ROLE_DIM) : theme_heat_attr(ctx->th, pos);
    wchar_t ch = pane_heatmap_ramp_char(ctx->view->glyphs, pos);
    for (int i = 0; i < cw; i++)
        pane_common_put_wch(w, y, x + i, isnan(util) && i != cw / 2 ? L' ' : ch, attr);
}

static void draw_header(WINDOW *w, int lw, int cw, int gap, size_t gpus, const pane_ctx *ctx)
{
    int attr = theme_attr(ctx->th, ROLE_LABEL), x = lw;
    char name[16];
    pane_common_put(w, 0, 0, lw - 1, "node", attr);
    pane_common_put(w, 0, x, cw, cw >= 3 ? "cpu" : "c", attr);
    x += cw + gap;
    for (size_t i = 0; i < gpus; i++, x += cw + gap) {
        snprintf(name, sizeof name, cw >= 3 ? "g%zu" : "%zu", i);
        pane_common_put(w, 0, x, cw, name, attr);
    }
    if (gpus > 0) {
        pane_common_put(w, 0, x, cw, cw >= 3 ? "mem" : "m", attr);
        x += cw + gap;
    }
    pane_common_put_right(w, 0, getmaxx(w) - 1, HEAT_FINAL_W - 1, gpus ? "gpu%" : "cpu%", attr);
}

static void draw_node_row(WINDOW *w, int y, const model_node *nd, const heat_row *r,
                          int lw, int cw, int gap, size_t gpus, int mark, int sel,
                          const pane_ctx *ctx)
{
    char lab[80];
    /* Marks readable without color, each in its own column so a selected
     * straggler shows both: '!' straggler, '>' selected. */
    snprintf(lab, sizeof lab, "%c%c%s", mark ? '!' : ' ', sel ? '>' : ' ', model_node_id(nd));
    int attr = theme_attr(ctx->th, mark ? ROLE_ALERT_HIGH : ROLE_DEFAULT);
    pane_common_put(w, y, 0, lw - 1, lab, sel ? theme_attr(ctx->th, ROLE_SELECTED) : attr);
    int x = lw;
    draw_cell(w, y, x, cw, r->cpu, ctx);
    x += cw + gap;
    for (size_t i = 0; i < gpus; i++, x += cw + gap)
        draw_cell(w, y, x, cw, r->gpu[i], ctx);
    if (gpus > 0)
        draw_cell(w, y, x, cw, r->gmem, ctx);
    double fin = gpus ? r->gpu_mean : r->cpu;
    char v[FMT_BUF];
    pane_common_put_right(w, y, getmaxx(w) - 1, HEAT_FINAL_W - 1, fmt_percent(v, sizeof v, fin),
                          isnan(fin) ? theme_attr(ctx->th, ROLE_DIM)
                               : theme_heat_attr(ctx->th, fin / 100.0));
}

static void draw_footer(WINDOW *w, int y, const heat_straggler *s, const model_node *nd,
                        size_t nodes, const pane_ctx *ctx)
{
    char line[200], a[FMT_BUF], b[FMT_BUF];
    if (s->index < 0) {
        pane_common_put(w, y, 0, -1, nodes < 3 ? "straggler check needs 3 or more nodes"
                                         : "no straggler: nodes within 10% of the median",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    if (s->by_steps)
        snprintf(line, sizeof line, "straggler %s: p50 %s vs median %s", model_node_id(nd),
                 fmt_duration(a, sizeof a, s->value), fmt_duration(b, sizeof b, s->median));
    else
        snprintf(line, sizeof line, "straggler %s: gpu %s vs median %s", model_node_id(nd),
                 fmt_percent(a, sizeof a, s->value), fmt_percent(b, sizeof b, s->median));
    pane_common_put(w, y, 0, -1, line, theme_attr(ctx->th, ROLE_ALERT_HIGH));
}

/* What the shades mean, which rows of how many are shown and in which
 * order: "▁▂▃▄▅▆▇█ 0-100%  - none  ! straggler  > selected ... 1-30/256
 * s: worst gpu". */
static void draw_legend(WINDOW *w, int y, size_t first, size_t last, size_t n,
                        heat_sort sort, const pane_ctx *ctx)
{
    int x = 0, dim = theme_attr(ctx->th, ROLE_DIM);
    for (int i = 1; i <= 8; i++, x++) {
        double pos = (i - 0.5) / 8.0;
        pane_common_put_wch(w, y, x, pane_heatmap_ramp_char(ctx->view->glyphs, pos),
                            theme_heat_attr(ctx->th, pos));
    }
    char pos[80];
    int W = getmaxx(w);
    snprintf(pos, sizeof pos, "%zu-%zu/%zu  s: %s", n ? first + 1 : 0, last, n,
             pane_heatmap_sort_name(sort));
    if (x + 12 + (int)strlen(pos) > W)   /* narrow: the row range first */
        snprintf(pos, sizeof pos, "%zu-%zu/%zu", n ? first + 1 : 0, last, n);
    int room = W - x - 2 - (int)strlen(pos);
    if (room > 6)
        pane_common_put(w, y, x, room, " 0-100%  - none  ! straggler  > selected", dim);
    pane_common_put_right(w, y, W - 1, -1, pos, theme_attr(ctx->th, ROLE_LABEL));
}

/* Display position of node index sel in order[0..n). */
static size_t pos_of(const size_t *order, size_t n, size_t sel)
{
    for (size_t i = 0; i < n; i++)
        if (order[i] == sel)
            return i;
    return 0;
}

static void heat_draw(pane *p, WINDOW *w, const pane_ctx *ctx)
{
    werase(w);
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, p->nodes, HEAT_MAX_NODES);
    if (n > HEAT_MAX_NODES)
        n = HEAT_MAX_NODES;
    int H = getmaxy(w), W = getmaxx(w);
    if (n == 0) {
        pane_common_put(w, H / 2, 0, -1, "waiting for data", theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    size_t gpus = 0;
    int lw = 6;
    if (p->t0 != ctx->t0_us || p->t1 != ctx->t1_us) {
        memset(p->row_node, 0, sizeof p->row_node);
        p->t0 = ctx->t0_us;
        p->t1 = ctx->t1_us;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t gen = model_node_generation(p->nodes[i]);
        if (p->row_node[i] != p->nodes[i] || p->row_gen[i] != gen) {
            heat_fill_row(p->nodes[i], ctx, &p->rows[i]);
            p->row_node[i] = p->nodes[i];
            p->row_gen[i] = gen;
        }
        p->gpu_mean[i] = p->rows[i].gpu_mean;
        p->p50[i] = p->rows[i].p50;
        size_t g = model_node_gpu_count(p->nodes[i]);
        gpus = g > gpus ? g : gpus;
        int len = (int)strlen(model_node_id(p->nodes[i])) + 3;
        lw = len > lw ? len : lw;
    }
    gpus = gpus > HEAT_MAX_GPUS ? HEAT_MAX_GPUS : gpus;
    lw = lw > W / 3 ? W / 3 : lw;
    heat_straggler s = pane_heatmap_find_straggler(p->gpu_mean, p->p50, n);
    int cw, gap;
    pane_heatmap_cell_geometry(W, lw, 1 + (int)gpus + (gpus > 0), HEAT_FINAL_W, &cw, &gap);
    draw_header(w, lw, cw, gap, gpus, ctx);
    int legend = H >= 5, footer = H >= 4;
    int fit = H - 1 - legend - footer;
    size_t sel = pane_common_selected(ctx->view, n);
    pane_heatmap_sort_order(p->sort, p->gpu_mean, p->p50, n, p->order);
    p->shown = n;
    p->top = pane_common_scroll_top(p->top, pos_of(p->order, n, sel), n, fit > 0 ? (size_t)fit : 1);
    size_t last = p->top;
    for (int r = 0; r < fit && p->top + (size_t)r < n; r++, last++) {
        size_t i = p->order[p->top + (size_t)r];
        draw_node_row(w, 1 + r, p->nodes[i], &p->rows[i], lw, cw, gap, gpus,
                      (long)i == s.index, i == sel, ctx);
    }
    if (legend) {
        draw_legend(w, H - 2, p->top, last, n, p->sort, ctx);
    } else {
        /* No room for the legend: the row range replaces the header's
         * last label, so "more rows" is never hidden. */
        char range[48];
        snprintf(range, sizeof range, " %zu-%zu/%zu", n ? p->top + 1 : 0, last, n);
        pane_common_put_right(w, 0, W - 1, -1, range, theme_attr(ctx->th, ROLE_LABEL));
    }
    if (footer)
        draw_footer(w, H - 1, &s, s.index >= 0 ? p->nodes[s.index] : NULL, n, ctx);
}

/* Up/Down (j/k), PgUp/PgDn, Home/End move along the shown order, so
 * the cursor walks the sorted rows; `s` changes the order. */
static int heat_on_key(pane *p, int ch, pane_ctx *ctx)
{
    if (ch == 's') {
        p->sort = (heat_sort)((p->sort + 1) % HEAT_SORT_COUNT);
        return 1;
    }
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, NULL, 0);
    if (p->shown != n || n == 0)
        return pane_common_key_select(ch, ctx);
    size_t pos = pos_of(p->order, n, pane_common_selected(ctx->view, n));
    switch (ch) {
    case KEY_UP: case 'k': pos = pos > 0 ? pos - 1 : 0; break;
    case KEY_DOWN: case 'j': pos = pos + 1 < n ? pos + 1 : pos; break;
    case KEY_PPAGE: pos = pos > 10 ? pos - 10 : 0; break;
    case KEY_NPAGE: pos = pos + 10 < n ? pos + 10 : n - 1; break;
    case KEY_HOME: pos = 0; break;
    case KEY_END: pos = n - 1; break;
    default: return 0;
    }
    ctx->view->selected_node = p->order[pos];
    return 1;
}

/* A click on a node row selects that node. */
static int heat_on_click(pane *p, int y, int x, pane_ctx *ctx)
{
    (void)x;
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, NULL, 0);
    size_t pos = p->top + (size_t)(y - 1);
    if (y < 1 || pos >= n || p->shown != n)
        return 0;
    ctx->view->selected_node = p->order[pos];
    return 1;
}

static uint64_t heat_stamp(pane *p, const pane_ctx *ctx)
{
    uint64_t h = pane_common_hash_view(PANE_COMMON_HASH_SEED, ctx);
    size_t n = pane_common_visible_nodes(ctx->m, ctx->view, p->nodes, HEAT_MAX_NODES);
    h = pane_common_hash_u64(h, n);
    h = pane_common_hash_u64(h, (uint64_t)p->sort);
    for (size_t i = 0; i < n && i < HEAT_MAX_NODES; i++)
        h = pane_common_hash_u64(h, model_node_generation(p->nodes[i]));
    return h;
}

static const pane_key heat_keys[] = {
    {"j k  Dn Up", "node", "move along the rows"},
    {"PgUp PgDn", NULL, "page through the nodes"},
    {"Home End", NULL, "first / last row"},
    {"s", "sort", "sort: name, worst GPU,"},
    {"", NULL, "slowest step, stragglers"},
    {NULL, NULL, NULL},
};

const pane_vtbl pane_heatmap_vtbl = {
    .id = "heatmap",
    .title = "Heatmap",
    .create = heat_create,
    .destroy = heat_destroy,
    .draw = heat_draw,
    .on_key = heat_on_key,
    .on_click = heat_on_click,
    .stamp = heat_stamp,
    .keys = heat_keys,
};
