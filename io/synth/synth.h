/* synth: a synthetic SageMaker profiler-output tree, byte-for-byte in the
 * formats of SPEC §1, for benchmarks, tests and `smtop --demo`.
 *
 * Writes, under o->out:
 *   system/incremental/<YYYYMMDDHH>/<epoch10>.algo-<n>.json (or flat)
 *   framework/pevents/<YYYYMMDDHH>/<end_us>_<pid>-algo-<n>_pythontimeline.json
 *   framework/<pid>-algo-<n>_pythontimeline.json.tmp   (the open trace file)
 * or, with ranks > 1, one writer per rank: <rank>-algo-<n> in those names,
 * each rank with its own step schedule (one of them slow with slow_rank).
 * The job has an initialization period (no steps, idle GPUs), a training
 * loop (TRAIN steps with Forward/Backward/DataIterator events and an EVAL
 * phase every few hundred steps) and, in batch mode, a short finalization.
 * The output is a pure function of the options (with start_us fixed). */
#ifndef SMTOP_SYNTH_H
#define SMTOP_SYNTH_H

#include <stdatomic.h>
#include <stdint.h>

#include "model/util/sm_err.h"

#define SYNTH_PY_FIRST_STEP 9   /* smdebug's default Python profiling: steps 9-11 */
#define SYNTH_PY_WINDOW_STEPS 3

typedef struct synth_opts {
    const char *out;        /* output dir (profiler-output root); created if missing */
    int nodes, gpus, cpus;  /* default 2, 1, 4 */
    int minutes;            /* minutes of history written immediately; default 5 */
    int interval_ms;        /* system sampling interval; default 500 */
    int live;               /* after the history, keep writing in real time until *stop */
    int64_t start_us;       /* job start; 0 = now - minutes (so live continues seamlessly) */
    uint64_t seed;          /* deterministic output for a given seed; default 1 */
    int slow_node;          /* index of a straggler node with ~30% longer steps and lower GPU util; -1 none (default) */
    int ranks;              /* training processes (trace writers) per node; default 1 */
    int slow_rank;          /* rank of algo-1 with ~30% longer steps; -1 none (default) */
    double outlier_rate;    /* fraction of TRAIN steps that are 3-6x slower; default 0.01 */
    double step_ms;         /* mean TRAIN step time; default 120 */
    int hour_dirs;          /* 1 (default): system/incremental/<YYYYMMDDHH>/; 0: flat older layout */
    int traces;             /* 1 (default): write framework/pevents traces; 0: system metrics only */
    int python_every;       /* 0 (default): no Python stats; N: a pyinstrument window of
                             * SYNTH_PY_WINDOW_STEPS TRAIN steps starting at step 9, 9+N, 9+2N, ... */
    /* PyTorch profiler (Kineto) traces, as tensorboard_trace_handler
     * writes them (synth_kineto.c). With kineto, `out` is the job
     * directory: system metrics go under out/profiler-output/, traces
     * under out/<kineto_dir>/, and smdebug's framework traces are off
     * (a PyTorch 2.x job has none). */
    int kineto;             /* 0 (default) or 1 */
    int kineto_only;        /* 1: no system metrics */
    int kineto_form;        /* SYNTH_KINETO_MODERN (default), _2024 or _LEGACY */
    int kineto_gzip;        /* 1 (default): .pt.trace.json.gz written in place;
                             * 0: .pt.trace.json through .tmp and a rename */
    const char *kineto_dir; /* relative to out; default "tensorboard-output" */
    int kineto_every;       /* TRAIN steps between profiling cycles; default 100 */
    int kineto_active;      /* active (recorded) steps per cycle; default 3 */
    int kineto_python;      /* 1: python_function events (with_stack) */
    int host_bound;         /* 1: the GPU waits on the host most of the time
                             * (kineto_shape SYNTH_SHAPE_HOST_BOUND) */
    int kineto_shape;       /* SYNTH_SHAPE_*: the job's known bottleneck */
    /* tensorboard_trace_handler(worker_name=...): the worker is
     * "algo-<n>_<kineto_worker>" instead of "algo-<n>_<pid>"; NULL: pid */
    const char *kineto_worker;
} synth_opts;

/* Kineto job shapes, each with a known cause (synth_kineto_shape.c says
 * how each is written, after the traces of real PyTorch 2.x jobs). */
enum {
    SYNTH_SHAPE_GPU_BOUND = 0,  /* the default: kernels fill the step */
    SYNTH_SHAPE_HOST_BOUND,     /* ops spread out, the GPU waits on the host */
    SYNTH_SHAPE_GLOO,           /* DDP over gloo with CUDA tensors: all-reduce on
                                 * gloo's threads, pinned copies, 2 ranks on GPU 0 */
    SYNTH_SHAPE_MAIN_LOADER,    /* DataLoader(num_workers=0): data on the main thread */
    SYNTH_SHAPE_LAUNCH_BOUND,   /* hundreds of tiny kernels, each shorter than its launch */
    SYNTH_SHAPE_NCCL_EXPOSED,   /* NCCL all-reduce after the backward, not overlapped */
    SYNTH_SHAPE_MEMORY_FULL,    /* reserved memory near the device's size, fp32 SIMT gemms */
    SYNTH_SHAPE_COUNT
};

/* The shape's name on the command line ("gloo", "main-loader", ...), NULL
 * past the end; and the shape of a name, -1 when none. */
const char *synth_shape_name(int shape);
int synth_shape_find(const char *name);

/* Sets what shape needs over *o (ranks, GPUs, step time, with_stack,
 * worker name): applied before the command line's own options, which
 * then override it. */
void synth_shape_defaults(synth_opts *o, int shape);

enum {
    SYNTH_KINETO_MODERN = 0,  /* 2025+: baseTimeNanoseconds before traceEvents */
    SYNTH_KINETO_2024,        /* 3-decimal ts, metadata after traceEvents */
    SYNTH_KINETO_LEGACY       /* 2022: Operator/Runtime/Kernel, integer epoch ts */
};

/* Fills *o with the defaults above (out = NULL: the caller must set it). */
void synth_opts_init(synth_opts *o);

/* Checks the options without writing anything. 0, or -1 with err
 * (SM_ERR_USAGE) naming the bad option and its allowed range. */
int synth_opts_check(const synth_opts *o, sm_err *err);

/* Writes the tree; in live mode returns when *stop becomes non-zero (checked
 * at least every 100 ms), leaving the open .tmp trace file and the current
 * minute's system file in place as a killed job would. `stop` may be NULL
 * in batch mode. Returns 0, or -1 with err (SM_ERR_USAGE for bad options,
 * SM_ERR_IO naming the path that could not be written). Files already
 * written stay on disk after a failure. */
int synth_run(const synth_opts *o, const atomic_int *stop, sm_err *err);

#endif
