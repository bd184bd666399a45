/* Unit tests for model/view/gpucause (the PyTorch profiler's findings with
 * their cause and fix) and the three set-up rules it tells
 * (model/rules/rule_kineto_setup.c: GlooWithCUDA, RanksShareGPU,
 * TensorCoresUnused), on hand-built ranks whose figures are known by
 * construction (tests/unit/kineto_build.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/core/model_gpu.h"
#include "model/rules/rule_impl.h"
#include "model/rules/rules.h"
#include "model/view/gpucause.h"
#include "model/view/gpuview.h"
#include "tests/unit/kineto_build.h"
#include "tests/unit/model_fixture.h"

#define BASE 1700000000LL

static void merge(model *m, const char *node, const char *proc, int64_t rank, gpu_trace *t)
{
    assert_int_equal(model_gpu_merge(m, node, proc, rank, t, 1), 0);
    gpu_trace_free(t);
}

static size_t findings(const model *m, rules *r, finding *f, size_t max)
{
    rules_invalidate(r);
    assert_true(rules_evaluate(r, m) >= 0);
    rule_result res[64];
    size_t n = rules_count();
    for (size_t i = 0; i < n; i++)
        res[i] = *rules_result_at(r, i);
    return gpucause_findings(m, res, n, r, 10, f, max);
}

static const finding *by_source(const finding *f, size_t n, const char *source)
{
    for (size_t i = 0; i < n; i++)
        if (f[i].source && !strcmp(f[i].source, source))
            return &f[i];
    return NULL;
}

/* kb_host_bound: ~90 % short kernels, a 130 µs all-reduce not overlapped,
 * reserved 95 % of the device. KernelLaunchOverhead fires, but the launch
 * calls are 180 of each step's 1000 µs on the critical path, under
 * GPUCAUSE_LAUNCH_PCT: the host between them, in aten::linear, holds the
 * steps back, so the idle finding names the host and the launches are a
 * finding of their own (nccl_data's shape). The rules' thresholds then
 * move the cause's rule away but not the cause. Every finding has a
 * cause, a fix and evidence. */
static void test_idle_causes_in_order(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    rules *r = rules_new();
    finding f[12];
    assert_int_equal(findings(m, r, f, 12), 0);   /* no Kineto: nothing said */
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 12, 1, 95));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(BASE, 12, 1, 40));
    gpuview_job j;
    gpuview_job_sum(m, &j);
    size_t n = findings(m, r, f, 12);
    assert_int_equal(n, 5);   /* "sm90_gemm" names no Tensor Core either */
    char want[FINDING_TEXT];
    snprintf(want, sizeof want, "GPU idle %.0f %% of 11 traced steps", j.idle_pct);
    assert_string_equal(f[0].text, want);
    assert_int_equal(f[0].severity, RULE_SEV_HIGH);
    assert_string_equal(f[0].why, "host busy in aten::linear");
    assert_string_equal(f[0].knob, "bigger batch");
    if (!strstr(f[0].cause, "aten::linear (cpu_op) ran during 75 % of its idle time; the "
                            "steps' critical path is cpu_bound for 100 % of it"))
        fail_msg("%s", f[0].cause);
    assert_string_equal(f[0].rule, "GPUIdleHostBound");   /* told: not repeated */
    assert_string_equal(f[1].text, "comm not overlapped 100 %");
    assert_string_equal(f[1].knob, "smaller DDP buckets");
    assert_non_null(strstr(f[1].fix, "bucket_cap_mb"));
    assert_string_equal(f[2].text, "launch-bound: 90 % short kernels");
    assert_string_equal(f[2].knob, "CUDA graphs / torch.compile");
    assert_non_null(strstr(f[2].fix, "torch.compile"));
    assert_string_equal(f[3].text, "GPU memory 95 % of device");
    assert_non_null(strstr(f[3].fix, "checkpoint"));
    assert_string_equal(f[4].source, "TensorCoresUnused");
    for (size_t i = 0; i < n; i++)
        assert_true(f[i].cause[0] && f[i].fix[0] && f[i].evidence[0]);

    sm_err err = {0};
    assert_int_equal(rules_apply_override(r, "KernelLaunchOverhead.threshold=95", &err), 0);
    n = findings(m, r, f, 12);
    assert_string_equal(f[0].why, "host busy in aten::linear");   /* the idle causes name it */
    assert_string_equal(f[0].knob, "bigger batch");
    assert_string_equal(f[0].rule, "GPUIdleHostBound");
    assert_int_equal(rules_apply_override(r, "GPUIdleHostBound.threshold=90", &err), 0);
    n = findings(m, r, f, 12);
    assert_string_equal(f[0].why, "host busy in aten::linear");   /* the path is cpu_bound */
    assert_string_equal(f[0].knob, "bigger batch");
    assert_null(f[0].rule);
    /* under idle_min the idle finding goes; the others stay */
    rule_result res[64];
    for (size_t i = 0; i < rules_count(); i++)
        res[i] = *rules_result_at(r, i);
    n = gpucause_findings(m, res, rules_count(), r, 99, f, 12);
    assert_null(by_source(f, n, "kineto"));
    assert_non_null(by_source(f, n, "CommNotOverlapped"));
    assert_int_equal(gpucause_findings(m, res, rules_count(), r, 10, f, 0), 0);
    rules_free(r);
    model_free(m);
}

