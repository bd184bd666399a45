/* synth_kineto_internal: what the Kineto writer's files share (not
 * public): the event writers (synth_kineto.c), the steps of each job
 * shape (synth_kineto_step.c, synth_kineto_shape.c) and the cycle's file
 * (synth_kineto_file.c). */
#ifndef SMTOP_SYNTH_KINETO_INTERNAL_H
#define SMTOP_SYNTH_KINETO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "io/synth/synth_internal.h"

#define SYNTH_KIN_US 1000LL     /* ns */

/* A growing text buffer; `oom` sticks once an append failed. */
typedef struct synth_kbuf {
    char *p;
    size_t n, cap;
    int oom;
} synth_kbuf;

void synth_kbuf_printf(synth_kbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void synth_kbuf_put(synth_kbuf *b, const char *s, size_t n);
void synth_kbuf_free(synth_kbuf *b);
/* Appends a string literal. */
#define synth_kbuf_lit(b, s) synth_kbuf_put((b), (s), sizeof(s) - 1)

/* Kineto's GPU streams: the default one, the one NCCL uses, the copy one,
 * and the side stream gloo's CUDA work copies gradients on. */
enum { KIN_STREAM_COMPUTE = 7, KIN_STREAM_NCCL = 20, KIN_STREAM_COPY = 24, KIN_STREAM_GLOO = 28 };
#define KIN_STREAMS 4

/* Event categories (synth_kin_cat names them in the trace's form). */
enum { KC_CPU, KC_USER, KC_RUNTIME, KC_KERNEL, KC_MEMCPY, KC_MEMSET, KC_FLOW, KC_GPU_USER,
       KC_PY, KC_MEM, KC_SYNC, KC_DRIVER };

/* What an op puts on the GPU; G_GEMM is a kernel cuBLASLt launches with
 * cuLaunchKernelEx (the driver API) on an H100. */
enum { G_NONE, G_KERNEL, G_MEMCPY, G_MEMSET, G_NCCL, G_GEMM };

typedef struct kop {
    int cat;                 /* KC_CPU or KC_USER */
    const char *outer, *inner;
    int gkind;
    const char *gname;
    int stream;
    int64_t bytes;           /* memcpy/memset size; NCCL: elements */
} kop;

struct synth_kin {
    const synth_trace *t;
    const synth_opts *o;
    synth_rng rng;
    int form;                 /* SYNTH_KINETO_* */
    int shape;                /* SYNTH_SHAPE_* */
    int grank, world;         /* global rank, ranks in all */
    int dev;                  /* the rank's GPU (local rank mod GPUs); -1 none */
    int pid, main_tid, bwd_tid;
    int gloo_tid[2];          /* ProcessGroupGloo's worker threads (gloo shape) */
    int64_t base_ns;          /* baseTimeNanoseconds (not in the legacy form) */
    int64_t ext_id, corr, ev_idx, py_id, rec_id;
    int64_t stream_free[KIN_STREAMS];   /* compute, NCCL, copy, gloo: next free */
    int64_t alloc, reserved, reserved_cap;   /* GPU memory, bytes */
    int64_t total_mem;        /* the device's totalGlobalMem */
    int64_t step_gpu0, step_gpu1;   /* the step's GPU rows' span (0: none yet) */
    synth_kbuf cpu, gpu;            /* the cycle's host events, then its GPU events */
    int in_cycle;
    int64_t cycle_start_ns, cycle_end_ns;
    /* a .gz written only in part (live mode): the rest and where it goes */
    void *pend_gz;            /* gzFile */
    synth_kbuf pend;
    size_t pend_at;
    char pend_path[4200];
};

/* ---- synth_kineto.c: the event writers ---- */

/* The `ts` of absolute time ns in k's form, and a duration, into b. */
void synth_kin_ts(const synth_kin *k, synth_kbuf *b, int64_t ns);
void synth_kin_dur(const synth_kin *k, synth_kbuf *b, int64_t ns);
/* An X event with an op's args (External id, record function id). */
void synth_kin_host(synth_kin *k, int cat, const char *name, int tid, int64_t ts, int64_t dur,
                    int64_t ext);
/* A python_function frame, when k's options record them (with_stack). */
void synth_kin_py(synth_kin *k, const char *name, int tid, int64_t ts, int64_t dur);
/* A `[memory]` instant: bytes allocated (> 0) or freed (< 0). */
void synth_kin_mem(synth_kin *k, int tid, int64_t ts, int64_t bytes);
/* One op on thread tid at t0 taking cpu ns on the host; its GPU activity
 * (gpu ns) starts once its stream is free and its launch has returned, or
 * not before `after`. Returns the end of the GPU activity (the host op's
 * end without one). */
int64_t synth_kin_op(synth_kin *k, const kop *op, int tid, int64_t t0, int64_t cpu, int64_t gpu,
                     int64_t after);
/* cudaStreamSynchronize on tid from t0 until `until` (the stream's work
 * done), with the GPU's `cuda_sync` row (Stream Sync) as Kineto writes
 * them. */
void synth_kin_sync(synth_kin *k, int tid, int stream, int64_t t0, int64_t until);
/* An absolute time in ns with a sub-µs part, as CUPTI's clock gives. */
int64_t synth_kin_ns(synth_kin *k, int64_t us);
/* Draws a uniform integer in [lo, hi]. */
int64_t synth_kin_draw(synth_kin *k, int64_t lo, int64_t hi);

/* ---- synth_kineto_step.c: the steps ---- */

/* Step s's events in k's buffers, by k's shape; sets the cycle's span. */
void synth_kin_gen_step(synth_kin *k, const synth_step *s);

/* ---- synth_kineto_shape.c: the shapes that are not the default step ---- */

/* DDP over gloo with CUDA tensors (SYNTH_SHAPE_GLOO): the buckets of the
 * backward over [b0, b0 + len) copied to pinned memory, all-reduced on
 * gloo's two threads (`gloo:all_reduce` of about ar ns each) and copied
 * back. Returns when the last all-reduce ends on the host. */
int64_t synth_kin_gloo_backward(synth_kin *k, int64_t b0, int64_t len, int64_t ar);
/* The DataLoader's __next__ over [d0, d0 + len) on the main thread
 * (SYNTH_SHAPE_MAIN_LOADER: _SingleProcessDataLoaderIter, the dataset's
 * __getitem__ frames) or a worker's (_MultiProcessingDataLoaderIter). */
void synth_kin_loader(synth_kin *k, int64_t d0, int64_t len);
/* The forward and backward of SYNTH_SHAPE_LAUNCH_BOUND: tiny kernels
 * launched one by one over [p0, p0 + len) on thread tid. */
void synth_kin_tiny_ops(synth_kin *k, int tid, int64_t p0, int64_t len, int bwd);

/* ---- synth_kineto_file.c ---- */

/* Writes the finished cycle's file. 0, or -1 with err naming the path. */
int synth_kin_write_cycle(synth_kin *k, sm_err *err);

#endif
