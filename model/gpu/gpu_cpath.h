/* gpu_cpath: the critical path of one analysed window of a trace (a kept
 * ProfilerStep, or a trace without steps as a whole), as Holistic Trace
 * Analysis defines it (hta/analyzers/critical_path_analysis.py, f4d0062):
 *
 * - the window: the CPU-side events (cpu_op, user_annotation,
 *   python_function, cuda_runtime, cuda_driver, Event Sync and Context
 *   Sync rows) that start in [step start, step end], both ends included,
 *   and last more than 0 µs; the GPU rows (kernel, gpu_memcpy,
 *   gpu_memset, Stream Sync) whose launch call does; and every Stream Wait
 *   Event row. A trace with no ProfilerStep is one window, from its first
 *   event's start to its last event's end;
 * - nodes: the start and the end of each cpu_op, cuda_runtime and
 *   cuda_driver call, of each event whose name contains "DataLoader", and
 *   of each GPU row that has its launch call, ordered by (time, file
 *   order);
 * - edges: an op's span and its nesting on its thread (a thread's
 *   user_annotation and python_function events nest the ops without being
 *   nodes; the thread with the only "autograd" events is folded into the
 *   thread with the only "forward" ones); the CUDA runtime lock
 *   (cudaHostAlloc, cudaLaunchKernel, cudaMemcpyAsync in completion
 *   order); launch -> kernel when the stream had nothing queued; kernel ->
 *   kernel on a stream when the gap is under 1500 µs; kernel -> the sync
 *   call that waited for it (Stream Sync, Context Sync, Event Sync via its
 *   cudaEventRecord) and kernel -> kernel for cudaStreamWaitEvent;
 * - the path: the longest path of that DAG (ties broken as networkx's
 *   dag_longest_path breaks them), its edges' time split by HTA's
 *   `bound_by` classes; data loading = a CPU event whose name contains
 *   "DataLoader" (HTA's patterns `enumerate\(DataLoader\)`, `DataLoader`
 *   as its symbol table applies them).
 *
 * Differences from HTA are listed in the man page (DIFFERENCES FROM
 * HTA) and in tests/unit/test_gpu_conformance.c, one for one.
 *
 * Times are whole µs on the trace clock, rounded as gpu_trace.h says.
 * Pure: no I/O. */
#ifndef SMTOP_GPU_CPATH_H
#define SMTOP_GPU_CPATH_H

#include <stddef.h>
#include <stdint.h>

/* HTA's bound_by classes, in its order of the list. */
enum {
    GPU_BOUND_CPU = 0,          /* "cpu_bound" */
    GPU_BOUND_DATA_LOADING,     /* "data_loading" */
    GPU_BOUND_COMPUTE,          /* "gpu_compute_bound" */
    GPU_BOUND_COMM,             /* "gpu_communication_bound" */
    GPU_BOUND_KERNEL_KERNEL,    /* "gpu_kernel_kernel_overhead" */
    GPU_BOUND_LAUNCH,           /* "gpu_kernel_launch_overhead" */
    GPU_BOUND_N
};

/* HTA's name of a class ("cpu_bound", ...); "" out of range. */
const char *gpu_bound_name(int b);

/* The name tables of a trace or a rank an event's name is a row of
 * (gpu_rank_names). */
enum {
    GPU_NT_KERNEL = 0,          /* GPU rows: kernels, memcpy, memset */
    GPU_NT_OP,                  /* cpu_op */
    GPU_NT_PY,                  /* python_function */
    GPU_NT_ANNOT,               /* user_annotation (ProfilerStep#N included) */
    GPU_NT_RUNTIME,             /* cuda_runtime, cuda_driver and cuda_sync */
    GPU_NT_N
};

/* Top events kept per window: HTA's table shows 5; a window keeps a few
 * more so that sums over windows rank their events better. */
#define GPU_CPATH_TOP 8

/* One event's time on the path: an edge's weight goes to the event HTA
 * attributes it to (an op's span to the op, a gap inside an op to its
 * parent on the thread, a kernel-kernel gap to the earlier kernel); launch
 * delays are attributed to no event. */
typedef struct gpu_cpath_top {
    uint32_t name;              /* row in table */
    uint8_t table;              /* GPU_NT_* */
    int64_t us;
} gpu_cpath_top;

enum {
    GPU_CPATH_OK = 0,
    GPU_CPATH_NO_GPU,           /* no GPU row in the whole trace: HTA stops
                                   ("Queue length time series is required") */
    GPU_CPATH_INVALID,          /* a cycle or a weight below -1 µs: HTA's
                                   _validate_graph refuses the graph */
    GPU_CPATH_TOO_LARGE,        /* more than GPU_CPATH_MAX_EVENTS events:
                                   not analysed (the memory bound) */
    GPU_CPATH_EMPTY,            /* fewer than two nodes */
};

