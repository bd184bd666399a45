/* jobs_json: the job list as JSON; see jobs_json.h. */
#include "tui/report/jobs_json.h"

#include <math.h>
#include <string.h>

#include "io/source/source_job.h"

/* A figure, or null when unknown. */
static json_t *num(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A time in epoch seconds, or null when unknown (0). */
static json_t *when(double s)
{
    return s > 0 ? json_real(s) : json_null();
}

static json_t *str_or_null(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

static const char *source_name(int s)
{
    return s == JOBROW_METRICS_DEBUGGER ? "debugger"
           : s == JOBROW_METRICS_CLOUDWATCH ? "cloudwatch" : NULL;
}

/* The places r is read from when read as their union, in their folders'
 * order, as report --json's trace_sources[] gives them (report_places.c),
 * with what the list's last read of each found (jobs_files); [] when the
 * job is read from one folder, or not described. */
static json_t *places_json(const jobrow *r)
{
    jobplace pl[JOBPLACE_KINDS];
    size_t n = r->described && source_job_has_traces(r)
                   ? jobplace_list(&r->places, r->name, r->profiler_url, jobrow_ended(r), pl,
                                   JOBPLACE_KINDS)
                   : 0;
    /* the union keeps its mounts in their folders' order, and so does
     * the report that lists them */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(jobplace_mount(pl[j - 1].kind),
                                           jobplace_mount(pl[j].kind)) > 0; j--) {
            jobplace t = pl[j];
            pl[j] = pl[j - 1];
            pl[j - 1] = t;
        }
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++) {
        const jobplace_seen *s = &r->seen[pl[i].kind];
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:o}",
                                             "place", jobplace_name(pl[i].kind),
                                             "label", jobplace_label(pl[i].kind),
                                             "url", s->at_alt ? pl[i].alt : pl[i].url,
                                             "read_as", jobplace_mount(pl[i].kind),
                                             "status", jobplace_status_name(s->status),
                                             "objects", (json_int_t)s->objects,
                                             "error", str_or_null(s->error)));
    }
    return arr;
}

static json_t *row_json(const jobrow *r, double now)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "name", json_string(r->name));
    json_object_set_new(o, "status", str_or_null(r->status));
    json_object_set_new(o, "secondary_status", str_or_null(r->secondary));
    json_object_set_new(o, "failure_reason", str_or_null(r->failure));
    json_object_set_new(o, "instance_type", str_or_null(r->instance_type));
    json_object_set_new(o, "instance_count",
                        r->instance_count > 0 ? json_integer(r->instance_count) : json_null());
    json_object_set_new(o, "instance_groups", json_integer(r->groups));
    json_object_set_new(o, "created_s", when(r->created_s));
    json_object_set_new(o, "training_start_s", when(r->start_s));
    json_object_set_new(o, "training_end_s", when(r->end_s));
    json_object_set_new(o, "training_s", num(jobrow_train_s(r, now)));
    json_object_set_new(o, "billable_s", r->billable_s >= 0 ? json_real(r->billable_s)
                                                            : json_null());
    json_object_set_new(o, "instance_hours", num(jobrow_instance_hours(r, now)));
    json_object_set_new(o, "gpu_pct", num(r->gpu_pct));
    json_object_set_new(o, "cpu_pct", num(r->cpu_pct));
    json_object_set_new(o, "mem_pct", num(r->mem_pct));
    json_object_set_new(o, "metrics_raw", json_boolean(r->raw_metrics));
    json_object_set_new(o, "metrics_source", str_or_null(source_name(r->metrics_source)));
    json_object_set_new(o, "step_p50_ms", num(r->step_p50_ms));
    json_object_set_new(o, "step_source", str_or_null(r->step_source == JOBROW_STEPS_SMDEBUG ? "smdebug"
                                                      : r->step_source == JOBROW_STEPS_KINETO ? "kineto"
                                                                                              : NULL));
    json_object_set_new(o, "alerts", json_integer(r->alerts));
    json_object_set_new(o, "idle_gpu_hours", num(r->idle_gpu_h));
    json_object_set_new(o, "idle_gpu_source", str_or_null(source_name(r->idle_source)));
    json_object_set_new(o, "profiler_output", str_or_null(r->profiler_url));
    json_object_set_new(o, "described", json_boolean(r->described));
    json_object_set_new(o, "trace_sources", places_json(r));
    return o;
}

json_t *jobs_json_build(const joblist *l, const uint32_t *idx, size_t n,
                        const char *source, double now_s)
{
    json_t *root = json_object(), *jobs = json_array();
    if (!root || !jobs) {
        json_decref(root);
        json_decref(jobs);
        return NULL;
    }
    json_object_set_new(root, "schema_version", json_integer(JOBS_SCHEMA_VERSION));
    json_object_set_new(root, "source", json_string(source));
    json_object_set_new(root, "now_s", json_real(now_s));
    for (size_t i = 0; i < n; i++) {
        json_t *row = row_json(joblist_at(l, idx[i]), now_s);
        if (!row || json_array_append_new(jobs, row) != 0) {
            json_decref(root);
            json_decref(jobs);
            return NULL;
        }
    }
    json_object_set_new(root, "jobs", jobs);
    return root;
}
