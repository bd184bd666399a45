/* Differential test of the rules' incremental evaluation: a rules object
 * that lives across scan passes (re-running only the rules whose inputs
 * moved) must equal, field by field, a fresh rules object evaluated on the
 * same model — for every rule, for random pass splits, several seeds, with
 * idle passes and parameter changes mixed in. An idle pass (a flush that
 * adds nothing) must change no generation and re-run no rule. The model fed
 * in N in-order passes must also hold what one pass gives (rules, device
 * usage and idle GPU-hours equal). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/device_usage.h"
#include "rules_fixture.h"

#define NODES 3
#define CPUS 4
#define GPUS 2
/* Ticks of the workloads: at 500 ms, twice SERIES_RAW_CAP, so passes
 * roll raw samples into 10 s buckets past the rules' patience; at 10 s,
 * more than the raw and 10 s tiers hold, so buckets move on to 5 min. */
#define TICKS 4000
#define SLOW_DT 10000000LL
#define SLOW_TICKS 4600
#define TRAIN "Step:ModeKeys.TRAIN"

static const char *const NODE_IDS[NODES] = {"algo-1", "algo-2", "algo-10"};

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) / 9007199254740992.0; }

/* One record of the workload, in the order a live job writes them. */
typedef struct rec {
    int is_event;
    int node;
    int64_t ts, dur, step;
    int kind;          /* sample: 0 cpu core, 1 gpu util, 2 gpu mem, 3 io wait; event: rank */
    int idx;
    double v;
} rec;

typedef struct workload {
    rec *r;
    size_t n, cap;
} workload;

static void wl_push(workload *w, rec r)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 4096;
        w->r = realloc(w->r, w->cap * sizeof *w->r);
        assert_non_null(w->r);
    }
    w->r[w->n++] = r;
}

/* Key of the file a record lands in: the minute, the node, then its
 * system file before its trace file (files are read one at a time, so a
 * pass may hold only events, or only samples). */
static int64_t file_key(const rec *r)
{
    return (((r->ts - T0) / 60000000) * NODES + r->node) * 2 + r->is_event;
}

/* Orders the records by file (a counting sort: stable, so each file keeps
 * its writing order). */
static void wl_sort_by_file(workload *w)
{
    int64_t maxk = 0;
    for (size_t i = 0; i < w->n; i++)
        if (file_key(&w->r[i]) > maxk)
            maxk = file_key(&w->r[i]);
    size_t *at = calloc((size_t)maxk + 2, sizeof *at);
    rec *out = malloc(w->n * sizeof *out);
    assert_non_null(at);
    assert_non_null(out);
    for (size_t i = 0; i < w->n; i++)
        at[file_key(&w->r[i]) + 1]++;
    for (int64_t k = 0; k <= maxk; k++)
        at[k + 1] += at[k];
    for (size_t i = 0; i < w->n; i++)
        out[at[file_key(&w->r[i])]++] = w->r[i];
    free(at);
    free(w->r);
    w->r = out;
}

/* System ticks with idle stretches (LowGPU, CPU/IO bottleneck), a memory
 * ramp on one GPU (GPUMemoryIncrease), uneven GPUs (LoadBalancing), and
 * TRAIN steps on two ranks per node with outliers and a slow node
 * (StepOutlier, Straggler), data-loader events (Dataloader). */