/* Events one window may hold for its graph (about 150 bytes each while the
 * window is analysed: a 1 GB trace stays under 64 MB). */
#define GPU_CPATH_MAX_EVENTS 100000

/* One window's path. */
typedef struct gpu_cpath {
    int status;                 /* GPU_CPATH_* */
    int64_t path_us;            /* sum of bound_us: the classified edges */
    int64_t bound_us[GPU_BOUND_N];
    gpu_cpath_top top[GPU_CPATH_TOP];   /* by us descending, then table, name */
    size_t n_top;
} gpu_cpath;

/* ---- the window's events, as gpu_trace_end hands them over (also what
 * the unit tests build by hand) */

/* Kinds of event in a window. */
enum {
    GPU_CE_OP = 0,              /* cpu_op */
    GPU_CE_ANNOT,               /* user_annotation */
    GPU_CE_PY,                  /* python_function */
    GPU_CE_RUNTIME,             /* cuda_runtime or cuda_driver call */
    GPU_CE_ROW,                 /* kernel, gpu_memcpy, gpu_memset */
    GPU_CE_SYNC,                /* cuda_sync row */
};

/* Flags of an event, from its name and the whole trace. */
enum {
    GPU_CF_DATALOAD = 1 << 0,   /* name contains "DataLoader" */
    GPU_CF_LOCK = 1 << 1,       /* cudaHostAlloc, cudaLaunchKernel, cudaMemcpyAsync */
    GPU_CF_BLOCKING = 1 << 2,   /* HTA's BLOCKING_SYNC_CALLS */
    GPU_CF_LAUNCH = 1 << 3,     /* a launch call of HTA's runtime mask */
    GPU_CF_RECORD = 1 << 4,     /* cudaEventRecord */
    GPU_CF_WAIT = 1 << 5,       /* cudaStreamWaitEvent */
    GPU_CF_FORWARD = 1 << 6,    /* name contains "forward" (op, annotation) */
    GPU_CF_AUTOGRAD = 1 << 7,   /* name contains "autograd" (op, annotation) */
    GPU_CF_COMM = 1 << 8,       /* a communication kernel (HTA's pattern) */
    GPU_CF_Q_LAUNCH = 1 << 9,   /* row: its stream's queue was 1 after its launch */
    GPU_CF_Q_START = 1 << 10,   /* row: its stream's queue was 0 after its start */
    GPU_CF_Q_KNOWN = 1 << 11,   /* row: in the queue series (a launch call of
                                   HTA's mask launched it) */
    GPU_CF_STEP = 1 << 12,      /* a ProfilerStep#N annotation */
    GPU_CF_GLOO = 1 << 13,      /* name starts with "gloo:" */
    GPU_CF_C10D = 1 << 14,      /* a c10d:: op or record_param_comms */
    GPU_CF_MEMCPY = 1 << 15,    /* a memcpy/memset call (cudaMemcpy*, cudaMemset*,
                                   hipMemcpy*, hipMemset*) */
    GPU_CF_SYNC = 1 << 16,      /* a sync call (*Synchronize, cudaEventQuery,
                                   cudaStreamWaitEvent) */
};

/* cuda_sync kinds (args.cuda_sync_kind, else the name). */
enum {
    GPU_SYNC_NONE = 0,
    GPU_SYNC_STREAM,            /* "Stream Sync" */
    GPU_SYNC_CONTEXT,           /* "Context Sync" */
    GPU_SYNC_EVENT,             /* "Event Sync" */
    GPU_SYNC_WAIT,              /* "Stream Wait Event" */
};

typedef struct gpu_cp_event {
    int64_t ts, end;            /* µs, rounded */
    int64_t seq;                /* file order (HTA's index): ties of time */
    int64_t corr;               /* args.correlation, SM_KEV_NONE when absent */
    int64_t stream;             /* rows and syncs: args.stream (-1 none) */
    int64_t wait_stream;        /* sync: args.wait_on_stream (-1 none) */
    int64_t wait_corr;          /* sync: wait_on_cuda_event_record_corr_id */
    uint32_t thread;            /* host events: a thread index of the trace */
    uint32_t name;              /* row in the kind's table */
    uint32_t flags;             /* GPU_CF_* */
    uint8_t kind;               /* GPU_CE_* */
    uint8_t sync;               /* GPU_SYNC_* */
} gpu_cp_event;

/* The critical path of one window's events ev[0..n) (any order; sorted in
 * place). *out filled (status says whether a path was found). 0, or -1 on
 * OOM (*out then says GPU_CPATH_TOO_LARGE). */
int gpu_cpath_run(gpu_cp_event *ev, size_t n, gpu_cpath *out);

/* Adds src's figures into dst (path, classes; top events merged by name
 * and cut to GPU_CPATH_TOP; a status other than OK counts nothing). */
void gpu_cpath_add(gpu_cpath *dst, const gpu_cpath *src);

#endif
