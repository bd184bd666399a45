/* gpu_idle: what the host did while the GPU waited, for one analysed
 * window (a kept step, or a trace without steps as a whole).
 *
 * - The GPU's idle intervals are HTA's: the gaps of the union of the GPU
 *   rows (kernel, gpu_memcpy, gpu_memset) inside the window, the window
 *   cut to the span of the trace's GPU rows (first start to last end), as
 *   the temporal breakdown's idle time is; a window's idle time is its
 *   step's idle_us (gpu_rank.h) less the part of the step outside that
 *   span (before the trace's first GPU row, after its last).
 * - Each host thread's events (user_annotation but ProfilerStep#N,
 *   cpu_op, python_function, cuda_runtime and cuda_driver calls) nest as
 *   HTA nests them; at every idle instant a thread's innermost event gets
 *   the time (innermost first), one row per (name, kind, thread). A
 *   cuda_sync row (the host blocked in a sync call, on the stream it
 *   waits for) gets its overlap as a row of its own, kind sync, thread -1.
 * - An event enclosing the innermost one that names a cause of its own
 *   (a DataLoader iterator, a gloo: annotation) gets the same instants as
 *   a row too, so "DataLoader on the main thread" and the frame under it
 *   ("train.py(12): __getitem__") are both said.
 * - A thread's share: the idle time during which any of its events ran.
 * - Host communication: a `gloo:` annotation or op, and under the gloo
 *   backend (distributedInfo.backend) a `c10d::` op or
 *   `record_param_comms`, is communication done by the host; its time
 *   (the union over threads, in the window, idle or not) is kept apart
 *   for the rules.
 *
 * Pure: no I/O. */
#ifndef SMTOP_GPU_IDLE_H
#define SMTOP_GPU_IDLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_cpath.h"
#include "model/util/scratch.h"

/* What a row is. */
enum {
    GPU_IDLE_ANNOTATION = 0,    /* a user_annotation (record_function) */
    GPU_IDLE_CPU_OP,            /* a cpu_op */
    GPU_IDLE_PYTHON,            /* a python_function frame */
    GPU_IDLE_DATALOADER,        /* an event whose name contains "DataLoader" */
    GPU_IDLE_SYNC,              /* a blocking CUDA call or a cuda_sync row */
    GPU_IDLE_MEMCPY,            /* a memcpy/memset call (cudaMemcpyAsync ...) */
    GPU_IDLE_COMM_HOST,         /* host communication (gloo, see above) */
    GPU_IDLE_RUNTIME,           /* another CUDA runtime/driver call (launches) */
    GPU_IDLE_KINDS
};

/* "annotation", "cpu_op", "python", "dataloader", "sync", "memcpy",
 * "comm_host", "runtime"; "" out of range. */
const char *gpu_idle_kind_name(int kind);

/* One row: the idle time during which this event (innermost on its
 * thread, or a named cause enclosing it) ran. */
typedef struct gpu_idle_row {
    uint32_t name;              /* row in table */
    uint8_t table;              /* GPU_NT_* */
    uint8_t kind;               /* GPU_IDLE_* */
    int64_t tid;                /* the host thread's tid; -1 a cuda_sync row
                                   or a tid that is a string */
    int64_t overlap_us;
} gpu_idle_row;

/* One host thread's share. */
typedef struct gpu_idle_thread {
    int64_t tid;
    int64_t busy_us;            /* idle time with any event of it running */
} gpu_idle_thread;

/* Rows kept per window, the largest first; the rest are summed in
 * other_us. */
#define GPU_IDLE_ROWS 16

typedef struct gpu_idle {
    int64_t idle_us;            /* the window's GPU idle time */
    int64_t host_comm_us;       /* host communication in the window */
    int64_t host_comm_idle_us;  /* of it, while the GPU was idle: each
                                   instant once, however many threads */
    int64_t other_us;           /* overlap of the rows not kept */
    gpu_idle_row rows[GPU_IDLE_ROWS];
    size_t n_rows;
    gpu_idle_thread threads[GPU_IDLE_ROWS];  /* by busy_us descending */
    size_t n_threads;
} gpu_idle;

/* A window: its events (as gpu_cpath_run takes them; host events need
 * thread and, for the tid, tids[thread]), the GPU's busy intervals in it
 * (sorted, disjoint) and the window's bounds cut to the GPU span. gloo:
 * the trace's backend is gloo. Fills *out. 0, or -1 on OOM. */
typedef struct gpu_idle_in {
    const gpu_cp_event *ev;
    size_t n;
    const int64_t *busy;        /* busy[2i], busy[2i+1]: interval i */
    size_t n_busy;
    int64_t t0, t1;             /* the window, cut to the GPU span */
    int64_t w0, w1;             /* the window itself (host communication) */
    const int64_t *tids;        /* tid of thread index i (-1 unknown) */
    size_t n_threads;
    int gloo;
    /* buffers kept from one window to the next (gpu_impl.h's WRS_IDLE_*);
     * NULL: the run makes its own and frees them */
    scratch *s;
} gpu_idle_in;

int gpu_idle_run(const gpu_idle_in *in, gpu_idle *out);

#endif
