/* synth_kineto_step: one profiled step of a rank, laid out by its job
 * shape (synth.h's SYNTH_SHAPE_*), over the span the schedule gave it:
 *
 * - a `ProfilerStep#N` user_annotation on the main thread, numbered by
 *   the TRAIN step, and its GPU-side copy (gpu_user_annotation, from the
 *   step's first GPU row to its last, as PyTorch 2.x writes it);
 * - the DataLoader's `enumerate(DataLoader)#…` (synth_kineto_shape.c),
 *   an `aten::to` input copy, forward cpu_op trees on the main thread,
 *   backward `autograd::engine::evaluate_function: …` trees on the
 *   autograd thread, the optimizer's zero_grad/step annotations and a
 *   closing `aten::item` with its cudaStreamSynchronize;
 * - DDP's gradient buckets when the job has several ranks: NCCL
 *   all-reduces during the backward (GPU-bound, host-bound), after it
 *   (nccl-exposed), or on gloo's threads (gloo);
 * - `[memory]` instants for the activations the forward allocates and
 *   the backward frees (memory-full: to ~95 % of the device).
 * GPU-bound (the default): launches run ahead and the kernels fill ~85 %
 * of the forward and backward; host-bound: ops spread over the phase with
 * kernels of ~12 % of it, so the GPU mostly waits on the host. */
#include <stdio.h>
#include <string.h>

#include "io/synth/synth_kineto_internal.h"

#define US SYNTH_KIN_US
#define FWD_OPS 10
#define BWD_OPS 10

