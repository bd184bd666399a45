/* gpu_trace: one PyTorch profiler (Kineto) trace file analysed with
 * Holistic Trace Analysis' definitions (../shared/SPEC.md §1b).
 *
 * Feed every event of one file in file order (gpu_trace_add), then the
 * file's metadata (gpu_trace_end), which computes everything at once and
 * frees the per-event buffers; then merge the result into its rank
 * (model/gpu/gpu_rank.h), where the figures are read. Pure: no I/O.
 *
 * Memory while a file is read: varint logs (model/util/varbuf.h), read
 * back at the end: about 7 bytes per GPU row (kernel, memcpy, memset), 4
 * per cpu_op and python_function, 8 per [memory] event and 5 per launch
 * call (cuda_runtime / cuda_driver with a correlation; in indexed blocks,
 * gpu_trace_calls.c); plus one copy of each distinct name. At the end,
 * each log freed once read, the ops' and [memory]'s first: a thread's ops
 * decoded and sorted only if they came out of nesting order (else nested
 * straight from the log), the [memory] points decoded and sorted only if
 * a device's came out of time order (else thinned in one pass over the
 * log per device), the calls' sorted runs merged into a second log (an
 * array of 32 bytes a call past 1024 runs), a bit per GPU row (kept or
 * not), the rows decoded and sorted by stream only if a stream's came
 * out of start order, and, once the calls are freed, 16 bytes a kept row
 * for the sweep's edges.
 * After gpu_trace_end: the name tables, one row per step and per
 * stream, the launch percentiles (exact up to GPU_LAUNCH_EXACT values,
 * then a 1 %-relative sketch) and the memory series (at most
 * GPU_MEM_POINTS points per device).
 *
 * The definitions, HTA's unless said otherwise:
 * - times are rounded to whole µs on the trace clock: start up, end down,
 *   in float64 µs as HTA computes them (at epoch-µs timestamps a double
 *   holds quarter µs: exact arithmetic would differ from HTA by 6 % of the
 *   idle time on ns_resolution); an event shorter than that becomes empty,
 *   never negative (smtop);
 * - steps are the CPU-side `ProfilerStep#N` user annotations. With two or
 *   more, the last one is left out, and so are the CPU events that start at
 *   or after its start and the GPU rows launched by them (a GPU row whose
 *   launch call is not in the trace is left out too); a lone step is kept;
 * - GPU rows are the events of category kernel, gpu_memcpy and gpu_memset.
 *   smtop: HTA takes every event that carries args.stream, which also
 *   counts a torch.compile cpu_op (`triton_*`, stream 0) as GPU time;
 * - kernel type: COMMUNICATION if the name matches ^nccl|^hip|^hccl or
 *   contains ncclKernel, else MEMORY if ^(hip)?Memcpy|^(hip)?Memset|^dma,
 *   else COMPUTATION;
 * - span = last end - first start of the GPU rows; idle = span - |union|;
 *   compute = |union of COMPUTATION|; non-compute = span - compute - idle;
 * - kernel-type breakdown: the union's time split by the set of types
 *   running at each instant (7 sets: "COMPUTATION overlapping MEMORY"...);
 * - comm/comp overlap = |COMMUNICATION ∩ COMPUTATION| / |COMMUNICATION|;
 * - idle per stream, rows in start order: the gap before a row is host wait
 *   when its launch call started after the previous row ended, else kernel
 *   wait when the gap is < kernel_wait_us (30), else other;
 * - launch statistics over the GPU rows whose launch call is known:
 *   delay = max(0, row start - call end), for the percentiles and the
 *   mean alike (HTA clips each delay at 0 before its mean:
 *   cuda_kernel_analysis.py cuda_kernel_launch_stats), short kernel: call <= 50 µs and
 *   row shorter than its call, outlier: delay > 100 µs. A graph launch
 *   (cudaGraphLaunch, hipGraphLaunch) is not counted, as in HTA: one call
 *   starts many rows, so the later rows' "delay" is the earlier rows' run
 *   time. smtop counts every other launch call, HIP (hipLaunchKernel,
 *   hipExtModuleLaunchKernel, ...) and driver (cuLaunchKernel) calls
 *   included; HTA counts the CUDA runtime's calls only, so it reports 0
 *   launches on ROCm and for Triton kernels;
 * - CPU ops (cpu_op) and Python functions (python_function), each among
 *   its own category: self = duration less the durations of the direct
 *   children on the same pid/tid (smtop; HTA gives no such figure);
 * - per step: the step's CPU window split into compute (any COMPUTATION
 *   row running), else communication, else memory, else idle (smtop: the
 *   Timeline's bar; the four add up to the step's duration);
 * - GPU memory: `[memory]` instants' Total Allocated / Total Reserved per
 *   device (Device Id -1, the host, is left out), peaks, and
 *   `[OutOfMemory]` instants counted. */
#ifndef SMTOP_GPU_TRACE_H
#define SMTOP_GPU_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_table.h"
#include "model/records.h"

typedef struct gpu_trace gpu_trace;

/* Thresholds; 0 in a field means its default (HTA's). */
typedef struct gpu_trace_opts {
    int include_last_step;       /* 1: keep the last ProfilerStep (default 0) */
    int64_t kernel_wait_us;      /* a gap below this is kernel wait (30) */
    int64_t short_call_us;       /* a call up to this can be "short" (50) */
    int64_t delay_outlier_us;    /* a delay above this is an outlier (100) */
} gpu_trace_opts;

#define GPU_LAUNCH_EXACT 32768   /* launch percentiles exact up to this many */
#define GPU_MEM_POINTS 2048      /* memory series points kept per device */

/* A new, empty analysis; o may be NULL (defaults). NULL on OOM. */
gpu_trace *gpu_trace_new(const gpu_trace_opts *o);

/* Takes one event of the file (any ph, any order of ts; strings are copied
 * when kept). 0, or -1 on OOM (the event is not counted; t stays usable).
 * Events after gpu_trace_end are ignored (-1). */
int gpu_trace_add(gpu_trace *t, const sm_kevent *ev);

/* Computes every figure from the events taken and meta (which places the
 * trace on the epoch clock: base_ns, or ts already epoch µs), then frees
 * the per-event buffers. Call once. 0, or -1 on OOM (t then holds no
 * figures and merges as an empty trace). */
int gpu_trace_end(gpu_trace *t, const sm_kmeta *meta);

/* The trace's start on the epoch clock in µs (its first event), INT64_MIN
 * when not placed (no base) or not ended: gpu_rank sorts by it. */
int64_t gpu_trace_start_us(const gpu_trace *t);

/* After gpu_trace_end: renames the names of every one of its name tables
 * (GPU_NT_*) by fn (gpu_table_rename; the decoder cleans them once). 0, or
 * -1 on OOM (t keeps the names it had). */
int gpu_trace_rename(gpu_trace *t, gpu_table_name_fn fn, void *ud);

/* Events taken so far, and heap bytes now owned by t. */
int64_t gpu_trace_events(const gpu_trace *t);
size_t gpu_trace_memory_bytes(const gpu_trace *t);

void gpu_trace_free(gpu_trace *t);

/* Kernel types, a bit each: an overlap is their OR (1..7). */
enum { GPU_KT_COMPUTATION = 1, GPU_KT_COMMUNICATION = 2, GPU_KT_MEMORY = 4 };

/* The type of a GPU row by its name (raw JSON body). */
int gpu_kernel_type(sm_str name);
/* "COMPUTATION", "COMMUNICATION overlapping MEMORY", ... for a set 1..7
 * (HTA's labels); "" otherwise. */
const char *gpu_ktype_name(int set);

#endif
