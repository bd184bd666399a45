/* gpu_impl: what gpu_trace*.c, gpu_acc.c and gpu_rank.c share inside
 * model/gpu/ (not for use outside it).
 *
 * gpu_acc is the mergeable summary: a trace computes one at its end, a rank
 * is the merge of its traces' (gpu_acc_merge is commutative). */
#ifndef SMTOP_GPU_IMPL_H
#define SMTOP_GPU_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_cpath.h"
#include "model/gpu/gpu_idle.h"
#include "model/gpu/gpu_rank.h"
#include "model/gpu/gpu_table.h"
#include "model/gpu/gpu_trace.h"
#include "model/series/quantile.h"
#include "model/gpu/gpu_sort.h"
#include "model/util/idmap.h"
#include "model/util/scratch.h"
#include "model/util/varbuf.h"

/* One analysed window of a trace (HACKING §3): a kept ProfilerStep, or a
 * trace without steps as a whole. Its figures and rows are varints in the
 * acc's wlog (gpu_win_rows), so that a rank of many steps stays small. */
typedef struct gpu_win {        /* 40 bytes */
    int64_t start_us, end_us;   /* trace clock until gpu_trace_end shifts it */
    int64_t step;               /* N of its ProfilerStep; -1 a trace without */
    uint64_t log_at;            /* its record in its segment's log: chunk << 32
                                   | offset */
    uint32_t log_len;
    uint32_t seg;               /* its segment in gpu_acc.segs */
} gpu_win;

/* The window records of one trace, written once at its end and shared by
 * every rank it is merged into (a reference each), never copied. */
typedef struct gpu_wblob {
    varbuf *chunks;             /* records never span two: a log that grows by
                                   chunks, not by copying itself */
    size_t n_chunks, cap_chunks;
    int refs;                   /* the trace's and each rank's: merges and
                                   frees happen on the thread that owns the
                                   model's writes */
} gpu_wblob;

/* A trace's records as an acc reads them: the blob, and per table the
 * acc's row of each of the trace's name rows (NULL: the trace's own). */
typedef struct gpu_wseg {
    gpu_wblob *blob;
    uint32_t *map[GPU_NT_N];
    size_t n_map[GPU_NT_N];
} gpu_wseg;

/* A window's figures. */
typedef struct gpu_wfig {
    int64_t compute_us, comm_us, memory_us, idle_us;   /* as gpu_step's */
    int64_t ktype_us[8], comm_comp_us;
    int64_t host_wait_us, kernel_wait_us, other_us;
    int64_t launches, short_kernels, outliers, delay_sum_us;
    int64_t path_us, bound_us[GPU_BOUND_N];
    int64_t gap_us;             /* GPU idle time in it, cut to the GPU span */
    int64_t idle_other_us;      /* idle overlap of the causes not kept */
    int64_t host_comm_us, host_comm_idle_us;
    int64_t cp_status;          /* GPU_CPATH_* */
} gpu_wfig;

typedef struct gpu_acc {
    int64_t traces, placed, gpu_rows, n_kept_steps;
    int64_t span_us, idle_us, compute_us, comm_us, comm_comp_us;
    int64_t ktype_us[8];
    gpu_stream_idle *streams;    /* sorted by stream */
    size_t n_streams, cap_streams;
    int64_t rank_host_us, rank_kernel_us, rank_other_us;   /* idle_us in classes */
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
    gpu_win *wins;               /* sorted by start, step */
    size_t n_wins, cap_wins;
    gpu_wseg *segs;              /* where the windows' records are */
    size_t n_segs, cap_segs;
    char backend[16];            /* distributedInfo.backend, sanitized; "" */
} gpu_acc;

/* A window's variable parts, decoded: its critical path's top events, its
 * idle causes and thread shares, its table rows (a name's count, sum and
 * self time in the window, per GPU_NT_* table). Names are rows of the
 * acc's tables. */
