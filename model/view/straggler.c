/* straggler: see straggler.h. */
#include "model/view/straggler.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double straggler_median(const double *v, size_t n)
{
    double *t = malloc((n ? n : 1) * sizeof *t);
    size_t k = 0;
    if (!t)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            t[k++] = v[i];
    double med = NAN;
    if (k > 0) {
        qsort(t, k, sizeof *t, cmp_double);
        med = k % 2 ? t[k / 2] : (t[k / 2 - 1] + t[k / 2]) / 2.0;
    }
    free(t);
    return med;
}

double straggler_deviation(double v, double med, double floor)
{
    if (isnan(v) || isnan(med))
        return NAN;
    double base = fabs(med) > floor ? fabs(med) : floor;
    return fabs(v - med) / base;
}

static void consider(const double *v, size_t n, double floor, int by_steps, straggler *best)
{
    size_t have = 0;
    for (size_t i = 0; v && i < n; i++)
        have += !isnan(v[i]);
    if (have < 3)
        return;
    double med = straggler_median(v, n);
    for (size_t i = 0; i < n; i++) {
        double dev = straggler_deviation(v[i], med, floor);
        if (!isnan(dev) && dev >= 0.10 && dev > best->dev) {
            best->index = (long)i;
            best->by_steps = by_steps;
            best->value = v[i];
            best->median = med;
            best->dev = dev;
        }
    }
}

straggler straggler_find(const double *gpu_util, const double *step_p50, size_t n)
{
    straggler s = {-1, 0, NAN, NAN, 0.0};
    consider(gpu_util, n, STRAGGLER_GPU_FLOOR, 0, &s);
    consider(step_p50, n, STRAGGLER_STEP_FLOOR, 1, &s);
    return s;
}

double straggler_step_p50(const model_node *nd)
{
    if (model_node_phase_count(nd) == 0 || phase_stats_kind(model_node_phase_at(nd, 0)) != PHASE_STEP)
        return NAN;
    phase_summary s;
    phase_stats_get_summary(model_node_phase_at(nd, 0), &s);
    return s.count > 0 ? s.p50_us : NAN;
}
