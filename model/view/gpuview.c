/* gpuview: see gpuview.h. The job sum and the findings; the step, top and
 * memory builders are in gpuview_build.c. */
#include "model/view/gpuview.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/core/model_gpu.h"

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

/* The worst device's peak reserved share of its size; NaN when none is known. */
static double reserved_pct(const gpu_summary *s)
{
    double worst = NAN;
    for (size_t i = 0; i < s->memory.n_peaks; i++) {
        int64_t d = s->memory.peaks[i].device;
        if (d < 0 || (size_t)d >= s->memory.n_devices || s->memory.total_global_mem[d] <= 0)
            continue;
        double p = pct(s->memory.peaks[i].reserved, s->memory.total_global_mem[d]);
        if (isnan(worst) || p > worst)
            worst = p;
    }
    return worst;
}

static void add_rank(gpuview_job *j, const gpu_summary *s)
{
    j->ranks++;
    j->steps += s->steps;
    j->launches += s->launch.count;
    j->short_kernels += s->launch.short_kernels;
    j->oom_events += s->memory.oom_events;
    double r = reserved_pct(s);
    if (!isnan(r) && (isnan(j->reserved_pct) || r > j->reserved_pct))
        j->reserved_pct = r;
    if (!s->has_gpu)
        return;
    j->gpu_ranks++;
    j->span_us += s->span_us;
    j->idle_us += s->idle_us;
    j->host_wait_us += s->host_wait_us;
    j->stream_idle_us += s->host_wait_us + s->kernel_wait_us + s->other_idle_us;
    if (s->has_comm) {
        j->comm_us += s->comm_us;
        j->comm_comp_us += s->comm_comp_us;
    }
}

void gpuview_job_sum(const model *m, gpuview_job *out)
{
    memset(out, 0, sizeof *out);
    out->reserved_pct = NAN;
    for (size_t i = 0; i < model_gpu_count(m); i++)
        add_rank(out, gpu_rank_summary(model_gpu_at(m, i)->gpu));
    out->idle_pct = out->gpu_ranks ? pct(out->idle_us, out->span_us) : NAN;
    out->host_wait_pct = pct(out->host_wait_us, out->stream_idle_us);
    out->comm_overlap_pct = pct(out->comm_comp_us, out->comm_us);
    out->short_pct = pct(out->short_kernels, out->launches);
}

static const rule_result *fired(const rule_result *res, size_t nres, const char *name)
{
    int i = rules_find(name);
    return i >= 0 && (size_t)i < nres && res[i].status == RULE_TRIGGERED ? &res[i] : NULL;
}

static void idle_finding(finding *v, size_t *n, size_t max, const gpuview_job *j,
                         const rule_result *host, double min)
{
    if (isnan(j->idle_pct) || (!host && !(j->idle_pct >= min)))
        return;
    rule_severity sev = j->idle_pct >= 50   ? RULE_SEV_HIGH
                        : j->idle_pct >= 25 ? RULE_SEV_MED
                                            : RULE_SEV_LOW;
    if (!host) {
        finding_add(v, n, max, NULL, sev, "GPU idle %.0f %% (traces)", j->idle_pct);
        return;
    }
    sev = host->severity > sev ? host->severity : sev;
    gpuview_finding *f;
    if (isinf(min))   /* another source told an idle share: lead with the cause */
        f = finding_add(v, n, max, "GPUIdleHostBound", sev,
                        "GPU host-bound: %.0f %% host wait (traces: idle %.0f %%)",
                        j->host_wait_pct, j->idle_pct);
    else
        f = finding_add(v, n, max, "GPUIdleHostBound", sev,
                        "GPU idle %.0f %% (host-bound: %.0f %% host wait)", j->idle_pct,
                        j->host_wait_pct);
    if (f)
        snprintf(f->brief, sizeof f->brief,
                 isinf(min) ? "GPU host-bound (traces: idle %.0f %%)" : "GPU idle %.0f %%, host-bound",
                 j->idle_pct);
}

size_t gpuview_findings(const model *m, const rule_result *res, size_t nres, double idle_min,
                        gpuview_finding *out, size_t max)
{
    size_t n = 0;
    if (model_gpu_count(m) == 0)
        return 0;
    gpuview_job j;
    gpuview_job_sum(m, &j);
    idle_finding(out, &n, max, &j, fired(res, nres, "GPUIdleHostBound"), idle_min);
    const rule_result *r = fired(res, nres, "CommNotOverlapped");
    if (r && !isnan(j.comm_overlap_pct))
        finding_add(out, &n, max, r->name, r->severity, "comm not overlapped %.0f %%",
                    100 - j.comm_overlap_pct);
    if ((r = fired(res, nres, "KernelLaunchOverhead")) && !isnan(j.short_pct)) {
        gpuview_finding *f = finding_add(out, &n, max, r->name, r->severity,
                                         "launch-bound: %.0f %% short kernels", j.short_pct);
        if (f)
            snprintf(f->brief, sizeof f->brief, "launch-bound %.0f %%", j.short_pct);
    }
    if ((r = fired(res, nres, "GPUMemoryNearCapacity"))) {
        if (j.oom_events)
            finding_add(out, &n, max, r->name, r->severity, "GPU out of memory %lld time%s",
                        (long long)j.oom_events, j.oom_events == 1 ? "" : "s");
        else
            finding_add(out, &n, max, r->name, r->severity, "GPU memory %.0f %% of device",
                        j.reserved_pct);
    }
    return n;
}