/* A launch-bound rank: each 1000 µs step is 10 back-to-back 95 µs launch
 * calls, each of a 10 µs kernel. The critical path is in the launches, so
 * the idle finding names them (with KernelLaunchOverhead's fix), whatever
 * the rule's threshold; the host-bound fixture above, with short kernels
 * too, does not. */
static void test_launch_path_leads(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    int64_t corr = 1;
    for (int s = 0; s < 8; s++) {
        int64_t t0 = (int64_t)s * 1000;
        kb_step(t, s, t0, 1000);
        kb_op(t, "aten::add", t0 + 1, 998);
        for (int i = 0; i < 10; i++, corr++)
            kb_launch(t, "vectorized_elementwise_kernel", t0 + 2 + i * 99, 95,
                      t0 + 90 + i * 99, 10, corr);
    }
    sm_kmeta meta = kb_meta(BASE, 80LL << 30);
    gpu_trace_end(t, &meta);
    model *m = model_new(NULL);
    rules *r = rules_new();
    merge(m, "algo-1", "rank 0", 0, t);
    finding f[12];
    for (int pass = 0; pass < 2; pass++) {
        size_t n = findings(m, r, f, 12);
        assert_true(n >= 1);
        assert_string_equal(f[0].why, "kernel launches (tiny kernels)");
        assert_string_equal(f[0].knob, "CUDA graphs / torch.compile");
        if (!strstr(f[0].cause, "the steps' critical path is in launches for"))
            fail_msg("%s", f[0].cause);
        sm_err err = {0};   /* the rule no longer fires: the path still says launches */
        assert_int_equal(rules_apply_override(r, "KernelLaunchOverhead.threshold=100", &err), 0);
    }
    rules_free(r);
    model_free(m);
}

/* A rank whose meta says backend b over n_devices devices, on device dev,
 * with gemm kernels `kernel` (10 µs each, 9 a step). */
static gpu_trace *rank_with(const char *backend, size_t n_devices, int64_t dev,
                            const char *kernel)
{
    gpu_trace *t = gpu_trace_new(NULL);
    int64_t corr = 1, total = 80LL << 30;
    for (int s = 0; s < 6; s++) {
        int64_t t0 = (int64_t)s * 1000;
        kb_step(t, s, t0, 1000);
        for (int i = 0; i < 9; i++, corr++)
            kb_launch(t, kernel, t0 + 10 + i * 100, 5, t0 + 20 + i * 100, 60, corr);
        kb_mem(t, t0 + 5, dev, 1LL << 30, 2LL << 30);
    }
    sm_kmeta m = kb_meta(BASE, total);
    m.n_devices = n_devices;
    for (size_t d = 0; d < n_devices; d++)
        m.total_global_mem[d] = total;
    m.has_dist = 1;
    m.backend = sm_str_c(backend);
    m.rank = -1;
    gpu_trace_end(t, &m);
    return t;
}

/* Rule name's result on m, evaluated afresh (a new model may reuse a
 * freed one's address). */
static const rule_result *eval(rules *r, const model *m, const char *name)
{
    rules_invalidate(r);
    assert_true(rules_evaluate(r, m) >= 0);
    return rules_result_at(r, (size_t)rules_find(name));
}

/* DDP over gloo with CUDA tensors fires GlooWithCUDA and is the idle
 * finding's cause ("gloo all-reduce on the host → use NCCL"); over NCCL it
 * does not fire. */
