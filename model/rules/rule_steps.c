/* rule_steps: StepOutlier, the rule over the step times (Dataloader is
 * rule_dataloader.c's; MaxInitializationTime and the summaries,
 * rule_summary.c's). */
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
