/* rule_sysgpu: the window-percentile GPU rules — LowGPUUtilization and
 * BatchSize — evaluated per node and GPU in tumbling windows of `window`
 * samples after `patience` samples, as smdebug does (it re-evaluates the
 * latest window each scan; smtop evaluates every window of the held data,
 * so one datapoint = one window).
 *
 * Incremental: each (node, GPU) unit keeps its windows' percentiles and a
 * cursor per series (rule_cursor.c). After an append, the cells before
 * the first one that can have changed are not read again, the windows
 * ending there are kept, and of the later windows only those whose cells
 * changed get their percentiles recomputed (the sorts were most of the
 * cost). Whatever the cursors cannot bound (older data arriving, a new
 * grid) recomputes the unit from scratch: either way the result is the
 * one a fresh evaluation gives. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"

/* The next tumbling window of `window` samples among present cells, from
 * *pos on: [*a, *b]. 0 when the data ends before the window fills. */
static int next_window(const rgrid *g, const double *cnt,
                       const unsigned char *present, size_t *pos,
                       double window, size_t *a, size_t *b)
{
    double seen = 0;
    size_t i = *pos;
    while (i < g->n && !present[i])
        i++;
    *a = i;
    for (; i < g->n; i++) {
        if (!present[i])
            continue;
        seen += cnt[i];
        if (seen >= window) {
            *b = i;
            *pos = i + 1;
            return 1;
        }
    }
    *pos = g->n;
    return 0;
}

static double window_pct(const rcol *c, const unsigned char *present,
                         size_t a, size_t b, rule_vw *vw, double p)
{
    size_t k = 0;
    for (size_t i = a; i <= b; i++)
        if (present[i]) {
            vw[k].v = c->val[i];
            vw[k].w = c->cnt[i];
            k++;
        }
    return rule_percentile(vw, k, p);
}

/* One window's numbers: LowGPU p95 and p5; BatchSize p95 of CPU, GPU and
 * GPU memory. */
typedef struct gwin {
    size_t a, b;
    double v[3];
} gwin;

/* What one (node, GPU) unit keeps between evaluations. */
typedef struct gunit {
    const series *ss[3];
    rcursor cur[3];
    rgrid g;
    size_t patience_end;
    gwin *win;
    size_t nwin;
    int valid;
} gunit;

typedef struct gstate {
    gunit *u;               /* in evaluation order */
    size_t n, cap;
} gstate;

/* One unit being evaluated. */
typedef struct gpu_ctx {
    const series *const *ss;
    size_t ns;                 /* LowGPU: 1 (util); BatchSize: 3 (cpu, util, mem) */
    size_t seg;                /* the column whose counts make the windows */
    double window, patience;
    rgrid g;
    rcol col[3];
    unsigned char *present;
    rule_vw *vw;
    rspan spans[3 * RCURSOR_SPANS];
    size_t nspans;
    gwin *win;                 /* the windows now */
    size_t nwin;
} gpu_ctx;

static void ctx_free(gpu_ctx *c)
{
    for (size_t k = 0; k < c->ns; k++)
        rule_col_free(&c->col[k]);
    free(c->present);
    free(c->vw);
    free(c->win);
}

void rule_gpu_state_free(void *state)
{
    gstate *st = state;
    if (!st)
        return;
    for (size_t i = 0; i < st->n; i++)
        free(st->u[i].win);
    free(st->u);
    free(st);
}

/* The unit of series ss, moved to position k of the evaluation order:
 * units are visited in the same order every time, so the search stops at
 * once. NULL on OOM. */
static gunit *unit_at(gstate *st, size_t k, const series *const *ss, size_t ns)
{
    for (size_t i = k; i < st->n; i++) {
        if (memcmp(st->u[i].ss, ss, ns * sizeof *ss) != 0)
            continue;
        gunit t = st->u[k];
        st->u[k] = st->u[i];
        st->u[i] = t;
        return &st->u[k];
    }
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        gunit *u = realloc(st->u, cap * sizeof *u);
        if (!u)
            return NULL;
        st->u = u;
        st->cap = cap;
    }
    if (k < st->n)
        st->u[st->n] = st->u[k];
    st->n++;
    memset(&st->u[k], 0, sizeof st->u[k]);
    memcpy(st->u[k].ss, ss, ns * sizeof *ss);
    return &st->u[k];
}

