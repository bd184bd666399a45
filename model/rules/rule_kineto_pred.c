/* rule_kineto_pred: the Kineto rules as predicates over a rank's summary (see
 * rule_kineto_pred.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/rules/rule_kineto_pred.h"

/* The steps' time span, for the example's t0 / t1 (0 when no steps). */
static void span_of(const gpu_summary *s, int64_t *t0, int64_t *t1)
{
    *t0 = *t1 = 0;
    if (s->n_steps) {
        *t0 = s->step_rows[0].start_us;
        *t1 = s->step_rows[s->n_steps - 1].start_us + s->step_rows[s->n_steps - 1].dur_us;
    }
}

static void decide(rule_result *o, int fired, double value, const gpu_summary *s,
                    const char *text)
{
    int64_t t0, t1;
    span_of(s, &t0, &t1);
    o->status = fired ? RULE_TRIGGERED : RULE_OK;
    o->violations = fired;
    o->datapoints = 1;
    o->t0_us = t0;
    o->t1_us = t1;
    rule_result_example(o, "", "", t0, t1, value, "%s", text);
    rule_result_message(o, "%s", text);
}

int rule_kineto_pred_idle_host_bound(const gpu_summary *s, const double *p, rule_result *o)
{
    int64_t idle = s->host_wait_us + s->kernel_wait_us + s->other_idle_us;
    if (!s->has_gpu || s->span_us <= 0 || idle <= 0) {
        rule_result_message(o, "no GPU idle time in the Kineto traces");
        return 0;
    }
    double host = 100.0 * (double)s->host_wait_us / (double)idle;
    char text[96];
    snprintf(text, sizeof text, "GPU idle %.1f%% of %.1f ms, %.0f%% waiting for the host",
             s->idle_pct, (double)s->span_us / 1000, host);
    decide(o, s->idle_pct > p[0] && host > p[1], s->idle_pct, s, text);
    return 0;
}

int rule_kineto_pred_comm_not_overlapped(const gpu_summary *s, const double *p, rule_result *o)
{
    if (!s->has_gpu || !s->has_comm || s->span_us <= 0) {
        rule_result_message(o, "no GPU communication in the Kineto traces");
        return 0;
    }
    double share = 100.0 * (double)s->comm_us / (double)s->span_us;
    char text[96];
    snprintf(text, sizeof text, "communication %.1f%% of GPU time, %.1f%% overlapped",
             share, s->comm_comp_overlap_pct);
    decide(o, share >= p[1] && s->comm_comp_overlap_pct < p[0], s->comm_comp_overlap_pct, s,
            text);
    return 0;
}

int rule_kineto_pred_launch_overhead(const gpu_summary *s, const double *p, rule_result *o)
{
    if (s->launch.count <= 0 || (double)s->launch.count < p[1]) {
        rule_result_message(o, "%lld kernel launches, fewer than min_launches %.0f",
                            (long long)s->launch.count, p[1]);
        return 0;
    }
    double share = 100.0 * (double)s->launch.short_kernels / (double)s->launch.count;
    char text[96];
    snprintf(text, sizeof text, "%.1f%% of %lld kernels run shorter than their launch call",
             share, (long long)s->launch.count);
    decide(o, share > p[0], share, s, text);
    return 0;
}

int rule_kineto_pred_memory_near_capacity(const gpu_summary *s, const double *p, rule_result *o)
{
    double worst = -1;
    int64_t dev = -1;
    for (size_t i = 0; i < s->memory.n_peaks; i++) {
        int64_t d = s->memory.peaks[i].device;
        if (d < 0 || (size_t)d >= s->memory.n_devices || s->memory.total_global_mem[d] <= 0)
            continue;
        double pct = 100.0 * (double)s->memory.peaks[i].reserved /
                     (double)s->memory.total_global_mem[d];
        if (pct > worst) {
            worst = pct;
            dev = d;
        }
    }
    if (dev < 0 && s->memory.oom_events == 0) {
        rule_result_message(o, "no [memory] events with a known device size");
        return 0;
    }
    char text[96];
    if (dev >= 0)
        snprintf(text, sizeof text, "GPU %lld reserved %.1f%% of its memory, %lld OOM events",
                 (long long)dev, worst, (long long)s->memory.oom_events);
    else
        snprintf(text, sizeof text, "%lld OutOfMemory events", (long long)s->memory.oom_events);
    decide(o, worst > p[0] || s->memory.oom_events > 0, worst, s, text);
    return 0;
}
