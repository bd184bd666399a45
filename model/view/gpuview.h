/* gpuview: what the panes and the verdict show of the PyTorch profiler
 * (Kineto) ranks the model holds (model/core/model_gpu.h), as plain values that
 * point nothing into the model:
 *
 * - the job's figures summed over its ranks (gpuview_job_sum), which the
 *   verdict's findings quote (model/view/gpucause.h);
 * - the GPU split of a rank's steps (compute / communication / memory /
 *   idle) matched to the steps a Timeline shows (gpuview_steps_match);
 * - the top functions of one source (Kineto CPU ops, GPU kernels, Python
 *   functions), what the host did while the GPU was idle, or the events
 *   on the critical path, over every rank, the ranks of some nodes, or
 *   one (gpuview_top);
 * - a rank's GPU memory allocated / reserved over a window, binned for a
 *   chart (gpuview_memory).
 *
 * Pure: no I/O; the caller holds the model lock while building. */
#ifndef SMTOP_GPUVIEW_H
#define SMTOP_GPUVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/model.h"
#include "model/rules/rules.h"
#include "model/view/viewdata.h"

/* The job's Kineto figures: times summed over the ranks with GPU rows, so
 * a percentage weighs each rank by its span, as HTA weighs a job's ranks. */
typedef struct gpuview_job {
    size_t ranks, gpu_ranks;        /* all; with GPU rows */
    int64_t steps, span_us, idle_us, comm_us, comm_comp_us;
    /* The ranks' idle time in HTA's classes (gpu_rank.h: each gap of a
     * rank's union of rows by the row that ends it): host wait of the
     * idle time classed, which is idle_us, never more. */
    int64_t host_wait_us, classed_idle_us;
    int64_t launches, short_kernels, oom_events;
    double idle_pct;                /* of the span; NaN without GPU rows */
    double host_wait_pct;           /* of the idle time, as GPUIdleHostBound
                                       counts it; NaN without idle */
    double comm_overlap_pct;        /* of the communication; NaN without */
    double short_pct;               /* of the launches; NaN without */
    double reserved_pct;            /* worst device's peak reserved of its
                                       totalGlobalMem; NaN when unknown */
} gpuview_job;

/* Fills *out from every rank of m (zeros and NaNs without ranks). */
void gpuview_job_sum(const model *m, gpuview_job *out);

/* For each of steps (number, start on the job clock, n of them), the
 * rank's GPU split of the same step into out[i] (dur_us 0 when the rank
 * has no such step): same number, start within GPUVIEW_STEP_SLACK_US.
 * Returns how many matched. */
#define GPUVIEW_STEP_SLACK_US 1000
size_t gpuview_steps_match(const gpu_summary *s, const int64_t *step, const int64_t *start_us,
                           size_t n, gpu_step *out);

/* The sources of the top-functions pane that a rank holds. */
typedef enum gpuview_src {
    GPUVIEW_OPS = 0,                /* CPU ops by self time */
    GPUVIEW_KERNELS,                /* GPU kernels by total time */
    GPUVIEW_PYTHON,                 /* python_function by self time */
    /* What the host ran while the GPU was idle (gpu_rank.h idle_attr): a
     * row per cause, named "[kind] name" (gpu_idle_kind_name), its time
     * the idle time it overlapped summed over the threads (count: the
     * (rank, thread) rows merged); all_us is the idle time, so a row's
     * share is its share of the idle time, as the report's. */
    GPUVIEW_IDLE,
    /* The events with the most time on HTA's critical path: a row per
     * event, named "[kind] name" (kernel, cpu_op, python_function,
     * user_annotation, cuda_runtime), count the ranks that have it among
     * their top events; all_us is the path's length. */
    GPUVIEW_CPATH,
    GPUVIEW_NSRC
} gpuview_src;

/* "Kineto ops", "kernels", "Python functions", "GPU idle: host",
 * "critical path". */
const char *gpuview_src_name(gpuview_src s);

