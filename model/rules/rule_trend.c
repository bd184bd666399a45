/* rule_trend: GPUMemoryIncrease (the moving average of GPU memory climbs
 * more than `increase` percentage points above its lowest level since
 * patience — a leak or a growing cache) and LoadBalancing (the GPUs of a
 * node have different utilization distributions). Both keep, per GPU,
 * what the cells an append can no longer change gave (GPUMemoryIncrease
 * its walk's state there, LoadBalancing the histogram), so a pass reads
 * only the newer cells. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"

#define LB_BINS 20   /* 5 %-wide utilization buckets */

typedef struct ma_state {
    double sum, w;   /* trailing window */
    size_t a;        /* its first cell */
    double min_ma;
    size_t min_cell;
} ma_state;

/* One violating datapoint, formatted when the result is put together. */
typedef struct mem_ex {
    int64_t t0, t1;
    double ma, rise, min_ma;
} mem_ex;

/* One GPU's walk over its memory cells up to some cell: the moving
 * average and what it found. The walk is the same whether it runs at
 * once or resumes from a copy taken at a cell, so a checkpoint resumes
 * to the doubles a fresh walk gives. */
typedef struct mem_walk {
    ma_state s;
    double seen;
    int64_t datapoints, violations;
    size_t n_ex;
    mem_ex ex[RULE_MAX_EXAMPLES];
    mem_ex best;     /* the first datapoint with the largest rise */
} mem_walk;

static const mem_walk MEM_WALK_START = {.s = {.min_ma = INFINITY}, .best = {.rise = -1}};

/* Walks cells [from, to) of one GPU's memory column (cells from
 * min(w->s.a, from) on are filled). */
static void mem_step(mem_walk *w, const rgrid *g, const rcol *c, const double *p,
                     size_t from, size_t to)
{
    ma_state *s = &w->s;
    for (size_t i = from; i < to; i++) {
        if (c->cnt[i] <= 0)
            continue;
        w->seen += c->cnt[i];
        if (w->seen <= p[2]) {      /* patience */
            s->a = i + 1;
            continue;
        }
        s->sum += c->val[i] * c->cnt[i];
        s->w += c->cnt[i];
        while (s->a < i && (c->cnt[s->a] <= 0 || s->w - c->cnt[s->a] >= p[1])) {
            s->sum -= c->cnt[s->a] > 0 ? c->val[s->a] * c->cnt[s->a] : 0;
            s->w -= c->cnt[s->a] > 0 ? c->cnt[s->a] : 0;
            s->a++;
        }
        if (s->w < p[1])
            continue;
        double ma = s->sum / s->w;
        w->datapoints++;
        if (ma < s->min_ma) {
            s->min_ma = ma;
            s->min_cell = i;
        }
        mem_ex e = {rule_grid_cell_t0(g, s->min_cell), rule_grid_cell_t1(g, i), ma,
                    ma - s->min_ma, s->min_ma};
        if (e.rise > p[0]) {
            w->violations++;
            if (w->n_ex < RULE_MAX_EXAMPLES)
                w->ex[w->n_ex++] = e;
        }
        if (e.rise > w->best.rise)   /* the worst rise, violating or not */
            w->best = e;
    }
}

/* Adds one GPU's walk to o, in GPU order: what a single walk over all
 * GPUs, keeping the first largest rise, would have written. */
static void mem_merge(rule_result *o, const char *node, const char *dev, const mem_walk *w,
                      const double *p, double *best)
{
    o->datapoints += w->datapoints;
    o->violations += w->violations;
    for (size_t k = 0; k < w->n_ex; k++) {
        const mem_ex *e = &w->ex[k];
        rule_result_example(o, node, dev, e->t0, e->t1, e->ma,
                            "moving avg %.1f%%, +%.1f from %.1f%%", e->ma, e->rise, e->min_ma);
    }
    if (w->best.rise > *best) {
        const mem_ex *e = &w->best;
        *best = e->rise;
        rule_result_worst(o, node, dev, e->t0, e->t1);
        rule_result_message(o, "%s %s: GPU memory moving average rose %.1f points "
                            "(%.1f%% -> %.1f%%); fires above %g", node, dev,
                            e->rise, e->min_ma, e->ma, p[0]);
    }
}

/* A GPU's walk kept at its watch's checkpoint cell. */
typedef struct mem_unit {
    const series *key;
    rwatch w;
    mem_walk ck;
} mem_unit;

static void mem_unit_fin(void *u) { rule_watch_free(&((mem_unit *)u)->w); }

/* Walks GPU memory series s into *out, resuming u's checkpoint when it
 * stands. 1 when s has data, 0 when not, -1 on OOM. */
