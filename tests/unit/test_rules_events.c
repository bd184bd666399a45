/* Unit tests for the event/phase rules (model/rules/rule_steps.c,
 * rule_summary.c) and for model/rules/device_usage.c, fed through
 * model_add_event / model_add_sample, checked against hand computation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/device_usage.h"
#include "model/rules/rule_impl.h"
#include "rules_fixture.h"

#define EXPECT(res, st)                                                     \
    do {                                                                    \
        const rule_result *r_ = (res);                                      \
        if (r_->status != (st))                                             \
            fail_msg("%s: status %s, expected %s (%s)", r_->name,           \
                     rules_status_name(r_->status), rules_status_name(st),  \
                     r_->message);                                          \
    } while (0)

#define TRAIN "Step:ModeKeys.TRAIN"

/* n TRAIN steps of 100 ms; `slow` of them (every 10th from step 5) 1 s. */
static void steps_run(model *m, int n, int slow)
{
    int64_t t = T0;
    for (int s = 0; s < n; s++) {
        int is_slow = s % 10 == 5 && s / 10 < slow;
        int64_t dur = is_slow ? 1000000 : 100000;
        fx_event(m, "algo-1", TRAIN, "Step:ModeKeys.TRAIN", s, t, dur, 1);
        t += dur + 1000;
    }
}

static void test_step_outlier(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = model_new(NULL);
    /* 200 steps, 12 of 1 s: mean 154 ms, sigma 213.7 ms, limit 795 ms */
    steps_run(m, 200, 12);
    const rule_result *res = fx_eval(r, m, "StepOutlier");
    EXPECT(res, RULE_TRIGGERED);
    assert_int_equal(res->violations, 12);
    assert_int_equal(res->datapoints, 200);
    assert_int_equal(res->t1_us - res->t0_us, 1000000);
    assert_string_equal(res->device, TRAIN);
    fx_set(r, "StepOutlier.n_outliers=12");
    EXPECT(fx_eval(r, m, "StepOutlier"), RULE_OK);
    model_free(m);

    m = model_new(NULL);
    steps_run(m, 200, 9);                 /* near miss: 9 <= 10 */
    fx_set(r, "StepOutlier.n_outliers=10");
    EXPECT(fx_eval(r, m, "StepOutlier"), RULE_OK);
    model_free(m);

    m = model_new(NULL);
    steps_run(m, 90, 9);                  /* not yet > 100 steps */
    EXPECT(fx_eval(r, m, "StepOutlier"), RULE_NO_DATA);
    fx_set(r, "StepOutlier.n_outliers=2");
    EXPECT(fx_eval(r, m, "StepOutlier"), RULE_NO_DATA);
    model_free(m);
    rules_free(r);
}

/* n TRAIN steps of `dur` µs by writer `w` of node `node`; `slow` of them
 * (every 10th from step 5) 1 s. */
static void rank_run(model *m, const char *node, const char *w, int n, int64_t dur, int slow)
{
    int64_t t = T0;
    for (int s = 0; s < n; s++) {
        int64_t d = s % 10 == 5 && s / 10 < slow ? 1000000 : dur;
        sm_event e = {.node = sm_str_c(node), .phase = sm_str_c(TRAIN), .name = sm_str_c(TRAIN),
                      .start_us = t, .dur_us = d, .step = s, .pid = 1, .tid = 1,
                      .process = sm_str_c(w)};
        assert_int_equal(model_add_event(m, &e), 0);
        t += d + 1000;
    }
}

/* Each rank is judged on its own steps (smdebug keys step durations by
 * the writer): the alert names the rank with the stalls, and two ranks
 * with 9 stalls each stay within n_outliers = 10 (pooled, their 18 would
 * fire). */
static void test_step_outlier_per_process(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = model_new(NULL);
    for (int k = 0; k < 8; k++) {
        char w[16];
        snprintf(w, sizeof w, "%d-algo-1", k);
        rank_run(m, "algo-1", w, 200, 100000, k == 3 ? 12 : 0);
    }
    const rule_result *res = fx_eval(r, m, "StepOutlier");
    EXPECT(res, RULE_TRIGGERED);
    assert_string_equal(res->node, "3-algo-1");
    assert_int_equal(res->violations, 12);
    assert_int_equal(res->datapoints, 8 * 200);
    assert_string_equal(res->examples[0].node, "3-algo-1");
    model_free(m);

    /* pooled, 9 + 9 stalls on two ranks would be 18 > 10 outliers */
    m = model_new(NULL);
    rank_run(m, "algo-1", "0-algo-1", 200, 100000, 9);
    rank_run(m, "algo-1", "1-algo-1", 200, 100000, 9);
    res = fx_eval(r, m, "StepOutlier");
    EXPECT(res, RULE_OK);
    assert_int_equal(res->violations, 18);
    model_free(m);
    rules_free(r);
}

