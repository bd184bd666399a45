/* gpu_impl: what gpu_trace*.c, gpu_acc.c and gpu_rank.c share inside
 * model/gpu/ (not for use outside it).
 *
 * gpu_acc is the mergeable summary: a trace computes one at its end, a rank
 * is the merge of its traces' (gpu_acc_merge is commutative). */
#ifndef SMTOP_GPU_IMPL_H
#define SMTOP_GPU_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/gpu/gpu_table.h"
#include "model/gpu/gpu_trace.h"
#include "model/series/quantile.h"
#include "model/util/idmap.h"
#include "model/util/varbuf.h"

typedef struct gpu_acc {
    int64_t traces, placed, gpu_rows, n_kept_steps;
    int64_t span_us, idle_us, compute_us, comm_us, comm_comp_us;
    int64_t ktype_us[8];
    gpu_stream_idle *streams;    /* sorted by stream */
    size_t n_streams, cap_streams;
    int64_t launches, short_kernels, outliers;
    int64_t delay_sum_us;        /* of delays clamped at 0, as HTA's mean */
    quant *delay, *cpu, *gpu;    /* NULL until the first launch */
    gpu_step *steps;             /* sorted by start, step */
    size_t n_steps, cap_steps;
    gpu_mem_point *mem;          /* sorted by t, device, values */
    size_t n_mem, cap_mem;
    gpu_mem_peak *peaks;         /* sorted by device */
    size_t n_peaks, cap_peaks;
    int64_t oom;
    int64_t tgm[SM_KMETA_MAX_DEVICES];
    size_t n_dev;
    gpu_table kernels, ops, py;
    gpu_table annot, rt;         /* user annotations; runtime/driver/sync calls */
    char backend[16];            /* distributedInfo.backend, sanitized; "" */
} gpu_acc;

/* A window's figures (gpu_rank.h): a summary and tables of its own, or,
 * for the whole rank, pointers into it. */
struct gpu_window {
    gpu_summary sum;
    const gpu_table *names[GPU_NT_N];   /* own[i] or the rank's */
    gpu_acc own;                /* what a part of the rank sums to */
};

/* Fills w from a over [t0, t1) (see gpu_rank_window); whole is a's summary.
 * 0, or -1 on OOM (w empty). */
int gpu_window_fill(gpu_window *w, const gpu_acc *a, const gpu_summary *whole, int64_t t0,
                    int64_t t1);
/* The table GPU_NT_* of a; NULL out of range. */
const gpu_table *gpu_acc_names(const gpu_acc *a, int table);

void gpu_acc_init(gpu_acc *a);
void gpu_acc_free(gpu_acc *a);
/* dst += src; 0 or -1 on OOM. */
int gpu_acc_merge(gpu_acc *dst, const gpu_acc *src);
/* Fills s from a (pointers into a). */
void gpu_acc_summary(const gpu_acc *a, gpu_summary *s);
/* The stream's idle row in a, created (zero) when absent; NULL on OOM. */
gpu_stream_idle *gpu_acc_stream(gpu_acc *a, int64_t stream);
/* Adds n copies of a point/peak/step, keeping the arrays sorted. */
int gpu_acc_add_peak(gpu_acc *a, int64_t device, int64_t alloc, int64_t reserved);
size_t gpu_acc_memory_bytes(const gpu_acc *a);

/* ---- a trace's raw buffers (gpu_trace.c fills, gpu_trace_end.c reads) */

/* A GPU row as decoded from the trace's log (gpu_trace_row_next); in the
 * log it is five varints, about 7 bytes: its start's delta to the
 * previous row's, its duration, its correlation id's delta, its stream,
 * its name. Its type follows from its name. */
typedef struct gpu_row {        /* 40 bytes */
    int64_t ts, end;            /* µs, rounded (start up, end down) */
    int64_t corr;               /* SM_KEV_NONE when absent */
    int64_t stream;
    uint32_t name;              /* row in the trace's kernel table */
    uint8_t type;               /* GPU_KT_* */
} gpu_row;

enum { GPU_CALL_OTHER = 0, GPU_CALL_LAUNCH, GPU_CALL_GRAPH };

typedef struct gpu_call {       /* 32 bytes */
    int64_t ts, end, corr;
    uint32_t kind;              /* GPU_CALL_* */
    uint32_t seq;               /* file order (at most UINT32_MAX calls) */
} gpu_call;

/* A trace's launch calls (gpu_trace_calls.c): a varint log in blocks,
 * indexed by each block's first correlation id, sorted by id at the end;
 * or, when they came in too many runs, an array. */
#define GPU_CALL_BLOCK 16
typedef struct gpu_call_block {
    int64_t corr;               /* the block's first call's */
    size_t pos;                 /* its offset in log */
} gpu_call_block;

typedef struct gpu_calls {
    varbuf log;
    size_t n;                   /* calls logged */
    gpu_call_block *index;
    size_t n_index, cap_index;
    gpu_call last;              /* the last call logged */
    size_t *runs;               /* where each sorted run starts */
    size_t n_runs, cap_runs;
    int too_many;               /* more runs than are merged */
    gpu_call *array;            /* too_many, at the end: every call, sorted */
    gpu_call block[GPU_CALL_BLOCK];  /* the block decoded last */
    size_t n_block, cached;     /* its calls; its index + 1 (0: none) */
    int64_t key;                /* the id looked up (for lbound) */
} gpu_calls;

