/* gpuview: see gpuview.h. The job sum and the findings; the step, top and
 * memory builders are in gpuview_build.c. */
#include "model/view/gpuview.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/core/model_gpu.h"
#include "model/util/pct.h"

/* The worst device's peak reserved share of its size; NaN when none is known. */
static double reserved_pct(const gpu_summary *s)
{
    double worst = NAN;
    for (size_t i = 0; i < s->memory.n_peaks; i++) {
        int64_t d = s->memory.peaks[i].device;
        if (d < 0 || (size_t)d >= s->memory.n_devices || s->memory.total_global_mem[d] <= 0)
            continue;
        double p = pct_of(s->memory.peaks[i].reserved, s->memory.total_global_mem[d], NAN);
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
    j->host_wait_us += s->idle_host_wait_us;
    j->classed_idle_us += s->idle_host_wait_us + s->idle_kernel_wait_us + s->idle_other_us;
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
    out->idle_pct = out->gpu_ranks ? pct_of(out->idle_us, out->span_us, NAN) : NAN;
    out->host_wait_pct = pct_of(out->host_wait_us, out->classed_idle_us, NAN);
    out->comm_overlap_pct = pct_of(out->comm_comp_us, out->comm_us, NAN);
    out->short_pct = pct_of(out->short_kernels, out->launches, NAN);
}
