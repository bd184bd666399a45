/* synth_kineto: one rank's PyTorch profiler (Kineto) events, a profiling
 * cycle at a time, shaped after the real traces in shared/samples/kineto:
 *
 * - a cycle records kineto_active TRAIN steps, every kineto_every steps
 *   from step SYNTH_KIN_FIRST on (torch.profiler.schedule's wait, warmup,
 *   active); each step is a `ProfilerStep#N` user_annotation on the main
 *   thread, numbered by the TRAIN step;
 * - the step's host side: the DataLoader's `enumerate(DataLoader)#…`, an
 *   `aten::to` input copy, forward cpu_op trees on the main thread,
 *   backward `autograd::engine::evaluate_function: …` trees on the
 *   autograd thread, DDP's `nccl:all_reduce` buckets (world > 1), the
 *   optimizer's zero_grad/step annotations and a closing `aten::item`
 *   with its cudaStreamSynchronize;
 * - every op that reaches the GPU has its launch call (cuda_runtime:
 *   cudaLaunchKernel, cudaLaunchKernelExC for NCCL, cudaMemcpyAsync,
 *   cudaMemsetAsync) and the kernel/memcpy/memset on a stream, tied by
 *   `correlation`, `External id` and an ac2g flow, as Kineto writes them:
 *   the GPU activity, its flow end, its launch call, the flow start;
 * - `[memory]` instants for the activations the forward allocates and
 *   the backward frees, with Total Allocated/Reserved;
 * - `python_function` frames around the step and each op (kineto_python).
 * GPU-bound (default): launches run ahead and the kernels fill ~85 % of
 * the forward and backward; host_bound: ops spread over the phase with
 * kernels of ~12 % of it, so the GPU mostly waits on the host. With no
 * GPUs (gpus 0) the trace is CPU only, as a gloo job's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/synth/synth_kineto_internal.h"
#include "model/util/vec.h"

#define SYNTH_KIN_FIRST 10      /* the first profiled step (wait + warmup before) */
#define US 1000LL               /* ns */
#define FWD_OPS 10
#define BWD_OPS 10

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

enum { C_CPU, C_USER, C_RUNTIME, C_KERNEL, C_MEMCPY, C_MEMSET, C_FLOW, C_GPU_USER, C_PY, C_MEM };

/* Before 2022 Kineto named its categories after the activity types; the
 * legacy flow's category and name follow SPEC §1b ("async"), not a sample. */
static const char *kin_cat(const synth_kin *k, int c)
{
    static const char *const modern[] = {"cpu_op", "user_annotation", "cuda_runtime",
                                         "kernel", "gpu_memcpy", "gpu_memset", "ac2g",
                                         "gpu_user_annotation", "python_function",
                                         "cpu_instant_event"};
    static const char *const legacy[] = {"Operator", "Operator", "Runtime", "Kernel",
                                         "Memcpy", "Memset", "async", "", "python_function",
                                         "cpu_instant_event"};
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
    synth_kbuf_printf(b, ",\n    \"cat\": \"%s\", \"name\": \"%s\"%s\n  },\n", kin_cat(k, C_FLOW),
                legacy ? "launch" : "ac2g", end ? ", \"bp\": \"e\"" : "");
}

/* A host event with the usual op args. */
static void kin_host(synth_kin *k, int cat, const char *name, int tid, int64_t ts, int64_t dur,
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

/* A python_function frame (kineto_python). */
static void kin_py(synth_kin *k, const char *name, int tid, int64_t ts, int64_t dur)
{
    if (!k->o->kineto_python)
        return;
    int64_t id = ++k->py_id;
    kin_ev_x(k, &k->cpu, C_PY, name, k->pid, tid, ts, dur);
    synth_kbuf_printf(&k->cpu, "\"Python parent id\": %lld, \"Python id\": %lld, "
                         "\"Python thread\": %d", (long long)(id > 1 ? id - 1 : 0),
                (long long)id, tid == k->main_tid ? 0 : 1);
    kin_ev_end(&k->cpu);
}

/* A `[memory]` instant: bytes allocated (> 0) or freed (< 0). */
static void kin_mem(synth_kin *k, int tid, int64_t ts, int64_t bytes)
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
                kin_cat(k, C_MEM), k->pid, tid);
    synth_kin_ts(k, &k->cpu, ts);
    synth_kbuf_printf(&k->cpu, ",\n    \"args\": {\n      \"Ev Idx\": %lld, \"Device Type\": 1, "
                         "\"Device Id\": %d, \"Addr\": %lld, \"Bytes\": %lld, "
                         "\"Total Allocated\": %lld, \"Total Reserved\": %lld\n    }\n  },\n",
                (long long)k->ev_idx++, k->dev,
                (long long)(139926520725504LL + (int64_t)(synth_rng_next(&k->rng) % 4096) * 4096),
                (long long)bytes, (long long)k->alloc, (long long)k->reserved);
}

