/* rule_kineto: the PyTorch profiler (Kineto) rules of the rule table
 * (GPUIdleHostBound, CommNotOverlapped, KernelLaunchOverhead,
 * GPUMemoryNearCapacity: the rows with evaluate_rank), each run on every
 * rank the model holds (model/core/model_gpu.h) with its row's predicate
 * (rule_kineto_pred.h).
 *
 * A rank is one datapoint: violations count the ranks that crossed, the
 * examples name them (node, "rank N"), and the worst rank is the result's
 * node and device. A rank's figures are already summed over its traces, so
 * a run costs a few comparisons per rank; rules.c re-runs these rules only
 * when a trace was merged (the event generation) or a parameter changed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/core/model_gpu.h"
#include "model/rules/rule_impl.h"

/* Whether example value a is worse than b for d (the row's worse_up). */
static int worse(const rule_desc *d, double a, double b)
{
    if (isnan(b))
        return !isnan(a);
    if (isnan(a))
        return 0;
    return d->worse_up ? a > b : a < b;
}

/* One rank's verdict by d's predicate. */
static int rank_eval(const rule_desc *d, const model_gpu_row *row, const double *p,
                     rule_result *one)
{
    memset(one, 0, sizeof *one);
    one->status = RULE_NO_DATA;
    return d->evaluate_rank(gpu_rank_summary(row->gpu), p, one);
}

/* Adds rank row's verdict one to o; *worst tracks the value of o's worst
 * rank (among the fired ones once one fired). */
static void take(const rule_desc *d, rule_result *o, const model_gpu_row *row, const rule_result *one,
                 double *worst)
{
    int fired = one->status == RULE_TRIGGERED;
    double v = one->n_examples ? one->examples[0].value : NAN;
    o->datapoints++;
    o->violations += fired;
    if (fired)
        rule_result_example(o, row->node, row->process, one->t0_us, one->t1_us, v, "%s",
                            one->message);
    /* The first fired rank displaces any ok one; then the worse value wins. */
    int first_fire = fired && o->status != RULE_TRIGGERED;
    if (first_fire || ((fired || o->status != RULE_TRIGGERED) && worse(d, v, *worst)) ||
        o->datapoints == 1) {
        *worst = v;
        rule_result_worst(o, row->node, row->process, one->t0_us, one->t1_us);
        rule_result_message(o, "%s: %.150s", row->process, one->message);
    }
    if (fired)
        o->status = RULE_TRIGGERED;
    else if (o->status != RULE_TRIGGERED)
        o->status = RULE_OK;
}

int rule_kineto_run(const rule_desc *d, const model *m, const double *p, rule_result *o)
{
    size_t n = model_gpu_count(m);
    double worst = NAN;
    char why[sizeof o->message] = "", worst_text[sizeof o->message] = "";
    for (size_t i = 0; i < n; i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        rule_result one;
        if (rank_eval(d, row, p, &one) < 0)
            return -1;
        if (one.datapoints == 0) {
            snprintf(why, sizeof why, "%s", one.message);
            continue;
        }
        double before = worst;
        take(d, o, row, &one, &worst);
        if (memcmp(&before, &worst, sizeof worst) || !worst_text[0])
            snprintf(worst_text, sizeof worst_text, "%.40s: %.150s", row->process, one.message);
    }
    if (o->status == RULE_TRIGGERED)   /* the worst rank's figures, where */
        rule_result_cause(o, "%.150s on %s (%lld of %lld ranks)", worst_text, o->node,
                          (long long)o->violations, (long long)o->datapoints);
    if (o->datapoints == 0)
        rule_result_message(o, "%s", n ? why : "no PyTorch profiler traces");
    else if (o->datapoints > 1) {
        char head[sizeof o->message];
        snprintf(head, sizeof head, "%s", o->message);
        rule_result_message(o, "%lld of %lld ranks; worst %.150s", (long long)o->violations,
                            (long long)o->datapoints, head);
    }
    return 0;
}
