/* records: the typed records decoders hand to the model.
 *
 * Strings are slices (pointer + length, not NUL-terminated) into the
 * decoder's buffer and are valid only for the duration of the call that
 * receives the record: the model copies (interns) what it keeps. Times are
 * integer microseconds since the epoch everywhere in smtop, so no precision
 * is lost on 16-digit timestamps and arithmetic stays exact. */
#ifndef SMTOP_RECORDS_H
#define SMTOP_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/util/sm_err.h"
#include "model/util/sm_str.h"

/* One line of system/incremental/ JSON files. */
typedef struct sm_sample {
    sm_str type;      /* "cpu", "gpu", "memory", "i/o", "network", or any other */
    sm_str dimension; /* "CPUUtilization", "GPUUtilization", "Algorithm", ... */
    sm_str name;      /* "cpu5", "gpu0", "MemoryUsedPercent"; len 0 when absent */
    sm_str node;      /* "algo-1" */
    double value;
    int64_t ts_us;    /* Timestamp, epoch microseconds (rounded) */
    /* Keys this decoder does not know, carried as raw JSON members
     * (`"k":v,"k2":v2`), len 0 when none. */
    sm_str extra;
} sm_sample;

/* One framework trace event, already placed on the epoch clock. B/E pairs
 * are matched by the decoder and arrive here as one complete event. */
typedef struct sm_event {
    sm_str node;      /* node id derived from the file name ("algo-1", "b88ab1bb8259") */
    sm_str phase;     /* process_name of the event's pid ("Step:ModeKeys.TRAIN",
                         "Forward", "DataIterator", ...); len 0 when unnamed */
    sm_str name;      /* event name; may be empty (horovod `E` events) */
    int64_t start_us; /* epoch µs */
    int64_t dur_us;   /* >= 0 */
    int64_t step;     /* args.step_num as integer, -1 when absent */
    int64_t pid, tid;
    sm_str process;   /* the writer id, the file name's node part ("1-algo-1",
                         "905-b88ab1bb8259"); len 0 when unknown */
} sm_event;

/* Where e ends, or INT64_MAX when start + dur overflows (the model
 * refuses such an event, and counts it). */
static inline int64_t sm_event_end(const sm_event *e)
{
    int64_t end;
    return __builtin_add_overflow(e->start_us, e->dur_us, &end) ? INT64_MAX : end;
}

/* ---- PyTorch profiler (Kineto) traces: SPEC §1b ----------------------
 *
 * The decoder (io/decode/kineto_*) hands each event of one trace file to
 * the model on the *trace's own clock*: metadata (baseTimeNanoseconds,
 * distributedInfo) may come after traceEvents, so the job-clock offset is
 * known only once the file ends (sm_kmeta). Consumers keep trace-clock
 * times and apply sm_kmeta's base when the trace is complete.
 *
 * Times are integer nanoseconds: ts has 3 decimals since 2024, so ts·1000
 * is exact; an absolute epoch ts (> 1e15 µs) still fits int64 in ns. */

/* Event categories, legacy (pre-2022) names folded into the modern ones:
 * Operator → CPU_OP, Runtime → CUDA_RUNTIME, Kernel → KERNEL, Memcpy →
 * GPU_MEMCPY, Memset → GPU_MEMSET. */
typedef enum sm_kcat {
    KCAT_OTHER = 0,
    KCAT_CPU_OP,
    KCAT_USER_ANNOTATION,     /* ProfilerStep#N and record_function ranges */
    KCAT_GPU_USER_ANNOTATION,
    KCAT_PYTHON_FUNCTION,     /* with_stack: often 90 % of the events */
    KCAT_CUDA_RUNTIME,        /* cudaLaunchKernel, hipLaunchKernel, ... */
    KCAT_CUDA_DRIVER,         /* cuLaunchKernel (Triton) */
    KCAT_KERNEL,
    KCAT_GPU_MEMCPY,
    KCAT_GPU_MEMSET,
    KCAT_CUDA_SYNC,
    KCAT_OVERHEAD,
    KCAT_TRACE,
    KCAT_FLOW,                /* ph s/f: ac2g, fwdbwd, async, async_cpu_to_gpu */
    KCAT_MEMORY,              /* ph i "[memory]" */
    KCAT_OOM,                 /* ph i "[OutOfMemory]" */
    KCAT_COUNT
} sm_kcat;

