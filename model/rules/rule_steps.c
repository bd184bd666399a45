/* rule_steps: the rules over framework events and job phases —
 * StepOutlier, Dataloader, MaxInitializationTime — and the two summary
 * rules that never fire (OverallSystemUsage, OverallFrameworkMetrics). */
#include <stdlib.h>

#include "model/rules/rule_impl.h"
#include "model/steps/step_outliers.h"

#define STEP_MIN_SEEN 100

/* The most outliers one process and phase has among those that fire:
 * the message and the worst span both name that one, so details.node and
 * the message agree. Without a firing one, the span is the slowest outlier. */
typedef struct outlier_pick {
    int64_t worst_dur;   /* slowest outlier step seen (no process fired yet) */
    int64_t fired_max;   /* outliers of the process the message names; -1: none */
} outlier_pick;

static int outlier_phase(const model_node *n, const phase_stats *ph,
                         const double *p, rule_result *o, phase_event *ev,
                         outlier_pick *pick)
{
    step_outliers so;
    step_outliers_find(ph, p[0], ev, PHASE_RECENT_CAP, &so);
    if (so.count <= STEP_MIN_SEEN)
        return 0;
    double thr = so.threshold_us;
    size_t k = so.checked;
    for (size_t i = 0; i < k; i++)
        if ((double)ev[i].dur_us > thr)
            rule_result_example(o, model_node_id(n), phase_stats_label(ph), ev[i].start_us,
                                ev[i].start_us + ev[i].dur_us, (double)ev[i].dur_us,
                                "step %lld took %.1f ms > %.1f ms (mean + %g sigma)",
                                (long long)ev[i].step, ev[i].dur_us / 1e3, thr / 1e3, p[0]);
    int64_t outliers = (int64_t)so.outliers;
    const phase_event *slowest = outliers ? &so.slowest : NULL;
    o->datapoints += (int64_t)k;
    o->violations += outliers;
    int fires = outliers > (int64_t)p[1];
    if (slowest && (fires ? outliers > pick->fired_max
                          : pick->fired_max < 0 && slowest->dur_us > pick->worst_dur)) {
        pick->worst_dur = slowest->dur_us;
        rule_result_worst(o, model_node_id(n), phase_stats_label(ph), slowest->start_us,
                          slowest->start_us + slowest->dur_us);
    }
    if (fires && outliers > pick->fired_max) {
        pick->fired_max = outliers;
        o->status = RULE_TRIGGERED;
        rule_result_message(o, "%s %s: %lld of the last %zu steps slower than "
                            "mean %.1f ms + %g sigma (%.1f ms); fires above %g",
                            model_node_id(n), phase_stats_label(ph), (long long)outliers, k,
                            so.mean_us / 1e3, p[0], so.stddev_us / 1e3, p[1]);
    }
    return 1;
}

/* The step phases of one node or process. */
static void outlier_unit(const model_node *n, const double *p, rule_result *o,
                         phase_event *ev, outlier_pick *pick, int *steps)
{
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *ph = model_node_phase_at(n, i);
        if (phase_stats_kind(ph) != PHASE_STEP)
            continue;
        *steps = 1;
        outlier_phase(n, ph, p, o, ev, pick);
    }
}

/* The most steps any node or process holds in one step phase. */
static int64_t most_steps(const model *m)
{
    int64_t most = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t r = 0; r <= model_node_process_count(n); r++) {
            const model_node *u = r ? model_node_process_at(n, r - 1) : n;
            for (size_t i = 0; i < model_node_phase_count(u); i++) {
                const phase_stats *ph = model_node_phase_at(u, i);
                phase_summary s;
                if (phase_stats_kind(ph) != PHASE_STEP)
                    continue;
                phase_stats_get_summary(ph, &s);
                most = (int64_t)s.count > most ? (int64_t)s.count : most;
            }
        }
    }
    return most;
}

/* params: stddev, n_outliers. Outliers are counted over the retained
 * (newest PHASE_RECENT_CAP) steps; mean and sigma over every step. Each
 * process (trace writer) is judged on its own steps, as smdebug's rule
 * keys step durations by the writer's node id: pooled ranks would hide a
 * slow rank's outliers in the others' spread. */