static void wl_build(workload *w, uint64_t seed, int64_t dt, int64_t ticks)
{
    double slow = (double)dt / DT;   /* steps scale with the tick */
    rng g = {seed * 2654435761u + 1};
    int64_t step_t[NODES][2];
    int64_t step_n[NODES][2];
    for (int n = 0; n < NODES; n++)
        for (int k = 0; k < 2; k++) {
            step_t[n][k] = T0 + 1000000;
            step_n[n][k] = 0;
        }
    for (int64_t k = 0; k < ticks; k++) {
        int64_t ts = T0 + k * dt;
        int idle = (k / 300) % 3 == 1;
        for (int n = 0; n < NODES; n++) {
            for (int c = 0; c < CPUS; c++)
                wl_push(w, (rec){0, n, ts, 0, 0, 0, c,
                                 idle ? 92 + 8 * rng_unit(&g) : 40 + 30 * rng_unit(&g)});
            for (int q = 0; q < GPUS; q++) {
                double u = idle ? 5 * rng_unit(&g) : 60 + 40 * rng_unit(&g) - 30 * q;
                double mem = 20 + (n == 1 && q == 0 ? (double)k / 40 : 10 * rng_unit(&g));
                wl_push(w, (rec){0, n, ts, 0, 0, 1, q, u});
                wl_push(w, (rec){0, n, ts, 0, 0, 2, q, mem > 100 ? 100 : mem});
            }
            wl_push(w, (rec){0, n, ts, 0, 0, 3, 0, idle ? 60 + 20 * rng_unit(&g) : rng_unit(&g)});
            for (int r = 0; r < 2; r++) {
                while (step_t[n][r] < ts + dt) {
                    double f = rng_unit(&g) < 0.02 ? 5 : 1;
                    int64_t dur = (int64_t)((100000 + 20000 * rng_unit(&g)) * f * slow *
                                            (n == 2 ? 1.3 : 1.0));
                    wl_push(w, (rec){1, n, step_t[n][r], dur, step_n[n][r]++, r, 0, 0});
                    if (step_n[n][r] % 4 == 0)
                        wl_push(w, (rec){1, n, step_t[n][r], dur / 2, -1, r, 1, 0});
                    step_t[n][r] += dur + 1000;
                }
            }
        }
    }
    wl_sort_by_file(w);
}

static void wl_feed(model *m, const rec *r)
{
    char name[16], proc[32];
    const char *node = NODE_IDS[r->node];
    if (r->is_event) {
        snprintf(proc, sizeof proc, "%d-%s", r->kind, node);
        sm_event e = {.node = sm_str_c(node),
                      .phase = sm_str_c(r->idx ? "DataIterator" : TRAIN),
                      .name = sm_str_c(r->idx ? "DataIterator" : TRAIN),
                      .start_us = r->ts, .dur_us = r->dur, .step = r->step,
                      .pid = 1 + r->kind, .tid = 1, .process = sm_str_c(proc)};
        assert_int_equal(model_add_event(m, &e), 0);
        return;
    }
    static const char *const types[] = {"cpu", "gpu", "gpu", "io"};
    static const char *const dims[] = {"CPUUtilization", "GPUUtilization",
                                       "GPUMemoryUtilization", "IOWait"};
    snprintf(name, sizeof name, "%s%d", r->kind == 0 ? "cpu" : r->kind == 3 ? "disk" : "gpu",
             r->idx);
    fx_sample(m, node, types[r->kind], dims[r->kind], name, r->ts, r->v);
}

static void expect_example_eq(const rule_example *a, const rule_example *b,
                              const char *rule, size_t k)
{
    if (a->t0_us != b->t0_us || a->t1_us != b->t1_us ||
        memcmp(&a->value, &b->value, sizeof a->value) != 0 ||
        strcmp(a->node, b->node) || strcmp(a->device, b->device) ||
        strcmp(a->text, b->text))
        fail_msg("%s example %zu differs: %s %s %s vs %s %s %s", rule, k,
                 a->node, a->device, a->text, b->node, b->device, b->text);
}

/* Every field of every rule's result equal. */
static void expect_results_eq(const rules *got, const rules *want, const char *when)
{
    for (size_t i = 0; i < rules_count(); i++) {
        const rule_result *a = rules_result_at(got, i), *b = rules_result_at(want, i);
        if (a->status != b->status || a->severity != b->severity ||
            a->violations != b->violations || a->datapoints != b->datapoints ||
            a->t0_us != b->t0_us || a->t1_us != b->t1_us ||
            strcmp(a->node, b->node) || strcmp(a->device, b->device) ||
            strcmp(a->message, b->message) || a->n_examples != b->n_examples)
            fail_msg("%s: %s differs: %s %lld/%lld \"%s\" vs %s %lld/%lld \"%s\"",
                     when, a->name, rules_status_name(a->status),
                     (long long)a->violations, (long long)a->datapoints, a->message,
                     rules_status_name(b->status), (long long)b->violations,
                     (long long)b->datapoints, b->message);
        for (size_t k = 0; k < a->n_examples; k++)
            expect_example_eq(&a->examples[k], &b->examples[k], a->name, k);
    }
}

/* A fresh rules object with the same parameters as r, evaluated on m. */
static rules *fresh_eval(const rules *r, const model *m)
{
    rules *f = rules_new();
    assert_non_null(f);
    for (size_t i = 0; i < rules_count(); i++)
        for (size_t p = 0; p < rules_param_count(i); p++) {
            sm_err e = {0};
            assert_int_equal(rules_set_param(f, rules_name_at(i), rules_param_name(i, p),
                                             rules_param_value(r, i, p), &e), 0);
        }
    assert_int_equal(rules_evaluate(f, m), 1);
    return f;
}