static int mem_gpu(mem_unit *u, const series *s, const double *p, mem_walk *out)
{
    rgrid g;
    if (!s || rule_grid_plan(&s, 1, &g) < 0)
        return 0;
    int r = rule_watch_advance(&u->w, &s, 1, &g);
    if (r < 0)
        return -1;
    if (r == 0)
        u->ck = MEM_WALK_START;
    size_t from = u->w.stable, fill = u->ck.s.a < from ? u->ck.s.a : from;
    size_t cells = g.n ? g.n : 1;
    rcol c = {malloc(cells * sizeof *c.val), malloc(cells * sizeof *c.cnt)};
    if (!c.val || !c.cnt) {
        rule_col_free(&c);
        u->w.valid = 0;
        return -1;
    }
    rule_col_fill_from(&c, s, &g, fill);
    size_t keep = rule_watch_keep(&u->w, &g);
    *out = u->ck;
    mem_step(out, &g, &c, p, from, keep);
    u->ck = *out;
    u->w.stable = keep;
    mem_step(out, &g, &c, p, keep, g.n);
    rule_watch_done(&u->w, &g);
    rule_col_free(&c);
    return 1;
}

void rule_gpu_memory_increase_free(void *state) { rule_units_free(state, mem_unit_fin); }

/* params: increase, window, patience */
int rule_gpu_memory_increase(const model *m, const double *p, rule_result *o, void **state)
{
    int seen = 0;
    double best = -1;
    runits *units = rule_units_get(state, sizeof(mem_unit));
    mem_walk *w = units ? malloc(sizeof *w) : NULL;
    if (!w)
        return -1;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t gi = 0; gi < model_node_gpu_count(n); gi++) {
            const series *s = model_node_gpu_mem(n, gi);
            mem_unit *u = s ? rule_units_of(units, s) : NULL;
            int rc = s && !u ? -1 : mem_gpu(u, s, p, w);
            if (rc < 0) {
                free(w);
                return -1;
            }
            seen |= rc;
            if (rc)
                mem_merge(o, model_node_id(n), model_node_gpu_name(n, gi), w, p, &best);
        }
    }
    free(w);
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else if (seen)
        rule_result_short(o, "%lld GPU memory samples < patience %g + window %g",
                          (long long)rule_samples_most(m, 2), p[2], p[1]);
    else
        rule_result_message(o, "no GPUMemoryUtilization metrics");
    return 0;
}

/* One GPU's histogram kept between evaluations: the counts of the cells
 * before `stable` (which an append cannot change: they lie before the raw
 * boundary's span, and before the 10 s tier's once that tier rolls), so
 * a pass adds the cells from there on. Counts are whole numbers, so the
 * sums are exact in any order and equal a fresh walk's. */
typedef struct lb_unit {
    const series *s;
    rcursor cur;
    rgrid g;
    size_t stable;              /* cells [0, stable) are in pre */
    double pre[LB_BINS], pre_total, pre_seen;
    int t1_rolls;               /* the 10 s tier is full and rolling */
    int valid;
} lb_unit;

/* Brings u to s's present: 1 when its prefix still stands (the columns
 * are then read from u->stable on), 0 when it starts over. */
static int lb_advance(lb_unit *u, const rgrid *g)
{
    rspan sp[RCURSOR_SPANS];
    int r = -1;
    if (u->valid && u->g.t0_us == g->t0_us && u->g.width_us == g->width_us && g->n >= u->g.n)
        r = rule_cursor_advance(&u->cur, sp);
    for (int i = 0; i < r; i++) {
        if (rule_grid_cell_at(g, sp[i].t0) < u->stable)
            r = -1;
        else if (sp[i].kind == RSPAN_T1)
            u->t1_rolls = 1;
    }
    if (r >= 0)
        return 1;
    memset(u->pre, 0, sizeof u->pre);
    u->pre_total = u->pre_seen = 0;
    u->stable = 0;
    u->t1_rolls = 0;
    rule_cursor_init(&u->cur, u->s);
    return 0;
}

/* Adds cells [a, b) of c to h / total, counting only samples past
 * patience (seen runs over every sample). */
static void lb_add(const rcol *c, size_t a, size_t b, double patience, double *h,
                   double *total, double *seen)
{
    for (size_t i = a; i < b; i++) {
        if (c->cnt[i] <= 0)
            continue;
        *seen += c->cnt[i];
        if (*seen <= patience)
            continue;
        int k = (int)(c->val[i] / (100.0 / LB_BINS));
        k = k < 0 ? 0 : k >= LB_BINS ? LB_BINS - 1 : k;
        h[k] += c->cnt[i];
        *total += c->cnt[i];
    }
}

