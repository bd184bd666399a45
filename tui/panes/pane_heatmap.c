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
#include "model/view/heatview.h"
#include "model/view/straggler.h"
#include "tui/panes/pane_ext.h"

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

void pane_heatmap_sort_values(heat_sort k, const double *gpu_util, const double *step_p50,
                              size_t n, double *out)
{
    double gmed = straggler_median(gpu_util, n), smed = straggler_median(step_p50, n);
    for (size_t i = 0; i < n; i++) {
        if (k == HEAT_SORT_SLOWEST_STEP) {
            out[i] = step_p50[i];
        } else if (k == HEAT_SORT_STRAGGLERS) {
            double a = straggler_deviation(gpu_util[i], gmed, STRAGGLER_GPU_FLOOR),
                   b = straggler_deviation(step_p50[i], smed, STRAGGLER_STEP_FLOOR);
            out[i] = 100.0 * (isnan(a) ? b : isnan(b) ? a : a > b ? a : b);
        } else {
            out[i] = gpu_util[i];
        }
    }
}

void pane_heatmap_sort_order(heat_sort k, const double *gpu_util, const double *step_p50,
                     size_t n, size_t *order)
{
    heat_key *keys = malloc((n ? n : 1) * sizeof *keys);
    double *vals = malloc((n ? n : 1) * sizeof *vals);
    if (!keys || !vals || k == HEAT_SORT_NAME) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        free(keys);
        free(vals);
        return;
    }
    pane_heatmap_sort_values(k, gpu_util, step_p50, n, vals);
    for (size_t i = 0; i < n; i++) {
        keys[i].i = i;
        /* Worst GPU is the lowest utilization: ascending. */
        keys[i].k = k == HEAT_SORT_WORST_GPU && !isnan(vals[i]) ? -vals[i] : vals[i];
    }
    qsort(keys, n, sizeof *keys, cmp_key);
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].i;
    free(keys);
    free(vals);
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

size_t pane_heatmap_pick_rows(size_t *top, size_t sel, size_t n, size_t fit,
                              const unsigned char *flag, size_t *out)
{
    if (n == 0 || fit == 0)
        return 0;
    size_t flagged = 0;
    for (size_t i = 0; i < n; i++)
        flagged += flag[i] != 0;
    size_t keep = flagged < fit - 1 ? flagged : fit - 1;   /* the cursor's row stays */
    *top = pane_common_scroll_top(*top, sel < n ? sel : n - 1, n, fit - keep);
    /* The window grows past fit - keep while the flagged rows it swallows
     * free their reserved lines; flagged rows still outside are added in
     * display order, the first `keep` of them. */
    size_t end = *top + (fit - keep), outside = 0;
    if (end > n)
        end = n;
    for (;;) {
        outside = 0;
        for (size_t i = 0; i < n && outside < keep; i++)
            outside += flag[i] && (i < *top || i >= end);
        if ((end - *top) + outside >= fit)
            break;
        if (end < n)
            end++;
        else if (*top > 0)
            (*top)--;   /* at the end: no blank lines under the rows */
        else
            break;
    }
    size_t k = 0, taken = 0;
    for (size_t i = 0; i < n && k < fit; i++) {
        int in = i >= *top && i < end;
        if (in || (flag[i] && taken < outside)) {
            taken += !in;
            out[k++] = i;
        }
    }
    return k;
}

/* ---- drawing ---------------------------------------------------------- */

#define HEAT_MAX_NODES 1024
#define HEAT_MAX_GPUS HEATVIEW_MAX_GPUS
#define HEAT_FINAL_W 7

typedef heatview_row heat_row;

/* The rows and the straggler come from the loader's snapshot
 * (model/view/heatview.h); the pane keeps only its order and scroll. */
struct pane {
    size_t top;
    heat_sort sort;
    size_t shown;                     /* nodes in order[] at the last draw */
    size_t order[HEAT_MAX_NODES];     /* display position -> node index */
    double vals[HEAT_MAX_NODES];      /* each node's sort value (last column) */
    size_t rows[HEAT_MAX_NODES];      /* display positions drawn, top down */
    size_t nrows;
    char note[64];                    /* the border's note: order, rows shown */
    char full[160];                   /* the system source, then note */
};

static pane *heat_create(void) { return calloc(1, sizeof(pane)); }
static void heat_destroy(pane *p) { free(p); }

