/* synth_kineto_shape: the job shapes with a known cause (synth.h), and
 * the parts of a step only they write, each as PyTorch 2.x writes it:
 *
 * - gloo: `init_process_group("gloo")` with CUDA tensors, two ranks on
 *   GPU 0. DDP hands each gradient bucket to ProcessGroupGloo, whose
 *   CUDA work copies it to pinned memory on a side stream
 *   (`record_param_comms` > `aten::copy_` > Memcpy DtoH (Device ->
 *   Pinned), on the autograd thread), all-reduces it on the CPU on one
 *   of gloo's two worker threads (a `gloo:all_reduce` user annotation,
 *   opening with the cudaStreamSynchronize that waits for the copy) and
 *   copies it back (Memcpy HtoD (Pinned -> Device)); the optimizer waits
 *   for the last bucket. distributedInfo says backend "gloo".
 * - main-loader: `DataLoader(num_workers=0)`: the batch is made on the
 *   main thread inside `enumerate(DataLoader)#_SingleProcessDataLoaderIter
 *   .__next__`, its with_stack frames down to the dataset's
 *   `train.py(12): __getitem__`, one per sample, mostly Python that no
 *   aten op records, then default_collate's `aten::stack`; the
 *   trace handler's worker_name is "algo-1_main" (no pid).
 * - launch-bound: a small model whose forward and backward are hundreds
 *   of elementwise ops, each a kernel of 1.5-3.5 µs behind a launch call
 *   of 4-12 µs: the GPU waits on launches.
 * - nccl-exposed and memory-full are the default step with the all-reduce
 *   after the backward, or activations near the device's size and fp32
 *   SIMT gemms (synth_kineto_step.c). */
#include <stdio.h>
#include <string.h>

#include "io/synth/synth_kineto_internal.h"

#define US SYNTH_KIN_US

static const char *const SHAPE_NAMES[SYNTH_SHAPE_COUNT] = {
    "gpu-bound", "host-bound", "gloo", "main-loader", "launch-bound", "nccl-exposed",
    "memory-full",
};

const char *synth_shape_name(int shape)
{
    return shape >= 0 && shape < SYNTH_SHAPE_COUNT ? SHAPE_NAMES[shape] : NULL;
}

int synth_shape_find(const char *name)
{
    for (int i = 0; name && i < SYNTH_SHAPE_COUNT; i++)
        if (!strcmp(name, SHAPE_NAMES[i]))
            return i;
    return -1;
}

void synth_shape_defaults(synth_opts *o, int shape)
{
    o->kineto = 1;
    o->kineto_shape = shape;
    o->host_bound = shape == SYNTH_SHAPE_HOST_BOUND;
    if (shape <= SYNTH_SHAPE_HOST_BOUND)
        return;
    o->nodes = 1;
    o->gpus = 1;
    o->ranks = 1;
    o->cpus = 16;
    o->outlier_rate = 0;   /* the shape's cause alone */
    switch (shape) {
    case SYNTH_SHAPE_GLOO:          /* both ranks see one GPU: cuda:0 */
        o->ranks = 2;
        o->step_ms = 226;
        o->kineto_active = 4;
        break;
    case SYNTH_SHAPE_MAIN_LOADER:
        o->step_ms = 65;
        o->kineto_python = 1;
        o->kineto_worker = "main";
        break;
    case SYNTH_SHAPE_LAUNCH_BOUND:
        o->step_ms = 30;
        break;
    case SYNTH_SHAPE_NCCL_EXPOSED:  /* one rank per GPU */
        o->ranks = 2;
        o->gpus = 2;
        break;
    default:
        break;
    }
}

/* ---- gloo ------------------------------------------------------------------ */

#define GLOO_BUCKETS 11

int64_t synth_kin_gloo_backward(synth_kin *k, int64_t b0, int64_t len, int64_t ar)
{
    int64_t free_at[2] = {0, 0}, last = b0 + len;
    for (int i = 0; i < GLOO_BUCKETS; i++) {
        /* DDP's first bucket (the last layers) is 1 MB, the others ~12 MB */
        int64_t bytes = i == 0 ? 1048576 : 12582912 + 4096 * synth_kin_draw(k, 0, 64);
        kop d2h = {KC_CPU, "record_param_comms", "aten::copy_", G_MEMCPY,
                   "Memcpy DtoH (Device -> Pinned)", KIN_STREAM_GLOO, bytes};
        int64_t ready = b0 + (i + 1) * (len / GLOO_BUCKETS) - 70 * US;
        /* at ~20 GB/s a pinned copy, once the GPU computed the bucket's
         * gradients (an event the side stream waits for) */
        int64_t copy = bytes / 20;   /* ns */
        int64_t copied = synth_kin_op(k, &d2h, k->bwd_tid, ready, 60 * US, copy,
                                      ready + 250 * US);
        int j = i % 2, tid = k->gloo_tid[j];
        int64_t s0 = ready + 90 * US > free_at[j] ? ready + 90 * US : free_at[j] + 15 * US;
        int64_t dur = ar * synth_kin_draw(k, 70, 130) / 100;
        synth_kin_host(k, KC_USER, "gloo:all_reduce", tid, s0, dur, ++k->ext_id);
        synth_kin_sync(k, tid, KIN_STREAM_GLOO, s0 + 6 * US, copied + 4 * US);
        kop h2d = {KC_CPU, "aten::copy_", NULL, G_MEMCPY, "Memcpy HtoD (Pinned -> Device)",
                   KIN_STREAM_GLOO, bytes};
        synth_kin_op(k, &h2d, tid, s0 + dur - 70 * US, 55 * US, copy, 0);
        free_at[j] = s0 + dur;
        last = free_at[j] > last ? free_at[j] : last;
    }
    /* the optimizer's kernels read what the copies back wrote */
    if (k->stream_free[0] < k->stream_free[3])
        k->stream_free[0] = k->stream_free[3];
    return last;
}