/* Where an event runs: a CPU event's pid/tid are OS ids; a GPU event's
 * pid is the device ordinal and tid the CUDA stream. */
#define SM_KEV_NONE INT64_MIN  /* an absent numeric field */

typedef struct sm_kevent {
    char ph;                  /* 'X', 'i', 's', 'f', 'M', 'C', 'B', 'E' */
    uint8_t cat;              /* sm_kcat */
    sm_str name;              /* raw JSON string body (escapes not undone:
                                 use the decoder's unescape helper to copy) */
    int64_t ts_ns;            /* trace clock */
    int64_t dur_ns;           /* >= 0 for X, SM_KEV_NONE otherwise */
    int64_t pid, tid;         /* numeric ids; SM_KEV_NONE when a string */
    sm_str pid_str, tid_str;  /* the string form ("Spans", ""), raw; ptr NULL
                                 (len 0) when not a string */
    /* args, SM_KEV_NONE when absent; ids wider than int64 are reduced to
     * their low 64 bits (they are only ever compared for equality) */
    int64_t correlation;      /* args.correlation; a flow event's id */
    int64_t external_id;      /* args["External id"] */
    int64_t device, stream;   /* args.device / args.stream (GPU events) */
    int64_t step;             /* N of a "ProfilerStep#N", else -1 */
    /* [memory] instants: bytes; Device Id -1 is the host */
    int64_t mem_bytes, mem_total_allocated, mem_total_reserved, mem_device;
    sm_str collective;        /* args["Collective name"] of NCCL kernels */
    int64_t msg_bytes;        /* memcpy/memset args.bytes */
    /* cuda_sync rows: the stream and the cudaEventRecord (its correlation)
     * an Event Sync or Stream Wait Event waits on */
    int64_t wait_stream;      /* args.wait_on_stream */
    int64_t wait_corr;        /* args.wait_on_cuda_event_record_corr_id */
    sm_str arg_name;          /* args.name, raw like name: the process or
                                 thread name of a ph M event; len 0 when
                                 absent */
} sm_kevent;

#define SM_KMETA_MAX_DEVICES 64

/* A trace's metadata, complete only at the end of the file. Its strings
 * point into the decoder and live until the decoder is freed. */
typedef struct sm_kmeta {
    int has_schema;           /* schemaVersion seen */
    int64_t schema_version;
    int has_base;             /* baseTimeNanoseconds seen */
    int64_t base_ns;          /* epoch ns of ts 0 when has_base */
    int ts_epoch;             /* no base, but ts > 1e15: ts already epoch µs */
    int has_dist;             /* distributedInfo seen */
    int64_t rank;             /* distributedInfo.rank, -1 when absent */
    int64_t world_size;       /* -1 when absent */
    sm_str backend;           /* "nccl", "gloo", ... len 0 when absent */
    sm_str host_name;         /* a top-level host name key if any; len 0 */
    size_t n_devices;         /* deviceProperties[] entries (capped) */
    int64_t total_global_mem[SM_KMETA_MAX_DEVICES]; /* bytes, by id order;
                                 -1 when absent */
    int64_t events;           /* traceEvents seen (kept and skipped) */
    int64_t bad_events;       /* of them, not events: not an object, no
                                 one-character ph, or over the size bound */
    int has_trace_events;     /* a traceEvents array seen */
    int kineto_keys;          /* schemaVersion, deviceProperties or
                                 distributedInfo seen (any value) */
} sm_kmeta;


/* ---- the one way in: what every decoder hands its records to ----------
 *
 * A decoder (io/decode/decoder.h) turns a file's bytes into the records
 * above and hands them to a rec_sink; the ingest path implements it (a
 * node's model writer on an ingest worker, the batch's ordered queue for
 * a finished Kineto trace, the Python stats store). No decoder holds the
 * model. */

struct gpu_trace;
struct kineto_keep;
struct pystats_window;
struct pystats_func_rec;

/* A Python profiler stats file (cProfile, pyinstrument) as a window of
 * functions, in calls: one SM_PY_BEGIN, its SM_PY_FUNC calls, then
 * SM_PY_END (the window replaces an earlier version of the same key),
 * SM_PY_FAILED (a failed session, stored as such) or SM_PY_ABORT (the
 * file turned out corrupt: nothing of it is kept). */
enum { SM_PY_BEGIN, SM_PY_FUNC, SM_PY_END, SM_PY_FAILED, SM_PY_ABORT };