static const heatview *heat_view(const pane_ctx *ctx)
{
    return ctx->vd ? viewdata_answer(ctx->vd, &heatview_query) : NULL;
}

static size_t heat_count(const pane_ctx *ctx)
{
    const heatview *hv = heat_view(ctx);
    size_t n = hv ? heatview_count(hv) : 0;
    return n > HEAT_MAX_NODES ? HEAT_MAX_NODES : n;
}

static void draw_cell(WINDOW *w, int y, int x, int cw, double util, const pane_ctx *ctx)
{
    double pos = util / 100.0;
    int attr = isnan(util) ? theme_attr(ctx->th, ROLE_DIM) : theme_heat_attr(ctx->th, pos);
    wchar_t ch = pane_heatmap_ramp_char(ctx->view->glyphs, pos);
    for (int i = 0; i < cw; i++)
        pane_common_put_wch(w, y, x + i, isnan(util) && i != cw / 2 ? L' ' : ch, attr);
}

/* The last column's title: what the rows are sorted by, with the
 * order's arrow ("p50▼"); by name, the node column has the arrow. */
static const char *value_title(heat_sort k, size_t gpus, int ascii, char *buf, size_t cap)
{
    static const char *const t[HEAT_SORT_COUNT] = {"", "", "p50", "dev%"};
    const char *down = ascii ? "v" : "\u25bc", *up = ascii ? "^" : "\u25b2";
    if (k == HEAT_SORT_NAME || k == HEAT_SORT_WORST_GPU)
        snprintf(buf, cap, "%s%s", gpus ? "gpu%" : "cpu%", k == HEAT_SORT_WORST_GPU ? up : "");
    else
        snprintf(buf, cap, "%s%s", t[k], down);
    return buf;
}

static void draw_header(WINDOW *w, int lw, int cw, int gap, size_t gpus, heat_sort sort,
                        const pane_ctx *ctx)
{
    int attr = theme_attr(ctx->th, ROLE_LABEL), x = lw;
    int ascii = ctx->view->glyphs == GLYPHS_ASCII;
    char name[16];
    pane_common_put(w, 0, 0, lw - 1, sort != HEAT_SORT_NAME ? "node" : ascii ? "node^" : "node\u25b2",
                    attr);
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
    pane_common_put_right(w, 0, getmaxx(w) - 1, HEAT_FINAL_W - 1,
                          value_title(sort, gpus, ascii, name, sizeof name),
                          sort != HEAT_SORT_NAME ? attr | (int)A_BOLD : attr);
}

/* The last column's text and colour: the value the rows are sorted by. */
static void draw_value(WINDOW *w, int y, heat_sort sort, double v, const pane_ctx *ctx)
{
    char t[FMT_BUF];
    int dim = theme_attr(ctx->th, ROLE_DIM);
    if (isnan(v))
        snprintf(t, sizeof t, "-");
    else if (sort == HEAT_SORT_SLOWEST_STEP)
        fmt_duration(t, sizeof t, v);
    else if (sort == HEAT_SORT_STRAGGLERS)
        snprintf(t, sizeof t, "%.0f%%", v);
    else
        fmt_percent(t, sizeof t, v);
    int attr = theme_attr(ctx->th, ROLE_DEFAULT);
    if (isnan(v))
        attr = dim;
    else if (sort <= HEAT_SORT_WORST_GPU)
        attr = theme_heat_attr(ctx->th, v / 100.0);
    pane_common_put_right(w, y, getmaxx(w) - 1, HEAT_FINAL_W - 1, t, attr);
}

static void draw_node_row(WINDOW *w, int y, const heat_row *r, double val, heat_sort sort,
                          int lw, int cw, int gap, size_t gpus, int mark, int sel,
                          const pane_ctx *ctx)
{
    char lab[80];
    /* Marks readable without color, each in its own column so a selected
     * straggler shows both: '!' straggler, '>' selected. */
    snprintf(lab, sizeof lab, "%c%c%s", mark ? '!' : ' ', sel ? '>' : ' ', r->id);
    int attr = theme_attr(ctx->th, mark ? ROLE_ALERT_HIGH : ROLE_DEFAULT);
    pane_common_put(w, y, 0, lw - 1, lab, sel ? theme_attr(ctx->th, ROLE_SELECTED) : attr);
    int x = lw;
    draw_cell(w, y, x, cw, r->cpu, ctx);
    x += cw + gap;
    for (size_t i = 0; i < gpus; i++, x += cw + gap)
        draw_cell(w, y, x, cw, r->gpu[i], ctx);
    if (gpus > 0)
        draw_cell(w, y, x, cw, r->gmem, ctx);
    if (sort <= HEAT_SORT_WORST_GPU && !gpus)
        val = r->cpu;
    draw_value(w, y, sort, val, ctx);
}

