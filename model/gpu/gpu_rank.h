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

#include "model/gpu/gpu_cpath.h"
#include "model/gpu/gpu_idle.h"
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

/* A name with a time: a name is a row of one of the rank's tables
 * (GPU_NT_*), raw JSON body as gpu_table.h keeps it (unescape and sanitize
 * before showing). */
typedef struct gpu_name_us {
    const char *name;
    size_t len;
    int table;                   /* GPU_NT_* */
    int64_t us;
} gpu_name_us;

/* What the host did while the GPU waited (gpu_idle.h), summed over
 * windows: one row per (name, kind, thread). */
typedef struct gpu_idle_cause {
    const char *name;            /* as gpu_name_us */
    size_t len;
    int table;
    int kind;                    /* GPU_IDLE_* (gpu_idle_kind_name) */
    int64_t tid;                 /* host thread; -1 a cuda_sync row or unknown */
    int64_t overlap_us;
    double pct_of_idle;          /* of idle_attr.idle_us; NaN without idle */
} gpu_idle_cause;

typedef struct gpu_thread_share {
    int64_t tid;
    int64_t busy_us;             /* idle time with any event of the thread running */
    double pct_of_idle;
} gpu_thread_share;

/* The rank's figures; every pointer points into the rank (valid until the
 * next merge or free), or into a gpu_window. */
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
    /* HTA's idle per stream, summed over the streams: with several
     * streams the sum can exceed the span (each stream idles on its own). */
    int64_t host_wait_us, kernel_wait_us, other_idle_us;
    /* The rank's idle time (idle_us) in the same classes, each gap of the
     * union of every stream's rows by the row that ends it: the three sum
     * to idle_us. The verdict and GPUIdleHostBound read these. */
    int64_t idle_host_wait_us, idle_kernel_wait_us, idle_other_us;
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
    /* HTA's critical path (gpu_cpath.h), summed over the analysed windows:
     * each kept step, and each trace without steps as one window. */
    struct {
        int64_t steps;           /* windows with a path */
        int64_t failed;          /* windows without one (gpu_cpath status) */
        int64_t path_us;         /* the paths' lengths summed */
        int64_t bound_us[GPU_BOUND_N];
        double bound_pct[GPU_BOUND_N];  /* of path_us; NaN when it is 0 */
        const gpu_name_us *top;  /* most time on the path first */
        size_t n_top;
    } critical_path;
    /* The host during the GPU's idle time (gpu_idle.h), over the same
     * windows. The rows can add up to more than the idle time: each thread
     * counts, and a cause enclosing an innermost event counts with it. */
    struct {
        int64_t windows;
        int64_t idle_us;         /* the windows' GPU idle time inside the
                                    GPU span (gpu_idle.h): the steps'
                                    idle_us but what lies before the
                                    trace's first GPU row or after its last */
        int64_t other_us;        /* overlap of rows not kept */
        const gpu_idle_cause *causes;   /* largest overlap first */
        size_t n_causes;
        const gpu_thread_share *threads;  /* largest share first */
        size_t n_threads;
        int64_t host_comm_us;    /* communication done by the host (gloo) */
        int64_t host_comm_idle_us;  /* of it, in the idle time (a union) */
        double host_comm_per_step_us;   /* host_comm_us / windows; NaN without */
    } idle_attr;
    const char *backend;         /* distributedInfo.backend ("nccl", "gloo",
                                    sanitized); "" unknown, "mixed" when
                                    traces disagree */
} gpu_summary;

/* An empty rank. NULL on OOM. */
gpu_rank *gpu_rank_new(void);
void gpu_rank_free(gpu_rank *r);

/* The model's time filter (--since/--until): from now on every reader of
 * r (its summary, tables, windows) sees only the analysed windows (steps)
 * that overlap [t0, t1) (one ending at t0 included), as the model keeps
 * an event; t0 GPU_WINDOW_ALL lifts it. 0, or -1 on OOM (r then shows
 * nothing inside the filter). */
int gpu_rank_set_filter(gpu_rank *r, int64_t t0, int64_t t1);

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
/* User annotations (record_function labels, gloo:all_reduce, ...; the
 * ProfilerStep#N ones included) and CUDA runtime / driver / sync calls by
 * name: count, sum and self time as the ops'. */
const gpu_table *gpu_rank_annotations(const gpu_rank *r);
const gpu_table *gpu_rank_runtime(const gpu_rank *r);
/* The table GPU_NT_* of r (NULL out of range). */
const gpu_table *gpu_rank_names(const gpu_rank *r, int table);

/* ---- a time window: the figures of the analysed windows (steps) that
 * start in [t0, t1), so that Top, the breakdowns, the critical path and
 * the idle causes follow the visible window.
 *
 * Over a window, the summary sums its steps: span_us is the steps' time,
 * idle / compute / non-compute their GPU split (gpu_step: compute, else
 * communication, else memory, else idle), the kernel-type breakdown and
 * comm/comp overlap over the same instants, host / kernel / other wait
 * from the gaps whose row starts in a step (streams NULL), the launch
 * counts and mean delay (percentiles NaN: a sketch per step would not
 * fit), the memory series and peaks of the points in [t0, t1), critical
 * path and idle causes as above; the tables hold the rows of the names
 * that ran in the steps (kernels and ops by the step their start falls
 * in). GPU_WINDOW_ALL as t0 gives the rank's whole summary and tables,
 * byte for byte what gpu_rank_summary gives. */
#define GPU_WINDOW_ALL INT64_MIN

typedef struct gpu_window gpu_window;

/* An empty window (its summary all zeros). NULL on OOM. */
gpu_window *gpu_window_new(void);
void gpu_window_free(gpu_window *w);   /* NULL is a no-op */

/* Fills w with r's figures over [t0, t1) (the job clock when the rank's
 * traces were placed; see gpu_summary), replacing what w held. With t0 ==
 * GPU_WINDOW_ALL, w points into r (valid until r's next merge). 0, or -1
 * on OOM (w then empty). */
int gpu_rank_window(const gpu_rank *r, int64_t t0, int64_t t1, gpu_window *w);

/* 1 when [t0, t1) holds every analysed window of r (or r has none): its
 * window then adds nothing to GPU_WINDOW_ALL but leaves out the events
 * outside the steps, so a view shows the whole rank instead. */
int gpu_rank_window_holds_all(const gpu_rank *r, int64_t t0, int64_t t1);

/* w's summary and its tables (GPU_NT_*); valid until w is filled again or
 * freed. */
const gpu_summary *gpu_window_summary(const gpu_window *w);
const gpu_table *gpu_window_names(const gpu_window *w, int table);

#endif