static void test_gloo(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, rank_with("nccl", 2, 0, "sm90_xmma_gemm_f32f32_tf32f32"));
    assert_int_equal(eval(r, m, "GlooWithCUDA")->status, RULE_OK);
    model_free(m);
    m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, rank_with("gloo", 2, 0, "sm90_xmma_gemm_f32f32_tf32f32"));
    const rule_result *g = eval(r, m, "GlooWithCUDA");
    assert_int_equal(g->status, RULE_TRIGGERED);
    assert_non_null(strstr(g->cause, "DDP over gloo with CUDA tensors"));
    assert_non_null(strstr(g->fix, "init_process_group(\"nccl\")"));
    finding f[12];
    size_t n = findings(m, r, f, 12);
    assert_true(n >= 1);
    assert_string_equal(f[0].why, "gloo all-reduce on the host");
    assert_string_equal(f[0].knob, "use NCCL");
    assert_null(by_source(f, n, "GlooWithCUDA"));   /* the idle finding told it */
    model_free(m);
    rules_free(r);
}

/* Two ranks of a node on GPU 0 fire RanksShareGPU when that is surely one
 * device: the traces list two, or the system metrics count one GPU. One
 * visible device each and no system metrics: maybe CUDA_VISIBLE_DEVICES,
 * so it does not fire. */
static void test_ranks_share_gpu(void **state)
{
    (void)state;
    rules *r = rules_new();
    const char *k = "sm90_xmma_gemm_f32f32_tf32f32";
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, rank_with("nccl", 1, 0, k));
    merge(m, "algo-1", "rank 1", 1, rank_with("nccl", 1, 0, k));
    assert_int_equal(eval(r, m, "RanksShareGPU")->status, RULE_OK);
    for (int64_t i = 0; i < 4; i++)   /* the node's system metrics: 1 GPU */
        fx_sample(m, "algo-1", "gpu", "GPUUtilization", "gpu0", BASE * 1000000 + i * 500000, 50);
    const rule_result *s = eval(r, m, "RanksShareGPU");
    assert_int_equal(s->status, RULE_TRIGGERED);
    assert_non_null(strstr(s->cause, "2 ranks of algo-1 run on GPU 0 (the node has 1 GPU)"));
    assert_non_null(strstr(s->fix, "one rank per GPU"));
    model_free(m);
    m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, rank_with("nccl", 2, 0, k));
    merge(m, "algo-1", "rank 1", 1, rank_with("nccl", 2, 1, k));
    assert_int_equal(eval(r, m, "RanksShareGPU")->status, RULE_OK);
    merge(m, "algo-1", "rank 2", 2, rank_with("nccl", 2, 1, k));
    assert_int_equal(eval(r, m, "RanksShareGPU")->status, RULE_TRIGGERED);
    model_free(m);
    rules_free(r);
}

/* Matmuls on SIMT kernels (sgemm) fire TensorCoresUnused; on xmma/tf32
 * kernels they do not; the thresholds are the user's. */
static void test_tensor_cores(void **state)
{
    (void)state;
    assert_true(rule_kernel_tensor_core("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n"));
    assert_true(rule_kernel_tensor_core("ampere_h16816gemm_256x128_ldg8_stages_32x3_nn"));
    assert_false(rule_kernel_tensor_core("void cutlass::Kernel2<cutlass_80_simt_sgemm_128x64_8x5_tn_align1>"));
    assert_false(rule_kernel_tensor_core("ampere_sgemm_128x64_tn"));
    rules *r = rules_new();
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, rank_with("", 1, 0, "ampere_sgemm_128x64_tn"));
    const rule_result *t = eval(r, m, "TensorCoresUnused");
    assert_int_equal(t->status, RULE_TRIGGERED);
    assert_non_null(strstr(t->cause, "100% of its matmul time"));
    assert_non_null(strstr(t->fix, "autocast"));
    finding f[12];
    size_t n = findings(m, r, f, 12);
    const finding *tc = by_source(f, n, "TensorCoresUnused");
    assert_non_null(tc);
    assert_string_equal(tc->knob, "bf16 autocast");
    model_free(m);
    m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, rank_with("", 1, 0, "sm90_xmma_gemm_f32f32_tf32f32"));
    assert_int_equal(eval(r, m, "TensorCoresUnused")->status, RULE_OK);
    model_free(m);
    rules_free(r);
}

static void test_frame_words(void **state)
{
    (void)state;
    char out[64];
    const char *a = "train.py(12): __getitem__";
    gpucause_frame_words(a, strlen(a), out, sizeof out);
    assert_string_equal(out, "train.py:12 __getitem__");
    const char *b = "<built-in method randn>";
    gpucause_frame_words(b, strlen(b), out, sizeof out);
    assert_string_equal(out, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_causes_in_order),
        cmocka_unit_test(test_launch_path_leads),
        cmocka_unit_test(test_gloo),
        cmocka_unit_test(test_ranks_share_gpu),
        cmocka_unit_test(test_tensor_cores),
        cmocka_unit_test(test_frame_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
