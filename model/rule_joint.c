/* rule_joint: CPUBottleneck and IOBottleneck — the share of samples where
 * the GPUs idle (mean GPU utilization below gpu_threshold) while the CPU
 * (total over cores) or the I/O wait is high, at the same sampling tick. */
#include <stdlib.h>
#include <string.h>

#include "model/rule_impl.h"

#define JOINT_MAX_SERIES 64

typedef struct joint_acc {
    double d, v;              /* samples checked / samples in bottleneck */
    size_t run_a, run_len;    /* current run of bottleneck cells */
    size_t best_a, best_len;  /* longest run */
} joint_acc;

/* The I/O-wait series of a node: any dimension mentioning "wait"
 * ("I/OWaitPercentage", "IOWait"); smdebug's reader names it that way and
 * other writers vary in case and prefix. */
static size_t io_wait_series(const model_node *n, const series **out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < model_node_series_count(n) && k < max; i++) {
        const series *s = model_node_series_at(n, i);
        if (strcasestr(series_dimension(s), "wait"))
            out[k++] = s;
    }
    return k;
}

static void acc_cell(joint_acc *a, size_t i, double w, int hit)
{
    a->d += w;
    if (!hit) {
        a->run_len = 0;
        return;
    }
    a->v += w;
    if (a->run_len == 0)
        a->run_a = i;
    a->run_len++;
    if (a->run_len > a->best_len) {
        a->best_len = a->run_len;
        a->best_a = a->run_a;
    }
}

static void add_run_examples(rule_result *o, const model_node *n,
                             const rgrid *g, const rcol *gc, const rcol *oc,
                             const char *what, size_t a, size_t len)
{
    for (size_t i = a; i < a + len && o->n_examples < RULE_MAX_EXAMPLES; i++)
        if (gc->cnt[i] > 0 && oc->cnt[i] > 0)
            rule_result_example(o, model_node_id(n), "", rule_grid_cell_t0(g, i),
                                rule_grid_cell_t1(g, i), oc->val[i],
                                "gpu %.1f%%, %s %.1f%%", gc->val[i], what, oc->val[i]);
}

/* Evaluates one node; 1 when it had data, 0 when not, -1 on OOM. */
static int joint_node(const model_node *n, const double *p, int io,
                      rule_result *o, double *best_pct)
{
    const series *ss[JOINT_MAX_SERIES];
    size_t ng = 0, no;
    for (size_t i = 0; i < model_node_gpu_count(n) && ng < JOINT_MAX_SERIES / 2; i++)
        if (model_node_gpu_util(n, i))
            ss[ng++] = model_node_gpu_util(n, i);
    if (io) {
        no = io_wait_series(n, ss + ng, JOINT_MAX_SERIES - ng);
    } else {
        ss[ng] = model_node_cpu_total(n);
        no = ss[ng] ? 1 : 0;
    }
    rgrid g;
    if (ng == 0 || no == 0 || rule_grid_plan(ss, ng + no, &g) < 0)
        return 0;
    rcol gc, oc;
    int rc = rule_col_fill_mean(&gc, ss, ng, &g);
    if (rc == 0 && rule_col_fill_mean(&oc, ss + ng, no, &g) < 0) {
        rule_col_free(&gc);
        rc = -1;
    }
    unsigned char *present = rc == 0 ? malloc(g.n) : NULL;
    if (rc < 0 || !present) {
        if (rc == 0) {
            rule_col_free(&gc);
            rule_col_free(&oc);
        }
        return -1;
    }
    double *w = gc.cnt; /* weight = the sample count both metrics share */
    for (size_t i = 0; i < g.n; i++) {
        present[i] = gc.cnt[i] > 0 && oc.cnt[i] > 0;
        if (oc.cnt[i] < w[i])
            w[i] = oc.cnt[i];
    }
    joint_acc a = {0};
    for (size_t i = rule_grid_skip_patience(&g, w, present, p[3]); i < g.n; i++)
        if (present[i])
            acc_cell(&a, i, w[i], gc.val[i] < p[1] && oc.val[i] > p[2]);
    const char *what = io ? "io wait" : "cpu";
    if (a.d > 0) {
        double pct = 100.0 * a.v / a.d;
        o->datapoints += (int64_t)a.d;
        o->violations += (int64_t)a.v;
        if (pct > p[0])
            o->status = RULE_TRIGGERED;
        if (pct > *best_pct) {
            *best_pct = pct;
            o->n_examples = 0;
            rule_result_worst(o, model_node_id(n), "", a.best_len ? rule_grid_cell_t0(&g, a.best_a) : 0,
                              a.best_len ? rule_grid_cell_t1(&g, a.best_a + a.best_len - 1) : 0);
            rule_result_message(o, "%s: %.1f%% of samples with gpu < %g%% and %s > %g%% "
                                "(fires above %g%%)", model_node_id(n), pct, p[1], what, p[2], p[0]);
            add_run_examples(o, n, &g, &gc, &oc, what, a.best_a, a.best_len);
        }
    }
    int had = a.d > 0 ? 1 : 2;
    rule_col_free(&gc);
    rule_col_free(&oc);
    free(present);
    return had;
}

static int joint_eval(const model *m, const double *p, rule_result *o, int io)
{
    double best = -1;
    int seen = 0;
    for (size_t i = 0; i < model_node_count(m); i++) {
        int rc = joint_node(model_node_at(m, i), p, io, o, &best);
        if (rc < 0)
            return -1;
        seen |= rc;
    }
    if (o->datapoints > 0 && o->status != RULE_TRIGGERED)
        o->status = RULE_OK;
    if (o->datapoints == 0)
        rule_result_message(o, seen ? "waiting: fewer samples than patience"
                            : io ? "needs GPU utilization and I/O wait metrics"
                          : "needs GPU and CPU utilization metrics");
    return 0;
}

/* params: threshold, gpu_threshold, cpu_threshold, patience */
int rule_cpu_bottleneck(const model *m, const double *p, rule_result *o)
{
    return joint_eval(m, p, o, 0);
}

/* params: threshold, gpu_threshold, io_threshold, patience */
int rule_io_bottleneck(const model *m, const double *p, rule_result *o)
{
    return joint_eval(m, p, o, 1);
}