/* Straggler: a rank slower than its node's other ranks, and a node slower
 * than the other nodes; each compared with the median of the others. */
static void test_straggler(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = model_new(NULL);
    rank_run(m, "algo-1", "0-algo-1", 20, 100000, 0);
    EXPECT(fx_eval(r, m, "Straggler"), RULE_NO_DATA);   /* one rank, one node */
    rank_run(m, "algo-1", "1-algo-1", 20, 108000, 0);
    const rule_result *res = fx_eval(r, m, "Straggler");
    EXPECT(res, RULE_OK);                               /* +8 % <= 10 % */
    assert_int_equal(res->datapoints, 2);
    rank_run(m, "algo-1", "2-algo-1", 20, 100000, 0);
    rank_run(m, "algo-1", "3-algo-1", 20, 130000, 0);   /* +30 % of 100 ms */
    res = fx_eval(r, m, "Straggler");
    EXPECT(res, RULE_TRIGGERED);
    assert_string_equal(res->node, "3-algo-1");
    assert_string_equal(res->device, TRAIN);
    assert_int_equal(res->violations, 1);
    assert_true(res->t1_us - res->t0_us == 130000);      /* its newest step */
    assert_true(strstr(res->examples[0].text, "+30%") != NULL);
    fx_set(r, "Straggler.threshold=31");
    EXPECT(fx_eval(r, m, "Straggler"), RULE_OK);
    fx_set(r, "Straggler.threshold=10");
    fx_set(r, "Straggler.min_steps=21");
    EXPECT(fx_eval(r, m, "Straggler"), RULE_NO_DATA);
    fx_set(r, "Straggler.min_steps=10");
    model_free(m);

    /* across nodes: algo-3's steps 25 % slower than the other two's */
    m = model_new(NULL);
    rank_run(m, "algo-1", "9-algo-1", 20, 100000, 0);
    rank_run(m, "algo-2", "9-algo-2", 20, 102000, 0);
    rank_run(m, "algo-3", "9-algo-3", 20, 126000, 0);
    res = fx_eval(r, m, "Straggler");
    EXPECT(res, RULE_TRIGGERED);
    assert_string_equal(res->node, "algo-3");
    assert_int_equal(res->violations, 1);
    assert_int_equal(res->datapoints, 3);
    model_free(m);
    rules_free(r);
}

/* `cores` CPU samples and `workers` loader workers running side by side. */
static model *loader_model(int cores, int workers)
{
    model *m = model_new(NULL);
    for (int64_t k = 0; k < 10; k++)
        fx_tick(m, "algo-1", k, cores, 50, 0, NULL, NULL);
    for (int w = 0; w < workers; w++)
        for (int i = 0; i < 5; i++)
            fx_event(m, "algo-1", "DataIterator", "DataLoaderIter::GetNext", i,
                     T0 + i * 200000 + w * 1000, 150000, 10 + w);
    return m;
}

static void test_dataloader(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = loader_model(8, 2);           /* 25 % of cores < 70 % */
    const rule_result *res = fx_eval(r, m, "Dataloader");
    EXPECT(res, RULE_TRIGGERED);
    assert_float_equal(res->examples[0].value, 25, 1e-9);
    assert_string_equal(res->cause, "2 data-loader workers ran at once on algo-1's 8 cores "
                                    "(25%, expected 70-200%)");
    assert_string_equal(res->fix, "more data-loader workers: DataLoader(num_workers=6)");
    fx_set(r, "Dataloader.min_threshold=20");
    EXPECT(fx_eval(r, m, "Dataloader"), RULE_OK);
    model_free(m);
    m = loader_model(8, 6);                  /* 75 %: near miss */
    fx_set(r, "Dataloader.min_threshold=70");
    EXPECT(fx_eval(r, m, "Dataloader"), RULE_OK);
    model_free(m);
    m = loader_model(8, 0);
    EXPECT(fx_eval(r, m, "Dataloader"), RULE_NO_DATA);
    model_free(m);
    rules_free(r);
}

