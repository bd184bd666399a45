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

/* A name table's trace category, as the report and Top name an event of
 * it: "kernel", "cpu_op", "python_function", "user_annotation",
 * "cuda_runtime" (which holds cuda_driver and cuda_sync too); "unknown"
 * out of range. */
const char *gpu_nt_name(int table);

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

/* A name's group for gpu_cpath_in.short_of: its table and row in one. */
#define GPU_SHORT_GROUP(table, row) ((uint32_t)(table) << 29 | (uint32_t)(row))

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
    GPU_CF_DATA_BOUND = 1 << 17,  /* HTA's bound_by says data_loading: its
                                   shortened name matches a data-load pattern */
};

/* The GPU_CF_* flags a name of table (GPU_NT_*) carries (raw JSON body). */
uint32_t gpu_name_flags(int table, const char *name, size_t len);

/* HTA's shorten_name (hta/utils/utils.py): argument lists and template
 * arguments dropped, the last space-separated word kept; memory kernels
 * and names without '<' or '(' as they are. Writes at most cap - 1 bytes
 * and a NUL into out; returns the length. */
size_t gpu_shorten_name(const char *name, size_t len, char *out, size_t cap);

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
    uint8_t part;               /* the caller's (gpu_cpath_run and gpu_idle_run
                                   do not read it) */
} gpu_cp_event;

/* The buffers a window's graph is built in, kept for the next window's:
 * a buffer freed and allocated again at every window faults its pages in
 * again (BENCHMARKS.md). One per thread of runs; NULL on OOM. */
typedef struct gpu_cpath_ws gpu_cpath_ws;
gpu_cpath_ws *gpu_cpath_ws_new(void);
void gpu_cpath_ws_free(gpu_cpath_ws *w);

/* A window's events for its graph: those in the window as the header
 * says (host events lasting more than 0 µs), any order (sorted in place
 * by seq); pids and tids of the thread indexes; has_queue: the whole
 * trace has a launched GPU row (HTA's queue-length series exists). */
typedef struct gpu_cpath_in {
    gpu_cp_event *ev;
    size_t n;
    const int64_t *pids, *tids;
    size_t n_threads;
    int has_queue;
    /* HTA sums its top events by shortened name (gpu_shorten_name), in
     * every category at once: per table and row, its group,
     * GPU_SHORT_GROUP of the first (table, row) of the same shortened
     * name; NULL sums by name as it is. A top event then names the row of
     * its group with the most time. */
    const uint32_t *const *short_of;
    /* buffers kept from one run to the next (a trace's windows); NULL:
     * the run makes its own and frees them */
    gpu_cpath_ws *ws;
} gpu_cpath_in;

/* The critical path of in's events into *out (status says whether a path
 * was found). 0, or -1 on OOM (*out then says GPU_CPATH_TOO_LARGE). */
int gpu_cpath_run(const gpu_cpath_in *in, gpu_cpath *out);



#endif
