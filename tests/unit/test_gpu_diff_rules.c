/* Unit tests for model/gpu's kernel diff (gpu_diff) and the four Kineto
 * rule predicates (gpu_rules), on hand-built tables and summaries, and the
 * diff on HTA's TraceDiff pair of samples when they are there. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gpu/gpu_diff.h"
#include "model/rules/rules.h"
#include "tests/unit/kineto_jansson.h"

static void put(gpu_table *t, const char *name, int64_t dur, int n)
{
    int64_t i = gpu_table_intern(t, sm_str_c(name));
    assert_true(i >= 0);
    t->rows[i].type = GPU_KT_COMPUTATION;
    while (n--)
        gpu_table_count(t, (size_t)i, dur, dur);
}

/* a: gemm 2 x 10, relu 5, old 3; b: gemm 2 x 20, relu 5, new 7, and a
 * name interned but never counted (not a kernel of b). */
static void test_diff_kinds(void **state)
{
    (void)state;
    gpu_table a, b;
    gpu_table_init(&a);
    gpu_table_init(&b);
    put(&a, "gemm", 10, 2);
    put(&a, "relu", 5, 1);
    put(&a, "old", 3, 1);
    put(&b, "gemm", 20, 2);
    put(&b, "relu", 5, 1);
    put(&b, "new", 7, 1);
    assert_true(gpu_table_intern(&b, sm_str_c("old")) >= 0);
    size_t n = 0;
    gpu_kdiff *d = gpu_diff_kernels(&a, &b, GPU_DIFF_DEFAULT_THRESHOLD, &n);
    assert_int_equal(n, 4);
    assert_string_equal(d[0].name, "gemm");          /* |delta| 20 */
    assert_int_equal(d[0].kind, GPU_DIFF_SLOWER);
    assert_true(d[0].a_mean_us == 10 && d[0].b_mean_us == 20);
    assert_string_equal(d[1].name, "new");           /* 7 */
    assert_int_equal(d[1].kind, GPU_DIFF_ADDED);
    assert_true(isnan(d[1].a_mean_us));
    assert_string_equal(d[2].name, "old");           /* 3 */
    assert_int_equal(d[2].kind, GPU_DIFF_REMOVED);
    assert_string_equal(d[3].name, "relu");
    assert_int_equal(d[3].kind, GPU_DIFF_SAME);
    free(d);
    d = gpu_diff_kernels(&b, &a, GPU_DIFF_DEFAULT_THRESHOLD, &n);   /* the other way */
    assert_int_equal(d[0].kind, GPU_DIFF_FASTER);
    assert_int_equal(d[1].kind, GPU_DIFF_REMOVED);
    assert_int_equal(d[2].kind, GPU_DIFF_ADDED);
    free(d);
    assert_string_equal(gpu_diff_kind_name(GPU_DIFF_SLOWER), "slower");
    gpu_table_free(&a);
    gpu_table_free(&b);
}

static int feed(const sm_kevent *ev, void *ctx)
{
    return gpu_trace_add(ctx, ev);
}

static gpu_rank *load(const char *path)
{
    gpu_trace *t = gpu_trace_new(NULL);
    kj_file f;
    if (kj_load(&f, path, feed, t) != 0) {
        gpu_trace_free(t);
        return NULL;
    }
    assert_int_equal(gpu_trace_end(t, &f.meta), 0);
    gpu_rank *r = gpu_rank_new();
    assert_int_equal(gpu_rank_merge(r, t), 0);
    gpu_trace_free(t);
    kj_free(&f);
    return r;
}

/* HTA's TraceDiff pair: every kernel of either side is in exactly one
 * category, consistent with its counts and means. */
static void test_diff_samples(void **state)
{
    (void)state;
    gpu_rank *a = load(SMTOP_SAMPLES "/kineto/trace_diff_control/control.json.gz");
    gpu_rank *b = a ? load(SMTOP_SAMPLES "/kineto/trace_diff_test/test.json.gz") : NULL;
    if (!a || !b) {
        gpu_rank_free(a);
        printf("SKIPPED: ../shared/samples not found\n");
        skip();
    }
    size_t n = 0, na = 0, nb = 0, kinds[5] = {0};
    free(gpu_table_sorted(gpu_rank_kernels(a), 0, &na));
    free(gpu_table_sorted(gpu_rank_kernels(b), 0, &nb));
    gpu_kdiff *d = gpu_diff_kernels(gpu_rank_kernels(a), gpu_rank_kernels(b), 0.05, &n);
    assert_non_null(d);
    for (size_t i = 0; i < n; i++) {
        kinds[d[i].kind]++;
        assert_true((d[i].kind == GPU_DIFF_ADDED) == (d[i].a_count == 0));
        assert_true((d[i].kind == GPU_DIFF_REMOVED) == (d[i].b_count == 0));
        if (d[i].kind == GPU_DIFF_SLOWER)
            assert_true(d[i].b_mean_us > d[i].a_mean_us);
        if (d[i].kind == GPU_DIFF_FASTER)
            assert_true(d[i].b_mean_us < d[i].a_mean_us);
        if (i > 0)
            assert_true(llabs(d[i - 1].b_sum_us - d[i - 1].a_sum_us) >=
                        llabs(d[i].b_sum_us - d[i].a_sum_us));
    }
    assert_int_equal(n, na + kinds[GPU_DIFF_ADDED]);
    assert_int_equal(n, nb + kinds[GPU_DIFF_REMOVED]);
    printf("control %zu kernels, test %zu: %zu added, %zu removed, %zu slower, %zu faster, "
           "%zu same\n", na, nb, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]);
    free(d);
    gpu_rank_free(a);
    gpu_rank_free(b);
}

