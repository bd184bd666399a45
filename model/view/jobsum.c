/* jobsum: see jobsum.h. */
#include "model/view/jobsum.h"

#include <math.h>
#include <stdlib.h>

#include "model/rules/device_usage.h"
#include "model/view/straggler.h"

/* The median of the nodes' training step p50s. */
static double step_p50(const model *m, size_t *nodes)
{
    size_t n = model_node_count(m), k = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[k] = straggler_step_p50(model_node_at(m, i))))
            k++;
    double med = straggler_median(v, k);
    free(v);
    *nodes = k;
    return med;
}

/* Sample-weighted mean over [t0, t1) of every series in s[0..n). */
typedef struct wmean {
    double sum;
    int64_t count;
} wmean;

static void wmean_add(wmean *w, const series *s, int64_t t0, int64_t t1)
{
    if (!s)
        return;
    series_summary sum;
    series_range_summary(s, t0, t1, &sum);
    if (sum.count > 0) {
        w->sum += sum.mean * (double)sum.count;
        w->count += sum.count;
    }
}

static double wmean_get(const wmean *w)
{
    return w->count ? w->sum / (double)w->count : NAN;
}

/* The newest 5 whole minutes of system data: the minute of the newest
 * sample and the 4 before it. */
static void recent_means(const model *m, jobsum *out)
{
    int64_t first = 0, last = 0;
    out->gpu_pct = out->cpu_pct = out->mem_pct = NAN;
    if (!model_sample_span(m, &first, &last))
        return;
    int64_t t1 = (last / 60000000LL + 1) * 60000000LL, t0 = t1 - JOBSUM_WINDOW_US;
    wmean g = {0}, c = {0}, mem = {0};
    for (size_t i = 0; i < model_node_count(m); i++) {
        const model_node *n = model_node_at(m, i);
        for (size_t k = 0; k < model_node_gpu_count(n); k++)
            wmean_add(&g, model_node_gpu_util(n, k), t0, t1);
        wmean_add(&c, model_node_cpu_total(n), t0, t1);
        wmean_add(&mem, model_node_host_mem(n), t0, t1);
    }
    out->gpu_pct = wmean_get(&g);
    out->cpu_pct = wmean_get(&c);
    out->mem_pct = wmean_get(&mem);
}

static int idle_hours(const model *m, jobsum *out)
{
    size_t n = model_node_count(m);
    out->gpu_hours = out->idle_gpu_hours = NAN;
    if (n == 0)
        return 0;
    idle_gpu_hours *ih = calloc(n, sizeof *ih);
    long k = ih ? device_usage_idle_gpu(m, ih, n) : -1;
    if (k > 0) {
        out->gpu_hours = out->idle_gpu_hours = 0;
        for (long i = 0; i < k && (size_t)i < n; i++) {
            out->gpu_hours += ih[i].gpu_hours;
            out->idle_gpu_hours += ih[i].idle_gpu_hours;
        }
    }
    free(ih);
    return k < 0 ? -1 : 0;
}

int jobsum_build(const model *m, const rules *r, const verdict *v, jobsum *out)
{
    *out = (jobsum){0};
    out->first_us = model_first_us(m);
    out->last_us = model_last_us(m);
    out->nodes = model_node_count(m);
    out->step_p50_us = step_p50(m, &out->step_nodes);
    out->alerts = rules_triggered_count(r);
    out->worst = verdict_worst(v);
    recent_means(m, out);
    return idle_hours(m, out);
}