/* A PyTorch profiler job: 20 TRAIN steps of 100 ms on a node of `cores`
 * CPUs, each opening with `data_ms` in the DataLoader's __next__ of iter
 * (the annotation on the training thread, as kineto_ingest keeps it). */
static model *kineto_loader_model(int cores, double data_ms, const char *iter)
{
    model *m = model_new(NULL);
    char name[128];
    snprintf(name, sizeof name, "enumerate(DataLoader)#%s.__next__", iter);
    for (int64_t k = 0; cores && k < 10; k++)
        fx_tick(m, "algo-1", k, cores, 50, 0, NULL, NULL);
    for (int i = 0; i < 20; i++) {
        int64_t t = T0 + i * 101000;
        fx_step(m, "algo-1", i, t, 100000);
        fx_event(m, "algo-1", "DataIterator", name, -1, t + 10, (int64_t)(data_ms * 1000), 1);
    }
    return m;
}

/* With the profiler's annotation the rule weighs data loading against the
 * step (TensorBoard's 5 %), whatever the core count: a main-thread loader
 * fires with num_workers=0 as the cause; data under 5 % of the step never
 * fires, even with one loader on 16 cores (ProfilerReport's rule said "too
 * few workers" there: a wrong lead); no cores needed. */
static void test_dataloader_kineto(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = kineto_loader_model(16, 51, "_SingleProcessDataLoaderIter");
    const rule_result *res = fx_eval(r, m, "Dataloader");
    EXPECT(res, RULE_TRIGGERED);
    assert_non_null(strstr(res->cause, "num_workers=0"));
    assert_non_null(strstr(res->cause, "51.0 ms of each 100.0 ms TRAIN step (51%)"));
    assert_string_equal(res->fix, "DataLoader(num_workers=8, pin_memory=True, "
                                  "persistent_workers=True)");
    assert_non_null(strstr(res->evidence, "Timeline (5)"));
    model_free(m);

    m = kineto_loader_model(16, 0.088, "_MultiProcessingDataLoaderIter");
    res = fx_eval(r, m, "Dataloader");
    EXPECT(res, RULE_OK);
    assert_string_equal(res->cause, "");
    assert_null(strstr(res->message, "workers"));
    model_free(m);

    m = kineto_loader_model(0, 12, "_MultiProcessingDataLoaderIter");   /* no CPU metrics */
    res = fx_eval(r, m, "Dataloader");
    EXPECT(res, RULE_TRIGGERED);
    assert_non_null(strstr(res->cause, "waits for the DataLoader's workers"));
    assert_non_null(strstr(res->fix, "num_workers=4"));
    fx_set(r, "Dataloader.min_data_pct=15");
    EXPECT(fx_eval(r, m, "Dataloader"), RULE_OK);
    model_free(m);
    rules_free(r);
}

static model *init_model(int64_t first_step_min, int with_steps)
{
    model *m = model_new(NULL);
    for (int64_t k = 0; k < 4; k++)
        fx_tick(m, "algo-1", k, 1, 10, 0, NULL, NULL);
    int64_t t = T0 + first_step_min * 60000000LL;
    if (with_steps)
        fx_event(m, "algo-1", TRAIN, "Step:ModeKeys.TRAIN", 0, t, 100000, 1);
    else
        fx_event(m, "algo-1", "Forward", "forward", -1, t, 100000, 1);
    return m;
}

static void test_max_initialization_time(void **state)
{
    (void)state;
    rules *r = rules_new();
    model *m = init_model(25, 1);
    const rule_result *res = fx_eval(r, m, "MaxInitializationTime");
    EXPECT(res, RULE_TRIGGERED);
    assert_int_equal(res->t1_us - res->t0_us, 25 * 60000000LL);
    fx_set(r, "MaxInitializationTime.threshold=30");
    EXPECT(fx_eval(r, m, "MaxInitializationTime"), RULE_OK);
    model_free(m);
    m = init_model(31, 0);                   /* events, no step, 31 min */
    EXPECT(fx_eval(r, m, "MaxInitializationTime"), RULE_TRIGGERED);
    model_free(m);
    m = init_model(5, 0);                    /* no step yet, only 5 min */
    EXPECT(fx_eval(r, m, "MaxInitializationTime"), RULE_NO_DATA);
    model_free(m);
    m = model_new(NULL);                     /* system metrics only */
    for (int64_t k = 0; k < 5000; k++)
        fx_tick(m, "algo-1", k, 1, 10, 0, NULL, NULL);
    EXPECT(fx_eval(r, m, "MaxInitializationTime"), RULE_NO_DATA);
    EXPECT(fx_eval(r, m, "OverallSystemUsage"), RULE_OK);
    EXPECT(fx_eval(r, m, "OverallFrameworkMetrics"), RULE_NO_DATA);
    model_free(m);
    rules_free(r);
}