static void expect_gens_eq(const model *m, uint64_t g, uint64_t gs, uint64_t ge)
{
    assert_int_equal(model_generation(m), g);
    assert_int_equal(model_system_generation(m), gs);
    assert_int_equal(model_event_generation(m), ge);
}

/* An idle pass: the flush of a scan that found nothing changes no
 * generation, and the next evaluation re-runs no rule. */
static void idle_pass(model *m, rules *r)
{
    uint64_t g = model_generation(m), gs = model_system_generation(m),
             ge = model_event_generation(m), runs = rules_evaluation_count(r);
    model_flush(m, 0);
    expect_gens_eq(m, g, gs, ge);
    assert_int_equal(rules_evaluate(r, m), 0);
    assert_int_equal(rules_evaluation_count(r), runs);
}

static const char *const TWEAKS[] = {
    "LowGPUUtilization.window=200", "CPUBottleneck.threshold=20",
    "StepOutlier.stddev=2", "Straggler.threshold=5", "BatchSize.window=100",
    "GPUMemoryIncrease.increase=2", "IOBottleneck.io_threshold=40",
    "GPUMemoryIncrease.window=30", "CPUBottleneck.patience=200",
};

/* Feeds the workload in random passes (sizes from a few records to a
 * tenth of it) into one model; after each pass the long-lived rules must
 * equal a fresh evaluation. */
static void run_seed(uint64_t seed, int64_t dt, int64_t ticks, const char *const *preset)
{
    workload w = {0};
    wl_build(&w, seed, dt, ticks);
    rng g = {seed + 77};
    model *m = model_new(NULL);
    rules *r = rules_new();
    assert_non_null(m);
    assert_non_null(r);
    for (size_t i = 0; preset && preset[i]; i++)
        fx_set(r, preset[i]);
    size_t at = 0, passes = 0, tweak = 0;
    while (at < w.n) {
        size_t len = 1 + (size_t)(rng_unit(&g) * rng_unit(&g) * (double)w.n / 10);
        if (at + len > w.n)
            len = w.n - at;
        for (size_t i = at; i < at + len; i++)
            wl_feed(m, &w.r[i]);
        at += len;
        model_flush(m, at == w.n);
        passes++;
        char when[96];
        snprintf(when, sizeof when, "seed %llu pass %zu (%zu of %zu records)",
                 (unsigned long long)seed, passes, at, w.n);
        assert_true(rules_evaluate(r, m) >= 0);
        rules *f = fresh_eval(r, m);
        expect_results_eq(r, f, when);
        rules_free(f);
        if (rng_unit(&g) < 0.3)
            idle_pass(m, r);
        if (rng_unit(&g) < 0.1) {
            /* a :set re-derives the one rule it names, at once */
            uint64_t runs = rules_evaluation_count(r);
            fx_set(r, TWEAKS[tweak++ % (sizeof TWEAKS / sizeof TWEAKS[0])]);
            assert_int_equal(rules_evaluate(r, m), 1);
            assert_int_equal(rules_evaluation_count(r), runs + 1);
            f = fresh_eval(r, m);
            expect_results_eq(r, f, "after a parameter change");
            rules_free(f);
        }
    }
    assert_true(passes > 10);
    /* the data made the rules say something, so equality means something */
    assert_true(rules_triggered_count(r) >= 3);
    /* the walks resumed from a checkpoint found violations, with examples,
     * so their equality covers the examples and the worst span too */
    static const char *const walked[] = {"CPUBottleneck", "IOBottleneck", "GPUMemoryIncrease"};
    for (size_t i = 0; i < sizeof walked / sizeof walked[0]; i++) {
        const rule_result *res = rules_result_at(r, (size_t)rules_find(walked[i]));
        if (res->violations == 0 || res->n_examples == 0 || res->t1_us == 0)
            fail_msg("seed %llu: %s found no violation with examples", (unsigned long long)seed,
                     walked[i]);
    }
    rules_free(r);
    model_free(m);
    free(w.r);
}

static void test_random_splits(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 5; seed++)
        run_seed(seed, DT, TICKS, NULL);
}

