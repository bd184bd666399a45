/* device_usage: usage buckets per device and idle GPU-hours per node. */
#include <stdio.h>

#include "device_usage.h"
#include "rule_impl.h"

/* Sample counts per bucket of one series (low, mid, high); -1 on OOM,
 * 0 when empty. */
static int bucket_counts(const series *s, double *low, double *mid, double *high)
{
    rgrid g;
    rcol c;
    *low = *mid = *high = 0;
    if (!s || rgrid_plan(&s, 1, &g) < 0)
        return 0;
    if (rcol_fill(&c, s, &g) < 0)
        return -1;
    for (size_t i = 0; i < g.n; i++) {
        if (c.cnt[i] <= 0)
            continue;
        double v = c.val[i];
        *(v > DEVICE_USAGE_HIGH ? high : v < DEVICE_USAGE_LOW ? low : mid) += c.cnt[i];
    }
    rcol_free(&c);
    return *low + *mid + *high > 0;
}

static int add_device(const model_node *n, const series *s, const char *dev,
                      int is_gpu, device_usage *out, size_t max, long *k)
{
    double lo, mid, hi;
    int rc = bucket_counts(s, &lo, &mid, &hi);
    if (rc <= 0)
        return rc;
    if ((size_t)*k < max) {
        device_usage *d = &out[*k];
        double total = lo + mid + hi;
        snprintf(d->node, sizeof d->node, "%s", node_id(n));
        snprintf(d->device, sizeof d->device, "%s", dev);
        d->is_gpu = is_gpu;
        d->samples = (int64_t)total;
        d->pct_low = 100.0 * lo / total;
        d->pct_mid = 100.0 * mid / total;
        d->pct_high = 100.0 * hi / total;
    }
    (*k)++;
    return 1;
}

long device_usage_compute(const model *m, device_usage *out, size_t max)
{
    long k = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        for (size_t i = 0; i < node_cpu_count(n); i++) {
            const series *s = node_cpu_core(n, i);
            if (s && add_device(n, s, series_name(s), 0, out, max, &k) < 0)
                return -1;
        }
        for (size_t i = 0; i < node_gpu_count(n); i++)
            if (add_device(n, node_gpu_util(n, i), node_gpu_name(n, i), 1,
                           out, max, &k) < 0)
                return -1;
    }
    return k;
}

/* Time one sample of s stands for, in hours (its sampling interval). */
static double sample_hours(const series *s)
{
    return (double)rule_sample_interval(s) / 3600e6;
}

long device_usage_idle_gpu(const model *m, idle_gpu_hours *out, size_t max)
{
    long k = 0;
    for (size_t ni = 0; ni < model_node_count(m); ni++) {
        const model_node *n = model_node_at(m, ni);
        idle_gpu_hours h = {.gpus = 0};
        for (size_t i = 0; i < node_gpu_count(n); i++) {
            const series *s = node_gpu_util(n, i);
            double lo, mid, hi;
            int rc = bucket_counts(s, &lo, &mid, &hi);
            if (rc < 0)
                return -1;
            if (rc == 0)
                continue;
            double dt = sample_hours(s);
            h.gpus++;
            h.gpu_hours += (lo + mid + hi) * dt;
            h.idle_gpu_hours += lo * dt;
        }
        if (h.gpus == 0)
            continue;
        snprintf(h.node, sizeof h.node, "%s", node_id(n));
        if ((size_t)k < max)
            out[k] = h;
        k++;
    }
    return k;
}
