/* bench_rules: what the rules cost once the data is in (issue 17).
 *
 * Builds a job in memory through model_add_sample / model_add_event, as
 * the synthetic jobs look: NODES nodes x 8 GPUs (utilization, memory) x
 * 32 cores, 500 ms sampling, MINUTES minutes, TRAIN steps of ~120 ms.
 * Then times (thread CPU time), each REPS times (medians printed):
 *   full      rules_invalidate + rules_evaluate: every rule over all
 *             history, what every pass cost before issue 17;
 *   idle      a flush that adds nothing, then rules_evaluate;
 *   +1 min    one more minute of every node's samples and steps, a flush,
 *             then rules_evaluate (the live-tail case);
 *   per rule  each rule alone over all history (its parameter set to its
 *             own value re-runs that rule only).
 *
 * Build and run (not part of ctest), this tree and a baseline tree (e.g.
 * main before issue 17, which lacks rules_evaluation_count: build it with
 * -DBENCH_BASELINE):
 *   cmake --build build-rel --target smtop_model
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -I. tests/bench/bench_rules.c \
 *       build-rel/libsmtop_model.a -lm -o /tmp/bench_rules
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -DBENCH_BASELINE -I../base tests/bench/bench_rules.c \
 *       ../base/build/libsmtop_model.a -lm -o /tmp/bench_rules_base
 *   /tmp/bench_rules_base 64 60 5; /tmp/bench_rules 64 60 5
 *   (arguments: [NODES [MINUTES [REPS]]], default 64 60 5) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/rules/rules.h"

#ifdef BENCH_BASELINE
#define rules_evaluation_count(r) ((uint64_t)0)   /* not in the baseline */
#endif

#define GPUS 8
#define CPUS 32
#define DT_US 500000LL
#define T0_US 1700000000000000LL

/* CPU time of this (single) thread: the figure that matters for idle
 * cost, and one that a loaded machine does not inflate as it does wall. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_s = 88172645463325252ULL;
static double unit(void)
{
    rng_s ^= rng_s << 13;
    rng_s ^= rng_s >> 7;
    rng_s ^= rng_s << 17;
    return (double)(rng_s >> 11) / 9007199254740992.0;
}

static void add(model *m, const char *node, const char *type, const char *dim,
                const char *name, int64_t ts, double v)
{
    sm_sample s = {.type = sm_str_c(type), .dimension = sm_str_c(dim),
                   .name = sm_str_c(name), .node = sm_str_c(node), .value = v, .ts_us = ts};
    model_add_sample(m, &s);
}

/* Minute `min` of node `n`: its system file, then its trace file. */
static void add_minute(model *m, int n, int min, int64_t *step_t, int64_t *step_no)
{
    char node[32], name[16];
    snprintf(node, sizeof node, "algo-%d", n + 1);
    for (int64_t k = (int64_t)min * 120; k < (int64_t)(min + 1) * 120; k++) {
        int64_t ts = T0_US + k * DT_US;
        for (int c = 0; c < CPUS; c++) {
            snprintf(name, sizeof name, "cpu%d", c);
            add(m, node, "cpu", "CPUUtilization", name, ts, 30 + 40 * unit());
        }
        for (int g = 0; g < GPUS; g++) {
            snprintf(name, sizeof name, "gpu%d", g);
            add(m, node, "gpu", "GPUUtilization", name, ts, 50 + 50 * unit());
            add(m, node, "gpu", "GPUMemoryUtilization", name, ts, 40 + 5 * unit());
        }
    }
    int64_t end = T0_US + (int64_t)(min + 1) * 60000000LL;
    while (step_t[n] < end) {
        int64_t dur = (int64_t)(120000 * (unit() < 0.01 ? 4 : 0.8 + 0.4 * unit()));
        sm_event e = {.node = sm_str_c(node), .phase = sm_str_c("Step:ModeKeys.TRAIN"),
                      .name = sm_str_c("Step:ModeKeys.TRAIN"), .start_us = step_t[n],
                      .dur_us = dur, .step = step_no[n]++, .pid = 1, .tid = 1};
        model_add_event(m, &e);
        step_t[n] += dur + 2000;
    }
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, dcmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int nodes = argc > 1 ? atoi(argv[1]) : 64;
    int minutes = argc > 2 ? atoi(argv[2]) : 60;
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    if (nodes < 1 || minutes < 1 || reps < 1 || reps > 100)
        return fprintf(stderr, "usage: bench_rules [NODES [MINUTES [REPS]]]\n"), 2;
    model *m = model_new(NULL);
    rules *r = rules_new();
    int64_t *step_t = calloc((size_t)nodes, sizeof *step_t);
    int64_t *step_no = calloc((size_t)nodes, sizeof *step_no);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!m || !r || !step_t || !step_no || !t)
        return 1;
    for (int n = 0; n < nodes; n++)
        step_t[n] = T0_US + 5000000;
    double b0 = now_s();
    for (int min = 0; min < minutes; min++) {
        for (int n = 0; n < nodes; n++)
            add_minute(m, n, min, step_t, step_no);
        model_flush(m, 0);
    }
    printf("job: %d nodes x %d GPUs x %d cores, %d min at 500 ms (built in %.1f s CPU)\n",
           nodes, GPUS, CPUS, minutes, now_s() - b0);
    rules_evaluate(r, m);

    for (int i = 0; i < reps; i++) {
        rules_invalidate(r);
        double a = now_s();
        rules_evaluate(r, m);
        t[i] = now_s() - a;
    }
    double full = median(t, reps);
    printf("full evaluation (every rule, all history):  median %8.2f ms\n", full * 1e3);

    for (int i = 0; i < reps; i++) {
        double a = now_s();
        model_flush(m, 0);
        rules_evaluate(r, m);
        t[i] = now_s() - a;
    }
    printf("idle pass (flush + evaluate):               median %8.4f ms\n",
           median(t, reps) * 1e3);

    uint64_t runs = 0;
    for (int i = 0; i < reps; i++) {
        for (int n = 0; n < nodes; n++)
            add_minute(m, n, minutes + i, step_t, step_no);
        model_flush(m, 0);
        uint64_t r0 = rules_evaluation_count(r);
        double a = now_s();
        rules_evaluate(r, m);
        t[i] = now_s() - a;
        runs += rules_evaluation_count(r) - r0;
    }
    double inc = median(t, reps);
    printf("after a pass adding 1 min (evaluate):       median %8.2f ms  (%.1fx less "
           "than full; %.1f rule runs per pass)\n", inc * 1e3, full / inc,
           (double)runs / reps);

#ifndef BENCH_BASELINE   /* a parameter set re-ran every rule there */
    printf("per rule, all history (median of %d):\n", reps);
    for (size_t k = 0; k < rules_count(); k++) {
        if (!rules_param_count(k)) {
            printf("  %-26s (no parameter: cannot be re-run alone)\n", rules_name_at(k));
            continue;
        }
        for (int i = 0; i < reps; i++) {
            sm_err e = {0};
            rules_set_param(r, rules_name_at(k), rules_param_name(k, 0),
                            rules_param_value(r, k, 0), &e);
            double a = now_s();
            rules_evaluate(r, m);
            t[i] = now_s() - a;
        }
        printf("  %-26s %8.2f ms\n", rules_name_at(k), median(t, reps) * 1e3);
    }
#endif
    rules_free(r);
    model_free(m);
    free(step_t);
    free(step_no);
    free(t);
    return 0;
}