static const kop fwd_ops[] = {
    {KC_CPU, "aten::conv2d", "aten::cudnn_convolution", G_KERNEL,
     "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
     "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cudnn", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::batch_norm", "aten::cudnn_batch_norm", G_KERNEL,
     "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
     "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
     "float*, float*, float*, float, float)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::relu_", "aten::clamp_min_", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
     "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
     "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
     "{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::"
     "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
     "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
     "{lambda(float)#1}, at::detail::Array<char*, 2>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::linear", "aten::addmm", G_GEMM,
     "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::add_", NULL, G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
};

static const kop bwd_ops[] = {
    {KC_CPU, "autograd::engine::evaluate_function: ConvolutionBackward0", "ConvolutionBackward0",
     G_KERNEL, "sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_"
     "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cudnn", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "autograd::engine::evaluate_function: CudnnBatchNormBackward0",
     "CudnnBatchNormBackward0", G_KERNEL,
     "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(float, float, float, "
     "float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, "
     "float*, float const*, float*, float*, float const*, float const*, float)",
     KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "autograd::engine::evaluate_function: ReluBackward0", "ReluBackward0", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
     "threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, "
     "at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::threshold_kernel_impl"
     "<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, "
     "at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", G_GEMM,
     "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas", KIN_STREAM_COMPUTE, 0},
};


/* fp32 matmuls without TF32 (allow_tf32 False, PyTorch's default for
 * matmuls): cuBLAS picks SIMT kernels, no Tensor Cores (memory-full). */
static const char SIMT_FWD[] = "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x64_8x5_tn_align1>"
                               "(cutlass_80_simt_sgemm_128x64_8x5_tn_align1::Params)";
static const char SIMT_BWD[] = "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x64_8x5_nt_align1>"
                               "(cutlass_80_simt_sgemm_128x64_8x5_nt_align1::Params)";

/* cuDNN's fp32 convolutions without TF32 (cudnn.allow_tf32 False). */
static const char CONV_FWD[] = "void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, "
                               "false, false, true>(int, int, int, float const*, int, float*, "
                               "float const*, kernel_conv_params, unsigned long long, int, float, "
                               "float, int, float const*, float const*, bool, int, int)";
static const char CONV_BWD[] = "void cudnn::detail::dgrad_engine<float, 128, 6, 8, 3, 3, 5, false>"
                               "(int, int, int, float const*, int, float const*, int, float*, "
                               "kernel_grad_params, unsigned long long, int, unsigned long long, "
                               "int, float, int, int, int)";

/* Op i of a phase's table, its gemm and convolution swapped for SIMT
 * kernels in an fp32 job that neither autocasts nor allows TF32
 * (memory-full). */
static kop phase_op(const synth_kin *k, const kop *ops, size_t nops, int i, int bwd)
{
    kop op = ops[(size_t)i % nops];
    if (k->shape != SYNTH_SHAPE_MEMORY_FULL)
        return op;
    if (op.gkind == G_GEMM) {
        op.gkind = G_KERNEL;
        op.gname = bwd ? SIMT_BWD : SIMT_FWD;
    } else if (strstr(op.gname, "implicit_gemm")) {
        op.gname = bwd ? CONV_BWD : CONV_FWD;
    }
    return op;
}

/* DDP all-reduces a bucket of `nelems` floats on the NCCL stream. */
static int64_t nccl_bucket(synth_kin *k, int tid, int64_t t0, int64_t comm, int64_t after)
{
    kop ar = {KC_USER, "nccl:all_reduce", "record_param_comms", G_NCCL,
              k->form == SYNTH_KINETO_LEGACY
                  ? "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"
                  : "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, "
                    "ncclWork*)", KIN_STREAM_NCCL, 6637568};
    return synth_kin_op(k, &ar, tid, t0, 40 * US, comm, after);
}

/* The activations one forward op allocates: half the device over the
 * forward, ~95 % of it in an fp32 job near capacity. */
static int64_t activation_bytes(const synth_kin *k)
{
    if (k->shape == SYNTH_SHAPE_MEMORY_FULL)
        return k->total_mem / 100 * 94 / FWD_OPS / 4096 * 4096;
    return k->total_mem / 2 / (FWD_OPS + 2) / 4096 * 4096;
}

/* The ops of one phase [p0, p0 + len) on thread tid: GPU-bound, the host
 * launches them back to back and the kernels fill ~85 % of the phase;
 * host-bound, they spread over it with kernels of ~12 %. On the backward
 * (`bwd`) two DDP buckets are all-reduced during it when the job has
 * several ranks over NCCL (not nccl-exposed, which does it after).
 * Returns when the phase's GPU work ends. */
static int64_t kin_phase(synth_kin *k, const kop *ops, size_t nops, int n, int tid, int64_t p0,
                         int64_t len, int bwd)
{
    int hb = k->shape == SYNTH_SHAPE_HOST_BOUND;
    /* a small model fed from the main thread: its kernels fill a third */
    double fill = hb ? 0.12 : k->shape == SYNTH_SHAPE_MAIN_LOADER ? 0.35 : 0.85;
    int buckets = bwd && k->world > 1 && k->shape != SYNTH_SHAPE_NCCL_EXPOSED &&
                  k->shape != SYNTH_SHAPE_GLOO;
    int64_t slot = len / n, gend = p0, cur = p0;
    for (int i = 0; i < n; i++) {
        kop op = phase_op(k, ops, nops, i, bwd);
        double jit = 0.8 + 0.4 * synth_rng_unit(&k->rng);
        int64_t cpu = hb ? slot * 8 / 10 : (int64_t)((30 + synth_rng_next(&k->rng) % 40) * US);
        int64_t t0 = hb ? p0 + i * slot : cur;
        cur = t0 + cpu + 8 * US;
        int64_t gpu = (int64_t)((double)slot * fill * jit);
        if (gpu < 2 * US)
            gpu = 2 * US;
        int64_t end = synth_kin_op(k, &op, tid, t0, cpu, gpu, 0);
        gend = end > gend ? end : gend;
        int64_t act = activation_bytes(k);
        synth_kin_mem(k, tid, t0 + cpu / 2, bwd ? -act : act);
        if (buckets && (i == n / 2 || i == n - 1)) {
            int64_t comm = (int64_t)((double)len * (hb ? 0.03 : 0.15) * jit);
            int64_t e = nccl_bucket(k, tid, t0 + cpu + 2 * US, comm, end);
            gend = e > gend ? e : gend;
            cur += 50 * US;
        }
    }
    return gend;
}

/* nccl-exposed: DDP's buckets all-reduced only once the backward is over
 * (one bucket holding every gradient, or find_unused_parameters), so the
 * GPU computes nothing while they run: about `len` of communication.
 * The optimizer's kernels wait for them. Returns when they end. */
static int64_t exposed_allreduce(synth_kin *k, int64_t t0, int64_t gpu_from, int64_t len)
{
    int64_t end = gpu_from;
    for (int b = 0; b < 3; b++) {
        int64_t comm = len / 3 * (8 + (int64_t)(synth_rng_next(&k->rng) % 5)) / 10;
        end = nccl_bucket(k, k->bwd_tid, t0 + b * 60 * US, comm, end);
    }
    if (k->stream_free[0] < end)
        k->stream_free[0] = end;   /* the optimizer reads the reduced gradients */
    return end;
}

static void kin_optimizer(synth_kin *k, int64_t o0, int64_t len)
{
    static const kop zero = {KC_USER, "Optimizer.zero_grad#SGD.zero_grad", "aten::zero_",
                             G_MEMSET, "Memset (Device)", KIN_STREAM_COMPUTE, 6291456};
    static const kop step = {KC_USER, "Optimizer.step#SGD.step", "aten::_foreach_add_", G_KERNEL,
                             "void at::native::(anonymous namespace)::multi_tensor_apply_kernel"
                             "<at::native::(anonymous namespace)::TensorListMetadata<2>, "
                             "at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
                             "2, 2, 0>, std::plus<float>, float>(at::native::(anonymous "
                             "namespace)::TensorListMetadata<2>, at::native::(anonymous "
                             "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
                             "std::plus<float>, float)", KIN_STREAM_COMPUTE, 0};
    synth_kin_op(k, &zero, k->main_tid, o0, len / 5, len / 10, 0);
    synth_kin_op(k, &step, k->main_tid, o0 + len / 4, len / 2, len / 3, 0);
}

/* The step's end: loss.item() copies 4 bytes back and waits for the
 * stream, so the host's wait shows as cudaStreamSynchronize. */
static void kin_item(synth_kin *k, int64_t t0, int64_t step_end)
{
    static const kop item = {KC_CPU, "aten::item", "aten::_local_scalar_dense", G_MEMCPY,
                             "Memcpy DtoH (Device -> Pageable)", KIN_STREAM_COMPUTE, 4};
    int64_t gend = synth_kin_op(k, &item, k->main_tid, t0, 20 * US, 2 * US, 0);
    if (k->dev < 0)
        return;
    int64_t s0 = t0 + 21 * US, s1 = gend > s0 + 3 * US ? gend : s0 + 3 * US;
    if (s1 > step_end - US)
        s1 = step_end - US > s0 ? step_end - US : s0 + US;
    synth_kin_sync(k, k->main_tid, KIN_STREAM_COMPUTE, s0, s1);
}

/* The input batch to the GPU: pinned and on the copy stream (GPU-bound),
 * pageable on the compute stream (host-bound). Returns where the forward
 * may start on the host. */
static int64_t kin_input(synth_kin *k, int64_t f0)
{
    int slow = k->shape == SYNTH_SHAPE_HOST_BOUND || k->shape == SYNTH_SHAPE_MAIN_LOADER;
    kop h2d = {KC_CPU, "aten::to", "aten::copy_", G_MEMCPY,
               slow ? "Memcpy HtoD (Pageable -> Device)" : "Memcpy HtoD (Pinned -> Device)",
               slow ? KIN_STREAM_COMPUTE : KIN_STREAM_COPY, 38535168};
    int64_t copy = (slow ? 3200 : 1500) * US;   /* 38.5 MB at ~12 or ~25 GB/s */
    if (k->shape == SYNTH_SHAPE_LAUNCH_BOUND || k->shape == SYNTH_SHAPE_GLOO)
        h2d.bytes = 393216, copy = 30 * US;      /* a small batch */
    int64_t after = synth_kin_op(k, &h2d, k->main_tid, f0, slow ? copy + 40 * US : 30 * US,
                                 copy, 0);
    if (k->stream_free[0] < after)
        k->stream_free[0] = after;   /* the forward waits for its input */
    return f0 + (slow ? copy + 60 * US : 50 * US);
}

/* Forward and backward: the shape's ops; returns when the backward's
 * work ends: its GPU rows and any NCCL all-reduce after it, or gloo's
 * all-reduces on the host. */
static int64_t kin_train(synth_kin *k, const synth_step *s, int64_t f0, int64_t fwd_end,
                         int64_t b0)
{
    int64_t flen = fwd_end - f0, blen = s->bwd_us * US;
    if (k->shape == SYNTH_SHAPE_LAUNCH_BOUND) {
        synth_kin_tiny_ops(k, k->main_tid, f0, flen > 100 * US ? flen : 100 * US, 0);
        synth_kin_tiny_ops(k, k->bwd_tid, b0, blen, 1);
        return b0 + blen;
    }
    kin_phase(k, fwd_ops, sizeof fwd_ops / sizeof *fwd_ops, FWD_OPS, k->main_tid, f0,
              flen > 100 * US ? flen : 100 * US, 0);
    if (!blen)
        return b0;
    int64_t gend = kin_phase(k, bwd_ops, sizeof bwd_ops / sizeof *bwd_ops, BWD_OPS, k->bwd_tid,
                             b0, blen, 1);
    if (k->shape == SYNTH_SHAPE_GLOO && k->world > 1)
        gend = synth_kin_gloo_backward(k, b0, blen, s->dur_us * US * 80 / 100 / 6);
    else if (k->shape == SYNTH_SHAPE_NCCL_EXPOSED && k->world > 1)
        gend = exposed_allreduce(k, b0 + blen + 20 * US, gend, s->dur_us * US / 4);
    return gend;
}

/* The GPU-side copy of the step's annotation: from its first GPU row to
 * its last (PyTorch 2.x; the 2022 form has none). */
static void kin_gpu_step(synth_kin *k, const char *name, int64_t ext)
{
    if (k->dev < 0 || k->step_gpu0 == 0 || k->form == SYNTH_KINETO_LEGACY)
        return;
    synth_kbuf *b = &k->gpu;
    synth_kbuf_printf(b, "  {\n    \"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"%s\", "
                   "\"pid\": %d, \"tid\": %d,\n    \"ts\": ", name, k->dev, KIN_STREAM_COMPUTE);
    synth_kin_ts(k, b, k->step_gpu0);
    synth_kbuf_lit(b, ", \"dur\": ");
    synth_kin_dur(k, b, k->step_gpu1 - k->step_gpu0);
    synth_kbuf_printf(b, ",\n    \"args\": {\n      \"External id\": %lld\n    }\n  },\n",
                (long long)ext);
}

void synth_kin_gen_step(synth_kin *k, const synth_step *s)
{
    int64_t t = synth_kin_ns(k, s->start_us), end = synth_kin_ns(k, s->start_us + s->dur_us);
    char name[64];
    snprintf(name, sizeof name, "ProfilerStep#%lld", (long long)s->num);
    k->step_gpu0 = k->step_gpu1 = 0;
    synth_kin_py(k, "train.py(58): train_one_epoch", k->main_tid, t - 3 * US, end - t + 4 * US);
    int64_t step_ext = ++k->ext_id;
    synth_kin_host(k, KC_USER, name, k->main_tid, t, end - t, step_ext);
    int64_t d0 = t + 5 * US, dlen = s->data_us * US;
    synth_kin_loader(k, d0, dlen);
    int64_t in0 = d0 + dlen + 10 * US;
    int64_t f0 = kin_input(k, in0);
    int64_t b0 = in0 + s->fwd_us * US + 10 * US;
    int64_t gend = kin_train(k, s, f0, in0 + s->fwd_us * US, b0);
    int64_t o0 = b0 + s->bwd_us * US + 10 * US, olen = end - o0 - 80 * US;
    if (k->shape == SYNTH_SHAPE_GLOO && gend > o0) {
        /* the host waits for gloo's last bucket before the optimizer */
        o0 = gend + 20 * US;
        olen = end - o0 - 80 * US;
    }
    if (olen > 40 * US) {
        kin_optimizer(k, o0, olen * 3 / 4);
        kin_item(k, o0 + olen * 3 / 4 + 5 * US, end);
    }
    kin_gpu_step(k, name, step_ext);
    if (k->cycle_start_ns == 0)
        k->cycle_start_ns = t;
    k->cycle_end_ns = end;
}
