/* gpu_rules: the Kineto rules as predicates over a rank's summary (see
 * gpu_rules.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/gpu/gpu_rules.h"

#define PCT(n, d) {.name = (n), .def = (d), .min = 0, .max = 100}
#define COUNT(n, d) {.name = (n), .def = (d), .min = 0, .max = 1e9}

/* The steps' time span, for the example's t0 / t1 (0 when no steps). */
static void span_of(const gpu_summary *s, int64_t *t0, int64_t *t1)
{
    *t0 = *t1 = 0;
    if (s->n_steps) {
        *t0 = s->step_rows[0].start_us;
        *t1 = s->step_rows[s->n_steps - 1].start_us + s->step_rows[s->n_steps - 1].dur_us;
    }
}

static void verdict(rule_result *o, int fired, double value, const gpu_summary *s,
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

static int idle_host_bound(const gpu_summary *s, const double *p, rule_result *o)
{
    /* the rank's idle time in classes (they sum to idle_us), not the
     * streams' sums, which several streams inflate */
    int64_t idle = s->idle_host_wait_us + s->idle_kernel_wait_us + s->idle_other_us;
    if (!s->has_gpu || s->span_us <= 0 || idle <= 0) {
        rule_result_message(o, "no GPU idle time in the Kineto traces");
        return 0;
    }
    double host = 100.0 * (double)s->idle_host_wait_us / (double)idle;
    char text[96];
    snprintf(text, sizeof text, "GPU idle %.1f%% of %.1f ms, %.0f%% waiting for the host",
             s->idle_pct, (double)s->span_us / 1000, host);
    verdict(o, s->idle_pct > p[0] && host > p[1], s->idle_pct, s, text);
    return 0;
}

static int comm_not_overlapped(const gpu_summary *s, const double *p, rule_result *o)
{
    if (!s->has_gpu || !s->has_comm || s->span_us <= 0) {
        rule_result_message(o, "no GPU communication in the Kineto traces");
        return 0;
    }
    double share = 100.0 * (double)s->comm_us / (double)s->span_us;
    char text[96];
    snprintf(text, sizeof text, "communication %.1f%% of GPU time, %.1f%% overlapped",
             share, s->comm_comp_overlap_pct);
    verdict(o, share >= p[1] && s->comm_comp_overlap_pct < p[0], s->comm_comp_overlap_pct, s,
            text);
    return 0;
}

static int launch_overhead(const gpu_summary *s, const double *p, rule_result *o)
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
    verdict(o, share > p[0], share, s, text);
    return 0;
}

static int memory_near_capacity(const gpu_summary *s, const double *p, rule_result *o)
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
    verdict(o, worst > p[0] || s->memory.oom_events > 0, worst, s, text);
    return 0;
}

static const gpu_rule_def GPU_RULES[] = {
    {.name = "GPUIdleHostBound", .example_key = "idle_pct", .severity = RULE_SEV_HIGH,
     .summary = "Kineto: GPU idle above threshold % of its span, more than host_wait % "
                "of it waiting for kernel launches",
     .n_params = 2, .evaluate = idle_host_bound,
     .params = {PCT("threshold", 50), PCT("host_wait", 50)}},
    {.name = "CommNotOverlapped", .example_key = "overlap_pct", .severity = RULE_SEV_MED,
     .summary = "Kineto: communication at least min_comm % of GPU time, under threshold % "
                "of it overlapped with computation",
     .n_params = 2, .evaluate = comm_not_overlapped,
     .params = {PCT("threshold", 30), PCT("min_comm", 10)}},
    {.name = "KernelLaunchOverhead", .example_key = "short_pct", .severity = RULE_SEV_MED,
     .summary = "Kineto: more than threshold % of kernels shorter than their launch call "
                "(after min_launches launches)",
     .n_params = 2, .evaluate = launch_overhead,
     .params = {PCT("threshold", 50), COUNT("min_launches", 100)}},
    {.name = "GPUMemoryNearCapacity", .example_key = "reserved_pct", .severity = RULE_SEV_HIGH,
     .summary = "Kineto: peak reserved GPU memory above threshold % of totalGlobalMem, "
                "or an OutOfMemory event",
     .n_params = 1, .evaluate = memory_near_capacity, .params = {PCT("threshold", 90)}},
};
#define NGPU_RULES (sizeof GPU_RULES / sizeof GPU_RULES[0])

size_t gpu_rules_count(void)
{
    return NGPU_RULES;
}

const gpu_rule_def *gpu_rule_at(size_t i)
{
    return i < NGPU_RULES ? &GPU_RULES[i] : NULL;
}

int gpu_rule_eval_default(size_t i, const gpu_summary *s, rule_result *out)
{
    if (i >= NGPU_RULES)
        return -1;
    double p[RULE_MAX_PARAMS] = {0};
    for (size_t k = 0; k < GPU_RULES[i].n_params; k++)
        p[k] = GPU_RULES[i].params[k].def;
    memset(out, 0, sizeof *out);
    out->name = GPU_RULES[i].name;
    out->example_key = GPU_RULES[i].example_key;
    out->severity = GPU_RULES[i].severity;
    out->status = RULE_NO_DATA;
    return GPU_RULES[i].evaluate(s, p, out);
}