typedef struct sm_pywindow {
    int what;                              /* SM_PY_* */
    const char *key;                       /* the file's key */
    const struct pystats_window *info;     /* BEGIN: the window, from the path */
    const struct pystats_func_rec *func;   /* FUNC: one function */
} sm_pywindow;

#define SM_TRACE_NAME 128

/* A finished Kineto trace: what its end needs to place it on the job
 * (its node and process, the job clock) and keep it. The sink takes
 * ownership and frees it with kineto_done_free (io/decode). */
typedef struct sm_trace_done {
    sm_kmeta meta;                /* complete; host_name and backend point
                                     into host and backend below */
    char host[SM_TRACE_NAME], backend[32];
    char node[SM_TRACE_NAME];     /* the file name's node ("" unknown) */
    char process[SM_TRACE_NAME];  /* the file name's worker ("" unknown) */
    char *key;                    /* the file's key (owned) */
    int64_t len;                  /* its bytes */
    struct gpu_trace *tr;         /* its analysis, ended (owned) */
    struct kineto_keep *keep;     /* its CPU ops and annotations, on the
                                     trace's clock, for the model (owned) */
    int64_t dropped;              /* CPU events past the keep's bound */
} sm_trace_done;

/* Records outside [2000, 2100) are refused by the model (a clock that was
 * never set, or milliseconds taken for seconds). */
#define SM_TIME_MIN_US 946684800000000LL    /* 2000-01-01T00:00:00Z */
#define SM_TIME_MAX_US 4102444800000000LL   /* 2100-01-01T00:00:00Z */
static inline int sm_time_plausible(int64_t t_us)
{
    return t_us >= SM_TIME_MIN_US && t_us < SM_TIME_MAX_US;
}

/* ---- line files: system metrics and smdebug's traces ------------------
 *
 * A line decoder (io/decode/decoder_lines) numbers the keys of a read's
 * samples ahead and keeps, per key, a rec_ref the sink fills on the key's
 * first sample (the model's series: model_ref is this type). The decoder
 * never reads it but to ask whether it is filled: a filled key's samples
 * are held back and handed over as runs of one key (issue 15: series by
 * series keeps each series' data in cache). */
struct model_node;
typedef struct rec_ref {
    struct model_node *node;
    void *ent;
} rec_ref;

#define REC_RUN_MAX 256   /* samples in one run */

/* What a line decoder counts of the lines it was fed (added to). */
typedef struct rec_lines {
    int64_t lines, corrupt, partial;
    char first_bad[48];   /* start of the first corrupt line, printable */
    int64_t bad_line[4];  /* the first corrupt lines' numbers, 1-based */
    size_t nbad;          /* how many of bad_line are set */
} rec_lines;

/* Where a decoder's records go. A callback returns 0, or -1 when the
 * record was refused (counted, never fatal; trace's err says why, and
 * the file is then named as not read). NULL callbacks take nothing. */
typedef struct rec_sink {
    void *ud;
    int (*sample)(void *ud, const sm_sample *s);          /* system, CloudWatch */
    int (*event)(void *ud, const sm_event *e);            /* smdebug/TF traces */
    int (*pywindow)(void *ud, const sm_pywindow *w);      /* cProfile, pyinstrument */
    int (*trace)(void *ud, sm_trace_done *t, sm_err *err);  /* a finished Kineto
                                                              trace; the sink owns
                                                              t from here */
    void (*note)(void *ud, const char *what);             /* a warning on this file */
    /* Line files (optional: a NULL one falls back to sample). A sample
     * with its key's ref (NULL: its key was not numbered ahead); */
    int (*sample_ref)(void *ud, const sm_sample *s, rec_ref *ref);
    /* a run of n <= REC_RUN_MAX samples of the key ref was filled for:
     * proto's strings with ts[i] and v[i]; taken[i] set 1 for each taken */
    void (*run)(void *ud, rec_ref *ref, const sm_sample *proto, const int64_t *ts,
                const double *v, size_t n, unsigned char *taken);
    /* then each taken sample of the runs again, in line order (the CPU
     * total sums a timestamp's cores in the order they came) */
    void (*run_taken)(void *ud, const rec_ref *ref, const sm_sample *s);
    rec_lines *lines;     /* where a line decoder counts, or NULL */
} rec_sink;

#endif