/* The Straggler rule's result in the snapshot: the one straggler
 * definition (model/view/straggler.h), over the whole job and every node
 * whatever the filter, its threshold the user's. NULL before rules. */
static const rule_result *straggler_rule(const pane_ctx *ctx)
{
    const dash_ext *ext = ctx->ext;
    int i = rules_find("Straggler");
    return ext && ext->snap && i >= 0 ? viewsnap_rule_at(ext->snap, (size_t)i) : NULL;
}

/* 1 when the rule names node id, or one of its writers (a slow rank). */
static int straggles(const pane_ctx *ctx, const rule_result *st, const char *id)
{
    if (!st || st->status != RULE_TRIGGERED)
        return 0;
    size_t node = SIZE_MAX, nn = ctx->vd ? viewdata_node_total(ctx->vd) : 0;
    for (size_t i = 0; i < nn && node == SIZE_MAX; i++)
        if (!strcmp(viewdata_node_id(ctx->vd, i), id))
            node = i;
    for (size_t k = 0; k <= st->n_examples; k++) {
        const char *who = k < st->n_examples ? st->examples[k].node : st->node;
        if (!strcmp(who, id))
            return 1;
        for (size_t w = 0; node != SIZE_MAX && w < viewdata_node_writer_count(ctx->vd, node); w++)
            if (!strcmp(viewdata_node_writer(ctx->vd, node, w), who))
                return 1;
    }
    return 0;
}