/* ---- ops that reach the GPU ---------------------------------------------- */

enum { G_NONE, G_KERNEL, G_MEMCPY, G_MEMSET, G_NCCL };

typedef struct kop {
    int cat;                 /* C_CPU or C_USER */
    const char *outer, *inner;
    int gkind;
    const char *gname;
    int stream;
    int64_t bytes;           /* memcpy/memset size; NCCL: elements */
} kop;

static int stream_slot(int stream)
{
    return stream == KIN_STREAM_NCCL ? 1 : stream == KIN_STREAM_COPY ? 2 : 0;
}

static const char *launch_name(int gkind)
{
    return gkind == G_MEMCPY ? "cudaMemcpyAsync" : gkind == G_MEMSET ? "cudaMemsetAsync"
           : gkind == G_NCCL ? "cudaLaunchKernelExC" : "cudaLaunchKernel";
}

static int launch_cbid(int gkind)
{
    return gkind == G_MEMCPY ? 41 : gkind == G_MEMSET ? 51 : gkind == G_NCCL ? 430 : 211;
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
    int cat = op->gkind == G_MEMCPY ? C_MEMCPY : op->gkind == G_MEMSET ? C_MEMSET : C_KERNEL;
    kin_ev_x(k, b, cat, op->gname, k->dev, op->stream, ks, kd);
    synth_kbuf_printf(b, "\"External id\": %lld,      \"device\": %d, \"context\": 1,      "
                   "\"stream\": %d, \"correlation\": %lld", (long long)ext, k->dev, op->stream,
                (long long)corr);
    if (cat == C_KERNEL) {
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
    kin_ev_x(k, b, C_RUNTIME, launch_name(op->gkind), k->pid, tid, ls, ld);
    synth_kbuf_printf(b, "\"External id\": %lld,      \"cbid\": %d, \"correlation\": %lld",
                (long long)ext, launch_cbid(op->gkind), (long long)corr);
    kin_ev_end(b);
    kin_flow(k, b, "s", corr, k->pid, tid, ls, 0);
}

/* One op on thread tid at t0 taking cpu ns on the host; its GPU activity
 * (gpu ns) starts once its stream is free and its launch has returned, or
 * not before `after`. Returns the end of the GPU activity (the host op's
 * end without one). */
static int64_t kin_op(synth_kin *k, const kop *op, int tid, int64_t t0, int64_t cpu,
                      int64_t gpu, int64_t after)
{
    if (cpu < 4 * US)
        cpu = 4 * US;
    int64_t ext = ++k->ext_id;
    kin_py(k, "torch/nn/modules/module.py(1747): _call_impl", tid, t0 - 2 * US, cpu + 3 * US);
    kin_host(k, op->cat, op->outer, tid, t0, cpu, ext);
    int64_t in0 = t0 + cpu / 8, in1 = t0 + cpu - cpu / 16;
    if (op->inner) {
        ext = ++k->ext_id;
        kin_host(k, C_CPU, op->inner, tid, in0, in1 - in0, ext);
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

/* ---- one step -------------------------------------------------------------- */

static const kop fwd_ops[] = {
    {C_CPU, "aten::conv2d", "aten::cudnn_convolution", G_KERNEL,
     "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
     "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cudnn", KIN_STREAM_COMPUTE, 0},
    {C_CPU, "aten::batch_norm", "aten::cudnn_batch_norm", G_KERNEL,
     "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
     "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
     "float*, float*, float*, float, float)", KIN_STREAM_COMPUTE, 0},
    {C_CPU, "aten::relu_", "aten::clamp_min_", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
     "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
     "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
     "{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::"
     "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
     "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
     "{lambda(float)#1}, at::detail::Array<char*, 2>)", KIN_STREAM_COMPUTE, 0},
    {C_CPU, "aten::linear", "aten::addmm", G_KERNEL,
     "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas", KIN_STREAM_COMPUTE, 0},
    {C_CPU, "aten::add_", NULL, G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
};

static const kop bwd_ops[] = {
    {C_CPU, "autograd::engine::evaluate_function: ConvolutionBackward0", "ConvolutionBackward0",
     G_KERNEL, "sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
     "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cudnn", KIN_STREAM_COMPUTE, 0},
    {C_CPU, "autograd::engine::evaluate_function: CudnnBatchNormBackward0",
     "CudnnBatchNormBackward0", G_KERNEL,
     "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(float, float, float, "
     "float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, "
     "float*, float const*, float*, float*, float const*, float const*, float)",
     KIN_STREAM_COMPUTE, 0},
    {C_CPU, "autograd::engine::evaluate_function: ReluBackward0", "ReluBackward0", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
     "threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, "
     "at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::threshold_kernel_impl"
     "<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, "
     "at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
    {C_CPU, "autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", G_KERNEL,
     "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas", KIN_STREAM_COMPUTE, 0},
};

/* The ops of one phase [p0, p0 + len) on thread tid: GPU-bound, the host
 * launches them back to back and the kernels fill ~85 % of the phase;
 * host-bound, they spread over it with kernels of ~12 %. On the backward
 * (`bwd`) two DDP buckets are all-reduced when the job has several ranks.
 * Returns when the phase's GPU work ends. */
static int64_t kin_phase(synth_kin *k, const kop *ops, size_t nops, int n, int tid, int64_t p0,
                         int64_t len, int bwd)
{
    int hb = k->o->host_bound;
    int64_t slot = len / n, gend = p0, cur = p0;
    for (int i = 0; i < n; i++) {
        const kop *op = &ops[(size_t)i % nops];
        double jit = 0.8 + 0.4 * synth_rng_unit(&k->rng);
        int64_t cpu = hb ? slot * 8 / 10 : (int64_t)((30 + synth_rng_next(&k->rng) % 40) * US);
        int64_t t0 = hb ? p0 + i * slot : cur;
        cur = t0 + cpu + 8 * US;
        int64_t gpu = (int64_t)((double)slot * (hb ? 0.12 : 0.85) * jit);
        if (gpu < 2 * US)
            gpu = 2 * US;
        int64_t end = kin_op(k, op, tid, t0, cpu, gpu, 0);
        gend = end > gend ? end : gend;
        int64_t act = k->total_mem / 2 / (FWD_OPS + 2) / 4096 * 4096;
        kin_mem(k, tid, t0 + cpu / 2, bwd ? -act : act);
        if (bwd && k->world > 1 && (i == n / 2 || i == n - 1)) {
            /* DDP all-reduces a bucket once its gradients are ready */
            kop ar = {C_USER, "nccl:all_reduce", "record_param_comms", G_NCCL,
                      k->form == SYNTH_KINETO_LEGACY
                          ? "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"
                          : "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, "
                            "ncclWork*)", KIN_STREAM_NCCL, 6637568};
            int64_t comm = (int64_t)((double)len * (hb ? 0.03 : 0.15) * jit);
            int64_t e = kin_op(k, &ar, tid, t0 + cpu + 2 * US, 40 * US, comm, end);
            gend = e > gend ? e : gend;
            cur += 50 * US;
        }
    }
    return gend;
}

static void kin_optimizer(synth_kin *k, int64_t o0, int64_t len)
{
    static const kop zero = {C_USER, "Optimizer.zero_grad#SGD.zero_grad", "aten::zero_",
                             G_MEMSET, "Memset (Device)", KIN_STREAM_COMPUTE, 6291456};
    static const kop step = {C_USER, "Optimizer.step#SGD.step", "aten::_foreach_add_", G_KERNEL,
                             "void at::native::(anonymous namespace)::multi_tensor_apply_kernel"
                             "<at::native::(anonymous namespace)::TensorListMetadata<2>, "
                             "at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
                             "2, 2, 0>, std::plus<float>, float>(at::native::(anonymous "
                             "namespace)::TensorListMetadata<2>, at::native::(anonymous "
                             "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
                             "std::plus<float>, float)", KIN_STREAM_COMPUTE, 0};
    kin_op(k, &zero, k->main_tid, o0, len / 5, len / 10, 0);
    kin_op(k, &step, k->main_tid, o0 + len / 4, len / 2, len / 3, 0);
}

/* The step's end: loss.item() copies 4 bytes back and waits for the
 * stream, so the host's wait shows as cudaStreamSynchronize. */
static void kin_sync(synth_kin *k, int64_t t0, int64_t step_end)
{
    static const kop item = {C_CPU, "aten::item", "aten::_local_scalar_dense", G_MEMCPY,
                             "Memcpy DtoH (Device -> Pageable)", KIN_STREAM_COMPUTE, 4};
    int64_t gend = kin_op(k, &item, k->main_tid, t0, 20 * US, 2 * US, 0);
    if (k->dev < 0)
        return;
    int64_t s0 = t0 + 21 * US, s1 = gend > s0 + 3 * US ? gend : s0 + 3 * US;
    if (s1 > step_end - US)
        s1 = step_end - US > s0 ? step_end - US : s0 + US;
    kin_ev_x(k, &k->cpu, C_RUNTIME, "cudaStreamSynchronize", k->pid, k->main_tid, s0, s1 - s0);
    synth_kbuf_printf(&k->cpu, "\"cbid\": 131, \"correlation\": %lld", (long long)++k->corr);
    kin_ev_end(&k->cpu);
}

/* An absolute time in ns with a sub-µs part, as CUPTI's clock gives. */
static int64_t kin_ns(synth_kin *k, int64_t us)
{
    return us * US + (int64_t)(synth_rng_next(&k->rng) % 1000);
}

static void kin_gen_step(synth_kin *k, const synth_step *s)
{
    int64_t t = kin_ns(k, s->start_us), end = kin_ns(k, s->start_us + s->dur_us);
    char name[64];
    snprintf(name, sizeof name, "ProfilerStep#%lld", (long long)s->num);
    kin_py(k, "train.py(58): train_one_epoch", k->main_tid, t - 3 * US, end - t + 4 * US);
    kin_host(k, C_USER, name, k->main_tid, t, end - t, ++k->ext_id);
    int64_t d0 = t + 5 * US, dlen = s->data_us * US;
    kin_host(k, C_USER, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
             k->main_tid, d0, dlen, ++k->ext_id);
    int hb = k->o->host_bound;
    kop h2d = {C_CPU, "aten::to", "aten::copy_", G_MEMCPY,
               hb ? "Memcpy HtoD (Pageable -> Device)" : "Memcpy HtoD (Pinned -> Device)",
               hb ? KIN_STREAM_COMPUTE : KIN_STREAM_COPY, 38535168};
    int64_t copy = (hb ? 3200 : 1500) * US;   /* 38.5 MB at ~12 or ~25 GB/s */
    int64_t f0 = d0 + dlen + 10 * US;
    int64_t after = kin_op(k, &h2d, k->main_tid, f0, hb ? copy + 40 * US : 30 * US, copy, 0);
    if (k->stream_free[0] < after)
        k->stream_free[0] = after;   /* the forward waits for its input */
    f0 += hb ? copy + 60 * US : 50 * US;
    int64_t flen = s->fwd_us * US - (f0 - (d0 + dlen + 10 * US));
    kin_phase(k, fwd_ops, sizeof fwd_ops / sizeof *fwd_ops, FWD_OPS, k->main_tid, f0,
              flen > 100 * US ? flen : 100 * US, 0);
    int64_t b0 = d0 + dlen + 10 * US + s->fwd_us * US + 10 * US;
    if (s->bwd_us)
        kin_phase(k, bwd_ops, sizeof bwd_ops / sizeof *bwd_ops, BWD_OPS, k->bwd_tid, b0,
                  s->bwd_us * US, 1);
    int64_t o0 = b0 + s->bwd_us * US + 10 * US, olen = end - o0 - 80 * US;
    if (olen > 40 * US) {
        kin_optimizer(k, o0, olen * 3 / 4);
        kin_sync(k, o0 + olen * 3 / 4 + 5 * US, end);
    }
    if (k->cycle_start_ns == 0)
        k->cycle_start_ns = t;
    k->cycle_end_ns = end;
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
    synth_rng_seed(&k->rng, o->seed, 0x4b00 + (uint64_t)t->node + 0x10000 * (uint64_t)t->rank);
    k->grank = t->node * o->ranks + t->rank;
    k->world = o->nodes * o->ranks;
    k->dev = o->gpus > 0 ? t->rank % o->gpus : -1;
    k->pid = t->ospid;
    k->main_tid = t->ospid;
    k->bwd_tid = t->ospid + 9000 + (int)(synth_rng_next(&k->rng) % 500);
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
    kin_gen_step(k, s);
    if (pos + 1 < o->kineto_active)
        return 0;
    k->in_cycle = 0;
    if (k->cpu.oom || k->gpu.oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return synth_kin_write_cycle(k, err);
}
