/* report_json: model + scanner state → the report object of report.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tui/report/report_gpu.h"
#include "tui/report/report.h"
#include "tui/report/report_places.h"
#include "tui/report/report_unit.h"
#include "io/run/job_warn.h"

/* JSON has no NaN: a statistic over no data is null. */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* How far an approximate percentile may be from the exact one: within
 * abs + rel * |value| (both 0 when exact); abs in the value's unit, named
 * in its key ("abs_pct", "abs_us"). */
static json_t *bound_json(const char *unit, double abs_err, double rel_err)
{
    char key[32];
    snprintf(key, sizeof key, "abs_%s", unit);
    return json_pack("{s:f, s:f}", key, abs_err, "rel", rel_err);
}

/* A system metric: its statistics in the dimension's unit, named in the
 * keys (report_unit.h). */
static json_t *metric_json(const series *s)
{
    series_summary sum;
    series_get_summary(s, &sum);
    const char *unit = report_unit_of(series_dimension(s));
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:I}", "type", series_type(s),
                          "dimension", series_dimension(s), "name", series_name(s),
                          "unit", unit, "count", (json_int_t)sum.count);
    if (!o)
        return NULL;
    const char *stat[] = {"min", "max", "mean", "p50", "p95", "p99"};
    const double v[] = {sum.min, sum.max, sum.mean, sum.p50, sum.p95, sum.p99};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        report_unit_set(o, stat[i], unit, v[i]);
    json_object_set_new(o, "exact_percentiles", json_boolean(sum.exact));
    json_object_set_new(o, "percentile_error", bound_json(unit, sum.err_abs, sum.err_rel));
    return o;
}

/* Part i of "nodes": node i with its metrics. Reads node i alone and
 * writes nothing shared: parts may be built at once (a settled model). */
static int node_part(const void *m, size_t i, json_t *arr)
{
    const model_node *n = model_node_at(m, i);
    json_t *metrics = json_array();
    for (size_t k = 0; metrics && k < model_node_series_count(n); k++)
        if (json_array_append_new(metrics, metric_json(model_node_series_at(n, k))) != 0) {
            json_decref(metrics);
            metrics = NULL;
        }
    json_t *extra = json_array();
    for (size_t k = 0; extra && k < model_node_extra_key_count(n); k++)
        if (json_array_append_new(extra, json_string(model_node_extra_key_at(n, k))) != 0) {
            json_decref(extra);
            extra = NULL;
        }
    return json_array_append_new(arr, json_pack("{s:s, s:I, s:I, s:o, s:o}",
                                                "id", model_node_id(n),
                                                "cpus", (json_int_t)model_node_cpu_count(n),
                                                "gpus", (json_int_t)model_node_gpu_count(n),
                                                "metrics", metrics, "extra_keys", extra));
}

static const char *kind_name(phase_kind k)
{
    static const char *const names[] = {"step", "forward", "backward", "dataloader", "other"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "other";
}

/* The rows of one node (process NULL: every writer pooled) or process. */
static int phase_rows(json_t *arr, const model_node *n, const model_node *proc)
{
    const model_node *src = proc ? proc : n;
    for (size_t k = 0; k < model_node_phase_count(src); k++) {
        const phase_stats *p = model_node_phase_at(src, k);
        phase_summary s;
        phase_stats_get_summary(p, &s);
        if (json_array_append_new(arr, json_pack(
            "{s:s, s:o, s:s, s:s, s:I, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:b, s:o}",
            "node", model_node_id(n), "process", proc ? json_string(model_node_id(proc)) : json_null(),
            "phase", phase_stats_label(p),
            "kind", kind_name(phase_stats_kind(p)), "count", (json_int_t)s.count,
            "mean_us", num(s.mean_us), "stddev_us", num(s.stddev_us),
            "min_us", (json_int_t)s.min_us, "max_us", (json_int_t)s.max_us,
            "p50_us", num(s.p50_us), "p95_us", num(s.p95_us), "p99_us", num(s.p99_us),
            "exact_percentiles", s.exact, "percentile_error", bound_json("us", 0, s.err_rel))) != 0)
            return -1;
    }
    return 0;
}

/* Part i of "steps": node i's rows ("process": null), then each writer's;
 * as node_part, safe at once for distinct nodes of a settled model. */
static int steps_part(const void *m, size_t i, json_t *arr)
{
    const model_node *n = model_node_at(m, i);
    int rc = phase_rows(arr, n, NULL);
    for (size_t k = 0; rc == 0 && k < model_node_process_count(n); k++)
        rc = phase_rows(arr, n, model_node_process_at(n, k));
    return rc;
}

static json_t *phases_json(const model *m)
{
    job_phases jp;
    model_get_job_phases(m, &jp);
    if (!jp.has_steps)
        return json_pack("{s:n, s:n, s:n, s:b}", "init_us", "training_us",
                         "finalization_us", "has_steps", 0);
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:b}",
                     "init_us", (json_int_t)jp.init_us,
                     "training_us", (json_int_t)jp.training_us,
                     "finalization_us", (json_int_t)jp.final_us,
                     "first_step_us", (json_int_t)jp.first_step_us,
                     "last_step_end_us", (json_int_t)jp.last_step_end_us,
                     "has_steps", 1);
}