/* Normalised utilization histogram of one GPU after patience; 0 when it
 * has no samples past patience, -1 on OOM. st may be NULL (no cache). */
static int util_hist(runits *st, const series *s, double patience, double *h)
{
    rgrid g;
    for (size_t b = 0; b < LB_BINS; b++)
        h[b] = 0;
    if (!s || rule_grid_plan(&s, 1, &g) < 0)
        return 0;
    lb_unit fresh = {.s = s}, *u = st ? rule_units_of(st, s) : &fresh;
    if (!u)
        return -1;
    lb_advance(u, &g);
    rcol c;
    size_t cells = g.n ? g.n : 1;
    c.val = malloc(cells * sizeof *c.val);
    c.cnt = malloc(cells * sizeof *c.cnt);
    if (!c.val || !c.cnt) {
        rule_col_free(&c);
        u->valid = 0;
        return -1;
    }
    rule_col_fill_from(&c, s, &g, u->stable);
    double total = u->pre_total, seen = u->pre_seen;
    for (size_t b = 0; b < LB_BINS; b++)
        h[b] = u->pre[b];
    lb_add(&c, u->stable, g.n, patience, h, &total, &seen);
    /* move the prefix up to the cells no later append can change */
    int64_t keep = u->cur.raw_from - SERIES_T1_WIDTH_US;
    if (u->t1_rolls && u->cur.t1_from - SERIES_T2_WIDTH_US < keep)
        keep = u->cur.t1_from - SERIES_T2_WIDTH_US;
    size_t to = rule_grid_cell_at(&g, keep);
    if (to > u->stable)
        lb_add(&c, u->stable, to, patience, u->pre, &u->pre_total, &u->pre_seen);
    if (to > u->stable)
        u->stable = to;
    u->g = g;
    u->valid = 1;
    rule_col_free(&c);
    for (size_t b = 0; b < LB_BINS && total > 0; b++)
        h[b] /= total;
    return total > 0;
}

/* Jensen-Shannon distance (base 2): 0 for equal histograms, 1 for disjoint. */
static double js_distance(const double *a, const double *b)
{
    double js = 0;
    for (size_t i = 0; i < LB_BINS; i++) {
        double mid = (a[i] + b[i]) / 2;
        if (a[i] > 0)
            js += 0.5 * a[i] * log2(a[i] / mid);
        if (b[i] > 0)
            js += 0.5 * b[i] * log2(b[i] / mid);
    }
    return js > 0 ? sqrt(js) : 0;
}

#define LB_MAX_GPUS 64

static int balance_node(runits *st, const model_node *n, const double *p,
                        rule_result *o, double *best, int *seen)
{
    static const size_t cap = LB_MAX_GPUS;
    double (*h)[LB_BINS] = malloc(cap * sizeof *h);
    size_t idx[LB_MAX_GPUS], k = 0;
    if (!h)
        return -1;
    for (size_t gi = 0; gi < model_node_gpu_count(n) && k < cap; gi++) {
        int rc = util_hist(st, model_node_gpu_util(n, gi), p[1], h[k]);
        if (rc < 0) {
            free(h);
            return -1;
        }
        *seen |= model_node_gpu_util(n, gi) != NULL;
        if (rc > 0)
            idx[k++] = gi;
    }
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++) {
            double d = js_distance(h[a], h[b]);
            o->datapoints++;
            const char *da = model_node_gpu_name(n, idx[a]), *db = model_node_gpu_name(n, idx[b]);
            if (d > p[0]) {
                o->violations++;
                rule_result_example(o, model_node_id(n), da, 0, 0, d,
                                    "%s vs %s: distance %.2f > %g", da, db, d, p[0]);
            }
            if (d > *best) {
                *best = d;
                rule_result_worst(o, model_node_id(n), da, 0, 0);
                rule_result_message(o, "%s: utilization of %s and %s differs "
                                    "(histogram distance %.2f, fires above %g)",
                                    model_node_id(n), da, db, d, p[0]);
            }
        }
    free(h);
    return 0;
}

void rule_load_balancing_free(void *state) { rule_units_free(state, NULL); }

/* params: threshold, patience */
int rule_load_balancing(const model *m, const double *p, rule_result *o, void **state)
{
    double best = -1;
    int seen = 0;
    runits *st = rule_units_get(state, sizeof(lb_unit));   /* NULL: no cache, still right */
    for (size_t ni = 0; ni < model_node_count(m); ni++)
        if (balance_node(st, model_node_at(m, ni), p, o, &best, &seen) < 0)
            return -1;
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rule_result_message(o, seen ? "needs two GPUs on a node with samples past patience"
                            : "no GPUUtilization metrics");
    return 0;
}
