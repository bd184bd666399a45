/* rule_kineto_setup: three PyTorch profiler (Kineto) rules on how the job
 * is set up, where the traces show it (issue 32 point 3):
 *
 *   GlooWithCUDA        a rank runs DDP over gloo (distributedInfo.backend)
 *                       with CUDA tensors (it has GPU rows): every bucket
 *                       goes to pinned host memory, is all-reduced by the
 *                       CPU on gloo's threads and comes back. The
 *                       TensorBoard profiler's "DDP without NCCL" advice.
 *   RanksShareGPU       two or more ranks of a node run on one device (the
 *                       device of their [memory] events), and that is not
 *                       an artefact of CUDA_VISIBLE_DEVICES: the traces
 *                       list several devices, or the node's system metrics
 *                       count fewer GPUs than such ranks.
 *   TensorCoresUnused   matmul and convolution kernels ("gemm" in the name)
 *                       take min_gemm_pct % or more of a rank's GPU time,
 *                       and threshold % or more of that runs on kernels
 *                       without Tensor Cores (SIMT sgemm: an fp32 job that
 *                       neither autocasts nor allows TF32). The TensorBoard
 *                       profiler's "Tensor Cores eligible → AMP", by time.
 *
 * A rank is one datapoint of GlooWithCUDA and TensorCoresUnused, a node
 * of RanksShareGPU. Pure: no I/O. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/core/model_gpu.h"
#include "model/rules/rule_impl.h"

/* ---- GlooWithCUDA ----------------------------------------------------------- */

/* Calls of user annotation `name` in rank r, and their time. */
static int64_t annotation_calls(const gpu_rank *r, const char *name, int64_t *us)
{
    const gpu_stat *st = gpu_table_find(gpu_rank_annotations(r), name);
    *us = st ? st->sum_us : 0;
    return st ? st->count : 0;
}

int rule_gloo_with_cuda(const model *m, const double *p, rule_result *o)
{
    (void)p;
    for (size_t i = 0; i < model_gpu_count(m); i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        const gpu_summary *s = gpu_rank_summary(row->gpu);
        if (!s->backend || !s->backend[0])
            continue;
        o->datapoints++;
        if (strcmp(s->backend, "gloo") || !s->has_gpu)
            continue;
        int64_t ar_us, ar = annotation_calls(row->gpu, "gloo:all_reduce", &ar_us);
        if (!o->violations++) {
            rule_result_worst(o, row->node, row->process, 0, 0);
            char calls[96] = "";
            if (ar)
                snprintf(calls, sizeof calls, ": gloo:all_reduce %lld times, %.1f ms each on "
                         "average,", (long long)ar, (double)ar_us / (double)ar / 1000);
            rule_result_cause(o, "%s of %s runs DDP over gloo with CUDA tensors%s on the "
                              "host's gloo threads, each bucket copied to pinned memory and "
                              "back", row->process, row->node, calls);
        }
        rule_result_example(o, row->node, row->process, 0, 0, (double)ar,
                            "backend gloo with GPU rows, %lld gloo:all_reduce", (long long)ar);
    }
    if (!o->datapoints) {
        rule_result_message(o, model_gpu_count(m) ? "no distributedInfo.backend in the traces"
                                                  : "no PyTorch profiler traces");
        return 0;
    }
    o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    if (o->violations)
        rule_result_message(o, "%lld of %lld ranks run DDP over gloo with CUDA tensors",
                            (long long)o->violations, (long long)o->datapoints);
    else
        rule_result_message(o, "no rank runs gloo with CUDA tensors");
    return 0;
}

/* ---- RanksShareGPU ------------------------------------------------------------ */

/* The device rank s runs on: the one its [memory] peaks name (the largest
 * reserved), -1 when none is known. */
static int64_t rank_device(const gpu_summary *s)
{
    int64_t dev = -1, best = -1;
    for (size_t i = 0; i < s->memory.n_peaks; i++)
        if (s->memory.peaks[i].device >= 0 && s->memory.peaks[i].reserved > best) {
            best = s->memory.peaks[i].reserved;
            dev = s->memory.peaks[i].device;
        }
    return dev;
}

/* Ranks of node `node` (rows [from, to) of the natural order) on device
 * dev, and whether any lists several devices. */
static int64_t ranks_on(const model *m, size_t from, size_t to, int64_t dev, int *many)
{
    int64_t k = 0;
    for (size_t i = from; i < to; i++) {
        const gpu_summary *s = gpu_rank_summary(model_gpu_at(m, i)->gpu);
        if (s->has_gpu && rank_device(s) == dev) {
            k++;
            *many |= s->memory.n_devices > 1;
        }
    }
    return k;
}

/* One node's ranks, rows [from, to): a violation when two or more share
 * a device that is surely one. */