typedef struct gpu_wrow {
    uint32_t name;
    int64_t count, sum_us, self_us, max_us;   /* no min: not kept per window */
} gpu_wrow;

typedef struct gpu_win_rows {
    gpu_wfig fig;
    gpu_cpath_top top[GPU_CPATH_TOP];
    size_t n_top;
    gpu_idle_row idle[GPU_IDLE_ROWS];
    size_t n_idle;
    gpu_idle_thread threads[GPU_IDLE_ROWS];
    size_t n_threads;
    gpu_wrow *rows[GPU_NT_N];   /* malloc'd by gpu_win_rows_read (free with
                                   gpu_win_rows_free); by name */
    size_t n_rows[GPU_NT_N];
} gpu_win_rows;

/* Appends w's record to a trace's blob (made on first use: a->segs[0],
 * its own names), setting w's place. 0 or -1 on OOM (blob as it was). */
int gpu_win_rows_write(gpu_acc *a, gpu_win *w, const gpu_win_rows *r);
/* Decodes w's record, its names renamed to a's. 0 or -1 on OOM. */
int gpu_win_rows_read(const gpu_acc *a, const gpu_win *w, gpu_win_rows *r);
void gpu_win_rows_free(gpu_win_rows *r);

/* Fills w from a over [t0, t1) (see gpu_rank_window); whole is a's summary.
 * 0, or -1 on OOM (w empty). */
int gpu_window_fill(gpu_window *w, const gpu_acc *a, const gpu_summary *whole, int64_t t0,
                    int64_t t1);
/* The first window of a (sorted by start) starting at or after t. */
size_t gpu_acc_win_at(const gpu_acc *a, int64_t t);
/* The table GPU_NT_* of a; NULL out of range. */
const gpu_table *gpu_acc_names(const gpu_acc *a, int table);

void gpu_acc_init(gpu_acc *a);
void gpu_acc_free(gpu_acc *a);
/* dst += src; 0 or -1 on OOM. */
int gpu_acc_merge(gpu_acc *dst, const gpu_acc *src);
/* The critical path and idle parts of a summary, summed over windows
 * [lo, hi) of an acc; the lists point into the acc's tables. */
typedef struct gpu_wsum {
    int64_t windows, cp_steps, cp_failed, path_us, bound_us[GPU_BOUND_N];
    int64_t gap_us, idle_other_us, host_comm_us, host_comm_idle_us;
    int oom;
    gpu_name_us *top;
    size_t n_top;
    gpu_idle_cause *causes;
    size_t n_causes;
    gpu_thread_share *threads;
    size_t n_threads;
} gpu_wsum;

/* 0, or -1 on OOM (*out empty). */
int gpu_wsum_make(const gpu_acc *a, size_t lo, size_t hi, gpu_wsum *out);
/* The same a window at a time: begin (NULL on OOM), add each window's
 * decoded rows (out zeroed first), end (frees the collector; 0 or -1). */
void *gpu_wsum_begin(void);
void gpu_wsum_add(gpu_wsum *out, const gpu_win_rows *r, void *collector);
int gpu_wsum_end(const gpu_acc *a, gpu_wsum *out, void *collector);
void gpu_wsum_free(gpu_wsum *w);
/* s's critical_path and idle_attr from w (pointers into w). */
void gpu_wsum_fill(const gpu_wsum *w, gpu_summary *s);

/* A window's figures (gpu_rank.h): a summary and tables of its own, or,
 * for the whole rank, pointers into it. */
struct gpu_window {
    gpu_summary sum;
    const gpu_table *names[GPU_NT_N];   /* own's or the rank's */
    gpu_acc own;                /* the tables of a part of the rank */
    gpu_wsum ws;                /* its critical path and idle parts */
    gpu_mem_peak *peaks;        /* its memory peaks */
};



/* d's windows += s's (kept sorted), sharing s's blobs; map[table]: s's
 * row -> d's, for every row of s's tables. 0 or -1 on OOM. */
