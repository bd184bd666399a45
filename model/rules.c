/* rules: the rule table (names, parameters with SageMaker's defaults, the
 * function that evaluates each) and the rules object holding parameter
 * values and the latest results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/rule_impl.h"

#define PCT(n, d) {.name = (n), .def = (d), .min = 0, .max = 100}
#define COUNT(n, d) {.name = (n), .def = (d), .min = 0, .max = 1e9}
#define WINDOW(n, d) {.name = (n), .def = (d), .min = 1, .max = 1e7}

static const rule_desc RULES[] = {
    {.name = "LowGPUUtilization", .severity = RULE_SEV_HIGH,
     .summary = "per GPU and window: p95 < threshold_p95, or p5 < threshold_p5",
     .n_params = 4, .evaluate = rule_low_gpu_utilization,
     .params = {PCT("threshold_p95", 70), PCT("threshold_p5", 10),
                WINDOW("window", 500), COUNT("patience", 1000)}},
    {.name = "CPUBottleneck", .severity = RULE_SEV_HIGH,
     .summary = "share of samples with GPU < gpu_threshold and CPU > cpu_threshold above threshold %",
     .n_params = 4, .evaluate = rule_cpu_bottleneck,
     .params = {PCT("threshold", 50), PCT("gpu_threshold", 10),
                PCT("cpu_threshold", 90), COUNT("patience", 1000)}},
    {.name = "IOBottleneck", .severity = RULE_SEV_HIGH,
     .summary = "share of samples with GPU < gpu_threshold and I/O wait > io_threshold above threshold %",
     .n_params = 4, .evaluate = rule_io_bottleneck,
     .params = {PCT("threshold", 50), PCT("gpu_threshold", 10),
                PCT("io_threshold", 50), COUNT("patience", 1000)}},
    {.name = "BatchSize", .severity = RULE_SEV_LOW,
     .summary = "per window: p95 of CPU, GPU and GPU memory all below thresholds",
     .n_params = 5, .evaluate = rule_batch_size,
     .params = {PCT("cpu", 70), PCT("gpu", 70), PCT("gpu_memory", 70),
                WINDOW("window", 500), COUNT("patience", 1000)}},
    {.name = "GPUMemoryIncrease", .severity = RULE_SEV_MED,
     .summary = "moving average of GPU memory rises more than increase points",
     .n_params = 3, .evaluate = rule_gpu_memory_increase,
     .params = {PCT("increase", 5), WINDOW("window", 10), COUNT("patience", 1000)}},
    {.name = "StepOutlier", .severity = RULE_SEV_MED,
     .summary = "more than n_outliers steps slower than mean + stddev sigma (after 100 steps)",
     .n_params = 2, .evaluate = rule_step_outlier,
     .params = {{.name = "stddev", .def = 3, .min = 0, .max = 1000},
                COUNT("n_outliers", 10)}},
    {.name = "Straggler", .severity = RULE_SEV_MED,
     .summary = "a rank (or node) whose median TRAIN step is threshold % above its peers'",
     .n_params = 2, .evaluate = rule_straggler,
     .params = {{.name = "threshold", .def = 10, .min = 0, .max = 1e6},
                COUNT("min_steps", 10)}},
    {.name = "LoadBalancing", .severity = RULE_SEV_MED,
     .summary = "distance between GPU utilization histograms above threshold",
     .n_params = 2, .evaluate = rule_load_balancing,
     .params = {{.name = "threshold", .def = 0.5, .min = 0, .max = 1},
                COUNT("patience", 1000)}},
    {.name = "Dataloader", .severity = RULE_SEV_LOW,
     .summary = "parallel data loaders below min % or above max % of cores",
     .n_params = 2, .evaluate = rule_dataloader,
     .params = {{.name = "min_threshold", .def = 70, .min = 0, .max = 100000},
                {.name = "max_threshold", .def = 200, .min = 0, .max = 100000}}},
    {.name = "MaxInitializationTime", .severity = RULE_SEV_MED,
     .summary = "no first step after threshold minutes",
     .n_params = 1, .evaluate = rule_max_initialization_time,
     .params = {{.name = "threshold", .def = 20, .min = 0, .max = 1e6}}},
    {.name = "OverallSystemUsage", .severity = RULE_SEV_INFO,
     .summary = "never fires: per-node p50/p95/p99/max of each metric",
     .n_params = 0, .evaluate = rule_overall_system_usage},
    {.name = "OverallFrameworkMetrics", .severity = RULE_SEV_INFO,
     .summary = "never fires: time in each framework phase",
     .n_params = 0, .evaluate = rule_overall_framework_metrics},
};
#define NRULES (sizeof RULES / sizeof RULES[0])

struct rules {
    double params[NRULES][RULE_MAX_PARAMS];
    rule_result results[NRULES];
    uint64_t generation;
    const model *last_model;
    uint64_t last_model_gen, last_rules_gen;
    int evaluated;
};

static void reset_results(rules *r)
{
    for (size_t i = 0; i < NRULES; i++) {
        memset(&r->results[i], 0, sizeof r->results[i]);
        r->results[i].name = RULES[i].name;
        r->results[i].severity = RULES[i].severity;
        r->results[i].status = RULE_NO_DATA;
    }
}

rules *rules_new(void)
{
    rules *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    for (size_t i = 0; i < NRULES; i++)
        for (size_t p = 0; p < RULES[i].n_params; p++)
            r->params[i][p] = RULES[i].params[p].def;
    reset_results(r);
    for (size_t i = 0; i < NRULES; i++)
        strcpy(r->results[i].message, "not evaluated yet");
    return r;
}

void rules_free(rules *r) { free(r); }

size_t rules_count(void) { return NRULES; }
const char *rules_name_at(size_t i) { return i < NRULES ? RULES[i].name : NULL; }
const char *rules_summary_at(size_t i) { return i < NRULES ? RULES[i].summary : NULL; }

int rules_find(const char *name)
{
    for (size_t i = 0; name && i < NRULES; i++)
        if (strcasecmp(RULES[i].name, name) == 0)
            return (int)i;
    return -1;
}

size_t rules_param_count(size_t i) { return i < NRULES ? RULES[i].n_params : 0; }

const char *rules_param_name(size_t i, size_t p)
{
    return p < rules_param_count(i) ? RULES[i].params[p].name : NULL;
}

double rules_param_default(size_t i, size_t p)
{
    return p < rules_param_count(i) ? RULES[i].params[p].def : 0;
}

double rules_param_value(const rules *r, size_t i, size_t p)
{
    return p < rules_param_count(i) ? r->params[i][p] : 0;
}

int rules_set_param(rules *r, const char *rule, const char *param,
                    double value, sm_err *err)
{
    int i = rules_find(rule);
    if (i < 0)
        return sm_err_set(err, SM_ERR_USAGE, "unknown rule '%s' (try "
                          "LowGPUUtilization, CPUBottleneck, StepOutlier, ...)", rule);
    const rule_desc *d = &RULES[i];
    for (size_t p = 0; p < d->n_params; p++) {
        if (strcasecmp(d->params[p].name, param) != 0)
            continue;
        if (!(value >= d->params[p].min && value <= d->params[p].max))
            return sm_err_set(err, SM_ERR_USAGE, "%s.%s = %g is out of range "
                              "[%g, %g]", d->name, d->params[p].name, value,
                              d->params[p].min, d->params[p].max);
        r->params[i][p] = value;
        r->generation++;
        return 0;
    }
    char names[160] = "";
    for (size_t p = 0; p < d->n_params; p++) {
        strncat(names, p ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, d->params[p].name, sizeof names - strlen(names) - 1);
    }
    return sm_err_set(err, SM_ERR_USAGE, "rule %s has no parameter '%s' "
                      "(parameters: %s)", d->name, param,
                      d->n_params ? names : "none");
}

uint64_t rules_generation(const rules *r) { return r->generation; }

int rules_evaluate(rules *r, const model *m)
{
    if (r->evaluated && r->last_model == m &&
        r->last_model_gen == model_generation(m) &&
        r->last_rules_gen == r->generation)
        return 0;
    reset_results(r);
    int rc = 1;
    for (size_t i = 0; i < NRULES; i++) {
        rule_result *o = &r->results[i];
        if (RULES[i].evaluate(m, r->params[i], o) < 0) {
            memset(o, 0, sizeof *o);
            o->name = RULES[i].name;
            o->severity = RULES[i].severity;
            strcpy(o->message, "out of memory while evaluating");
            rc = -1;
        }
        if (o->datapoints == 0)
            o->status = RULE_NO_DATA;
        else if (o->status == RULE_OK && !o->message[0])
            snprintf(o->message, sizeof o->message, "%lld datapoints checked, "
                     "none crossed the thresholds", (long long)o->datapoints);
    }
    r->evaluated = rc == 1;
    r->last_model = m;
    r->last_model_gen = model_generation(m);
    r->last_rules_gen = r->generation;
    return rc;
}

void rules_invalidate(rules *r) { r->evaluated = 0; }

const rule_result *rules_result_at(const rules *r, size_t i)
{
    return i < NRULES ? &r->results[i] : NULL;
}

size_t rules_triggered_count(const rules *r)
{
    size_t k = 0;
    for (size_t i = 0; i < NRULES; i++)
        k += r->results[i].status == RULE_TRIGGERED;
    return k;
}

const char *rules_status_name(rule_status s)
{
    return s == RULE_TRIGGERED ? "triggered" : s == RULE_OK ? "ok" : "no_data";
}

const char *rules_severity_name(rule_severity s)
{
    static const char *const names[] = {"info", "low", "medium", "high"};
    return (unsigned)s < 4 ? names[s] : "info";
}
