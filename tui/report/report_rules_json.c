/* report_rules_json: rule results, device usage and idle GPU-hours into
 * the report object (see report_rules.h for the shape). */
#include <math.h>
#include <stdlib.h>

#include "model/rules/device_usage.h"
#include "model/view/straggler.h"
#include "model/view/verdict.h"
#include "tui/report/report_rules.h"
#include "tui/report/report_unit.h"
#include "tui/text/sanitize.h"

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A string from data: jansson rejects invalid UTF-8, so such text is
 * sanitized rather than dropping the whole report. */
static json_t *jstr(const char *s)
{
    json_t *j = json_string(s ? s : "");
    if (j)
        return j;
    char buf[512];
    sanitize_str(s, buf, sizeof buf, -1);
    j = json_string(buf);
    return j ? j : json_string("?");
}

static json_t *examples_json(const rule_result *res)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < res->n_examples; i++) {
        const rule_example *e = &res->examples[i];
        /* The value's key names its unit (cpu_pct, duration_us, ...). */
        json_array_append_new(arr, json_pack("{s:o, s:o, s:I, s:I, s:o, s:o}",
            "node", jstr(e->node), "device", jstr(e->device), "start_us", (json_int_t)e->t0_us,
            "end_us", (json_int_t)e->t1_us, res->example_key ? res->example_key : "value",
            num(e->value), "text", jstr(e->text)));
    }
    return arr;
}

/* OverallSystemUsage, part i: node i's p50/p95/p99/max of every metric.
 * Reads node i alone: parts may be built at once (a settled model). */
static int system_part(const void *m, size_t i, json_t *arr)
{
    const model_node *n = model_node_at(m, i);
    json_t *metrics = json_array();
    for (size_t k = 0; metrics && k < model_node_series_count(n); k++) {
        const series *s = model_node_series_at(n, k);
        series_summary sum;
        series_get_summary(s, &sum);
        const char *unit = report_unit_of(series_dimension(s));
        json_t *o = json_pack("{s:o, s:o, s:o, s:s}", "type", jstr(series_type(s)),
                              "dimension", jstr(series_dimension(s)),
                              "name", jstr(series_name(s)), "unit", unit);
        int bad = !o || report_unit_set(o, "p50", unit, sum.p50) ||
                  report_unit_set(o, "p95", unit, sum.p95) ||
                  report_unit_set(o, "p99", unit, sum.p99) ||
                  report_unit_set(o, "max", unit, sum.max);
        if (bad || json_array_append_new(metrics, o) != 0) {
            if (bad)
                json_decref(o);
            json_decref(metrics);
            metrics = NULL;
        }
    }
    return json_array_append_new(arr, json_pack("{s:o, s:o}", "node", jstr(model_node_id(n)),
                                                "metrics", metrics));
}

/* OverallFrameworkMetrics, part i: time in each framework phase of node
 * i; no element for a node without phases. Safe at once, as system_part. */
static int framework_part(const void *m, size_t i, json_t *arr)
{
    const model_node *n = model_node_at(m, i);
    if (!model_node_phase_count(n))
        return 0;
    json_t *phases = json_array();
    for (size_t k = 0; phases && k < model_node_phase_count(n); k++) {
        const phase_stats *p = model_node_phase_at(n, k);
        phase_summary s;
        phase_stats_get_summary(p, &s);
        if (json_array_append_new(phases, json_pack("{s:o, s:I, s:I}",
                "phase", jstr(phase_stats_label(p)), "count", (json_int_t)s.count,
                "total_us", (json_int_t)llround(s.mean_us * (double)s.count))) != 0) {
            json_decref(phases);
            phases = NULL;
        }
    }
    return json_array_append_new(arr, json_pack("{s:o, s:o}", "node", jstr(model_node_id(n)),
                                                "phases", phases));
}

