/* synth_kineto: one rank's PyTorch profiler (Kineto) events, a profiling
 * cycle at a time, shaped after the real traces in shared/samples/kineto.
 * This file writes the events; synth_kineto_step.c and
 * synth_kineto_shape.c lay out a step for each job shape:
 *
 * - a cycle records kineto_active TRAIN steps, every kineto_every steps
 *   from step SYNTH_KIN_FIRST on (torch.profiler.schedule's wait, warmup,
 *   active);
 * - every op that reaches the GPU has its launch call (cuda_runtime:
 *   cudaLaunchKernel, cudaLaunchKernelExC for NCCL, cudaMemcpyAsync,
 *   cudaMemsetAsync; cuda_driver: cuLaunchKernelEx for cuBLASLt's gemms
 *   on an H100) and the kernel/memcpy/memset on a stream, tied by
 *   `correlation`, `External id` and an ac2g flow, as Kineto writes them:
 *   the GPU activity, its flow end, its launch call, the flow start;
 * - a stream synchronization is the cudaStreamSynchronize call and its
 *   `cuda_sync` row ("Stream Sync") on the GPU, sharing a correlation;
 * - `[memory]` instants with Total Allocated/Reserved;
 * - `python_function` frames (kineto_python: with_stack).
 * With no GPUs (gpus 0) the trace is CPU only, as a gloo job's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/synth/synth_kineto_internal.h"
#include "model/util/vec.h"

#define SYNTH_KIN_FIRST 10      /* the first profiled step (wait + warmup before) */
#define US SYNTH_KIN_US

/* ---- the text buffer ---------------------------------------------------- */