/* 1 when cells [a, b] hold a time a span marks as changed. */
static int window_touched(const gpu_ctx *c, size_t a, size_t b)
{
    int64_t t0 = rule_grid_cell_t0(&c->g, a), t1 = rule_grid_cell_t1(&c->g, b);
    for (size_t i = 0; i < c->nspans; i++)
        if (c->spans[i].t0 < t1 && c->spans[i].t1 > t0)
            return 1;
    return 0;
}

/* The first cell a span touches (g.n when none). */
static size_t first_touched(const gpu_ctx *c)
{
    size_t d = c->g.n;
    for (size_t i = 0; i < c->nspans; i++) {
        int64_t t = c->spans[i].t0;
        if (t <= c->g.t0_us)
            return 0;
        int64_t k = (t - c->g.t0_us) / c->g.width_us;
        if ((uint64_t)k < d)
            d = (size_t)k;
    }
    return d;
}

/* Brings u's cursors to the present. Returns the cell from which the
 * columns are read again — 0 and *keep 0 when u's cache does not hold —
 * and sets *keep to the windows of u that stand unchanged before it. */
static size_t unit_advance(gunit *u, gpu_ctx *c, size_t *keep)
{
    *keep = 0;
    c->nspans = 0;
    int same = u->valid && u->g.t0_us == c->g.t0_us &&
               u->g.width_us == c->g.width_us && c->g.n >= u->g.n;
    for (size_t k = 0; same && k < c->ns; k++) {
        int r = rule_cursor_advance(&u->cur[k], c->spans + c->nspans);
        if (r < 0)
            same = 0;
        else
            c->nspans += (size_t)r;
    }
    size_t d = first_touched(c);
    /* the patience skip read every cell before where it ended */
    if (!same || u->patience_end >= d || u->patience_end >= u->g.n) {
        u->valid = 0;
        u->nwin = 0;
        c->nspans = 0;
        for (size_t k = 0; k < c->ns; k++)
            rule_cursor_init(&u->cur[k], c->ss[k]);
        return 0;
    }
    while (*keep < u->nwin && u->win[*keep].b < d)
        (*keep)++;
    return *keep ? u->win[*keep - 1].b + 1 : u->patience_end;
}

/* Allocates c's columns over the whole grid and fills cells [from, g.n)
 * (the windows read no cell before `from`). -1 on OOM. */
static int ctx_fill(gpu_ctx *c, size_t from)
{
    size_t cells = c->g.n ? c->g.n : 1;
    for (size_t k = 0; k < c->ns; k++) {
        c->col[k].val = malloc(cells * sizeof *c->col[k].val);
        c->col[k].cnt = malloc(cells * sizeof *c->col[k].cnt);
        if (!c->col[k].val || !c->col[k].cnt)
            return -1;
    }
    c->present = malloc(cells);
    c->vw = malloc(cells * sizeof *c->vw);
    if (!c->present || !c->vw)
        return -1;
    for (size_t k = 0; k < c->ns; k++)
        rule_col_fill_from(&c->col[k], c->ss[k], &c->g, from);
    for (size_t i = from; i < c->g.n; i++) {
        c->present[i] = 1;
        for (size_t k = 0; k < c->ns; k++)
            if (c->col[k].cnt[i] <= 0)
                c->present[i] = 0;
    }
    return 0;
}

/* Computes window [a, b]'s numbers into w. */
static void window_numbers(gpu_ctx *c, size_t a, size_t b, gwin *w)
{
    w->a = a;
    w->b = b;
    if (c->ns == 1) {
        w->v[0] = window_pct(&c->col[0], c->present, a, b, c->vw, 95);
        /* Same window, already sorted by the call above: qsort of the same
         * input would arrange it identically, so skip it. */
        size_t k = 0;
        for (size_t i = a; i <= b; i++)
            k += c->present[i];
        w->v[1] = rule_percentile_sorted(c->vw, k, 5);
        w->v[2] = 0;
        return;
    }
    for (size_t k = 0; k < 3; k++)
        w->v[k] = window_pct(&c->col[k], c->present, a, b, c->vw, 95);
}

