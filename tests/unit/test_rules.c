/* Unit tests for the system-metric rules (model/rules/rules.c, rule_gpu.c,
 * rule_joint.c, rule_trend.c): for every rule a scenario that must fire
 * and a near miss that must not, fed through model_add_sample. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_fixture.h"

#define EXPECT(res, st)                                                     \
    do {                                                                    \
        const rule_result *r_ = (res);                                      \
        if (r_->status != (st))                                             \
            fail_msg("%s: status %s, expected %s (%s)", r_->name,           \
                     rules_status_name(r_->status), rules_status_name(st),  \
                     r_->message);                                          \
    } while (0)

typedef struct fx {
    model *m;
    rules *r;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    f->m = model_new(NULL);
    f->r = rules_new();
    *state = f;
    return f->m && f->r ? 0 : -1;
}

static int teardown(void **state)
{
    fx *f = *state;
    model_free(f->m);
    rules_free(f->r);
    free(f);
    return 0;
}

/* n ticks of one GPU at util(k) with 2 cores at cpu %. */
static void gpu_run(model *m, int64_t from, int64_t n, double (*util)(int64_t),
                    double cpu, double mem)
{
    for (int64_t k = from; k < from + n; k++) {
        double g = util(k), mm = mem;
        fx_tick(m, "algo-1", k, 2, cpu, 1, &g, &mm);
    }
}

static double u30(int64_t k) { (void)k; return 30; }
static double u80(int64_t k) { (void)k; return 80; }
static double u_saw(int64_t k) { return (double)(k % 20) * 5; } /* 0..95 */
static double u5(int64_t k) { (void)k; return 5; }
static double u20(int64_t k) { (void)k; return 20; }

static void test_low_gpu_underused_fires(void **state)
{
    fx *f = *state;
    gpu_run(f->m, 0, 2000, u30, 50, 50);   /* patience 1000 + 2 windows */
    const rule_result *r = fx_eval(f->r, f->m, "LowGPUUtilization");
    EXPECT(r, RULE_TRIGGERED);
    assert_int_equal(r->datapoints, 2);
    assert_int_equal(r->violations, 2);
    assert_string_equal(r->node, "algo-1");
    assert_string_equal(r->device, "gpu0");
    assert_true(r->t1_us > r->t0_us);
    assert_true(r->t0_us >= T0 + 1000 * DT - DT); /* patience skipped */
    assert_true(r->n_examples >= 1);
    assert_float_equal(r->examples[0].value, 30, 1e-9);
    /* the threshold edited at run time re-evaluates the held data */
    fx_set(f->r, "LowGPUUtilization.threshold_p95=25");
    EXPECT(fx_eval(f->r, f->m, "LowGPUUtilization"), RULE_OK);
}

static void test_low_gpu_near_miss_and_fluctuating(void **state)
{
    fx *f = *state;
    gpu_run(f->m, 0, 2000, u80, 50, 50);
    EXPECT(fx_eval(f->r, f->m, "LowGPUUtilization"), RULE_OK);

    model *m2 = model_new(NULL);
    gpu_run(m2, 0, 2000, u_saw, 50, 50);   /* p95 >= 70 but p5 < 10 */
    const rule_result *r = fx_eval(f->r, m2, "LowGPUUtilization");
    EXPECT(r, RULE_TRIGGERED);
    assert_non_null(strstr(r->examples[0].text, "fluctuating"));
    fx_set(f->r, "LowGPUUtilization.threshold_p5=0");
    EXPECT(fx_eval(f->r, m2, "LowGPUUtilization"), RULE_OK);
    model_free(m2);
}