static rule_result eval(const char *name, const gpu_summary *s)
{
    rule_result o;
    int i = rules_find(name);
    if (i >= 0) {
        assert_int_equal(rules_eval_rank_default((size_t)i, s, &o), 0);
        return o;
    }
    fail_msg("no rule %s", name);
    return o;
}

static gpu_summary busy_gpu(void)
{
    gpu_summary s;
    memset(&s, 0, sizeof s);
    s.has_gpu = 1;
    s.span_us = 1000;
    s.idle_us = 600;
    s.idle_pct = 60;
    s.host_wait_us = 400;
    s.kernel_wait_us = 100;
    s.other_idle_us = 100;
    return s;
}

static void test_rule_idle_host_bound(void **state)
{
    (void)state;
    gpu_summary s = busy_gpu();
    assert_int_equal(eval("GPUIdleHostBound", &s).status, RULE_TRIGGERED);  /* 60 %, 67 % host */
    s.idle_pct = 50;                                   /* not above the threshold */
    assert_int_equal(eval("GPUIdleHostBound", &s).status, RULE_OK);
    s = busy_gpu();
    s.host_wait_us = 100;
    s.other_idle_us = 400;                             /* idle, but not host-bound */
    assert_int_equal(eval("GPUIdleHostBound", &s).status, RULE_OK);
    s.has_gpu = 0;
    assert_int_equal(eval("GPUIdleHostBound", &s).status, RULE_NO_DATA);
}

static void test_rule_comm(void **state)
{
    (void)state;
    gpu_summary s = busy_gpu();
    assert_int_equal(eval("CommNotOverlapped", &s).status, RULE_NO_DATA);
    s.has_comm = 1;
    s.comm_us = 200;                                   /* 20 % of the span */
    s.comm_comp_overlap_pct = 10;
    rule_result o = eval("CommNotOverlapped", &s);
    assert_int_equal(o.status, RULE_TRIGGERED);
    assert_true(o.examples[0].value == 10);
    s.comm_comp_overlap_pct = 30;                      /* at the threshold: ok */
    assert_int_equal(eval("CommNotOverlapped", &s).status, RULE_OK);
    s.comm_comp_overlap_pct = 0;
    s.comm_us = 50;                                    /* 5 %: too little to matter */
    assert_int_equal(eval("CommNotOverlapped", &s).status, RULE_OK);
}

static void test_rule_launch(void **state)
{
    (void)state;
    gpu_summary s = busy_gpu();
    s.launch.count = 99;
    s.launch.short_kernels = 99;
    assert_int_equal(eval("KernelLaunchOverhead", &s).status, RULE_NO_DATA);
    s.launch.count = 200;
    s.launch.short_kernels = 101;
    assert_int_equal(eval("KernelLaunchOverhead", &s).status, RULE_TRIGGERED);
    s.launch.short_kernels = 100;
    assert_int_equal(eval("KernelLaunchOverhead", &s).status, RULE_OK);
}

static void test_rule_memory(void **state)
{
    (void)state;
    gpu_summary s = busy_gpu();
    assert_int_equal(eval("GPUMemoryNearCapacity", &s).status, RULE_NO_DATA);
    gpu_mem_peak peaks[2] = {{0, 10 << 20, 70LL << 30}, {1, 10 << 20, 75LL << 30}};
    s.memory.peaks = peaks;
    s.memory.n_peaks = 2;
    s.memory.n_devices = 2;
    s.memory.total_global_mem[0] = 80LL << 30;
    s.memory.total_global_mem[1] = 80LL << 30;
    rule_result o = eval("GPUMemoryNearCapacity", &s);
    assert_int_equal(o.status, RULE_TRIGGERED);        /* GPU 1: 93.75 % */
    assert_true(fabs(o.examples[0].value - 93.75) < 1e-9);
    peaks[1].reserved = 70LL << 30;
    assert_int_equal(eval("GPUMemoryNearCapacity", &s).status, RULE_OK);
    s.memory.oom_events = 1;
    assert_int_equal(eval("GPUMemoryNearCapacity", &s).status, RULE_TRIGGERED);
    s.memory.n_peaks = 0;                              /* an OOM alone suffices */
    assert_int_equal(eval("GPUMemoryNearCapacity", &s).status, RULE_TRIGGERED);
}

/* Parameters fit the rule table: a name, a default inside its range. */
static void test_rule_params(void **state)
{
    (void)state;
    size_t n = 0;
    for (size_t i = 0; i < rules_count(); i++) {
        rule_result one;
        gpu_summary none;
        memset(&none, 0, sizeof none);
        if (rules_eval_rank_default(i, &none, &one) != 0)
            continue;   /* not a per-rank predicate */
        n++;
        size_t np = rules_param_count(i);
        assert_true(np >= 1 && np <= RULE_MAX_PARAMS);
        rules *r = rules_new();
        for (size_t p = 0; p < np; p++) {
            sm_err err = {0};
            assert_int_equal(rules_set_param(r, rules_name_at(i), rules_param_name(i, p),
                                             rules_param_default(i, p), &err), 0);
        }
        rules_free(r);
    }
    assert_int_equal(n, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff_kinds),
        cmocka_unit_test(test_diff_samples),
        cmocka_unit_test(test_rule_idle_host_bound),
        cmocka_unit_test(test_rule_comm),
        cmocka_unit_test(test_rule_launch),
        cmocka_unit_test(test_rule_memory),
        cmocka_unit_test(test_rule_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