int gpu_acc_merge_wins(gpu_acc *d, const gpu_acc *s, uint32_t *const *map);
/* Drops a's segments (a reference each). */
void gpu_acc_free_segs(gpu_acc *a);
/* Heap bytes of a blob. */
size_t gpu_wblob_bytes(const gpu_wblob *b);
/* Frees a blob's chunks and the blob. */
void gpu_wblob_free(gpu_wblob *b);
/* Fills s from a (pointers into a). */
void gpu_acc_summary(const gpu_acc *a, gpu_summary *s);
/* The stream's idle row in a, created (zero) when absent; NULL on OOM. */
gpu_stream_idle *gpu_acc_stream(gpu_acc *a, int64_t stream);
/* Adds n copies of a point/peak/step, keeping the arrays sorted. */
int gpu_acc_add_peak(gpu_acc *a, int64_t device, int64_t alloc, int64_t reserved);
size_t gpu_acc_memory_bytes(const gpu_acc *a);

/* ---- a trace's raw buffers (gpu_trace.c fills, gpu_trace_end.c reads) */

/* A GPU row as decoded from the trace's log (gpu_trace_row_next); in the
 * log it is six varints, about 8 bytes: its start's delta to the
 * previous row's, its duration, its correlation id's delta, its stream,
 * its name, its file order's delta. Its type follows from its name. */
typedef struct gpu_row {        /* 56 bytes */
    int64_t ts, end;            /* µs, rounded (start up, end down) */
    int64_t corr;               /* SM_KEV_NONE when absent */
    int64_t stream;
    int64_t seq;                /* file order: the event's number in the file */
    size_t idx;                 /* its index in the log (not logged) */
    uint32_t name;              /* row in the trace's kernel table */
    uint8_t type;               /* GPU_KT_* */
} gpu_row;

/* A launch call: a graph launch (not counted as a launch, as in HTA), one
 * of HTA's launch names (its queue-length series counts it), or another
 * call with a correlation. */
enum { GPU_CALL_OTHER = 0, GPU_CALL_LAUNCH, GPU_CALL_GRAPH, GPU_CALL_HTA };

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

/* A host event of a group, decoded (gpu_trace_op_next). */
typedef struct gpu_hop {
    int64_t ts, end;            /* µs, rounded */
    int64_t seq;                /* file order */
    int64_t corr;               /* runtime calls: args.correlation; else SM_KEV_NONE */
    uint32_t name;              /* row in the category's table */
} gpu_hop;

/* The host events of one thread (pid/tid) and category (GPU_CE_OP,
 * _ANNOT, _PY, _RUNTIME), logged in file order until the end: self times
 * nest per thread and category, and a window's critical path and idle
 * causes read every category of a thread. Each event is four varints (its
 * start's delta to the previous event's, its duration, its name's row in
 * its table, its file order's delta), a runtime call a fifth (its
 * correlation's delta): about 5 bytes. A group whose events came in the
 * order nesting needs (start ascending, the longer first) is read
 * straight from the log; another is decoded and sorted. */
typedef struct gpu_opgroup {
    uint64_t thread;            /* hash of pid, tid (numeric or string) */
    uint32_t ti;                /* the thread's index in gpu_trace.threads */
    uint8_t cat;                /* GPU_CE_OP, _ANNOT, _PY, _RUNTIME */
    int unordered;              /* an event came before its predecessor */
    varbuf log;
    size_t n;                   /* events logged */
    gpu_hop last;               /* the last logged: the deltas' base */
} gpu_opgroup;

/* A host thread of the trace. */
typedef struct gpu_thread {
    uint64_t key;               /* thread_key's hash */
    int64_t pid, tid;           /* SM_KEV_NONE when a string */
} gpu_thread;

typedef struct gpu_mem_dev {
    int64_t device, last_t;
    size_t n;
} gpu_mem_dev;

typedef struct gpu_kstep {
    int64_t ts, end, n;
} gpu_kstep;