/* ---- the DataLoader ---------------------------------------------------------- */

#define LOADER_BATCH 32

/* One sample: the dataset's Python makes and augments it (no aten op
 * records that). */
static void loader_item(synth_kin *k, int64_t t0, int64_t len)
{
    int tid = k->main_tid;
    synth_kin_py(k, "train.py(12): __getitem__", tid, t0, len);
    synth_kin_py(k, "train.py(16): augment", tid, t0 + 2 * US, len * 8 / 10);
}

void synth_kin_loader(synth_kin *k, int64_t d0, int64_t len)
{
    int tid = k->main_tid;
    if (k->shape != SYNTH_SHAPE_MAIN_LOADER) {
        synth_kin_host(k, KC_USER, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
                       tid, d0, len, ++k->ext_id);
        return;
    }
    synth_kin_host(k, KC_USER, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                   tid, d0, len, ++k->ext_id);
    int64_t p0 = d0 + 2 * US, plen = len - 4 * US;
    synth_kin_py(k, "torch/utils/data/dataloader.py(701): __next__", tid, p0, plen);
    synth_kin_py(k, "torch/utils/data/dataloader.py(757): _next_data", tid, p0 + 3 * US,
                 plen - 6 * US);
    int64_t f0 = p0 + 6 * US, flen = plen - 12 * US;
    synth_kin_py(k, "torch/utils/data/_utils/fetch.py(49): fetch", tid, f0, flen);
    int64_t l0 = f0 + 2 * US, llen = flen * 88 / 100;
    synth_kin_py(k, "torch/utils/data/_utils/fetch.py(52): <listcomp>", tid, l0, llen);
    int64_t slot = llen / LOADER_BATCH;
    for (int i = 0; i < LOADER_BATCH; i++)
        loader_item(k, l0 + i * slot + US, slot * synth_kin_draw(k, 85, 97) / 100);
    int64_t c0 = l0 + llen + 4 * US, clen = f0 + flen - c0 - 2 * US;
    synth_kin_py(k, "torch/utils/data/_utils/collate.py(277): default_collate", tid, c0, clen);
    synth_kin_host(k, KC_CPU, "aten::stack", tid, c0 + 2 * US, clen - 4 * US, ++k->ext_id);
    synth_kin_host(k, KC_CPU, "aten::cat", tid, c0 + 4 * US, clen - 8 * US, ++k->ext_id);
}

/* ---- launch-bound ------------------------------------------------------------ */

static const kop TINY_FWD[] = {
    {KC_CPU, "aten::linear", "aten::addmm", G_GEMM,
     "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize64x64x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::add", NULL, G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::mul", NULL, G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, "
     "float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, "
     "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor"
     "<float> >, at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::gelu", NULL, G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl("
     "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
     "{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
     "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
     "{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
     "at::detail::Array<char*, 2>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "aten::layer_norm", "aten::native_layer_norm", G_KERNEL,
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, "
     "float, float const*, float const*, float const*, float*, float*, float*)",
     KIN_STREAM_COMPUTE, 0},
};

static const kop TINY_BWD[] = {
    {KC_CPU, "autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", G_GEMM,
     "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize64x64x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "autograd::engine::evaluate_function: AddBackward0", "AddBackward0", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "autograd::engine::evaluate_function: MulBackward0", "MulBackward0", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, "
     "float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, "
     "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor"
     "<float> >, at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
    {KC_CPU, "autograd::engine::evaluate_function: GeluBackward0", "GeluBackward0", G_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl("
     "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
     "{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >("
     "int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
     "{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}"
     ", at::detail::Array<char*, 3>)", KIN_STREAM_COMPUTE, 0},
};

void synth_kin_tiny_ops(synth_kin *k, int tid, int64_t p0, int64_t len, int bwd)
{
    const kop *ops = bwd ? TINY_BWD : TINY_FWD;
    size_t nops = bwd ? sizeof TINY_BWD / sizeof *TINY_BWD : sizeof TINY_FWD / sizeof *TINY_FWD;
    int64_t cur = p0, end = p0 + len;
    for (size_t i = 0; cur + 40 * US < end; i++) {
        int64_t cpu = synth_kin_draw(k, 14, 24) * US;
        int64_t gpu = synth_kin_draw(k, 1500, 3500);
        synth_kin_op(k, &ops[i % nops], tid, cur, cpu, gpu, 0);
        if (i % 25 == 0)   /* small activations: a few MB */
            synth_kin_mem(k, tid, cur + cpu / 2, bwd ? -(4LL << 20) : 4LL << 20);
        cur += cpu + synth_kin_draw(k, 3, 8) * US;
    }
}
