/* report_rules_json: rule results, device usage and idle GPU-hours into
 * the report object (see report_rules.h for the shape). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/device_usage.h"
#include "model/view/jobsum.h"
#include "model/view/straggler.h"
#include "model/view/verdict.h"
#include "tui/report/report_par.h"
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

/* Every node's device rows and idle GPU-hours, computed a node at a time
 * on the pass's threads (issue 35: they were the last serial work after
 * the pass), each GPU's history read once for both. */
typedef struct usage_table {
    const model *m;
    size_t *start;            /* node i's rows: rows[start[i] .. start[i + 1]) */
    long *count;              /* of which node i filled */
    device_usage *rows;
    idle_gpu_hours *idle;     /* one per node; gpus 0: none */
} usage_table;

static int usage_node(void *ctx, size_t i)
{
    usage_table *t = ctx;
    size_t cap = t->start[i + 1] - t->start[i];
    long k = device_usage_node(t->m, i, t->rows + t->start[i], cap, &t->idle[i]);
    if (k < 0)
        return -1;
    t->count[i] = (size_t)k > cap ? (long)cap : k;
    return 0;
}

static void usage_table_free(usage_table *t)
{
    free(t->start);
    free(t->count);
    free(t->rows);
    free(t->idle);
}

/* Fills t; then t->rows holds every node's rows one after the other, as
 * device_usage_compute gives them (*nrows of them). -1 on OOM. */
static int usage_table_build(usage_table *t, const model *m, size_t threads, size_t *nrows)
{
    size_t nodes = model_node_count(m);
    *t = (usage_table){.m = m};
    t->start = calloc(nodes + 1, sizeof *t->start);
    t->count = calloc(nodes + 1, sizeof *t->count);
    t->idle = calloc(nodes + 1, sizeof *t->idle);
    if (!t->start || !t->count || !t->idle)
        return -1;
    for (size_t i = 0; i < nodes; i++) {
        const model_node *n = model_node_at(m, i);
        t->start[i + 1] = t->start[i] + model_node_cpu_count(n) + model_node_gpu_count(n);
    }
    if (!(t->rows = calloc(t->start[nodes] + 1, sizeof *t->rows)) ||
        report_par_each(nodes, threads, usage_node, t) < 0)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < nodes; i++) {
        memmove(t->rows + k, t->rows + t->start[i], (size_t)t->count[i] * sizeof *t->rows);
        k += (size_t)t->count[i];
    }
    *nrows = k;
    return 0;
}

/* The table's rows as the report's device_usage array (taking them). */
static json_t *usage_json(usage_table *t, size_t nrows, report_stream *st)
{
    device_usage *rows = t->rows;
    t->rows = NULL;
    return report_stream_array_par(st, nrows, usage_part, rows, rows);
}

static int idle_part(const void *rows, size_t i, json_t *arr)
{
    const idle_gpu_hours *ih = (const idle_gpu_hours *)rows + i;
    return json_array_append_new(arr, json_pack("{s:o, s:I, s:f, s:f}",
        "node", jstr(ih->node), "gpus", (json_int_t)ih->gpus,
        "gpu_hours", ih->gpu_hours, "idle_gpu_hours", ih->idle_gpu_hours));
}

/* The nodes with GPUs, in order, to the front of t->idle: how many. */
static size_t idle_rows(usage_table *t)
{
    size_t k = 0;
    for (size_t i = 0; i < model_node_count(t->m); i++)
        if (t->idle[i].gpus > 0)
            t->idle[k++] = t->idle[i];
    return k;
}

/* The report's idle_gpu_hours array (taking the table's rows). */
static json_t *idle_json(usage_table *t, size_t n, report_stream *st)
{
    idle_gpu_hours *ih = t->idle;
    t->idle = NULL;
    return report_stream_array_par(st, n, idle_part, ih, ih);
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

/* NaN is null: JSON has no NaN. */
static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The figures every surface shows of the whole job (model/view/jobsum.h):
 * what `smtop jobs` lists for it, what the header and verdict say. */
static json_t *summary_json(const model *m, const rules *r, const verdict *v)
{
    jobsum s;
    if (jobsum_build(m, r, v, &s) < 0)
        return NULL;
    return json_pack("{s:I, s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "nodes",
                     (json_int_t)s.nodes, "step_p50_us", num_or_null(s.step_p50_us),
                     "step_nodes", (json_int_t)s.step_nodes, "alerts", (json_int_t)s.alerts,
                     "worst_severity", s.worst == RULE_SEV_INFO ? json_null()
                                       : json_string(rules_severity_name(s.worst)),
                     "gpu_hours", num_or_null(s.gpu_hours),
                     "idle_gpu_hours", num_or_null(s.idle_gpu_hours),
                     "gpu_pct", num_or_null(s.gpu_pct), "cpu_pct", num_or_null(s.cpu_pct),
                     "mem_pct", num_or_null(s.mem_pct));
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
 * shows it: {"line", "findings": [{source, severity, text, ...}]}; with it
 * (*summary) the job's summary. */
static json_t *verdict_json(const model *m, const rules *r, const idle_gpu_hours *idle,
                            size_t nidle, json_t **summary)
{
    verdict *v = calloc(1, sizeof *v);
    json_t *out = NULL, *arr = json_array();
    *summary = NULL;
    if (v && arr && verdict_build_idle(m, r, idle, nidle, v) == 0 &&
        (*summary = summary_json(m, r, v))) {
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

int report_rules_add(json_t *obj, const model *m, rules *r, const rule_reports *sm,
                     report_stream *st, size_t threads, sm_err *err)
{
    if (rules_evaluate(r, m) < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory evaluating rules");
    usage_table t;
    size_t nrows = 0;
    json_t *arr = json_array(), *usage = NULL, *idle = NULL, *verdict = NULL, *summary = NULL;
    if (usage_table_build(&t, m, threads, &nrows) == 0) {
        size_t nidle = idle_rows(&t);
        verdict = verdict_json(m, r, t.idle, nidle, &summary);
        usage = usage_json(&t, nrows, st);
        idle = idle_json(&t, nidle, st);
    }
    usage_table_free(&t);
    int ok = arr && usage && idle && verdict && summary;
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
        json_decref(summary);
        json_decref(errs);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory building the rules report");
    }
    json_object_set_new(obj, "rules", arr);
    json_object_set_new(obj, "device_usage", usage);
    json_object_set_new(obj, "idle_gpu_hours", idle);
    json_object_set_new(obj, "verdict", verdict);
    json_object_set_new(obj, "summary", summary);
    json_object_set_new(obj, "straggler", straggler_json(r));
    if (errs)
        json_object_set_new(obj, "rule_output_errors", errs);
    return 0;
}