/* A window's state while the trace's end analyses it (gpu_trace_win.c):
 * its figures so far and its GPU rows, as varints. */
typedef struct gpu_wstate {
    int64_t host_wait_us, kernel_wait_us, other_us;   /* summed as the passes go */
    int64_t launches, short_kernels, outliers, delay_sum_us;
    varbuf rows;                /* flags, start, duration, name, stream,
                                   correlation and file order (deltas) */
    int64_t last_corr, last_seq;
} gpu_wstate;

/* A window's row entry flags. */
enum {
    GPU_WR_GRAPH = 1,           /* in the critical path's graph */
    GPU_WR_OWN = 2,             /* the window's own (its tables, idle causes) */
    GPU_WR_BUSY = 4,            /* a row before the first window running into it */
};

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
    idmap group_map;            /* thread hash ^ cat -> group index + 1 */
    gpu_thread *threads;
    size_t n_threads, cap_threads;
    idmap thread_map;           /* thread hash -> index + 1 */
    gpu_cp_event *syncs;        /* cuda_sync rows, file order (few) */
    size_t n_syncs, cap_syncs;
    int64_t last_end_us;        /* the latest end of an X event; INT64_MIN */
    gpu_wstate *ws;             /* at the end: one per window of res.wins */
    gpu_row *glast;             /* at the end: the last row of each graph launch */
    size_t n_glast, cap_glast;
    idmap glast_map;            /* its correlation -> index + 1 */
    uint8_t *qbits;             /* at the end: GPU_CF_Q_* >> 9 of row i (file order) */
    uint32_t *rt_flags;         /* gpu_name_flags of res.rt's rows */
    size_t n_rt_flags, cap_rt_flags;
    int64_t span_lo, span_hi;   /* at the end: the kept rows' span */
    int64_t cutoff_us;          /* at the end: HTA's cutoff (INT64_MAX none) */
    int has_queue;              /* a row launched by one of HTA's launch names */
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

/* ---- the windows (gpu_trace_win.c), called by gpu_trace_calc in order */

/* The windows of the kept steps (before cutoff), or the whole trace's,
 * into t->res.wins, their states into t->ws. 0 or -1 on OOM. */
int gpu_trace_wins_make(gpu_trace *t, int64_t cutoff);
/* The window whose own range holds ts ([start, next start)), or -1. */
int64_t gpu_trace_win_own(const gpu_trace *t, int64_t ts);
/* A kept row (its call c or NULL) into its windows. 0 or -1. */
int gpu_trace_win_row(gpu_trace *t, const gpu_row *r, const gpu_call *c);
/* After the last row: the graph launches' last rows into their graphs. */
int gpu_trace_win_rows_end(gpu_trace *t);
/* Each window analysed (critical path, idle causes, tables) from the
 * groups, its rows and busy time, and the syncs; its state freed. 0 or -1. */
int gpu_trace_wins_run(gpu_trace *t);
/* Frees the windows' states. */
void gpu_trace_wins_free(gpu_trace *t);

/* The computations of gpu_trace_end, on t's buffers, into t->res; times
 * still on the trace clock (shifted by gpu_trace_end). 0 or -1 on OOM. */
int gpu_trace_calc(gpu_trace *t);
/* Files one host event of category cat (GPU_CE_*) into its thread's
 * group; ev gives the thread. 0 or -1 on OOM. */
int gpu_trace_add_op(gpu_trace *t, const gpu_hop *op, const sm_kevent *ev, int cat);
/* Logs op at the end of g's log. 0 or -1 on OOM (nothing logged). */
int gpu_trace_op_log(gpu_opgroup *g, const gpu_hop *op);
/* The next event of g's log at *pos into *op, which holds the previous
 * one (zeroed before the first); pos must be < g->log.n. */