static void test_low_gpu_patience_and_absent(void **state)
{
    fx *f = *state;
    EXPECT(fx_eval(f->r, f->m, "LowGPUUtilization"), RULE_NO_DATA);
    for (int64_t k = 0; k < 1400; k++)         /* CPU only: no GPU metrics */
        fx_tick(f->m, "algo-1", k, 2, 50, 0, NULL, NULL);
    EXPECT(fx_eval(f->r, f->m, "LowGPUUtilization"), RULE_NO_DATA);

    model *m2 = model_new(NULL);
    gpu_run(m2, 0, 1400, u30, 50, 50);   /* inside patience + one window */
    EXPECT(fx_eval(f->r, m2, "LowGPUUtilization"), RULE_NO_DATA);
    fx_set(f->r, "LowGPUUtilization.patience=0");
    EXPECT(fx_eval(f->r, m2, "LowGPUUtilization"), RULE_TRIGGERED);
    model_free(m2);
}

/* 1200 ticks: the first 1000 (patience) as `early`, then `hits` of the
 * last 200 bottlenecked (gpu 5, cpu 95) and the rest busy (gpu 80). */
static void bottleneck_run(model *m, int early, int hits, int io)
{
    for (int64_t k = 0; k < 1200; k++) {
        int bn = k < 1000 ? early : k - 1000 < hits;
        double g = bn ? 5 : 80, mem = 40;
        fx_tick(m, "algo-1", k, 4, io ? 30 : bn ? 95 : 40, 1, &g, &mem);
        if (io)
            fx_sample(m, "algo-1", "i/o", "IOWaitPercentage", "nvme0n1",
                      T0 + k * DT, bn ? 70 : 2);
    }
}

static void test_cpu_bottleneck(void **state)
{
    fx *f = *state;
    bottleneck_run(f->m, 0, 110, 0);         /* 55 % of 200 */
    const rule_result *r = fx_eval(f->r, f->m, "CPUBottleneck");
    EXPECT(r, RULE_TRIGGERED);
    assert_int_equal(r->datapoints, 200);
    assert_int_equal(r->violations, 110);
    assert_int_equal(r->t1_us - r->t0_us, 110 * DT);   /* the longest run */
    /* fired: its cause says where and how much, its fix the knob */
    assert_non_null(strstr(r->cause, "algo-1"));
    assert_non_null(strstr(r->cause, "(110 of 200 samples)"));
    assert_non_null(strstr(r->fix, "num_workers"));
    assert_non_null(strstr(r->evidence, "System (1)"));
    fx_set(f->r, "CPUBottleneck.threshold=60");
    r = fx_eval(f->r, f->m, "CPUBottleneck");
    EXPECT(r, RULE_OK);
    assert_string_equal(r->cause, "");   /* nothing fired: no advice */
    assert_string_equal(r->fix, "");
}

static void test_cpu_bottleneck_near_miss_and_patience(void **state)
{
    fx *f = *state;
    bottleneck_run(f->m, 0, 90, 0);          /* 45 % */
    EXPECT(fx_eval(f->r, f->m, "CPUBottleneck"), RULE_OK);
    model *m2 = model_new(NULL);
    bottleneck_run(m2, 1, 0, 0);             /* only inside patience */
    EXPECT(fx_eval(f->r, m2, "CPUBottleneck"), RULE_OK);
    fx_set(f->r, "CPUBottleneck.patience=0");
    EXPECT(fx_eval(f->r, m2, "CPUBottleneck"), RULE_TRIGGERED);
    model_free(m2);
}

static void test_io_bottleneck(void **state)
{
    fx *f = *state;
    bottleneck_run(f->m, 0, 150, 0);
    /* CPU data but no I/O wait metric: no data, not ok */
    EXPECT(fx_eval(f->r, f->m, "IOBottleneck"), RULE_NO_DATA);
    model *m2 = model_new(NULL);
    bottleneck_run(m2, 0, 150, 1);
    const rule_result *r = fx_eval(f->r, m2, "IOBottleneck");
    EXPECT(r, RULE_TRIGGERED);
    assert_int_equal(r->violations, 150);
    EXPECT(fx_eval(f->r, m2, "CPUBottleneck"), RULE_OK); /* cpu was 30 % */
    fx_set(f->r, "IOBottleneck.io_threshold=75");
    EXPECT(fx_eval(f->r, m2, "IOBottleneck"), RULE_OK);
    model_free(m2);
}