static void draw_footer(WINDOW *w, int y, const rule_result *st, const pane_ctx *ctx)
{
    char line[200], a[FMT_BUF], b[FMT_BUF];
    straggler_found f;
    if (!straggler_from_rule(st, &f)) {
        pane_common_put(w, y, 0, -1, st ? st->message : "straggler: evaluating rules",
                        theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    snprintf(line, sizeof line, "straggler %s +%.0f %%: p50 %s vs peers %s", f.id, f.over_pct,
             fmt_duration(a, sizeof a, f.value_us), fmt_duration(b, sizeof b, f.median_us));
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
    const heatview *hv = heat_view(ctx);
    size_t n = heat_count(ctx);
    int H = getmaxy(w), W = getmaxx(w);
    p->note[0] = '\0';
    if (n == 0) {
        pane_common_put(w, H / 2, 0, -1, "waiting for data", theme_attr(ctx->th, ROLE_DIM));
        return;
    }
    size_t gpus = 0;
    int lw = 6;
    for (size_t i = 0; i < n; i++) {
        const heat_row *r = heatview_row_at(hv, i);
        gpus = r->gpus > gpus ? r->gpus : gpus;
        int len = (int)strlen(r->id) + 3;
        lw = len > lw ? len : lw;
    }
    lw = lw > W / 3 ? W / 3 : lw;
    const rule_result *st = straggler_rule(ctx);
    int cw, gap;
    pane_heatmap_cell_geometry(W, lw, 1 + (int)gpus + (gpus > 0), HEAT_FINAL_W, &cw, &gap);
    draw_header(w, lw, cw, gap, gpus, p->sort, ctx);
    int legend = H >= 5, footer = H >= 4;
    int fit = H - 1 - legend - footer;
    size_t sel = pane_common_selected(ctx->view, n);
    const double *gm = heatview_gpu_means(hv), *p50 = heatview_step_p50s(hv);
    pane_heatmap_sort_order(p->sort, gm, p50, n, p->order);
    pane_heatmap_sort_values(p->sort, gm, p50, n, p->vals);
    p->shown = n;
    /* The flagged rows (the straggler, '!') stay in view, however small
     * the pane: the cursor's rows scroll around them. */
    unsigned char flag[HEAT_MAX_NODES];
    for (size_t k = 0; k < n; k++)
        flag[k] = (unsigned char)straggles(ctx, st, heatview_row_at(hv, p->order[k])->id);
    p->nrows = pane_heatmap_pick_rows(&p->top, pos_of(p->order, n, sel), n,
                                      fit > 0 ? (size_t)fit : 0, flag, p->rows);
    for (size_t r = 0; r < p->nrows; r++) {
        size_t i = p->order[p->rows[r]];
        draw_node_row(w, 1 + (int)r, heatview_row_at(hv, i), p->vals[i], p->sort, lw, cw, gap,
                      gpus, flag[p->rows[r]], i == sel, ctx);
    }
    size_t last = p->nrows ? p->rows[p->nrows - 1] + 1 : 0;
    if (legend)
        draw_legend(w, H - 2, p->top, last, n, p->sort, ctx);
    /* The border names the order, and which rows of how many show when
     * the legend has no room: the last column keeps its title. */
    int off = snprintf(p->note, sizeof p->note, "by %s", pane_heatmap_sort_name(p->sort));
    if (!legend && p->nrows < n)
        snprintf(p->note + off, sizeof p->note - (size_t)off, ", %zu of %zu rows", p->nrows, n);
    if (footer)
        draw_footer(w, H - 1, st, ctx);
}

/* The border: CloudWatch's cells say so with their resolution, then the
 * order and the rows shown. */
static const char *heat_title_note(pane *p, const pane_ctx *ctx)
{
    char src[64];
    pane_common_source_note(ctx, src, sizeof src);
    snprintf(p->full, sizeof p->full, "%s%s%s", src, src[0] && p->note[0] ? ", " : "", p->note);
    return p->full[0] ? p->full : NULL;
}

/* Up/Down (j/k), PgUp/PgDn, Home/End move along the shown order, so
 * the cursor walks the sorted rows; `s` changes the order. */
static int heat_on_key(pane *p, int ch, pane_ctx *ctx)
{
    if (ch == 's') {
        p->sort = (heat_sort)((p->sort + 1) % HEAT_SORT_COUNT);
        /* A new order starts at its first row, selected: the worst node
         * by the new key is in view, not scrolled away (issue 26). */
        const heatview *hv = heat_view(ctx);
        size_t n = heat_count(ctx);
        if (hv && n) {
            pane_heatmap_sort_order(p->sort, heatview_gpu_means(hv), heatview_step_p50s(hv), n,
                                    p->order);
            p->shown = n;
            p->top = 0;
            ctx->view->selected_node = p->order[0];
        }
        return 1;
    }
    size_t n = heat_count(ctx);
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
    size_t n = heat_count(ctx);
    if (y < 1 || (size_t)(y - 1) >= p->nrows || p->shown != n)
        return 0;
    ctx->view->selected_node = p->order[p->rows[y - 1]];
    return 1;
}

static uint64_t heat_stamp(pane *p, const pane_ctx *ctx)
{
    uint64_t h = pane_common_hash_view(PANE_COMMON_HASH_SEED, ctx);
    h = pane_common_hash_u64(h, (uint64_t)p->sort);
    /* The straggler marks follow the rules (a :set re-derives them). */
    const rule_result *st = straggler_rule(ctx);
    h = pane_common_hash_u64(h, st ? (uint64_t)st->status * 1000003u + (uint64_t)(st->worst_pct * 100) : 0);
    return pane_common_hash_viewdata(h, ctx);
}

static void heat_request(pane *p, WINDOW *w, const view_state *v, viewdata_req *q)
{
    (void)p, (void)w, (void)v;
    viewdata_ask_for(q, &heatview_query, NULL, 0);
}

static const pane_key heat_keys[] = {
    {"j k  Dn Up", "node", "move along the rows"},
    {"PgUp PgDn", NULL, "page through the nodes"},
    {"Home End", NULL, "first / last row"},
    {"s", "sort", "sort: name, worst GPU,"},
    {"", NULL, "slowest step, stragglers"},
    {NULL, NULL, NULL},
};

/* A job profiled with framework traces only gives this pane's room to
 * the panes that have data. */
static const char *heat_absent(pane *p, const pane_ctx *ctx)
{
    (void)p;
    return pane_common_absent_system(ctx);
}

/* A row per node, and the header, legend and footer. */
static int heat_say(pane *p, const pane_ctx *ctx)
{
    (void)p;
    size_t n = heat_count(ctx);
    return n ? (int)n + 3 : 0;
}

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
    .absent = heat_absent,
    .title_note = heat_title_note,
    .say = heat_say,
    .request = heat_request,
};