int rule_step_outlier(const model *m, const double *p, rule_result *o)
{
    phase_event *ev = malloc(PHASE_RECENT_CAP * sizeof *ev);
    if (!ev)
        return -1;
    outlier_pick pick = {.worst_dur = -1, .fired_max = -1};
    int steps = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        if (model_node_process_count(n) == 0)
            outlier_unit(n, p, o, ev, &pick, &steps);
        for (size_t r = 0; r < model_node_process_count(n); r++)
            outlier_unit(model_node_process_at(n, r), p, o, ev, &pick, &steps);
    }
    free(ev);
    if (o->datapoints && o->status != RULE_TRIGGERED) {
        o->status = RULE_OK;
        rule_result_message(o, "%lld outlier steps, at most %g per process and phase allowed",
                            (long long)o->violations, p[1]);
    }
    if (!o->datapoints && steps)
        rule_result_short(o, "%lld steps < the 100 a process needs", (long long)most_steps(m));
    else if (!o->datapoints)
        rule_result_message(o, "no step events (framework profiling off?)");
    return 0;
}

static int ev_start_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Most data-loader events running at once on a node: the number of
 * parallel loader workers (the model keeps no pids, so concurrency of the
 * retained events stands in for smdebug's pid count). -1 on OOM. */
static int loader_concurrency(const model_node *n, phase_event *ev, int64_t *span)
{
    size_t total = 0, cap = PHASE_RECENT_CAP * 2;
    int64_t *edges = malloc(cap * 2 * sizeof *edges);
    if (!edges)
        return -1;
    span[0] = span[1] = 0;
    for (size_t i = 0; i < model_node_phase_count(n); i++) {
        const phase_stats *ph = model_node_phase_at(n, i);
        if (phase_stats_kind(ph) != PHASE_DATALOADER)
            continue;
        size_t k = phase_stats_recent(ph, ev, PHASE_RECENT_CAP);
        for (size_t j = 0; j < k && total < cap; j++, total++) {
            /* ends sort before starts at the same instant: back-to-back
             * events on one worker are not concurrent */
            edges[2 * total] = ev[j].start_us * 2 + 1;
            edges[2 * total + 1] = (ev[j].start_us + ev[j].dur_us) * 2;
        }
    }
    if (total)   /* qsort(NULL, 0, ...) is undefined */
        qsort(edges, total * 2, sizeof *edges, ev_start_cmp);
    int cur = 0, best = 0;
    for (size_t i = 0; i < total * 2; i++) {
        cur += (edges[i] & 1) ? 1 : -1;
        if (cur > best) {
            best = cur;
            span[0] = edges[i] / 2;
        }
    }
    span[1] = total ? edges[total * 2 - 1] / 2 : 0;
    free(edges);
    return best;
}

/* params: min_threshold, max_threshold (percent of cores) */
int rule_dataloader(const model *m, const double *p, rule_result *o)
{
    phase_event *ev = malloc(PHASE_RECENT_CAP * sizeof *ev);
    if (!ev)
        return -1;
    int any_loader = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        int64_t span[2];
        int conc = loader_concurrency(n, ev, span);
        if (conc < 0) {
            free(ev);
            return -1;
        }
        any_loader |= conc > 0;
        size_t cores = model_node_cpu_count(n);
        if (conc == 0 || cores == 0)
            continue;
        double pct = 100.0 * conc / (double)cores;
        o->datapoints++;
        int low = pct < p[0], high = pct > p[1];
        if (low || high || o->violations == 0)
            rule_result_message(o, "%s: %d parallel data-loader workers on %zu cores "
                     "(%.0f%%; expected %g-%g%%)", model_node_id(n), conc,
                                cores, pct, p[0], p[1]);
        if (!low && !high)
            continue;
        o->violations++;
        rule_result_example(o, model_node_id(n), "", span[0], span[1], pct,
                            "%d workers / %zu cores = %.0f%% %s %g%%", conc, cores,
                            pct, low ? "<" : ">", low ? p[0] : p[1]);
        rule_result_worst(o, model_node_id(n), "", span[0], span[1]);
    }
    free(ev);
    if (o->datapoints)
        o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    else
        rule_result_message(o, any_loader ? "needs CPU metrics (core count)"
                            : "no data-loader events");
    return 0;
}