static json_t *sagemaker_json(const rule_verdict *v)
{
    json_t *o = json_pack("{s:b, s:I, s:I, s:I, s:o}",
        "triggered", v->triggered > 0, "rule_triggered", (json_int_t)v->triggered,
        "violations", (json_int_t)v->violations,
        "datapoints", (json_int_t)v->datapoints, "file", jstr(v->key));
    if (o && v->parameters)
        json_object_set(o, "parameters", v->parameters);
    if (o && v->details)
        json_object_set(o, "details", v->details);
    return o;
}

static json_t *rule_json(const model *m, const rules *r, size_t i,
                         const rule_reports *sm, report_stream *st)
{
    size_t nodes = model_node_count(m);
    const rule_result *res = rules_result_at(r, i);
    json_t *params = json_object();
    for (size_t p = 0; p < rules_param_count(i); p++)
        json_object_set_new(params, rules_param_name(i, p),
                            json_real(rules_param_value(r, i, p)));
    json_t *details = json_pack("{s:o, s:o, s:I, s:I, s:o, s:o}",
        "node", jstr(res->node), "device", jstr(res->device), "start_us", (json_int_t)res->t0_us,
        "end_us", (json_int_t)res->t1_us, "message", jstr(res->message),
        "examples", examples_json(res));
    if (details && i == (size_t)rules_find("OverallSystemUsage"))
        json_object_set_new(details, "nodes",
                            report_stream_array_par(st, nodes, system_part, m, NULL));
    if (details && i == (size_t)rules_find("OverallFrameworkMetrics"))
        json_object_set_new(details, "nodes",
                            report_stream_array_par(st, nodes, framework_part, m, NULL));
    int fired = res->status == RULE_TRIGGERED;
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:s, s:o, s:o, s:o, s:o, s:s}",
        "name", res->name, "status", rules_status_name(res->status),
        "severity", rules_severity_name(res->severity),
        "violations", (json_int_t)res->violations,
        "datapoints", (json_int_t)res->datapoints, "parameters", params,
        "summary", rules_summary_at(i), "details", details,
        "cause", fired ? jstr(res->cause) : json_null(), "fix", fired ? jstr(res->fix) : json_null(),
        "evidence", fired ? jstr(res->evidence) : json_null(), "origin", rules_origin_at(i));
    const rule_verdict *v = rule_reports_find(sm, res->name);
    if (o && v)
        json_object_set_new(o, "sagemaker", sagemaker_json(v));
    return o;
}

static int usage_part(const void *rows, size_t i, json_t *arr)
{
    const device_usage *du = (const device_usage *)rows + i;
    return json_array_append_new(arr, json_pack("{s:o, s:o, s:s, s:I, s:f, s:f, s:f}",
        "node", jstr(du->node), "device", jstr(du->device),
        "kind", du->is_gpu ? "gpu" : "cpu", "samples", (json_int_t)du->samples,
        "above_90_pct", du->pct_high, "between_10_90_pct", du->pct_mid,
        "below_10_pct", du->pct_low));
}

static json_t *usage_json(const model *m, report_stream *st)
{
    /* One pass into a buffer sized for every core and GPU: counting
     * first would classify every device's samples twice. */
    size_t cap = 0;
    for (size_t i = 0; i < model_node_count(m); i++)
        cap += model_node_cpu_count(model_node_at(m, i)) + model_node_gpu_count(model_node_at(m, i));
    device_usage *du = cap ? calloc(cap, sizeof *du) : NULL;
    if (cap && !du)
        return NULL;
    long n = device_usage_compute(m, du, cap);
    if (n < 0) {
        free(du);
        return NULL;
    }
    if ((size_t)n > cap)
        n = (long)cap;
    return report_stream_array(st, (size_t)n, usage_part, du, du);
}

static int idle_part(const void *rows, size_t i, json_t *arr)
{
    const idle_gpu_hours *ih = (const idle_gpu_hours *)rows + i;
    return json_array_append_new(arr, json_pack("{s:o, s:I, s:f, s:f}",
        "node", jstr(ih->node), "gpus", (json_int_t)ih->gpus,
        "gpu_hours", ih->gpu_hours, "idle_gpu_hours", ih->idle_gpu_hours));
}

