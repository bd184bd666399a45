/* device_usage: usage buckets per device and idle GPU-hours per node. */
#include <stdio.h>

#include "model/rules/device_usage.h"
#include "model/rules/rule_impl.h"
#include "model/series/series_iter.h"

/* Streams the cells of rule_col_fill: series_visit yields points in time
 * order (tier 2, tier 1, raw, each older than the next), so a cell is
 * complete when a later one starts, and the counts come out of the same
 * additions in the same order as from the filled column — without
 * allocating and walking a column per device. A point for an earlier
 * cell (not expected) stops the stream: the caller then fills the column. */
typedef struct usage_acc {
    const rgrid *g;
    size_t cell;
    int open, broken;
    double sum, cnt;
    double low, mid, high;
} usage_acc;

static void acc_close(usage_acc *a)
{
    if (!a->open || a->cnt <= 0)
        return;
    double v = (0 + a->sum / a->cnt) / 1;   /* rule_col_fill's expression */
    *(v > SAMPLING_BAND_HIGH ? &a->high : v < SAMPLING_BAND_LOW ? &a->low : &a->mid) += a->cnt;
}

static int acc_point(void *ud, const series_point *p)
{
    usage_acc *a = ud;
    int64_t k = (p->t_us - a->g->t0_us) / a->g->width_us;
    size_t i = k < 0 ? 0 : (size_t)k >= a->g->n ? a->g->n - 1 : (size_t)k;
    if (!a->open || i != a->cell) {
        if (a->open && i < a->cell) {
            a->broken = 1;
            return 1;
        }
        acc_close(a);
        a->open = 1;
        a->cell = i;
        a->sum = a->cnt = 0;
    }
    a->sum += p->mean * (double)p->count;
    a->cnt += (double)p->count;
    return 0;
}

/* Sample counts per bucket of one series (low, mid, high); -1 on OOM,
 * 0 when empty. */
static int bucket_counts(const series *s, double *low, double *mid, double *high)
{
    rgrid g;
    rcol c;
    int64_t band[3];
    *low = *mid = *high = 0;
    if (s && series_band_counts(s, band)) {
        /* Counted per sample as they came (CPU cores, whose history a
         * node with many cores keeps only in 10 s buckets). */
        *low = (double)band[0];
        *mid = (double)band[1];
        *high = (double)band[2];
        return band[0] + band[1] + band[2] > 0;
    }
    if (!s || rule_grid_plan(&s, 1, &g) < 0)
        return 0;
    usage_acc a = {.g = &g};
    series_visit(s, g.t0_us, g.t0_us + (int64_t)g.n * g.width_us, acc_point, &a);
    if (!a.broken) {
        acc_close(&a);
        *low = a.low;
        *mid = a.mid;
        *high = a.high;
        return *low + *mid + *high > 0;
    }
    if (rule_col_fill(&c, s, &g) < 0)
        return -1;
    for (size_t i = 0; i < g.n; i++) {
        if (c.cnt[i] <= 0)
            continue;
        double v = c.val[i];
        *(v > SAMPLING_BAND_HIGH ? high : v < SAMPLING_BAND_LOW ? low : mid) += c.cnt[i];
    }
    rule_col_free(&c);
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
        snprintf(d->node, sizeof d->node, "%s", model_node_id(n));
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
        for (size_t i = 0; i < model_node_cpu_count(n); i++) {
            const series *s = model_node_cpu_core(n, i);
            if (s && add_device(n, s, series_name(s), 0, out, max, &k) < 0)
                return -1;
        }
        for (size_t i = 0; i < model_node_gpu_count(n); i++)
            if (add_device(n, model_node_gpu_util(n, i), model_node_gpu_name(n, i), 1,
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
        for (size_t i = 0; i < model_node_gpu_count(n); i++) {
            const series *s = model_node_gpu_util(n, i);
            double lo, mid, hi;
            int rc = bucket_counts(s, &lo, &mid, &hi);
            if (rc < 0)
                return -1;
            if (rc == 0)
                continue;
            /* a CloudWatch host mean stands for all the host's GPUs */
            double dt = sample_hours(s) * model_gpus_per_series(m);
            h.gpus += (size_t)model_gpus_per_series(m);
            h.gpu_hours += (lo + mid + hi) * dt;
            h.idle_gpu_hours += lo * dt;
        }
        if (h.gpus == 0)
            continue;
        snprintf(h.node, sizeof h.node, "%s", model_node_id(n));
        if ((size_t)k < max)
            out[k] = h;
        k++;
    }
    return k;
}