/* "straggler" is filled with the rules (report_rules.h): the Straggler
 * rule is the one definition; here it only keeps its place. */

typedef struct warn_ctx {
    json_t *msgs, *list;
} warn_ctx;

static void warn_line(void *ud, const char *text)
{
    json_array_append_new(((warn_ctx *)ud)->msgs, json_string(text));
}

static void warn_unread(void *ud, const char *key, const char *why)
{
    json_array_append_new(((warn_ctx *)ud)->list, json_pack("{s:s, s:s}", "key", key, "why", why));
}

/* The job's warnings as every surface lists them (io/job/job_warn.h):
 * messages, the noted problems then every file not read (all of them,
 * however many: "no file is dropped in silence"); unread, the same files
 * as {key, why}; a file cut short is truncated when the job has ended. */
static json_t *warnings_json(job *j)
{
    job_warn_counts c;
    job_warn_get_counts(j, &c);
    warn_ctx w = {json_array(), json_array()};
    job_warn_lines(j, job_warn_ended(j, (int64_t)time(NULL) * 1000000), warn_line, warn_unread, &w);
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o}",
                     "corrupt_lines", (json_int_t)c.corrupt_lines,
                     "partial_lines", (json_int_t)c.partial_lines,
                     "skipped_files", (json_int_t)c.skipped_files,
                     "unread_files", (json_int_t)c.unread_files,
                     "traces_read", (json_int_t)c.traces_read,
                     "traces_unread", (json_int_t)c.traces_unread,
                     "lines", (json_int_t)c.lines,
                     "bytes_read", (json_int_t)c.bytes_read, "messages", w.msgs,
                     "unread", w.list);
}

json_t *report_build(job *j, report_stream *st)
{
    pthread_mutex_lock(job_lock(j));
    const model *m = job_model(j);
    size_t n = model_node_count(m);
    json_t *obj = json_pack("{s:i, s:s, s:{s:I, s:I}, s:o, s:o, s:o, s:o}",
                            "schema_version", REPORT_SCHEMA_VERSION,
                            "source", job_describe(j), "time_range",
                            "start_us", (json_int_t)model_first_us(m),
                            "end_us", (json_int_t)model_last_us(m),
                            "nodes", report_stream_array_par(st, n, node_part, m, NULL),
                            "steps", report_stream_array_par(st, n, steps_part, m, NULL),
                            "job_phases", phases_json(m), "straggler", json_null());
    if (obj)
        json_object_set_new(obj, "gpu", report_gpu_json(m, st));
    int64_t iv = 0;
    const char *sys = model_system_source(m, &iv);
    if (obj && sys[0])   /* not Debugger's files: say whose they are */
        json_object_set_new(obj, "system_source", json_pack("{s:s, s:I}", "name", sys,
                                                            "interval_s", (json_int_t)(iv / 1000000)));
    pthread_mutex_unlock(job_lock(j));
    json_t *places = obj ? report_places_json(job_source(j)) : NULL;
    if (places)   /* a job named to the API: where each of its places was read */
        json_object_set_new(obj, "trace_sources", places);
    if (obj)
        json_object_set_new(obj, "warnings", warnings_json(j));
    return obj;
}