/* The ops of one thread (pid/tid) and category, logged in file order
 * until the end: self times nest per thread, so the groups nest apart.
 * Each op is three varints (its start's delta to the previous op's, its
 * duration, its name's row in ops or py): about 4 bytes. A group whose
 * ops came in the order nesting needs (start ascending, the longer first)
 * is nested straight from the log; another is decoded and sorted. */
typedef struct gpu_opgroup {
    uint64_t thread;            /* hash of pid, tid (numeric or string) */
    int py;                     /* python_function */
    int unordered;              /* an op came before its predecessor */
    varbuf log;
    size_t n;                   /* ops logged */
    int64_t last_ts, last_end;
} gpu_opgroup;

typedef struct gpu_mem_dev {
    int64_t device, last_t;
    size_t n;
} gpu_mem_dev;

typedef struct gpu_kstep {
    int64_t ts, end, n;
} gpu_kstep;

struct gpu_trace {
    gpu_trace_opts o;
    int ended;
    int64_t events;
    int64_t first_ts_us;        /* trace clock; INT64_MAX before any */
    int64_t start_epoch_us;     /* INT64_MIN when unplaced */
    varbuf rlog;                /* GPU rows in file order (gpu_trace_row_put) */
    size_t n_rows;
    gpu_row rlast;              /* the last row logged: the deltas' base */
    uint64_t *keep;             /* at the end: bit i set when row i is kept
                                 * (HTA's cutoff); NULL when all are */
    size_t n_kept;
    gpu_calls calls;
    gpu_opgroup *groups;
    size_t n_groups, cap_groups;
    idmap group_map;            /* thread hash ^ py -> group index + 1 */
    gpu_kstep *ksteps;
    size_t n_ksteps, cap_ksteps;
    varbuf mlog;                /* [memory] points, trace clock: deltas to
                                 * the previous point's t, device, totals */
    size_t n_mev;
    gpu_mem_dev *mdev;          /* points per device, while mev_ordered */
    size_t n_mdev, cap_mdev;
    int mev_unordered;          /* a device's point came before its last */
    gpu_mem_point mlast;
    int64_t oom;
    gpu_acc res;                /* the figures, after gpu_trace_end */
};

/* Logs one GPU row (r->type is not logged: the name's). 0 or -1 on OOM
 * (nothing logged). */
int gpu_trace_row_put(gpu_trace *t, const gpu_row *r);
/* The next row of the log at *pos into *r, which holds the previous one
 * (zeroed before the first); pos must be < t->rlog.n. */
void gpu_trace_row_next(const gpu_trace *t, size_t *pos, gpu_row *r);

/* Logs one launch call (seq is its place in the file). 0 or -1 on OOM
 * (nothing logged). */
int gpu_trace_call_put(gpu_trace *t, const gpu_call *c);
/* Readies the calls for lookups (merges or sorts them if they came out of
 * order). 0 or -1 on OOM. */
int gpu_trace_calls_ready(gpu_trace *t);
/* The first call (in file order) of correlation id corr, or NULL. Valid
 * until the next lookup. */
const gpu_call *gpu_trace_find_call(gpu_trace *t, int64_t corr);
/* Frees the calls' log, index and array; k is empty afterwards. */
void gpu_trace_calls_free(gpu_calls *k);
/* Heap bytes of the calls. */
size_t gpu_trace_calls_bytes(const gpu_trace *t);

/* The computations of gpu_trace_end, on t's buffers, into t->res; times
 * still on the trace clock (shifted by gpu_trace_end). 0 or -1 on OOM. */
int gpu_trace_calc(gpu_trace *t);
/* Files one op (rounded times) into its thread's group. 0 or -1 on OOM. */
int gpu_trace_add_op(gpu_trace *t, int64_t ts, int64_t end, uint64_t thread, uint32_t name,
                     int py);
/* Frees the ops' groups. */
void gpu_trace_free_ops(gpu_trace *t);
/* Gives the logs' slack grown by doubling back before the end's work. */
void gpu_trace_fit_ops(gpu_trace *t);
/* Heap bytes of the ops' groups. */
size_t gpu_trace_ops_bytes(const gpu_trace *t);
/* CPU ops' and Python functions' self times into t->res.ops / .py, for
 * ops starting before cutoff_us. 0 or -1 on OOM. */
int gpu_trace_calc_ops(gpu_trace *t, int64_t cutoff_us);
/* Logs one [memory] point. 0 or -1 on OOM (not logged). */
int gpu_trace_add_memory(gpu_trace *t, const gpu_mem_point *p);
/* The memory points thinned to GPU_MEM_POINTS per device into
 * t->res.mem, and each device's peaks; frees the log. 0 or -1 on OOM. */
int gpu_trace_calc_memory(gpu_trace *t);

#endif
