/* rule_joint: CPUBottleneck and IOBottleneck — the share of samples where
 * the GPUs idle (mean GPU utilization below gpu_threshold) while the CPU
 * (total over cores) or the I/O wait is high, at the same sampling tick.
 * Each node's walk is kept at the cell an append can no longer change,
 * so a pass reads only the newer cells. */
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"

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

/* A cell of a run of bottleneck cells, as an example would show it. */
typedef struct joint_ex {
    size_t i;
    double gv, ov;
} joint_ex;

/* One node's walk over its cells up to some cell: patience, the counts,
 * and the first cells of the current and of the longest run (all an
 * example list needs, so a resumed walk does not read them again). */
typedef struct joint_walk {
    double seen;              /* samples before patience ran out */
    int past;                 /* patience ran out */
    joint_acc a;
    joint_ex run_ex[RULE_MAX_EXAMPLES], best_ex[RULE_MAX_EXAMPLES];
    size_t n_run, n_best;
    int best_is_run;          /* the longest run is the current one */
} joint_walk;

static void acc_cell(joint_walk *wk, size_t i, double w, int hit, double gv, double ov)
{
    joint_acc *a = &wk->a;
    a->d += w;
    if (!hit) {
        a->run_len = 0;
        return;
    }
    a->v += w;
    if (a->run_len == 0) {
        a->run_a = i;
        if (wk->best_is_run) {
            memcpy(wk->best_ex, wk->run_ex, wk->n_run * sizeof *wk->run_ex);
            wk->n_best = wk->n_run;
            wk->best_is_run = 0;
        }
        wk->n_run = 0;
    }
    a->run_len++;
    if (wk->n_run < RULE_MAX_EXAMPLES)
        wk->run_ex[wk->n_run++] = (joint_ex){i, gv, ov};
    if (a->run_len > a->best_len) {
        a->best_len = a->run_len;
        a->best_a = a->run_a;
        wk->best_is_run = 1;
    }
}

/* Walks cells [from, to) of a node's GPU (gc) and CPU or I/O (oc) columns. */
static void joint_step(joint_walk *wk, const rcol *gc, const rcol *oc, const double *p,
                       size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        int present = gc->cnt[i] > 0 && oc->cnt[i] > 0;
        /* weight = the sample count both metrics share */
        double w = oc->cnt[i] < gc->cnt[i] ? oc->cnt[i] : gc->cnt[i];
        if (!wk->past && wk->seen >= p[3])
            wk->past = 1;
        if (!wk->past) {
            if (present)
                wk->seen += w;
            continue;
        }
        if (present)
            acc_cell(wk, i, w, gc->val[i] < p[1] && oc->val[i] > p[2], gc->val[i], oc->val[i]);
    }
}

/* The examples of the longest run: its cells with both metrics. */
static void add_run_examples(rule_result *o, const model_node *n, const rgrid *g,
                             const joint_walk *wk, const char *what)
{
    const joint_ex *ex = wk->best_is_run ? wk->run_ex : wk->best_ex;
    size_t k = wk->best_is_run ? wk->n_run : wk->n_best;
    for (size_t j = 0; j < k && ex[j].i < wk->a.best_a + wk->a.best_len; j++)
        rule_result_example(o, model_node_id(n), "", rule_grid_cell_t0(g, ex[j].i),
                            rule_grid_cell_t1(g, ex[j].i), ex[j].ov,
                            "gpu %.1f%%, %s %.1f%%", ex[j].gv, what, ex[j].ov);
}

/* A node's walk kept at its watch's checkpoint cell. */
typedef struct joint_unit {
    const model_node *key;
    rwatch w;
    joint_walk ck;
} joint_unit;

static void joint_unit_fin(void *u) { rule_watch_free(&((joint_unit *)u)->w); }

void rule_joint_state_free(void *state) { rule_units_free(state, joint_unit_fin); }

/* Walks the node's cells into *wk, resuming u's checkpoint when it
 * stands: 0 on success, -1 on OOM. */