void gpu_trace_op_next(const gpu_opgroup *g, size_t *pos, gpu_hop *op);
/* Frees the ops' groups. */
void gpu_trace_free_ops(gpu_trace *t);
/* Gives the logs' slack grown by doubling back before the end's work. */
void gpu_trace_fit_ops(gpu_trace *t);
/* Heap bytes of the ops' groups. */
size_t gpu_trace_ops_bytes(const gpu_trace *t);
/* CPU ops', Python functions', annotations' and runtime calls' self times
 * into t->res.ops / .py / .annot / .rt, for events starting before
 * cutoff_us. The groups stay (the windows read them). 0 or -1 on OOM. */
int gpu_trace_calc_ops(gpu_trace *t, int64_t cutoff_us);
/* Self times by nesting (one thread and category; events in nesting
 * order): gpu_nest_push each, then gpu_nest_finish counts the open ones
 * and frees the stack. */
typedef struct gpu_nest_op {
    int64_t ts, end, child_us;
    uint32_t name;
} gpu_nest_op;

typedef struct gpu_nest {
    gpu_table *tab;
    gpu_nest_op *stack;
    size_t depth, cap;
} gpu_nest;

/* 0, or -1 on OOM (free s->stack then). */
int gpu_nest_push(gpu_nest *s, int64_t ts, int64_t end, uint32_t name);
void gpu_nest_finish(gpu_nest *s);

/* Logs one [memory] point. 0 or -1 on OOM (not logged). */
int gpu_trace_add_memory(gpu_trace *t, const gpu_mem_point *p);
/* The memory points thinned to GPU_MEM_POINTS per device into
 * t->res.mem, and each device's peaks; frees the log. 0 or -1 on OOM. */
int gpu_trace_calc_memory(gpu_trace *t);

/* ---- a window's critical path graph (gpu_cpath*.c) */

enum { CP_OPK = 0, CP_DEP, CP_LAUNCH, CP_KK, CP_SYNC };   /* HTA's CPEdgeType */
#define CP_NONE UINT32_MAX      /* no node */
#define CP_ROOT (-2)            /* attributed to the root of a call stack */

typedef struct cp_edge {        /* 24 bytes */
    uint32_t u, v;              /* nodes */
    int64_t w;                  /* HTA's CPEdge.weight (may be negative) */
    int32_t attr;               /* the event the edge is attributed to, -1 none */
    uint8_t type;               /* CP_* */
} cp_edge;

/* A 64-bit key -> index map (gpu_keymap.c) for the window pass: the
 * sums by name of the critical path's rows, the idle credits and the
 * table rows, and the idle pass's threads. The key sits in the slot:
 * idmap's item pointer and equality callback were a fifth of the
 * critical path's time. Linear probing, load <= 1/2. */
typedef struct gpu_keyslot {
    uint64_t key;
    uint32_t at;                /* the caller's index + 1; 0: empty */
} gpu_keyslot;

typedef struct gpu_keymap {
    gpu_keyslot *slot;
    size_t cap, len;            /* cap: 0 or a power of two */
    scratch *s;                 /* the owner of slot, its buffer sn */
    unsigned sn;
} gpu_keymap;

/* The index key was given; a key not in m yet is given next (and
 * counted in len). m must have an empty slot. */
size_t gpu_keymap_put(gpu_keymap *m, uint64_t key, size_t next);
/* An empty map with room for n keys on s's buffer slot (the scratch owns
 * it). 0 or -1 OOM. */
int gpu_keymap_take(gpu_keymap *m, scratch *s, unsigned slot, size_t n);
/* An empty map for a sum by name of n rows, which are many where their
 * names are few: room for a few hundred keys, grown by gpu_keymap_room
 * as more come. 0 or -1 OOM. */
int gpu_keymap_take_sums(gpu_keymap *m, scratch *s, unsigned slot, size_t n);
/* Room for one more key, the map doubled when it has none. 0 or -1 OOM
 * (the map as it was). */
int gpu_keymap_room(gpu_keymap *m);

