/* Unit tests for the PyTorch profiler rules in the rule table
 * (model/rules/rule_kineto.c): one datapoint per rank of the model, the
 * worst rank named, thresholds edited like any rule's (a test fails when
 * one is ignored), re-run only when a trace is merged or a parameter
 * changes, and the rows that run on ranks the four of issue 25. */
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
#include "model/rules/rules.h"
#include "tests/unit/kineto_build.h"
#include "tests/unit/kineto_jansson.h"

static const rule_result *eval(rules *r, const model *m, const char *name)
{
    assert_true(rules_evaluate(r, m) >= 0);
    int i = rules_find(name);
    assert_true(i >= 0);
    return rules_result_at(r, (size_t)i);
}

static void set(rules *r, const char *spec)
{
    sm_err err = {0};
    assert_int_equal(rules_apply_override(r, spec, &err), 0);
}

static void merge(model *m, const char *node, const char *proc, int64_t rank, gpu_trace *t)
{
    assert_int_equal(model_gpu_merge(m, node, proc, rank, t, 1), 0);
    gpu_trace_free(t);
}

/* The Kineto rules are the table's rows that run on every rank: the four
 * of issue 25, each with no data on a model without traces, and every
 * parameter bounded like any rule's. */
static void test_rank_rows(void **state)
{
    (void)state;
    const char *names[] = {"GPUIdleHostBound", "CommNotOverlapped", "KernelLaunchOverhead",
                           "GPUMemoryNearCapacity"};
    size_t found = 0;
    gpu_summary empty;
    memset(&empty, 0, sizeof empty);
    rules *r = rules_new();
    const model *m = model_new(NULL);
    assert_true(rules_evaluate(r, m) >= 0);
    for (size_t i = 0; i < rules_count(); i++) {
        rule_result one;
        int on_ranks = rules_eval_rank_default(i, &empty, &one) == 0;
        /* a rule run on every rank reads the ranks; the set-up rules
         * (GlooWithCUDA, ...) read them whole */
        assert_true(!on_ranks || rules_reads_ranks(i));
        if (!on_ranks)
            continue;
        assert_string_equal(rules_name_at(i), names[found++]);
        assert_int_equal(one.status, RULE_NO_DATA);
        const rule_result *o = rules_result_at(r, i);
        assert_int_equal(o->status, RULE_NO_DATA);
        assert_string_equal(o->message, "no PyTorch profiler traces");
        for (size_t p = 0; p < rules_param_count(i); p++) {
            sm_err err = {0};
            assert_int_equal(rules_set_param(r, rules_name_at(i), rules_param_name(i, p),
                                             1e12, &err), -1);
        }
    }
    assert_int_equal(found, 4);
    rules_free(r);
    model_free((model *)m);
}

/* A host-bound rank fires all four at their defaults; each threshold,
 * raised past the rank's figure, turns its rule ok. */
static void test_fire_and_thresholds(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(1700000000, 12, 1, 95));
    rules *r = rules_new();
    const char *names[] = {"GPUIdleHostBound", "CommNotOverlapped", "KernelLaunchOverhead",
                           "GPUMemoryNearCapacity"};
    for (size_t k = 0; k < 4; k++) {
        const rule_result *o = eval(r, m, names[k]);
        assert_int_equal(o->status, RULE_TRIGGERED);
        assert_int_equal(o->violations, 1);
        assert_int_equal(o->datapoints, 1);
        assert_string_equal(o->node, "algo-1");
        assert_string_equal(o->device, "rank 0");
        assert_int_equal(o->n_examples, 1);
        assert_string_equal(o->examples[0].device, "rank 0");
        assert_true(o->t0_us >= 1700000000LL * 1000000 && o->t1_us > o->t0_us);
        assert_non_null(strstr(o->message, "rank 0: "));
    }
    /* idle 78 %, all of it host wait; 13 % comm, none overlapped; 9 of 10
     * kernels short; 95 % reserved */
    const rule_result *o = eval(r, m, "GPUIdleHostBound");
    assert_true(o->examples[0].value > 70 && o->examples[0].value < 85);
    set(r, "GPUIdleHostBound.threshold=85");
    assert_int_equal(eval(r, m, "GPUIdleHostBound")->status, RULE_OK);
    set(r, "GPUIdleHostBound.threshold=50");
    set(r, "GPUIdleHostBound.host_wait=100");
    assert_int_equal(eval(r, m, "GPUIdleHostBound")->status, RULE_OK);

    set(r, "CommNotOverlapped.min_comm=20");
    assert_int_equal(eval(r, m, "CommNotOverlapped")->status, RULE_OK);
    set(r, "CommNotOverlapped.min_comm=10");
    set(r, "CommNotOverlapped.threshold=0");
    assert_int_equal(eval(r, m, "CommNotOverlapped")->status, RULE_OK);

    set(r, "KernelLaunchOverhead.threshold=95");
    assert_int_equal(eval(r, m, "KernelLaunchOverhead")->status, RULE_OK);
    set(r, "KernelLaunchOverhead.threshold=50");
    set(r, "KernelLaunchOverhead.min_launches=1000");
    o = eval(r, m, "KernelLaunchOverhead");
    assert_int_equal(o->status, RULE_NO_DATA);
    assert_non_null(strstr(o->message, "fewer than min_launches 1000"));

    set(r, "GPUMemoryNearCapacity.threshold=96");
    assert_int_equal(eval(r, m, "GPUMemoryNearCapacity")->status, RULE_OK);
    rules_free(r);
    model_free(m);
}