static int joint_walk_node(joint_unit *u, const series *const *ss, size_t ng, size_t no,
                           const rgrid *g, const double *p, joint_walk *wk)
{
    int r = rule_watch_advance(&u->w, ss, ng + no, g);
    if (r < 0)
        return -1;
    if (r == 0)
        memset(&u->ck, 0, sizeof u->ck);
    size_t from = u->w.stable, cells = g->n ? g->n : 1;
    rcol gc = {malloc(cells * sizeof *gc.val), malloc(cells * sizeof *gc.cnt)};
    rcol oc = {malloc(cells * sizeof *oc.val), malloc(cells * sizeof *oc.cnt)};
    int rc = gc.val && gc.cnt && oc.val && oc.cnt ? 0 : -1;
    rc = rc ? rc : rule_col_fill_mean_from(&gc, ss, ng, g, from);
    rc = rc ? rc : rule_col_fill_mean_from(&oc, ss + ng, no, g, from);
    if (rc == 0) {
        size_t keep = rule_watch_keep(&u->w, g);
        *wk = u->ck;
        joint_step(wk, &gc, &oc, p, from, keep);
        u->ck = *wk;
        u->w.stable = keep;
        joint_step(wk, &gc, &oc, p, keep, g->n);
        rule_watch_done(&u->w, g);
    } else {
        u->w.valid = 0;
    }
    rule_col_free(&gc);
    rule_col_free(&oc);
    return rc;
}

/* Evaluates one node; 1 when it had data, 0 when not, -1 on OOM. */
static int joint_node(runits *units, const model_node *n, const double *p, int io,
                      rule_result *o, double *best_pct, joint_walk *wk)
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
    joint_unit *u = rule_units_of(units, n);
    if (!u || joint_walk_node(u, ss, ng, no, &g, p, wk) < 0)
        return -1;
    const joint_acc *a = &wk->a;
    const char *what = io ? "io wait" : "cpu";
    if (a->d > 0) {
        double pct = 100.0 * a->v / a->d;
        o->datapoints += (int64_t)a->d;
        o->violations += (int64_t)a->v;
        if (pct > p[0])
            o->status = RULE_TRIGGERED;
        if (pct > *best_pct) {
            *best_pct = pct;
            o->n_examples = 0;
            rule_result_worst(o, model_node_id(n), "", a->best_len ? rule_grid_cell_t0(&g, a->best_a) : 0,
                              a->best_len ? rule_grid_cell_t1(&g, a->best_a + a->best_len - 1) : 0);
            rule_result_message(o, "%s: %.1f%% of samples with gpu < %g%% and %s > %g%% "
                                "(fires above %g%%)", model_node_id(n), pct, p[1], what, p[2], p[0]);
            add_run_examples(o, n, &g, wk, what);
        }
    }
    return a->d > 0 ? 1 : 2;
}

static int joint_eval(const model *m, const double *p, rule_result *o, int io, void **state)
{
    double best = -1;
    int seen = 0;
    runits *units = rule_units_get(state, sizeof(joint_unit));
    joint_walk *wk = units ? malloc(sizeof *wk) : NULL;
    if (!wk)
        return -1;
    for (size_t i = 0; i < model_node_count(m); i++) {
        int rc = joint_node(units, model_node_at(m, i), p, io, o, &best, wk);
        if (rc < 0) {
            free(wk);
            return -1;
        }
        seen |= rc;
    }
    free(wk);
    if (o->datapoints > 0 && o->status != RULE_TRIGGERED)
        o->status = RULE_OK;
    if (o->datapoints == 0 && seen)
        rule_result_short(o, "%lld samples < patience %g", (long long)rule_samples_most(m, 1), p[3]);
    else if (o->datapoints == 0)
        rule_result_message(o, io ? "needs GPU utilization and I/O wait metrics"
                          : "needs GPU and CPU utilization metrics");
    return 0;
}

/* params: threshold, gpu_threshold, cpu_threshold, patience */
int rule_cpu_bottleneck(const model *m, const double *p, rule_result *o, void **state)
{
    return joint_eval(m, p, o, 0, state);
}

/* params: threshold, gpu_threshold, io_threshold, patience */
int rule_io_bottleneck(const model *m, const double *p, rule_result *o, void **state)
{
    return joint_eval(m, p, o, 1, state);
}
