/* rule_gpu: the window-percentile GPU rules — LowGPUUtilization and
 * BatchSize — evaluated per node and GPU in tumbling windows of `window`
 * samples after `patience` samples, as smdebug does (it re-evaluates the
 * latest window each scan; smtop evaluates every window of the held data,
 * so one datapoint = one window). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/rule_impl.h"

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

typedef struct gpu_ctx {
    const model_node *node;
    const char *dev;
    rgrid g;
    rcol col[3];               /* LowGPU: util; BatchSize: cpu, util, mem */
    unsigned char *present;
    rule_vw *vw;
    double best_badness;
    int waiting;               /* data present but no complete window yet */
} gpu_ctx;

static int ctx_load(gpu_ctx *c, const series *const *ss, size_t n)
{
    if (rgrid_plan(ss, n, &c->g) < 0)
        return 1;
    for (size_t k = 0; k < n; k++)
        if (rcol_fill(&c->col[k], ss[k], &c->g) < 0)
            return -1;
    c->present = malloc(c->g.n);
    c->vw = malloc(c->g.n * sizeof *c->vw);
    if (!c->present || !c->vw)
        return -1;
    for (size_t i = 0; i < c->g.n; i++) {
        c->present[i] = 1;
        for (size_t k = 0; k < n; k++)
            if (c->col[k].cnt[i] <= 0)
                c->present[i] = 0;
    }
    return 0;
}

static void ctx_free(gpu_ctx *c, size_t n)
{
    for (size_t k = 0; k < n; k++)
        rcol_free(&c->col[k]);
    free(c->present);
    free(c->vw);
    c->present = NULL;
    c->vw = NULL;
}

static void low_gpu_windows(gpu_ctx *c, const double *p, rule_result *o)
{
    size_t pos = rgrid_skip_patience(&c->g, c->col[0].cnt, c->present, p[3]);
    size_t a, b;
    int any = 0;
    while (next_window(&c->g, c->col[0].cnt, c->present, &pos, p[2], &a, &b)) {
        any = 1;
        o->datapoints++;
        double p95 = window_pct(&c->col[0], c->present, a, b, c->vw, 95);
        /* Same window, already sorted by the call above: qsort of the same
         * input would arrange it identically, so skip it. */
        size_t k = 0;
        for (size_t i = a; i <= b; i++)
            k += c->present[i];
        double p5 = rule_percentile_sorted(c->vw, k, 5);
        double bad;
        char txt[96];
        int64_t t0 = rgrid_cell_t0(&c->g, a), t1 = rgrid_cell_t1(&c->g, b);
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
        rres_example(o, node_id(c->node), c->dev, t0, t1,
                     p95 < p[0] ? p95 : p5, "%s", txt);
        if (bad > c->best_badness) {
            c->best_badness = bad;
            rres_worst(o, node_id(c->node), c->dev, t0, t1);
            rres_message(o, "%s %s %s", node_id(c->node), c->dev, txt);
        }
    }
    if (!any)
        c->waiting = 1;
}

/* params: threshold_p95, threshold_p5, window, patience */
int rule_low_gpu_utilization(const model *m, const double *p, rule_result *o)
{
    int seen = 0, waiting = 0;
    double best = -1;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t gi = 0; gi < node_gpu_count(n); gi++) {
            const series *s = node_gpu_util(n, gi);
            gpu_ctx c = {.node = n, .dev = node_gpu_name(n, gi), .best_badness = best};
            int rc = s ? ctx_load(&c, &s, 1) : 1;
            if (rc == 0) {
                seen = 1;
                low_gpu_windows(&c, p, o);
                waiting |= c.waiting;
                best = c.best_badness;
            }
            ctx_free(&c, 1);
            if (rc < 0)
                return -1;
        }
    }
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rres_message(o, !seen ? "no GPUUtilization metrics"
                     : waiting ? "waiting for patience + one window of GPU samples"
                     : "no GPU samples after patience");
    return 0;
}

static void batch_windows(gpu_ctx *c, const double *p, rule_result *o)
{
    size_t pos = rgrid_skip_patience(&c->g, c->col[1].cnt, c->present, p[4]);
    size_t a, b;
    while (next_window(&c->g, c->col[1].cnt, c->present, &pos, p[3], &a, &b)) {
        o->datapoints++;
        double pc = window_pct(&c->col[0], c->present, a, b, c->vw, 95);
        double pg = window_pct(&c->col[1], c->present, a, b, c->vw, 95);
        double pm = window_pct(&c->col[2], c->present, a, b, c->vw, 95);
        if (!(pc < p[0] && pg < p[1] && pm < p[2]))
            continue;
        int64_t t0 = rgrid_cell_t0(&c->g, a), t1 = rgrid_cell_t1(&c->g, b);
        o->violations++;
        rres_example(o, node_id(c->node), c->dev, t0, t1, pg,
                     "p95 cpu %.1f%% gpu %.1f%% gpu-mem %.1f%%", pc, pg, pm);
        /* worst = the window furthest below all three thresholds */
        double bad = fmin(p[0] - pc, fmin(p[1] - pg, p[2] - pm));
        if (bad > c->best_badness) {
            c->best_badness = bad;
            rres_worst(o, node_id(c->node), c->dev, t0, t1);
            rres_message(o, "%s %s underused: p95 cpu %.1f%%, gpu %.1f%%, "
                         "gpu memory %.1f%%: a larger batch size may help",
                         node_id(c->node), c->dev, pc, pg, pm);
        }
    }
}

/* params: cpu, gpu, gpu_memory, window, patience */
int rule_batch_size(const model *m, const double *p, rule_result *o)
{
    int seen = 0;
    double best = -1;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t gi = 0; gi < node_gpu_count(n); gi++) {
            const series *ss[3] = {node_cpu_total(n), node_gpu_util(n, gi),
                                   node_gpu_mem(n, gi)};
            if (!ss[0] || !ss[1] || !ss[2])
                continue;
            gpu_ctx c = {.node = n, .dev = node_gpu_name(n, gi), .best_badness = best};
            int rc = ctx_load(&c, ss, 3);
            if (rc == 0) {
                seen = 1;
                batch_windows(&c, p, o);
                best = c.best_badness;
            }
            ctx_free(&c, 3);
            if (rc < 0)
                return -1;
        }
    }
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rres_message(o, seen ? "waiting for patience + one window of samples"
                     : "needs CPU, GPU and GPU memory utilization metrics");
    return 0;
}