/* Two ranks, one healthy (no comm, 50 % reserved): one of two fires and
 * the worst is named; ok ranks name the most borderline. */
static void test_ranks(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(1700000000, 12, 0, 50));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(1700000000, 12, 1, 95));
    rules *r = rules_new();
    const rule_result *o = eval(r, m, "GPUMemoryNearCapacity");
    assert_int_equal(o->status, RULE_TRIGGERED);
    assert_int_equal(o->violations, 1);
    assert_int_equal(o->datapoints, 2);
    assert_string_equal(o->node, "algo-2");
    assert_string_equal(o->device, "rank 1");
    assert_non_null(strstr(o->message, "1 of 2 ranks"));
    o = eval(r, m, "CommNotOverlapped");   /* rank 0 has no comm: not a datapoint */
    assert_int_equal(o->datapoints, 1);
    assert_string_equal(o->node, "algo-2");
    set(r, "GPUMemoryNearCapacity.threshold=99");
    o = eval(r, m, "GPUMemoryNearCapacity");
    assert_int_equal(o->status, RULE_OK);
    assert_string_equal(o->device, "rank 1");   /* 95 % is nearer than 50 % */
    rules_free(r);
    model_free(m);
}

/* Idle passes run nothing; a merged trace re-runs the rules. */
static void test_incremental(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    rules *r = rules_new();
    assert_true(rules_evaluate(r, m) >= 0);
    uint64_t n0 = rules_evaluation_count(r);
    assert_int_equal(rules_evaluate(r, m), 0);
    assert_int_equal(rules_evaluation_count(r), n0);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(1700000000, 12, 1, 95));
    assert_int_equal(eval(r, m, "GPUIdleHostBound")->status, RULE_TRIGGERED);
    assert_true(rules_evaluation_count(r) > n0);
    rules_free(r);
    model_free(m);
}

static int feed(const sm_kevent *ev, void *ctx)
{
    return gpu_trace_add(ctx, ev);
}

/* Both ranks of the sampled_ranks sample: the rule table's verdict is the
 * predicates' verdict on each rank, counted. */
static void test_samples(void **state)
{
    (void)state;
    static const char *const files[] = {
        SMTOP_SAMPLES "/kineto/sampled_ranks/sampled_rank-0.json.gz",
        SMTOP_SAMPLES "/kineto/sampled_ranks/sampled_rank-1.json.gz",
    };
    model *m = model_new(NULL);
    size_t loaded = 0;
    for (size_t i = 0; i < 2; i++) {
        gpu_trace *t = gpu_trace_new(NULL);
        kj_file f;
        if (kj_load(&f, files[i], feed, t) != 0) {
            gpu_trace_free(t);
            continue;
        }
        assert_int_equal(gpu_trace_end(t, &f.meta), 0);
        char proc[32];
        snprintf(proc, sizeof proc, "rank %zu", i);
        merge(m, "algo-1", proc, (int64_t)i, t);
        kj_free(&f);
        loaded++;
    }
    if (!loaded) {
        model_free(m);
        printf("SKIPPED: ../shared/samples not found\n");
        skip();
    }
    rules *r = rules_new();
    assert_true(rules_evaluate(r, m) >= 0);
    for (size_t k = 0; k < rules_count(); k++) {
        if (!rules_reads_ranks(k))
            continue;
        int64_t fired = 0, checked = 0;
        rule_result one;
        gpu_summary none;
        memset(&none, 0, sizeof none);
        if (rules_eval_rank_default(k, &none, &one) != 0)
            continue;   /* a set-up rule: it reads the ranks whole */
        for (size_t i = 0; i < model_gpu_count(m); i++) {
            assert_int_equal(rules_eval_rank_default(k, gpu_rank_summary(model_gpu_at(m, i)->gpu),
                                                     &one), 0);
            fired += one.status == RULE_TRIGGERED;
            checked += one.datapoints > 0;
        }
        const rule_result *o = rules_result_at(r, k);
        assert_int_equal(o->violations, fired);
        assert_int_equal(o->datapoints, checked);
        printf("%s: %s, %s\n", o->name, rules_status_name(o->status), o->message);
    }
    rules_free(r);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_rows),
        cmocka_unit_test(test_fire_and_thresholds),
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_incremental),
        cmocka_unit_test(test_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
