/* gpu_rank: one rank's GPU figures, summed over all its trace files.
 *
 * A rank takes each analysed trace (model/gpu/gpu_trace.h) by summary:
 * times, counts and name tables add, peaks take the maximum, percentiles
 * merge their sketches, steps and the memory series are kept sorted by
 * time. Every merge is commutative, so the figures do not depend on the
 * order traces arrive in (a test merges both ways). Percentages are
 * computed from the summed times when read, so a rank of two traces is
 * weighted by time, as HTA weighs the ranks of a job.
 *
 * Times in the summary are µs; step starts and the memory series are on
 * the epoch clock when every trace was placed (`placed`), else on the
 * traces' own clocks. Pure: no I/O. Not thread-safe. */
#ifndef SMTOP_GPU_RANK_H
#define SMTOP_GPU_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_table.h"
#include "model/gpu/gpu_trace.h"

typedef struct gpu_rank gpu_rank;

/* One ProfilerStep with its GPU time split for the Timeline. */
typedef struct gpu_step {
    int64_t step;                /* N of ProfilerStep#N */
    int64_t start_us, dur_us;
    int64_t compute_us, comm_us, memory_us, idle_us;  /* sum to dur_us */
} gpu_step;

typedef struct gpu_stream_idle {
    int64_t stream;
    int64_t host_wait_us, kernel_wait_us, other_us;
} gpu_stream_idle;

typedef struct gpu_mem_point {
    int64_t t_us;
    int64_t device;
    int64_t allocated, reserved; /* bytes */
} gpu_mem_point;

typedef struct gpu_mem_peak {
    int64_t device;
    int64_t allocated, reserved; /* bytes */
} gpu_mem_peak;

/* The rank's figures; every pointer points into the rank (valid until the
 * next merge or free). */
typedef struct gpu_summary {
    int64_t traces, placed;      /* traces merged; how many had a clock */
    int has_gpu;                 /* any GPU row: the fields below mean something */
    int64_t steps;               /* ProfilerSteps kept (the last left out) */
    int64_t span_us, idle_us, compute_us, non_compute_us;
    double idle_pct, compute_pct, non_compute_pct;      /* of span; NaN w/o GPU */
    int has_comm;                /* communication rows exist */
    double comm_comp_overlap_pct;                      /* NaN without */
    int64_t comm_us, comm_comp_us;
    int64_t ktype_us[8];         /* by type set 1..7 (gpu_ktype_name) */
    double ktype_pct[8];         /* of the sum of all sets */
    int64_t host_wait_us, kernel_wait_us, other_idle_us; /* all streams */
    const gpu_stream_idle *streams;  /* by stream id */
    size_t n_streams;
    struct {
        int64_t count, short_kernels, delay_outliers;
        double delay_p50_us, delay_p95_us, delay_mean_us;  /* NaN when none */
        double cpu_p50_us, gpu_p50_us;                     /* call, row */
    } launch;
    const gpu_step *step_rows;   /* by start */
    size_t n_steps;
    struct {
        int64_t oom_events;
        double peak_allocated_mb, peak_reserved_mb;    /* max over devices */
        const gpu_mem_peak *peaks;                     /* by device */
        size_t n_peaks;
        const gpu_mem_point *series;                   /* by time, device */
        size_t n_series;
        int64_t total_global_mem[SM_KMETA_MAX_DEVICES]; /* bytes, 0 unknown */
        size_t n_devices;
    } memory;
} gpu_summary;

/* An empty rank. NULL on OOM. */
gpu_rank *gpu_rank_new(void);
void gpu_rank_free(gpu_rank *r);

/* Adds an ended trace's figures to r (t is not changed and may be freed
 * afterwards). 0; -1 when t is not ended (r unchanged) or on OOM (r may
 * then hold part of t). */
int gpu_rank_merge(gpu_rank *r, const gpu_trace *t);

/* The rank's figures (see gpu_summary); refreshed by each merge. */
const gpu_summary *gpu_rank_summary(const gpu_rank *r);

/* Kernels (type set), CPU ops and Python functions by name: the whole
 * tables, for lookups and for "top N" (gpu_table_sorted). */
const gpu_table *gpu_rank_kernels(const gpu_rank *r);
const gpu_table *gpu_rank_ops(const gpu_rank *r);
const gpu_table *gpu_rank_python(const gpu_rank *r);

#endif