/* The windows of one unit into c->win: kept, reused or computed. 0, or -1
 * on OOM. */
static int unit_windows(gunit *u, gpu_ctx *c)
{
    size_t keep, from = unit_advance(u, c, &keep);
    if (ctx_fill(c, from) < 0)
        return -1;
    size_t pos = from;
    if (from == 0)
        pos = u->patience_end = rule_grid_skip_patience(&c->g, c->col[c->seg].cnt,
                                                     c->present, c->patience);
    size_t cap = keep + (c->g.n - pos) / (c->window > 1 ? (size_t)c->window : 1) + 2;
    c->win = malloc(cap * sizeof *c->win);
    if (!c->win)
        return -1;
    if (keep)
        memcpy(c->win, u->win, keep * sizeof *c->win);
    c->nwin = keep;
    size_t a, b, old = keep;
    while (next_window(&c->g, c->col[c->seg].cnt, c->present, &pos, c->window, &a, &b)) {
        if (c->nwin == cap) {
            gwin *w = realloc(c->win, (cap *= 2) * sizeof *w);
            if (!w)
                return -1;
            c->win = w;
        }
        while (old < u->nwin && u->win[old].a < a)
            old++;
        gwin *w = &c->win[c->nwin++];
        if (old < u->nwin && u->win[old].a == a && u->win[old].b == b &&
            !window_touched(c, a, b))
            *w = u->win[old];
        else
            window_numbers(c, a, b, w);
    }
    /* the unit now holds these windows */
    gwin *mine = realloc(u->win, (c->nwin ? c->nwin : 1) * sizeof *mine);
    if (!mine)
        return -1;
    memcpy(mine, c->win, c->nwin * sizeof *mine);
    u->win = mine;
    u->nwin = c->nwin;
    u->g = c->g;
    u->valid = 1;
    return 0;
}

/* Evaluates the unit of series ss (st may be NULL: no cache). 1 when the
 * series have no data, 0 with c->win set, -1 on OOM. */
static int unit_eval(gstate *st, size_t k, gpu_ctx *c)
{
    if (rule_grid_plan(c->ss, c->ns, &c->g) < 0)
        return 1;
    gunit fresh = {.valid = 0}, *u = st ? unit_at(st, k, c->ss, c->ns) : &fresh;
    if (!u)
        return -1;
    int rc = unit_windows(u, c);
    if (rc < 0)
        u->valid = 0;   /* half-updated: recompute it next time */
    if (!st)
        free(fresh.win);
    return rc;
}

static gstate *state_get(void **state)
{
    if (!*state)
        *state = calloc(1, sizeof(gstate));
    return *state;
}

typedef struct gpu_out {
    const model_node *node;
    const char *dev;
    double best_badness;
} gpu_out;

static void low_gpu_emit(const gpu_ctx *c, gpu_out *g, const double *p, rule_result *o)
{
    for (size_t j = 0; j < c->nwin; j++) {
        const gwin *w = &c->win[j];
        o->datapoints++;
        double p95 = w->v[0], p5 = w->v[1], bad;
        char txt[96];
        int64_t t0 = rule_grid_cell_t0(&c->g, w->a), t1 = rule_grid_cell_t1(&c->g, w->b);
        if (p95 < p[0]) {
            bad = p[0] - p95;
            snprintf(txt, sizeof txt, "underused: p95 %.1f%% < %g", p95, p[0]);
        } else if (p5 < p[1]) {
            bad = p[1] - p5;
            snprintf(txt, sizeof txt, "fluctuating: p95 %.1f%%, p5 %.1f%% < %g",
                     p95, p5, p[1]);
        } else {
            continue;
        }
        o->violations++;
        rule_result_example(o, model_node_id(g->node), g->dev, t0, t1,
                            p95 < p[0] ? p95 : p5, "%s", txt);
        if (bad > g->best_badness) {
            g->best_badness = bad;
            rule_result_worst(o, model_node_id(g->node), g->dev, t0, t1);
            rule_result_message(o, "%s %s %s", model_node_id(g->node), g->dev, txt);
        }
    }
}