/* The same where the 10 s tier overflows into 5 min buckets. Patience
 * short, so the oldest cells (those the 5 min buckets change) count. */
static void test_random_splits_slow(void **state)
{
    (void)state;
    static const char *const preset[] = {
        "LoadBalancing.patience=10", "LowGPUUtilization.patience=10",
        "BatchSize.patience=10", "BatchSize.window=50", "GPUMemoryIncrease.patience=10",
        "CPUBottleneck.patience=10", "IOBottleneck.patience=10", NULL};
    for (uint64_t seed = 21; seed <= 22; seed++)
        run_seed(seed, SLOW_DT, SLOW_TICKS, preset);
}

/* System-only and event-only passes re-run only the rules that read that
 * part. */
static void test_parts_gate_rules(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    rules *r = rules_new();
    const double gpu[GPUS] = {50, 50}, mem[GPUS] = {30, 30};
    for (int64_t k = 0; k < 20; k++)
        fx_tick(m, "algo-1", k, CPUS, 50, GPUS, gpu, mem);
    fx_event(m, "algo-1", TRAIN, TRAIN, 0, T0, 100000, 1);
    model_flush(m, 0);
    assert_int_equal(rules_evaluate(r, m), 1);
    uint64_t all = rules_evaluation_count(r);
    assert_int_equal(all, rules_count());

    uint64_t ge = model_event_generation(m), runs = all;
    fx_tick(m, "algo-1", 20, CPUS, 50, GPUS, gpu, mem);
    model_flush(m, 0);
    assert_int_equal(model_event_generation(m), ge);
    assert_int_equal(rules_evaluate(r, m), 1);
    uint64_t sys_runs = rules_evaluation_count(r) - runs;
    assert_true(sys_runs > 0 && sys_runs < rules_count());

    uint64_t gs = model_system_generation(m);
    runs = rules_evaluation_count(r);
    fx_event(m, "algo-1", TRAIN, TRAIN, 1, T0 + 200000, 100000, 1);
    model_flush(m, 0);
    assert_int_equal(model_system_generation(m), gs);
    assert_int_equal(rules_evaluate(r, m), 1);
    uint64_t ev_runs = rules_evaluation_count(r) - runs;
    assert_true(ev_runs > 0 && ev_runs < rules_count());
    /* the two sets cover every rule (a rule reading both counts twice) */
    assert_true(sys_runs + ev_runs >= rules_count());

    rules *f = fresh_eval(r, m);
    expect_results_eq(r, f, "after part-gated passes");
    rules_free(f);
    rules_free(r);
    model_free(m);
}

/* A flush that completes CPU-total groups changed the data: it bumps the
 * generations (and the rules see the new total); the next one that emits
 * nothing does not. */
static void test_flush_counts_cpu_total(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0, 10);
    fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu1", T0, 30);
    fx_sample(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + DT, 10);
    uint64_t g = model_generation(m), gs = model_system_generation(m),
             ge = model_event_generation(m);
    model_flush(m, 1);   /* final: both pending groups go into the total */
    assert_true(model_generation(m) > g);
    assert_true(model_system_generation(m) > gs);
    assert_int_equal(model_event_generation(m), ge);
    const series *tot = model_node_cpu_total(model_node_at(m, 0));
    assert_non_null(tot);
    int64_t f, l;
    assert_int_equal(series_extent(tot, &f, &l), 2);
    g = model_generation(m);
    gs = model_system_generation(m);
    model_flush(m, 1);
    expect_gens_eq(m, g, gs, ge);
    model_free(m);
}

static void expect_usage_eq(const model *a, const model *b)
{
    device_usage du[2][64];
    long na = device_usage_compute(a, du[0], 64), nb = device_usage_compute(b, du[1], 64);
    assert_true(na > 0 && na <= 64);
    assert_int_equal(na, nb);
    for (long i = 0; i < na; i++) {
        assert_string_equal(du[0][i].node, du[1][i].node);
        assert_string_equal(du[0][i].device, du[1][i].device);
        assert_int_equal(du[0][i].samples, du[1][i].samples);
        assert_true(du[0][i].pct_high == du[1][i].pct_high);
        assert_true(du[0][i].pct_mid == du[1][i].pct_mid);
        assert_true(du[0][i].pct_low == du[1][i].pct_low);
    }
    idle_gpu_hours ih[2][NODES];
    na = device_usage_idle_gpu(a, ih[0], NODES);
    nb = device_usage_idle_gpu(b, ih[1], NODES);
    assert_int_equal(na, NODES);
    assert_int_equal(na, nb);
    for (long i = 0; i < na; i++) {
        assert_string_equal(ih[0][i].node, ih[1][i].node);
        assert_int_equal(ih[0][i].gpus, ih[1][i].gpus);
        assert_true(ih[0][i].gpu_hours == ih[1][i].gpu_hours);
        assert_true(ih[0][i].idle_gpu_hours == ih[1][i].idle_gpu_hours);
    }
}