static void test_batch_size(void **state)
{
    fx *f = *state;
    gpu_run(f->m, 0, 1500, u20, 20, 20);
    const rule_result *r = fx_eval(f->r, f->m, "BatchSize");
    EXPECT(r, RULE_TRIGGERED);
    assert_int_equal(r->datapoints, 1);
    model *m2 = model_new(NULL);
    gpu_run(m2, 0, 1500, u20, 20, 80);      /* GPU memory well used */
    EXPECT(fx_eval(f->r, m2, "BatchSize"), RULE_OK);
    fx_set(f->r, "BatchSize.gpu=15");
    EXPECT(fx_eval(f->r, f->m, "BatchSize"), RULE_OK);
    model_free(m2);
}

static void mem_run(model *m, double rise)
{
    for (int64_t k = 0; k < 1400; k++) {
        double g = 60;
        /* flat 20 % through patience, then a linear climb of `rise` */
        double mem = 20 + (k < 1000 ? 0 : rise * (double)(k - 1000) / 399.0);
        fx_tick(m, "algo-1", k, 1, 50, 1, &g, &mem);
    }
}

static void test_gpu_memory_increase(void **state)
{
    fx *f = *state;
    mem_run(f->m, 12);
    const rule_result *r = fx_eval(f->r, f->m, "GPUMemoryIncrease");
    EXPECT(r, RULE_TRIGGERED);
    assert_true(r->violations > 0);
    assert_true(r->examples[0].value > 25);
    model *m2 = model_new(NULL);
    mem_run(m2, 4);                          /* moving average rises < 5 */
    EXPECT(fx_eval(f->r, m2, "GPUMemoryIncrease"), RULE_OK);
    fx_set(f->r, "GPUMemoryIncrease.increase=2");
    EXPECT(fx_eval(f->r, m2, "GPUMemoryIncrease"), RULE_TRIGGERED);
    model_free(m2);
}

static void balance_run(model *m, double g1)
{
    for (int64_t k = 0; k < 1300; k++) {
        double g[2] = {85 + (double)(k % 5), g1 + (double)(k % 5)};
        double mem[2] = {30, 30};
        fx_tick(m, "algo-1", k, 1, 50, 2, g, mem);
    }
}

static void test_load_balancing(void **state)
{
    fx *f = *state;
    balance_run(f->m, 20);
    const rule_result *r = fx_eval(f->r, f->m, "LoadBalancing");
    EXPECT(r, RULE_TRIGGERED);
    assert_int_equal(r->datapoints, 1);
    assert_float_equal(r->examples[0].value, 1.0, 1e-9);   /* disjoint */
    model *m2 = model_new(NULL);
    balance_run(m2, 85);
    EXPECT(fx_eval(f->r, m2, "LoadBalancing"), RULE_OK);
    model *m3 = model_new(NULL);
    gpu_run(m3, 0, 1300, u5, 50, 50);        /* one GPU: nothing to compare */
    EXPECT(fx_eval(f->r, m3, "LoadBalancing"), RULE_NO_DATA);
    model_free(m2);
    model_free(m3);
}

