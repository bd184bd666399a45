/* device_usage: how each CPU core and GPU spent its time — share above
 * 90 %, between 10 and 90 %, below 10 % (smdebug's get_device_usage_stats
 * buckets) — and idle GPU-hours per node (GPU time under 10 %).
 *
 * Computed from what the model holds: CPU cores from the per-sample
 * counts their series keep as samples arrive (series_count_bands); GPUs
 * from samples at full resolution where the series still has them,
 * rolled-up bucket means (weighted by their sample count) for older data. Time per sample = the series' sampling
 * interval (median gap snapped to the nearest of SageMaker's 100 ms .. 60 s), so a pause
 * in the data is not counted as GPU time. Pure; the caller holds the model lock. */
#ifndef SMTOP_DEVICE_USAGE_H
#define SMTOP_DEVICE_USAGE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/series/sampling.h"


typedef struct device_usage {
    char node[64];
    char device[32];          /* "cpu0", "gpu1" */
    int is_gpu;
    int64_t samples;
    double pct_high;          /* % of samples > 90 */
    double pct_mid;           /* % of samples in [10, 90] */
    double pct_low;           /* % of samples < 10 */
} device_usage;

typedef struct idle_gpu_hours {
    char node[64];
    size_t gpus;
    double gpu_hours;         /* GPU time observed */
    double idle_gpu_hours;    /* of which under 10 % utilization */
} idle_gpu_hours;

/* Fills out[0..max) with one entry per CPU core then per GPU of every node
 * that has samples, in model order. Returns how many exist (may exceed
 * max), or -1 on OOM. */
long device_usage_compute(const model *m, device_usage *out, size_t max);

/* Fills out[0..max) with one entry per node that has GPU utilization.
 * Returns how many exist (may exceed max), or -1 on OOM. */
long device_usage_idle_gpu(const model *m, idle_gpu_hours *out, size_t max);

#endif