static json_t *idle_json(const model *m, report_stream *st)
{
    size_t cap = model_node_count(m);   /* at most one row per node */
    idle_gpu_hours *ih = cap ? calloc(cap, sizeof *ih) : NULL;
    if (cap && !ih)
        return NULL;
    long n = device_usage_idle_gpu(m, ih, cap);
    if (n < 0) {
        free(ih);
        return NULL;
    }
    if ((size_t)n > cap)
        n = (long)cap;
    return report_stream_array(st, (size_t)n, idle_part, ih, ih);
}

/* The Straggler rule's worst rank or node (model/view/straggler.h: the
 * one definition the dashboard's heatmap and verdict show too), or null. */
static json_t *straggler_json(const rules *r)
{
    straggler_found f;
    int i = rules_find("Straggler");
    if (i < 0 || !straggler_from_rule(rules_result_at(r, (size_t)i), &f))
        return json_null();
    return json_pack("{s:o, s:s, s:f, s:f, s:f}", "node", jstr(f.id), "metric", "step_p50",
                     "value_us", f.value_us, "median_us", f.median_us,
                     "deviation_pct", f.over_pct);
}

/* A string, or null when empty. */
static json_t *jstr_or_null(const char *s)
{
    return s && s[0] ? jstr(s) : json_null();
}

/* One finding with its advice: cause, fix and evidence in full, why and
 * knob in the verdict line's few words, the rule it tells. */
static json_t *finding_json(const verdict_finding *f)
{
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "source", f->source,
                     "severity", rules_severity_name(f->severity), "text", jstr(f->text),
                     "why", jstr_or_null(f->why), "knob", jstr_or_null(f->knob),
                     "cause", jstr_or_null(f->cause), "fix", jstr_or_null(f->fix),
                     "evidence", jstr_or_null(f->evidence), "rule",
                     f->rule ? json_string(f->rule) : json_null());
}

/* The job's verdict (model/view/verdict.h), as the dashboard's header
 * shows it: {"line", "findings": [{source, severity, text, ...}]}. */
static json_t *verdict_json(const model *m, const rules *r)
{
    verdict *v = calloc(1, sizeof *v);
    json_t *out = NULL, *arr = json_array();
    if (v && arr && verdict_build(m, r, v) == 0) {
        for (size_t i = 0; i < v->n; i++)
            json_array_append_new(arr, finding_json(&v->f[i]));
        char line[1024];
        out = json_pack("{s:o, s:O}", "line", jstr(verdict_format(v, "; ", 0, line, sizeof line)),
                        "findings", arr);
    }
    json_decref(arr);
    free(v);
    return out;
}

int report_rules_add(json_t *obj, const model *m, rules *r,
                     const rule_reports *sm, report_stream *st, sm_err *err)
{
    if (rules_evaluate(r, m) < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory evaluating rules");
    json_t *arr = json_array(), *usage = usage_json(m, st), *idle = idle_json(m, st);
    json_t *verdict = verdict_json(m, r);
    int ok = arr && usage && idle && verdict;
    for (size_t i = 0; ok && i < rules_count(); i++)
        ok = json_array_append_new(arr, rule_json(m, r, i, sm, st)) == 0;
    json_t *errs = NULL;
    if (ok && rule_reports_error_count(sm)) {
        errs = json_array();
        for (size_t i = 0; errs && i < rule_reports_error_count(sm); i++)
            json_array_append_new(errs, jstr(rule_reports_error_at(sm, i)));
        ok = errs != NULL;
    }
    if (!ok) {
        json_decref(arr);
        json_decref(usage);
        json_decref(idle);
        json_decref(verdict);
        json_decref(errs);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory building the rules report");
    }
    json_object_set_new(obj, "rules", arr);
    json_object_set_new(obj, "device_usage", usage);
    json_object_set_new(obj, "idle_gpu_hours", idle);
    json_object_set_new(obj, "verdict", verdict);
    json_object_set_new(obj, "straggler", straggler_json(r));
    if (errs)
        json_object_set_new(obj, "rule_output_errors", errs);
    return 0;
}
