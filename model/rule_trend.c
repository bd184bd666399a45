/* rule_trend: GPUMemoryIncrease (the moving average of GPU memory climbs
 * more than `increase` percentage points above its lowest level since
 * patience — a leak or a growing cache) and LoadBalancing (the GPUs of a
 * node have different utilization distributions). */
#include <math.h>
#include <stdlib.h>

#include "model/rule_impl.h"

#define LB_BINS 20   /* 5 %-wide utilization buckets */

typedef struct ma_state {
    double sum, w;   /* trailing window */
    size_t a;        /* its first cell */
    double min_ma;
    size_t min_cell;
} ma_state;

/* Walks one GPU's memory cells; returns 1 when it reached datapoints, 0
 * when the data ended inside patience + window. */
static int mem_gpu(const model_node *n, const char *dev, const rgrid *g,
                   const rcol *c, const double *p, rule_result *o, double *best)
{
    ma_state s = {.min_ma = INFINITY};
    int reached = 0;
    double seen = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (c->cnt[i] <= 0)
            continue;
        seen += c->cnt[i];
        if (seen <= p[2]) {      /* patience */
            s.a = i + 1;
            continue;
        }
        s.sum += c->val[i] * c->cnt[i];
        s.w += c->cnt[i];
        while (s.a < i && (c->cnt[s.a] <= 0 || s.w - c->cnt[s.a] >= p[1])) {
            s.sum -= c->cnt[s.a] > 0 ? c->val[s.a] * c->cnt[s.a] : 0;
            s.w -= c->cnt[s.a] > 0 ? c->cnt[s.a] : 0;
            s.a++;
        }
        if (s.w < p[1])
            continue;
        reached = 1;
        double ma = s.sum / s.w;
        o->datapoints++;
        if (ma < s.min_ma) {
            s.min_ma = ma;
            s.min_cell = i;
        }
        double rise = ma - s.min_ma;
        int64_t t0 = rgrid_cell_t0(g, s.min_cell), t1 = rgrid_cell_t1(g, i);
        if (rise > p[0]) {
            o->violations++;
            rres_example(o, node_id(n), dev, t0, t1, ma,
                         "moving avg %.1f%%, +%.1f from %.1f%%", ma, rise, s.min_ma);
        }
        if (rise > *best) {   /* the worst rise, violating or not */
            *best = rise;
            rres_worst(o, node_id(n), dev, t0, t1);
            rres_message(o, "%s %s: GPU memory moving average rose %.1f points "
                         "(%.1f%% -> %.1f%%); fires above %g", node_id(n), dev,
                         rise, s.min_ma, ma, p[0]);
        }
    }
    return reached;
}

/* params: increase, window, patience */
int rule_gpu_memory_increase(const model *m, const double *p, rule_result *o)
{
    int seen = 0;
    double best = -1;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t gi = 0; gi < node_gpu_count(n); gi++) {
            const series *s = node_gpu_mem(n, gi);
            rgrid g;
            if (!s || rgrid_plan(&s, 1, &g) < 0)
                continue;
            rcol c;
            if (rcol_fill(&c, s, &g) < 0)
                return -1;
            seen = 1;
            mem_gpu(n, node_gpu_name(n, gi), &g, &c, p, o, &best);
            rcol_free(&c);
        }
    }
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rres_message(o, seen ? "waiting for patience + one window of samples"
                     : "no GPUMemoryUtilization metrics");
    return 0;
}

/* Normalised utilization histogram of one GPU after patience; 0 when it
 * has no samples past patience, -1 on OOM. */
static int util_hist(const series *s, double patience, double *h)
{
    rgrid g;
    rcol c;
    for (size_t b = 0; b < LB_BINS; b++)
        h[b] = 0;
    if (!s || rgrid_plan(&s, 1, &g) < 0)
        return 0;
    if (rcol_fill(&c, s, &g) < 0)
        return -1;
    double seen = 0, total = 0;
    for (size_t i = 0; i < g.n; i++) {
        if (c.cnt[i] <= 0)
            continue;
        seen += c.cnt[i];
        if (seen <= patience)
            continue;
        int b = (int)(c.val[i] / (100.0 / LB_BINS));
        b = b < 0 ? 0 : b >= LB_BINS ? LB_BINS - 1 : b;
        h[b] += c.cnt[i];
        total += c.cnt[i];
    }
    rcol_free(&c);
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

static int balance_node(const model_node *n, const double *p, rule_result *o,
                        double *best, int *seen)
{
    static const size_t cap = LB_MAX_GPUS;
    double (*h)[LB_BINS] = malloc(cap * sizeof *h);
    size_t idx[LB_MAX_GPUS], k = 0;
    if (!h)
        return -1;
    for (size_t gi = 0; gi < node_gpu_count(n) && k < cap; gi++) {
        int rc = util_hist(node_gpu_util(n, gi), p[1], h[k]);
        if (rc < 0) {
            free(h);
            return -1;
        }
        *seen |= node_gpu_util(n, gi) != NULL;
        if (rc > 0)
            idx[k++] = gi;
    }
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++) {
            double d = js_distance(h[a], h[b]);
            o->datapoints++;
            const char *da = node_gpu_name(n, idx[a]), *db = node_gpu_name(n, idx[b]);
            if (d > p[0]) {
                o->violations++;
                rres_example(o, node_id(n), da, 0, 0, d,
                             "%s vs %s: distance %.2f > %g", da, db, d, p[0]);
            }
            if (d > *best) {
                *best = d;
                rres_worst(o, node_id(n), da, 0, 0);
                rres_message(o, "%s: utilization of %s and %s differs "
                             "(histogram distance %.2f, fires above %g)",
                             node_id(n), da, db, d, p[0]);
            }
        }
    free(h);
    return 0;
}

/* params: threshold, patience */
int rule_load_balancing(const model *m, const double *p, rule_result *o)
{
    double best = -1;
    int seen = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++)
        if (balance_node(model_node_at(m, ni), p, o, &best, &seen) < 0)
            return -1;
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rres_message(o, seen ? "needs two GPUs on a node with samples past patience"
                     : "no GPUUtilization metrics");
    return 0;
}