void synth_kbuf_put(synth_kbuf *b, const char *s, size_t n)
{
    if (b->oom || vec_grow(&b->p, &b->cap, b->n + n + 1, 1, 1 << 16) != 0) {
        b->oom = 1;
        return;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void synth_kbuf_printf(synth_kbuf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if ((size_t)n < sizeof tmp) {
        synth_kbuf_put(b, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    synth_kbuf_put(b, big, (size_t)n);
    free(big);
}

void synth_kbuf_free(synth_kbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- time formats -------------------------------------------------------- */

void synth_kin_ts(const synth_kin *k, synth_kbuf *b, int64_t ns)
{
    if (k->form == SYNTH_KINETO_LEGACY) {
        synth_kbuf_printf(b, "%lld", (long long)(ns / US));
        return;
    }
    int64_t rel = ns - k->base_ns;
    synth_kbuf_printf(b, "%lld.%03lld", (long long)(rel / US), (long long)(rel % US));
}

void synth_kin_dur(const synth_kin *k, synth_kbuf *b, int64_t ns)
{
    if (k->form == SYNTH_KINETO_LEGACY)
        synth_kbuf_printf(b, "%lld", (long long)(ns / US));
    else
        synth_kbuf_printf(b, "%lld.%03lld", (long long)(ns / US), (long long)(ns % US));
}

/* ---- categories ---------------------------------------------------------- */

/* Before 2022 Kineto named its categories after the activity types; the
 * legacy flow's category and name follow SPEC §1b ("async"), not a sample. */
static const char *kin_cat(const synth_kin *k, int c)
{
    static const char *const modern[] = {"cpu_op", "user_annotation", "cuda_runtime",
                                         "kernel", "gpu_memcpy", "gpu_memset", "ac2g",
                                         "gpu_user_annotation", "python_function",
                                         "cpu_instant_event", "cuda_sync", "cuda_driver"};
    static const char *const legacy[] = {"Operator", "Operator", "Runtime", "Kernel",
                                         "Memcpy", "Memset", "async", "", "python_function",
                                         "cpu_instant_event", "", "Runtime"};
    return k->form == SYNTH_KINETO_LEGACY ? legacy[c] : modern[c];
}

/* Opens an X event up to its args' first line; kin_ev_end closes it. */
static void kin_ev_x(const synth_kin *k, synth_kbuf *b, int cat, const char *name, int pid, int tid,
                     int64_t ts, int64_t dur)
{
    synth_kbuf_printf(b, "  {\n    \"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %d, "
                   "\"tid\": %d,\n    \"ts\": ", kin_cat(k, cat), name, pid, tid);
    synth_kin_ts(k, b, ts);
    synth_kbuf_lit(b, ", \"dur\": ");
    synth_kin_dur(k, b, dur);
    synth_kbuf_lit(b, ",\n    \"args\": {\n      ");
}

static void kin_ev_end(synth_kbuf *b)
{
    synth_kbuf_lit(b, "\n    }\n  },\n");
}

static void kin_flow(const synth_kin *k, synth_kbuf *b, const char *ph, int64_t id, int pid, int tid,
                     int64_t ts, int end)
{
    int legacy = k->form == SYNTH_KINETO_LEGACY;
    synth_kbuf_printf(b, "  {\n    \"ph\": \"%s\", \"id\": %lld, \"pid\": %d, \"tid\": %d, \"ts\": ",
                ph, (long long)id, pid, tid);
    synth_kin_ts(k, b, ts);
    synth_kbuf_printf(b, ",\n    \"cat\": \"%s\", \"name\": \"%s\"%s\n  },\n", kin_cat(k, KC_FLOW),
                legacy ? "launch" : "ac2g", end ? ", \"bp\": \"e\"" : "");
}

void synth_kin_host(synth_kin *k, int cat, const char *name, int tid, int64_t ts, int64_t dur,
                    int64_t ext)
{
    kin_ev_x(k, &k->cpu, cat, name, k->pid, tid, ts, dur);
    if (k->form == SYNTH_KINETO_LEGACY)
        synth_kbuf_printf(&k->cpu, "\"External id\": %lld,\"Ev Idx\": %lld", (long long)ext,
                    (long long)k->ev_idx++);
    else
        synth_kbuf_printf(&k->cpu, "\"External id\": %lld,\"Record function id\": %lld, \"Ev Idx\": %lld",
                    (long long)ext, (long long)++k->rec_id, (long long)k->ev_idx++);
    kin_ev_end(&k->cpu);
}

void synth_kin_py(synth_kin *k, const char *name, int tid, int64_t ts, int64_t dur)
{
    if (!k->o->kineto_python)
        return;
    int64_t id = ++k->py_id;
    kin_ev_x(k, &k->cpu, KC_PY, name, k->pid, tid, ts, dur);
    synth_kbuf_printf(&k->cpu, "\"Python parent id\": %lld, \"Python id\": %lld, "
                         "\"Python thread\": %d", (long long)(id > 1 ? id - 1 : 0),
                (long long)id, tid == k->main_tid ? 0 : 1);
    kin_ev_end(&k->cpu);
}

void synth_kin_mem(synth_kin *k, int tid, int64_t ts, int64_t bytes)
{
    if (k->dev < 0)
        return;
    k->alloc += bytes;
    if (k->alloc < 0)
        k->alloc = 0;
    int64_t chunk = 2LL << 20;   /* the caching allocator reserves in blocks */
    int64_t want = (k->alloc + chunk - 1) / chunk * chunk;
    if (want > k->reserved)
        k->reserved = want;
    synth_kbuf_printf(&k->cpu, "  {\n    \"ph\": \"i\", \"cat\": \"%s\", \"s\": \"t\", \"name\": "
                         "\"[memory]\",\n    \"pid\": %d, \"tid\": %d,\n    \"ts\": ",
                kin_cat(k, KC_MEM), k->pid, tid);
    synth_kin_ts(k, &k->cpu, ts);
    synth_kbuf_printf(&k->cpu, ",\n    \"args\": {\n      \"Ev Idx\": %lld, \"Device Type\": 1, "
                         "\"Device Id\": %d, \"Addr\": %lld, \"Bytes\": %lld, "
                         "\"Total Allocated\": %lld, \"Total Reserved\": %lld\n    }\n  },\n",
                (long long)k->ev_idx++, k->dev,
                (long long)(139926520725504LL + (int64_t)(synth_rng_next(&k->rng) % 4096) * 4096),
                (long long)bytes, (long long)k->alloc, (long long)k->reserved);
}

/* ---- ops that reach the GPU ---------------------------------------------- */

static int stream_slot(int stream)
{
    return stream == KIN_STREAM_NCCL ? 1 : stream == KIN_STREAM_COPY ? 2
           : stream == KIN_STREAM_GLOO ? 3 : 0;
}

/* cuBLASLt's gemms go through the driver's cuLaunchKernelEx on an H100
 * (2022's Kineto: a runtime call, as its samples have no driver events). */
static int launch_is_driver(const synth_kin *k, int gkind)
{
    return gkind == G_GEMM && k->form != SYNTH_KINETO_LEGACY;
}

static const char *launch_name(const synth_kin *k, int gkind)
{
    return gkind == G_MEMCPY ? "cudaMemcpyAsync" : gkind == G_MEMSET ? "cudaMemsetAsync"
           : gkind == G_NCCL ? "cudaLaunchKernelExC"
           : launch_is_driver(k, gkind) ? "cuLaunchKernelEx" : "cudaLaunchKernel";
}

/* CUPTI's callback ids (cupti_runtime_cbid.h, cupti_driver_cbid.h). */
static int launch_cbid(const synth_kin *k, int gkind)
{
    return gkind == G_MEMCPY ? 41 : gkind == G_MEMSET ? 51 : gkind == G_NCCL ? 430
           : launch_is_driver(k, gkind) ? 652 : 211;
}

/* The NCCL args Kineto adds to a collective's kernel (not in the 2022
 * form); Process Group Ranks is a string, as in the samples. */
static void kin_nccl_args(synth_kin *k, synth_kbuf *b, int64_t nelems)
{
    synth_kbuf_printf(b, ", \"Collective name\": \"allreduce\", \"In msg nelems\": %lld, "
                   "\"Out msg nelems\": %lld, \"Group size\": %d, \"dtype\": \"Float\", "
                   "\"In split size\": \"[]\", \"Out split size\": \"[]\", "
                   "\"Process Group Name\": \"0\", \"Process Group Description\": "
                   "\"default_pg\", \"Process Group Ranks\": \"[",
                (long long)nelems, (long long)nelems, k->world);
    for (int r = 0; r < k->world; r++)
        synth_kbuf_printf(b, r ? ", %d" : "%d", r);
    synth_kbuf_lit(b, "]\"");
}

/* The GPU activity of a launch, its flow end, the launch call and its
 * flow start, in the order Kineto writes them. */
static void kin_gpu(synth_kin *k, const kop *op, int tid, int64_t ext, int64_t ls, int64_t ld,
                    int64_t ks, int64_t kd)
{
    int64_t corr = ++k->corr;
    synth_kbuf *b = &k->gpu;
    int cat = op->gkind == G_MEMCPY ? KC_MEMCPY : op->gkind == G_MEMSET ? KC_MEMSET : KC_KERNEL;
    kin_ev_x(k, b, cat, op->gname, k->dev, op->stream, ks, kd);
    if (k->step_gpu0 == 0 || ks < k->step_gpu0)
        k->step_gpu0 = ks;
    if (ks + kd > k->step_gpu1)
        k->step_gpu1 = ks + kd;
    synth_kbuf_printf(b, "\"External id\": %lld,      \"device\": %d, \"context\": 1,      "
                   "\"stream\": %d, \"correlation\": %lld", (long long)ext, k->dev, op->stream,
                (long long)corr);
    if (cat == KC_KERNEL) {
        int regs = 16 + 8 * (int)(synth_rng_next(&k->rng) % 12);
        synth_kbuf_printf(b, ",      \"registers per thread\": %d,      \"shared memory\": %d,      "
                       "\"grid\": [%d, 1, 1],      \"block\": [%d, 1, 1],      "
                       "\"est. achieved occupancy %%\": %d", regs,
                    op->gkind == G_NCCL ? 87568 : 0, op->gkind == G_NCCL ? 8 : 1024,
                    op->gkind == G_NCCL ? 544 : 256, op->gkind == G_NCCL ? 0 : 50);
        if (op->gkind == G_NCCL && k->form != SYNTH_KINETO_LEGACY)
            kin_nccl_args(k, b, op->bytes);
    } else {
        double gbps = (double)op->bytes / (double)(kd > 0 ? kd : 1);
        synth_kbuf_printf(b, ",      \"bytes\": %lld, \"memory bandwidth (GB/s)\": %.13g",
                    (long long)op->bytes, gbps);
    }
    kin_ev_end(b);
    kin_flow(k, b, "f", corr, k->dev, op->stream, ks, 1);
    kin_ev_x(k, b, launch_is_driver(k, op->gkind) ? KC_DRIVER : KC_RUNTIME,
             launch_name(k, op->gkind), k->pid, tid, ls, ld);
    synth_kbuf_printf(b, "\"External id\": %lld,      \"cbid\": %d, \"correlation\": %lld",
                (long long)ext, launch_cbid(k, op->gkind), (long long)corr);
    kin_ev_end(b);
    kin_flow(k, b, "s", corr, k->pid, tid, ls, 0);
}

int64_t synth_kin_op(synth_kin *k, const kop *op, int tid, int64_t t0, int64_t cpu,
                     int64_t gpu, int64_t after)
{
    if (cpu < 4 * US)
        cpu = 4 * US;
    int64_t ext = ++k->ext_id;
    synth_kin_py(k, "torch/nn/modules/module.py(1747): _call_impl", tid, t0 - 2 * US, cpu + 3 * US);
    synth_kin_host(k, op->cat, op->outer, tid, t0, cpu, ext);
    int64_t in0 = t0 + cpu / 8, in1 = t0 + cpu - cpu / 16;
    if (op->inner) {
        ext = ++k->ext_id;
        synth_kin_host(k, KC_CPU, op->inner, tid, in0, in1 - in0, ext);
    }
    if (op->gkind == G_NONE || k->dev < 0)
        return t0 + cpu;
    /* a launch takes 4-12 us, one in 50 a slow 60-200 us */
    int64_t ld = (4 + (int64_t)(synth_rng_next(&k->rng) % 9)) * US;
    if (synth_rng_next(&k->rng) % 50 == 0)
        ld = (60 + (int64_t)(synth_rng_next(&k->rng) % 140)) * US;
    if (ld > (in1 - in0) * 3 / 4)
        ld = (in1 - in0) * 3 / 4;
    int64_t ls = in1 - ld - US;
    int slot = stream_slot(op->stream);
    int64_t ks = ls + ld + (1 + (int64_t)(synth_rng_next(&k->rng) % 6)) * US;
    if (ks < k->stream_free[slot])
        ks = k->stream_free[slot] + (int64_t)(synth_rng_next(&k->rng) % 900);
    if (ks < after)
        ks = after + 2 * US;
    k->stream_free[slot] = ks + gpu;
    kin_gpu(k, op, tid, ext, ls, ld, ks, gpu);
    return ks + gpu;
}

void synth_kin_sync(synth_kin *k, int tid, int stream, int64_t t0, int64_t until)
{
    int64_t s1 = until > t0 + 3 * US ? until : t0 + 3 * US;
    int64_t corr = ++k->corr, ext = ++k->ext_id;
    kin_ev_x(k, &k->cpu, KC_RUNTIME, "cudaStreamSynchronize", k->pid, tid, t0, s1 - t0);
    synth_kbuf_printf(&k->cpu, "\"External id\": %lld,      \"cbid\": 131, \"correlation\": %lld",
                (long long)ext, (long long)corr);
    kin_ev_end(&k->cpu);
    if (k->dev < 0 || k->form == SYNTH_KINETO_LEGACY)
        return;
    /* the GPU's record starts as the call reaches the driver */
    int64_t g0 = t0 + 2 * US;
    kin_ev_x(k, &k->gpu, KC_SYNC, "Stream Sync", k->dev, stream, g0, s1 - g0);
    synth_kbuf_printf(&k->gpu, "\"External id\": %lld,      \"cuda_sync_kind\": \"Stream Sync\", "
                         "\"stream\": %d, \"correlation\": %lld, \"device\": %d, \"context\": 1",
                (long long)ext, stream, (long long)corr, k->dev);
    kin_ev_end(&k->gpu);
}

int64_t synth_kin_ns(synth_kin *k, int64_t us)
{
    return us * US + (int64_t)(synth_rng_next(&k->rng) % 1000);
}

int64_t synth_kin_draw(synth_kin *k, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(synth_rng_next(&k->rng) % (uint64_t)(hi - lo + 1));
}

/* ---- the cycle --------------------------------------------------------------- */

int synth_kin_new(synth_kin **out, const synth_trace *t, sm_err *err)
{
    synth_kin *k = calloc(1, sizeof *k);
    if (!k)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    const synth_opts *o = t->job->o;
    k->t = t;
    k->o = o;
    k->form = o->kineto_form;
    k->shape = o->host_bound ? SYNTH_SHAPE_HOST_BOUND : o->kineto_shape;
    synth_rng_seed(&k->rng, o->seed, 0x4b00 + (uint64_t)t->node + 0x10000 * (uint64_t)t->rank);
    k->grank = t->node * o->ranks + t->rank;
    k->world = o->nodes * o->ranks;
    k->dev = o->gpus > 0 ? t->rank % o->gpus : -1;
    k->pid = t->ospid;
    k->main_tid = t->ospid;
    k->bwd_tid = t->ospid + 9000 + (int)(synth_rng_next(&k->rng) % 500);
    if (k->shape == SYNTH_SHAPE_GLOO) {
        /* ProcessGroupGloo's two worker threads start with the group */
        k->gloo_tid[0] = t->ospid + 40 + (int)(synth_rng_next(&k->rng) % 60);
        k->gloo_tid[1] = k->gloo_tid[0] + 1;
    }
    k->total_mem = 85045231616LL;   /* an H100 80GB's totalGlobalMem */
    /* One node, one steady clock: the base is the wall clock less the
     * host's uptime (3-60 days), so `ts` reads as uptime µs. */
    synth_rng node_rng;
    synth_rng_seed(&node_rng, o->seed, 0x4c00 + (uint64_t)t->node);
    int64_t uptime_s = 3 * 86400 + (int64_t)(synth_rng_next(&node_rng) % (57 * 86400));
    k->base_ns = (t->job->start_us / 1000000 - uptime_s) * 1000000000LL;
    *out = k;
    return 0;
}

int synth_kin_step(synth_kin *k, const synth_step *s, sm_err *err)
{
    const synth_opts *o = k->o;
    if (s->eval || s->num < SYNTH_KIN_FIRST)
        return 0;
    int64_t pos = (s->num - SYNTH_KIN_FIRST) % o->kineto_every;
    if (pos >= o->kineto_active)
        return 0;
    if (pos == 0) {
        k->cpu.n = k->gpu.n = 0;
        k->cpu.oom = k->gpu.oom = 0;
        k->cycle_start_ns = k->cycle_end_ns = 0;
        k->in_cycle = 1;
    }
    if (!k->in_cycle)
        return 0;   /* joined mid-cycle */
    synth_kin_gen_step(k, s);
    if (pos + 1 < o->kineto_active)
        return 0;
    k->in_cycle = 0;
    if (k->cpu.oom || k->gpu.oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return synth_kin_write_cycle(k, err);
}