static void test_params_and_overrides(void **state)
{
    fx *f = *state;
    sm_err e = {0};
    int i = rules_find("stepoutlier");
    assert_int_equal(i, rules_find("StepOutlier"));
    assert_string_equal(rules_param_name((size_t)i, 0), "stddev");
    assert_float_equal(rules_param_value(f->r, (size_t)i, 0), 3, 0);
    uint64_t g = rules_generation(f->r);
    assert_int_equal(rules_apply_override(f->r, " StepOutlier.stddev = 4 ", &e), 0);
    assert_float_equal(rules_param_value(f->r, (size_t)i, 0), 4, 0);
    assert_true(rules_generation(f->r) > g);
    assert_int_equal(rules_apply_override(f->r, "StepOutlier.sigma=4", &e), -1);
    assert_non_null(strstr(e.msg, "parameters: stddev, n_outliers"));
    assert_int_equal(rules_apply_override(f->r, "NoSuchRule.x=1", &e), -1);
    assert_non_null(strstr(e.msg, "unknown rule 'NoSuchRule'"));
    assert_int_equal(rules_apply_override(f->r, "CPUBottleneck.threshold=150", &e), -1);
    assert_non_null(strstr(e.msg, "out of range"));
    assert_int_equal(rules_apply_override(f->r, "CPUBottleneck.threshold=abc", &e), -1);
    assert_int_equal(rules_apply_override(f->r, "threshold=5", &e), -1);

    const char conf[] = "# smtop rules\n\nCPUBottleneck.threshold = 30  # lower\n"
                        "LowGPUUtilization.window=100\n";
    assert_int_equal(rules_apply_config(f->r, conf, strlen(conf), "rules.conf", &e), 0);
    assert_float_equal(rules_param_value(f->r, (size_t)rules_find("CPUBottleneck"), 0), 30, 0);
    const char bad[] = "CPUBottleneck.threshold = 40\nBatchSize.nope = 1\n";
    assert_int_equal(rules_apply_config(f->r, bad, strlen(bad), "rules.conf", &e), -1);
    assert_non_null(strstr(e.msg, "rules.conf:2:"));
    /* all-or-nothing: line 1 of the bad file did not apply */
    assert_float_equal(rules_param_value(f->r, (size_t)rules_find("CPUBottleneck"), 0), 30, 0);

    int idx[4];
    assert_int_equal(rules_parse_list("CPUBottleneck, stepoutlier", idx, 4, &e), 2);
    assert_int_equal(idx[1], i);
    assert_int_equal(rules_parse_list("CPUBottleneck,Bogus", idx, 4, &e), -1);
    assert_non_null(strstr(e.msg, "Bogus"));
}

/* Every rule that can fire has its fix, where its thresholds come from,
 * what a datapoint is and where its evidence shows (the man page's table
 * lists the same: test_man_rules). */
static void test_advice_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < rules_count(); i++) {
        const char *n = rules_name_at(i);
        assert_non_null(rules_origin_at(i));
        assert_true(rules_unit_at(i)[0] != '\0');
        assert_true(rules_look_at(i)[0] != '\0');
        int summary = !strncmp(n, "Overall", 7);   /* never fire */
        if (!summary && !rules_fix_at(i)[0])
            fail_msg("%s has no fix", n);
        if (!strstr(rules_origin_at(i), "ProfilerReport") && !strstr(rules_origin_at(i), "HTA") &&
            !strstr(rules_origin_at(i), "TensorBoard") && !strstr(rules_origin_at(i), "smtop"))
            fail_msg("%s: origin '%s'", n, rules_origin_at(i));
    }
    assert_null(rules_fix_at(rules_count()));
}

static void test_empty_model_no_data(void **state)
{
    fx *f = *state;
    assert_int_equal(rules_evaluate(f->r, f->m), 1);
    for (size_t i = 0; i < rules_count(); i++)
        EXPECT(rules_result_at(f->r, i), RULE_NO_DATA);
    assert_int_equal(rules_evaluate(f->r, f->m), 0);   /* cached */
    assert_int_equal(rules_triggered_count(f->r), 0);
    /* new data or a new parameter value re-evaluates */
    fx_tick(f->m, "algo-1", 0, 1, 50, 0, NULL, NULL);
    assert_int_equal(rules_evaluate(f->r, f->m), 1);
    EXPECT(rules_result_at(f->r, (size_t)rules_find("OverallSystemUsage")), RULE_OK);
    assert_int_equal(rules_evaluate(f->r, f->m), 0);
    fx_set(f->r, "BatchSize.cpu=50");
    assert_int_equal(rules_evaluate(f->r, f->m), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_low_gpu_underused_fires),
        T(test_low_gpu_near_miss_and_fluctuating),
        T(test_low_gpu_patience_and_absent),
        T(test_cpu_bottleneck),
        T(test_cpu_bottleneck_near_miss_and_patience),
        T(test_io_bottleneck),
        T(test_batch_size),
        T(test_gpu_memory_increase),
        T(test_load_balancing),
        T(test_params_and_overrides),
        T(test_empty_model_no_data),
        T(test_advice_table),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
