/* jobrow: the derived figures of a job-list row; see jobrow.h. */
#include "model/jobs/jobrow.h"

#include "model/jobs/instance_types.h"
#include "model/series/sampling.h"
#include "model/rules/rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void jobrow_init(jobrow *r, const char *name)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "");
    r->billable_s = -1;
    r->gpu_pct = r->cpu_pct = r->mem_pct = NAN;
    r->step_p50_ms = NAN;
    r->idle_gpu_h = NAN;
}

int jobrow_ended(const jobrow *r)
{
    return !strcmp(r->status, "Completed") || !strcmp(r->status, "Failed") ||
           !strcmp(r->status, "Stopped");
}

double jobrow_train_s(const jobrow *r, double now_s)
{
    if (r->start_s <= 0)
        return NAN;
    double end = r->end_s > 0 ? r->end_s : jobrow_ended(r) ? NAN : now_s;
    return end >= r->start_s ? end - r->start_s : NAN;
}

double jobrow_instance_hours(const jobrow *r, double now_s)
{
    if (r->instance_count <= 0)
        return NAN;
    double s = r->billable_s >= 0 ? r->billable_s : jobrow_train_s(r, now_s);
    return s * r->instance_count / 3600.0;
}

int jobrow_is_fault(const jobrow *r, double now_s, double stale_s)
{
    if (!strcmp(r->status, "Failed") || r->alerts > 0 || r->worst >= RULE_SEV_HIGH)
        return 1;
    if (r->idle_gpu_h >= 1.0)   /* a GPU-hour or more paid for nothing */
        return 1;
    int running = !strcmp(r->status, "InProgress");
    if (running && !isnan(r->gpu_pct) && r->gpu_pct < 5.0)
        return 1;
    double limit = r->stale_after_s > 0 ? r->stale_after_s : stale_s;
    return running && r->updated_s > 0 && now_s - r->updated_s > limit;
}

void jobrow_set_cloudwatch(jobrow *r, double gpu, double cpu, double mem, double fetched_s)
{
    int gpus = 0, vcpus = 0;
    int known = r->groups <= 1 && instance_types_lookup(r->instance_type, &gpus, &vcpus);
    r->raw_metrics = !known;
    r->gpu_pct = known ? (gpus > 0 ? gpu / gpus : NAN) : gpu;
    r->cpu_pct = known && vcpus > 0 ? cpu / vcpus : cpu;
    r->mem_pct = mem;
    r->metrics_source = JOBROW_METRICS_CLOUDWATCH;
    r->metrics_s = fetched_s;
}

int jobrow_add_cw_idle(jobrow *r, const double *values, size_t n, double period_s)
{
    int gpus = 0, vcpus = 0;
    if (r->groups > 1 || !instance_types_lookup(r->instance_type, &gpus, &vcpus) || gpus <= 0)
        return 0;
    double idle_s = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(values[i]) && values[i] / gpus < SAMPLING_BAND_LOW)
            idle_s += period_s * gpus;
    r->idle_gpu_h = (isnan(r->idle_gpu_h) ? 0 : r->idle_gpu_h) + idle_s / 3600.0;
    r->idle_source = JOBROW_METRICS_CLOUDWATCH;
    return 1;
}

void jobrow_take_figures(jobrow *dst, const jobrow *src)
{
    dst->gpu_pct = src->gpu_pct;
    dst->cpu_pct = src->cpu_pct;
    dst->mem_pct = src->mem_pct;
    dst->raw_metrics = src->raw_metrics;
    dst->metrics_source = src->metrics_source;
    dst->metrics_s = src->metrics_s;
    dst->step_p50_ms = src->step_p50_ms;
    dst->step_source = src->step_source;
    dst->idle_gpu_h = src->idle_gpu_h;
    dst->idle_source = src->idle_source;
    dst->idle_through_s = src->idle_through_s;
    memcpy(dst->seen, src->seen, sizeof dst->seen);
    if (src->judged) {
        dst->alerts = src->alerts;
        dst->worst = src->worst;
        dst->judged = 1;
    }
    if (src->data_times) {
        dst->created_s = src->created_s;
        dst->start_s = src->start_s;
        dst->end_s = src->end_s;
        dst->data_times = 1;
    }
}