static void test_device_usage_buckets(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    /* cpu0: 3 samples > 90, 5 in [10, 90], 2 < 10; cpu1 always 50 */
    const double v[10] = {95, 99, 91, 10, 50, 90, 60, 70, 9.9, 0};
    for (int64_t k = 0; k < 10; k++) {
        fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + k * DT, v[k]);
        fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu1", T0 + k * DT, 50);
    }
    device_usage du[8];
    assert_int_equal(device_usage_compute(m, du, 8), 2);
    assert_string_equal(du[0].device, "cpu0");
    assert_int_equal(du[0].samples, 10);
    assert_float_equal(du[0].pct_high, 30, 1e-9);
    assert_float_equal(du[0].pct_mid, 50, 1e-9);
    assert_float_equal(du[0].pct_low, 20, 1e-9);
    assert_float_equal(du[1].pct_mid, 100, 1e-9);
    assert_int_equal(du[1].is_gpu, 0);
    idle_gpu_hours ih[2];
    assert_int_equal(device_usage_idle_gpu(m, ih, 2), 0);   /* no GPU */
    model_free(m);
}

static void test_idle_gpu_hours(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    /* 2 GPUs sampled every 0.5 s for 7200 samples (1 GPU-hour each):
     * gpu0 idle (5 %) the first 1800 s then busy; gpu1 always busy.
     * Most of it is rolled up already: the 10 s buckets do not straddle
     * the switch (T0 and 1800 s are multiples of 10 s). */
    for (int64_t k = 0; k < 7200; k++) {
        double g[2] = {k < 3600 ? 5 : 80, 60};
        fx_tick(m, "algo-2", k, 0, 0, 2, g, NULL);
    }
    idle_gpu_hours ih[2];
    assert_int_equal(device_usage_idle_gpu(m, ih, 2), 1);
    assert_string_equal(ih[0].node, "algo-2");
    assert_int_equal(ih[0].gpus, 2);
    assert_float_equal(ih[0].gpu_hours, 2.0, 1e-9);
    assert_float_equal(ih[0].idle_gpu_hours, 0.5, 1e-9);
    device_usage du[4];
    assert_int_equal(device_usage_compute(m, du, 4), 2);
    assert_int_equal(du[0].is_gpu, 1);
    assert_int_equal(du[0].samples, 7200);
    assert_float_equal(du[0].pct_low, 50, 1e-9);
    assert_float_equal(du[0].pct_mid, 50, 1e-9);
    model_free(m);
}

static void test_sample_interval_and_pauses(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    /* 100 samples every ~499.7 ms, a 3 h pause, 100 more: the interval is
     * SageMaker's 500 ms, and the pause is no GPU time */
    int64_t t = T0;
    for (int k = 0; k < 200; k++) {
        fx_sample(m, "algo-1", "gpu", "GPUUtilization", "gpu0", t, k < 100 ? 5 : 50);
        fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + k * 5000000LL, 1);
        t += k == 99 ? 3 * 3600000000LL : 499700 + (k % 3) * 100;
    }
    const model_node *n = model_node_at(m, 0);
    assert_int_equal(rule_sample_interval(model_node_gpu_util(n, 0)), 500000);
    assert_int_equal(rule_sample_interval(model_node_cpu_core(n, 0)), 5000000);
    idle_gpu_hours ih[1];
    assert_int_equal(device_usage_idle_gpu(m, ih, 1), 1);
    assert_float_equal(ih[0].gpu_hours, 200 * 0.5 / 3600, 1e-12);
    assert_float_equal(ih[0].idle_gpu_hours, 100 * 0.5 / 3600, 1e-12);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_outlier),
        cmocka_unit_test(test_step_outlier_per_process),
        cmocka_unit_test(test_straggler),
        cmocka_unit_test(test_dataloader),
        cmocka_unit_test(test_dataloader_kineto),
        cmocka_unit_test(test_max_initialization_time),
        cmocka_unit_test(test_device_usage_buckets),
        cmocka_unit_test(test_idle_gpu_hours),
        cmocka_unit_test(test_sample_interval_and_pauses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