typedef struct cp_graph {
    gpu_cp_event *ev;           /* the window's events, by file order */
    size_t n;
    uint32_t *start, *end;      /* an event's nodes (CP_NONE: none) */
    int64_t *node_ts;
    uint32_t *node_ev;
    uint8_t *node_start;
    size_t n_nodes;
    cp_edge *e;                 /* in the order HTA adds them */
    size_t n_e, cap_e;
    const int64_t *pids, *tids; /* per thread index */
    size_t n_threads;
    int64_t *rt_corr;           /* (corr, event) of runtime calls, by corr */
    size_t n_rt;
    scratch *s;                 /* every other array of the run (CPS_*) */
} cp_graph;

/* The window run's numbered scratch buffers (gpu_trace_wrun.c and
 * gpu_idle.c share one scratch, the critical path has its own), after
 * the sorts' GPU_SORT_SLOT. */
enum {
    WRS_IDLE_LO = GPU_SORT_SLOT + 1, WRS_IDLE_HI, WRS_IDLE_BEFORE, WRS_IDLE_EV, WRS_IDLE_STACK,
    WRS_IDLE_CREDITS, WRS_IDLE_COMM, WRS_CALLS, WRS_NEST, WRS_TAB, WRS_TAB_STACK, WRS_BOUNDS,
    WRS_BUSY, WRS_IDLE_MAP, WRS_IDLE_TIDS, WRS_TAB_MAP, WRS_TAB_ROWS
};

/* The critical path's numbered scratch buffers (after GPU_SORT_SLOT):
 * each alive at once with the others of its pass. */
enum {
    CPS_NODE_KEY = GPU_SORT_SLOT + 1, CPS_START, CPS_END, CPS_NODE_TS, CPS_NODE_EV,
    CPS_NODE_START, CPS_RT_CORR, CPS_SUCC, CPS_SUCC_OFF, CPS_PRED, CPS_PRED_OFF, CPS_FILL,
    CPS_ORDER, CPS_DEG, CPS_DIST, CPS_VIA, CPS_PATH, CPS_TOP_GROUPS, CPS_TOP_ROWS,
    CPS_OPEN, CPS_ITEMS, CPS_PARENT, CPS_FIRST, CPS_NEXT, CPS_LAST, CPS_STACK,
    CPS_ROW_CORR, CPS_KSYNC, CPS_KITEMS, CPS_TOP_MAP, CPS_TWINS, CPS_THREADS, CPS_RANK
};

/* Adds the edge u -> v of type (weight: the nodes' time apart, 0 for
 * dependencies or when zero) and attributes it as HTA's _attribute_edge
 * does (src_parent: the parent for an end -> start edge). An edge added
 * twice is kept twice here; gpu_cpath_run then merges them as a
 * DiGraph's add_edge does. 0 or -1 on OOM. */
int gpu_cpath_edge(cp_graph *g, uint32_t u, uint32_t v, int type, int zero, int32_t src_parent);
/* The edges added twice merged as a DiGraph's add_edge merges them (the
 * first place, the later type and weight, the later attribution when it
 * has one), the merged ones dropped; on g->s. 0 or -1 on OOM. */
int gpu_cpath_merge_twins(cp_graph *g);
/* Sorts n (key, value) pairs of int64 by key, then value (the merge
 * array from s). */
void gpu_cpath_sort_pairs(int64_t *pairs, size_t n, scratch *s);
/* The runtime call of correlation corr in the window, or -1. */
int64_t gpu_cpath_call(const cp_graph *g, int64_t corr);
/* The three edge-building passes of HTA's _construct_graph, in its order:
 * the CUDA runtime lock, the threads' call stacks, the GPU rows and syncs.
 * 0 or -1 on OOM. */
int gpu_cpath_lock_edges(cp_graph *g);
int gpu_cpath_stack_edges(cp_graph *g);
int gpu_cpath_kernel_edges(cp_graph *g);

#endif