/* params: threshold_p95, threshold_p5, window, patience */
int rule_low_gpu_utilization(const model *m, const double *p, rule_result *o,
                             void **state)
{
    gstate *st = state_get(state);
    int seen = 0, waiting = 0;
    gpu_out g = {.best_badness = -1};
    size_t k = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t gi = 0; gi < model_node_gpu_count(n); gi++) {
            const series *s = model_node_gpu_util(n, gi);
            if (!s)
                continue;
            gpu_ctx c = {.ss = &s, .ns = 1, .seg = 0, .window = p[2], .patience = p[3]};
            int rc = unit_eval(st, k, &c);
            if (rc == 0) {
                k++;
                seen = 1;
                g.node = n;
                g.dev = model_node_gpu_name(n, gi);
                low_gpu_emit(&c, &g, p, o);
                waiting |= c.nwin == 0;
            }
            ctx_free(&c);
            if (rc < 0)
                return -1;
        }
    }
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else if (seen && waiting)
        rule_result_short(o, "%lld GPU samples < patience %g + window %g",
                          (long long)rule_samples_most(m, 1), p[3], p[2]);
    else
        rule_result_message(o, !seen ? "no GPUUtilization metrics"
                            : "no GPU samples after patience");
    return 0;
}

static void batch_emit(const gpu_ctx *c, gpu_out *g, const double *p, rule_result *o)
{
    for (size_t j = 0; j < c->nwin; j++) {
        const gwin *w = &c->win[j];
        o->datapoints++;
        double pc = w->v[0], pg = w->v[1], pm = w->v[2];
        if (!(pc < p[0] && pg < p[1] && pm < p[2]))
            continue;
        int64_t t0 = rule_grid_cell_t0(&c->g, w->a), t1 = rule_grid_cell_t1(&c->g, w->b);
        o->violations++;
        rule_result_example(o, model_node_id(g->node), g->dev, t0, t1, pg,
                            "p95 cpu %.1f%% gpu %.1f%% gpu-mem %.1f%%", pc, pg, pm);
        /* worst = the window furthest below all three thresholds */
        double bad = fmin(p[0] - pc, fmin(p[1] - pg, p[2] - pm));
        if (bad > g->best_badness) {
            g->best_badness = bad;
            rule_result_worst(o, model_node_id(g->node), g->dev, t0, t1);
            rule_result_message(o, "%s %s underused: p95 cpu %.1f%%, gpu %.1f%%, "
                                "gpu memory %.1f%%: a larger batch size may help",
                                model_node_id(g->node), g->dev, pc, pg, pm);
        }
    }
}

/* params: cpu, gpu, gpu_memory, window, patience */
int rule_batch_size(const model *m, const double *p, rule_result *o, void **state)
{
    gstate *st = state_get(state);
    int seen = 0;
    gpu_out g = {.best_badness = -1};
    size_t k = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t gi = 0; gi < model_node_gpu_count(n); gi++) {
            const series *ss[3] = {model_node_cpu_total(n), model_node_gpu_util(n, gi),
                                   model_node_gpu_mem(n, gi)};
            if (!ss[0] || !ss[1] || !ss[2])
                continue;
            gpu_ctx c = {.ss = ss, .ns = 3, .seg = 1, .window = p[3], .patience = p[4]};
            int rc = unit_eval(st, k, &c);
            if (rc == 0) {
                k++;
                seen = 1;
                g.node = n;
                g.dev = model_node_gpu_name(n, gi);
                batch_emit(&c, &g, p, o);
            }
            ctx_free(&c);
            if (rc < 0)
                return -1;
        }
    }
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else if (seen)
        rule_result_short(o, "%lld samples < patience %g + window %g",
                          (long long)rule_samples_most(m, 1), p[4], p[3]);
    else
        rule_result_message(o, "needs CPU, GPU and GPU memory utilization metrics");
    return 0;
}
