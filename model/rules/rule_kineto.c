/* rule_kineto: the four PyTorch profiler (Kineto) rules of the rule table
 * (GPUIdleHostBound, CommNotOverlapped, KernelLaunchOverhead,
 * GPUMemoryNearCapacity), each run on every rank the model holds
 * (model/core/model_gpu.h) with the predicate of model/rules/rule_kineto_pred.h.
 *
 * A rank is one datapoint: violations count the ranks that crossed, the
 * examples name them (node, "rank N"), and the worst rank is the result's
 * node and device. A rank's figures are already summed over its traces, so
 * a run costs a few comparisons per rank; rules.c re-runs these rules only
 * when a trace was merged (the event generation) or a parameter changed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/rules/rule_kineto_pred.h"
#include "model/core/model_gpu.h"
#include "model/rules/rule_impl.h"

/* Which way is worse for each rule_kineto_pred row's example value: the idle,
 * short-launch and reserved shares grow worse, the overlap shrinks. */
static const int WORSE_UP[] = {1, 0, 1, 1};

static int worse(size_t k, double a, double b)
{
    if (isnan(b))
        return !isnan(a);
    if (isnan(a))
        return 0;
    return WORSE_UP[k] ? a > b : a < b;
}

/* One rank's verdict by rule_kineto_pred's predicate k. */
static int rank_eval(size_t k, const model_gpu_row *row, const double *p, rule_result *one)
{
    const gpu_rule_def *d = gpu_rule_at(k);
    memset(one, 0, sizeof *one);
    one->status = RULE_NO_DATA;
    return d->evaluate(gpu_rank_summary(row->gpu), p, one);
}

/* Adds rank row's verdict one to o; *worst tracks the value of o's worst
 * rank (among the fired ones once one fired). */
static void take(size_t k, rule_result *o, const model_gpu_row *row, const rule_result *one,
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
    if (first_fire || ((fired || o->status != RULE_TRIGGERED) && worse(k, v, *worst)) ||
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

static int kineto_eval(size_t k, const model *m, const double *p, rule_result *o)
{
    size_t n = model_gpu_count(m);
    double worst = NAN;
    char why[sizeof o->message] = "";
    for (size_t i = 0; i < n; i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        rule_result one;
        if (rank_eval(k, row, p, &one) < 0)
            return -1;
        if (one.datapoints == 0) {
            snprintf(why, sizeof why, "%s", one.message);
            continue;
        }
        take(k, o, row, &one, &worst);
    }
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

int rule_gpu_idle_host_bound(const model *m, const double *p, rule_result *o)
{
    return kineto_eval(0, m, p, o);
}

int rule_comm_not_overlapped(const model *m, const double *p, rule_result *o)
{
    return kineto_eval(1, m, p, o);
}

int rule_kernel_launch_overhead(const model *m, const double *p, rule_result *o)
{
    return kineto_eval(2, m, p, o);
}

int rule_gpu_memory_near_capacity(const model *m, const double *p, rule_result *o)
{
    return kineto_eval(3, m, p, o);
}