static void share_node(const model *m, size_t from, size_t to, rule_result *o)
{
    const char *node = model_gpu_at(m, from)->node;
    const model_node *n = model_find_node(m, node);
    size_t gpus = n ? model_node_gpu_count(n) : 0;
    o->datapoints++;
    for (size_t i = from; i < to; i++) {
        const gpu_summary *s = gpu_rank_summary(model_gpu_at(m, i)->gpu);
        int64_t dev = rank_device(s), before = 0;
        int many = 0;
        for (size_t j = from; j < i && dev >= 0; j++)
            before += rank_device(gpu_rank_summary(model_gpu_at(m, j)->gpu)) == dev;
        if (dev < 0 || before || !s->has_gpu)
            continue;   /* each device once */
        int64_t k = ranks_on(m, from, to, dev, &many);
        if (k < 2 || !(many || (gpus && (int64_t)gpus < k)))
            continue;
        o->violations++;
        rule_result_worst(o, node, "", 0, 0);
        rule_result_example(o, node, "", 0, 0, (double)k, "%lld ranks on GPU %lld",
                            (long long)k, (long long)dev);
        rule_result_cause(o, "%lld ranks of %s run on GPU %lld (the node has %zu GPU%s): "
                          "they take turns on one device", (long long)k, node, (long long)dev,
                          gpus, gpus == 1 ? "" : "s");
        rule_result_message(o, "%s: %lld ranks share GPU %lld", node, (long long)k,
                            (long long)dev);
        return;
    }
}

int rule_ranks_share_gpu(const model *m, const double *p, rule_result *o)
{
    (void)p;
    size_t n = model_gpu_count(m);
    for (size_t from = 0; from < n;) {
        size_t to = from + 1;
        while (to < n && !strcmp(model_gpu_at(m, to)->node, model_gpu_at(m, from)->node))
            to++;
        if (to - from > 1)
            share_node(m, from, to, o);
        from = to;
    }
    if (!o->datapoints) {
        rule_result_message(o, "needs two ranks with GPU rows on a node");
        return 0;
    }
    o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    if (!o->violations)
        rule_result_message(o, "every rank on a GPU of its own");
    return 0;
}

/* ---- TensorCoresUnused ----------------------------------------------------------- */

/* A kernel that multiplies matrices (matmul, convolution as implicit gemm). */
static int is_gemm(const char *name)
{
    return strcasestr(name, "gemm") != NULL;
}

/* A gemm kernel on Tensor Cores: cuBLAS/cuDNN/CUTLASS name the instruction
 * family or the input type (xmma, hmma, tensorop, tf32, bf16, fp16, h884,
 * s1688, 16816, ...); SIMT kernels say sgemm/simt. */
int rule_kernel_tensor_core(const char *name)
{
    static const char *const tc[] = {"xmma", "hmma", "gmma", "wmma", "tensorop", "tf32",
                                     "bf16", "fp16", "f16", "h884", "h1688", "h16816",
                                     "s1688", "s16816", "i8816", "i16832", "16816"};
    if (strstr(name, "simt") || strstr(name, "sgemm"))
        return 0;
    for (size_t i = 0; i < sizeof tc / sizeof *tc; i++)
        if (strcasestr(name, tc[i]))
            return 1;
    return 0;
}

int rule_tensor_cores_unused(const model *m, const double *p, rule_result *o)
{
    double worst = -1;
    for (size_t i = 0; i < model_gpu_count(m); i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        const gpu_summary *s = gpu_rank_summary(row->gpu);
        const gpu_table *k = gpu_rank_kernels(row->gpu);
        int64_t busy = s->compute_us + s->non_compute_us, gemm = 0, simt = 0;
        const gpu_stat *top = NULL;
        for (size_t r = 0; r < k->n; r++) {
            const gpu_stat *st = &k->rows[r];
            if (!st->count || !is_gemm(st->name))
                continue;
            gemm += st->sum_us;
            if (!rule_kernel_tensor_core(st->name)) {
                simt += st->sum_us;
                top = !top || st->sum_us > top->sum_us ? st : top;
            }
        }
        if (!s->has_gpu || busy <= 0 || 100.0 * (double)gemm / (double)busy < p[1])
            continue;
        o->datapoints++;
        double pct = 100.0 * (double)simt / (double)gemm;
        if (pct < p[0])
            continue;
        o->violations++;
        rule_result_example(o, row->node, row->process, 0, 0, pct,
                            "%.0f%% of matmul time without Tensor Cores", pct);
        if (pct <= worst)
            continue;
        worst = pct;
        o->worst_value = pct;
        rule_result_worst(o, row->node, row->process, 0, 0);
        rule_result_cause(o, "%s of %s: %.0f%% of its matmul time (%.1f ms of %.1f ms) on kernels "
                          "without Tensor Cores, %.60s the largest: fp32 math",
                          row->process, row->node, pct, (double)simt / 1000, (double)gemm / 1000,
                          top ? top->name : "");
        rule_result_message(o, "%s: %.0f%% of matmul time without Tensor Cores", row->process,
                            pct);
    }
    if (!o->datapoints) {
        rule_result_message(o, model_gpu_count(m) ? "no rank spends %g%% of its GPU time in "
                            "matmul kernels" : "no PyTorch profiler traces", p[1]);
        return 0;
    }
    o->status = o->violations ? RULE_TRIGGERED : RULE_OK;
    if (!o->violations)
        rule_result_message(o, "matmuls run on Tensor Cores");
    return 0;
}