/* What the top's rows are ordered by, every row of the ranks ranked
 * before the top is cut: the source's time (self for ops and Python,
 * total for kernels), total time (an op's, children included), calls,
 * mean time a call, the longest call. Largest first. */
typedef enum gpuview_sort {
    GPUVIEW_SORT_TIME = 0,
    GPUVIEW_SORT_TOTAL,
    GPUVIEW_SORT_COUNT,
    GPUVIEW_SORT_MEAN,
    GPUVIEW_SORT_MAX,
    GPUVIEW_NSORT
} gpuview_sort;

/* "self" (for kernels "total", the host's idle causes "idle", the
 * critical path "on path"), "total", "count", "mean", "max". */
const char *gpuview_sort_name(gpuview_sort s, gpuview_src src);

typedef struct gpuview_row {
    char *name;                     /* raw JSON body (escapes kept): unescape and
                                       sanitize before showing; owned */
    int type;                       /* kernel type set (gpu_ktype_name), 0 for ops */
    int64_t count, sum_us, self_us, max_us;
} gpuview_row;

typedef struct gpuview_top {
    gpuview_src src;
    gpuview_sort sort;
    size_t n, total;                /* rows kept (at most max), rows in all */
    int64_t all_us;                 /* the sort key summed over every row */
    size_t ranks;                   /* the ranks summed */
    /* 1: the rows of the steps that start in [t0_us, t1_us) (the visible
     * window leaves some out); 0: the whole job */
    int windowed;
    int64_t t0_us, t1_us;
    /* The picked ranks' figures over the same steps (the whole job's when
     * not windowed), summed: the temporal breakdown, HTA's critical path
     * by class, and the idle time the host's rows are shares of. */
    int64_t steps, span_us, idle_us, compute_us, non_compute_us;
    int64_t path_steps, path_us, bound_us[GPU_BOUND_N];
    int64_t attr_idle_us;
    gpuview_row *rows;
} gpuview_top;

/* The top max rows of src over every rank (node NULL) or the rank (node,
 * process), merged by name, ordered by sort (ties: the source's time).
 * all_us sums the source's time over every row whatever the order. NULL
 * on OOM; an empty top when nothing matches. The whole job; the query
 * (gpuview_top_query) follows the request's window. */
gpuview_top *gpuview_top_build(const model *m, gpuview_src src, gpuview_sort sort,
                               const char *node, const char *process, size_t max);
/* The same over the ranks whose node visible(filter, node) passes (the
 * node filter's rule, viewdata.h). */
gpuview_top *gpuview_top_build_on(const model *m, gpuview_src src, gpuview_sort sort,
                                  const char *filter,
                                  int (*visible)(const char *filter, const char *id),
                                  size_t max);
void gpuview_top_free(gpuview_top *t);   /* NULL is a no-op */

/* What a pane of top functions asks (viewdata_ask_for with
 * gpuview_top_query): which table, in which order, and how many rows
 * (0: 200); over the ranks of the nodes the request's filter passes and
 * the steps that start in the request's window (gpu_rank_window), or
 * the whole job when the window holds every rank's steps. */
typedef struct gpuview_top_params {
    gpuview_src src;
    size_t max;
    gpuview_sort sort;
} gpuview_top_params;

/* The query: a gpuview_top for gpuview_top_params. */
extern const viewquery gpuview_top_query;

/* One bin of a memory chart: the most allocated / reserved bytes of any
 * device at a point in [t0, t1), -1 when the bin holds no point. */
typedef struct gpuview_mem_bin {
    int64_t allocated, reserved;
} gpuview_mem_bin;

/* Bins [t0, t1) of rank s's [memory] series into nbins bins; a bin with
 * no point carries the previous point's value (memory stays as it was
 * until the next event) when there is one before it. Returns the bins
 * that hold a value, or 0 without a series. total_bytes (may be NULL) gets
 * the largest totalGlobalMem among its devices (0 unknown). */
size_t gpuview_memory(const gpu_summary *s, int64_t t0, int64_t t1, gpuview_mem_bin *bins,
                      size_t nbins, int64_t *total_bytes);

#endif