/* In-order passes hold what one pass holds: rule results of the split
 * model equal those of the model fed at once, and so do device usage and
 * idle GPU-hours. */
static void test_split_equals_whole(void **state)
{
    (void)state;
    for (uint64_t seed = 11; seed <= 13; seed++) {
        workload w = {0};
        wl_build(&w, seed, DT, TICKS);
        model *whole = model_new(NULL), *split = model_new(NULL);
        rules *rs = rules_new();
        for (size_t i = 0; i < w.n; i++)
            wl_feed(whole, &w.r[i]);
        model_flush(whole, 1);
        rng g = {seed};
        for (size_t at = 0; at < w.n;) {
            size_t len = 1 + (size_t)(rng_unit(&g) * (double)w.n / 20);
            for (size_t i = at; i < at + len && i < w.n; i++)
                wl_feed(split, &w.r[i]);
            at += len;
            model_flush(split, at >= w.n);
            assert_true(rules_evaluate(rs, split) >= 0);
        }
        rules *rw = fresh_eval(rs, whole);
        expect_results_eq(rs, rw, "split vs whole");
        expect_usage_eq(split, whole);
        rules_free(rw);
        rules_free(rs);
        model_free(whole);
        model_free(split);
        free(w.r);
    }
}

/* CPUBottleneck after the raw tier has rolled (the walk resumes from a
 * checkpoint past patience): a 30-tick run of idle GPUs and busy CPUs,
 * then a 5-tick one. The counts, the worst span and the examples are
 * those of the longest run, evaluated pass by pass and fresh — a check
 * against the data itself, which the differential test (both sides run
 * the same walk) cannot be. */
static void test_bottleneck_longest_run(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    rules *r = rules_new(), *f = rules_new();
    fx_set(r, "CPUBottleneck.patience=10");
    fx_set(f, "CPUBottleneck.patience=10");
    const double busy[GPUS] = {50, 50}, idle[GPUS] = {5, 5};
    const int64_t ticks = 2560, long_at = 2500, short_at = 2540;
    for (int64_t k = 0; k < ticks; k++) {
        int bott = (k >= long_at && k < long_at + 30) || (k >= short_at && k < short_at + 5);
        fx_tick(m, "algo-1", k, CPUS, bott ? 95 : 50, GPUS, bott ? idle : busy, NULL);
        if (k % 97 == 0 || k == ticks - 1) {
            model_flush(m, k == ticks - 1);
            assert_true(rules_evaluate(r, m) >= 0);
        }
    }
    int idx = rules_find("CPUBottleneck");
    const rule_result *got[2] = {rules_result_at(r, (size_t)idx), fx_eval(f, m, "CPUBottleneck")};
    for (int i = 0; i < 2; i++) {
        const rule_result *o = got[i];
        /* the oldest samples are rolled into 10 s buckets by now: patience
         * (10 samples) runs out with the first bucket's 20 */
        assert_int_equal(o->datapoints, ticks - 20);
        assert_int_equal(o->violations, 35);
        assert_int_equal(o->t0_us, T0 + long_at * DT - DT / 2);
        assert_int_equal(o->t1_us, T0 + (long_at + 29) * DT + DT / 2);
        assert_int_equal(o->n_examples, RULE_MAX_EXAMPLES);
        for (size_t e = 0; e < RULE_MAX_EXAMPLES; e++) {
            assert_int_equal(o->examples[e].t0_us, T0 + (long_at + (int64_t)e) * DT - DT / 2);
            assert_float_equal(o->examples[e].value, 95, 1e-9);
        }
    }
    rules_free(r);
    rules_free(f);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_splits),
        cmocka_unit_test(test_random_splits_slow),
        cmocka_unit_test(test_parts_gate_rules),
        cmocka_unit_test(test_flush_counts_cpu_total),
        cmocka_unit_test(test_split_equals_whole),
        cmocka_unit_test(test_bottleneck_longest_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
