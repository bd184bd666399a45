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

#endif
