/* Unit tests for model/model: nodes, series lookup, the CPU total under
 * any file order, aggregates, events and job phases, time filter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/rules/device_usage.h"
#include "model/model.h"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static const int64_t T0 = 1591748100000000LL;

static int add(model *m, const char *node, const char *type, const char *dim,
               const char *name, int64_t ts, double v, const char *extra)
{
    /* Slices into a buffer that is overwritten afterwards, as a decoder's. */
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s|%s|%s|%s|%s", node, type, dim, name, extra ? extra : "");
    assert_true(n > 0 && (size_t)n < sizeof buf);
    size_t ln = strlen(node), lt = strlen(type), ld = strlen(dim), lm = strlen(name);
    sm_sample s = {
        .node = {buf, ln}, .type = {buf + ln + 1, lt}, .dimension = {buf + ln + lt + 2, ld},
        .name = {buf + ln + lt + ld + 3, lm}, .value = v, .ts_us = ts,
        .extra = {buf + ln + lt + ld + lm + 4, extra ? strlen(extra) : 0},
    };
    int rc = model_add_sample(m, &s);
    memset(buf, 'X', sizeof buf);
    return rc;
}

static double core_value(int node, int core, int t)
{
    return (double)((node * 31 + core * 7 + t * 13) % 97);
}

static double core_mean(int node, int ncores, int t)
{
    double s = 0;
    for (int c = 0; c < ncores; c++)
        s += core_value(node, c, t);
    return s / ncores;
}

static void add_group(model *m, int node, int ncores, int t)
{
    char nid[32], cname[32];
    snprintf(nid, sizeof nid, "algo-%d", node);
    for (int k = 0; k < ncores; k++) {
        int c = (k + t * 7) % ncores;   /* rotated order: real files are not sorted */
        snprintf(cname, sizeof cname, "cpu%d", c);
        assert_int_equal(add(m, nid, "cpu", "CPUUtilization", cname, T0 + t * 500000LL,
                             core_value(node, c, t), NULL), 0);
    }
}

static void check_total(const model *m, int node, int ncores, int nts)
{
    char nid[32];
    snprintf(nid, sizeof nid, "algo-%d", node);
    const model_node *n = model_find_node(m, nid);
    assert_non_null(n);
    assert_int_equal(model_node_cpu_count(n), ncores);
    const series *tot = model_node_cpu_total(n);
    assert_non_null(tot);
    assert_string_equal(series_name(tot), "total");
    assert_ptr_equal(model_node_find_series(n, "cpu", "CPUUtilization", "total"), tot);
    series_summary s;
    series_get_summary(tot, &s);
    assert_int_equal(s.count, nts);     /* each timestamp exactly once */
    for (int t = 0; t < nts; t++) {
        series_range_summary(tot, T0 + t * 500000LL, T0 + t * 500000LL + 1, &s);
        assert_int_equal(s.count, 1);
        assert_close(s.mean, core_mean(node, ncores, t), 1e-9);
    }
}

static void test_cpu_total_interleaved(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    for (int t = 0; t < 50; t++)
        for (int node = 1; node <= 3; node++)
            add_group(m, node, 4 + node, t);
    for (int node = 1; node <= 3; node++)
        check_total(m, node, 4 + node, 50);
    /* cpu cores in natural order, total not among them */
    const model_node *n = model_find_node(m, "algo-3");
    assert_int_equal(model_node_cpu_count(n), 7);
    for (size_t i = 0; i < 7; i++) {
        char want[16];
        snprintf(want, sizeof want, "cpu%zu", i);
        assert_string_equal(series_name(model_node_cpu_core(n, i)), want);
    }
    assert_int_equal(add(m, "algo-1", "cpu", "CPUUtilization", "total", T0, 5, NULL), 1);
    model_free(m);
}

/* Minute files newest first, and the newest file first read only up to
 * the middle of a timestamp group (a live file), finished last. */
static void test_cpu_total_newest_first(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    const int per_file = 120, files = 6, ncores = 32;
    char cname[16];
    int last = files - 1;
    for (int t = last * per_file; t < files * per_file - 1; t++)
        add_group(m, 1, ncores, t);
    int tp = files * per_file - 1;      /* half of the newest group */
    for (int c = 0; c < ncores / 2; c++) {
        snprintf(cname, sizeof cname, "cpu%d", c);
        add(m, "algo-1", "cpu", "CPUUtilization", cname, T0 + tp * 500000LL,
            core_value(1, c, tp), NULL);
    }
    for (int f = last - 1; f >= 0; f--)
        for (int t = f * per_file; t < (f + 1) * per_file; t++)
            add_group(m, 1, ncores, t);
    for (int c = ncores / 2; c < ncores; c++) {
        snprintf(cname, sizeof cname, "cpu%d", c);
        add(m, "algo-1", "cpu", "CPUUtilization", cname, T0 + tp * 500000LL,
            core_value(1, c, tp), NULL);
    }
    check_total(m, 1, ncores, files * per_file);
    model_free(m);
}

/* A live read whose newest file holds one timestamp so far and is read
 * first (its own stream): that group is complete, but no later time
 * follows it and the core count is not known yet. Once the older files
 * make the count known, a live flush must not hold it back as "the
 * newest, maybe still growing": `jobs --json` once missed the newest
 * total of both nodes this way (the CPU % of all but 2 of 960 totals). */
static void test_cpu_total_newest_alone_first(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    const int per_file = 120, files = 3, ncores = 4, tp = files * per_file;
    model_set_stream(m, 100);
    add_group(m, 1, ncores, tp);
    for (int f = files - 1; f >= 0; f--) {
        model_set_stream(m, (uint64_t)f + 1);
        for (int t = f * per_file; t < (f + 1) * per_file; t++)
            add_group(m, 1, ncores, t);
    }
    model_flush(m, 0);   /* live: the newest group stays only if incomplete */
    check_total(m, 1, ncores, tp + 1);
    /* an incomplete newest group is still held back, then completed */
    char cname[16];
    for (int c = 0; c < ncores - 1; c++) {
        snprintf(cname, sizeof cname, "cpu%d", c);
        add(m, "algo-1", "cpu", "CPUUtilization", cname, T0 + (tp + 1) * 500000LL,
            core_value(1, c, tp + 1), NULL);
    }
    model_flush(m, 0);
    check_total(m, 1, ncores, tp + 1);
    snprintf(cname, sizeof cname, "cpu%d", ncores - 1);
    add(m, "algo-1", "cpu", "CPUUtilization", cname, T0 + (tp + 1) * 500000LL,
        core_value(1, ncores - 1, tp + 1), NULL);
    check_total(m, 1, ncores, tp + 2);
    model_free(m);
}

static void test_nodes_and_aggregates(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    const char *ids[] = {"algo-10", "algo-2", "algo-1", "algo-11"};
    for (int i = 0; i < 4; i++)
        add(m, ids[i], "memory", "MemoryUtilization", "", T0, 1, NULL);
    assert_int_equal(model_node_count(m), 4);
    assert_string_equal(model_node_id(model_node_at(m, 0)), "algo-1");
    assert_string_equal(model_node_id(model_node_at(m, 1)), "algo-2");
    assert_string_equal(model_node_id(model_node_at(m, 2)), "algo-10");
    assert_string_equal(model_node_id(model_node_at(m, 3)), "algo-11");
    assert_null(model_node_at(m, 4));
    assert_null(model_find_node(m, "algo-3"));

    add(m, "algo-1", "gpu", "GPUMemoryUtilization", "gpu10", T0, 40, NULL);
    add(m, "algo-1", "gpu", "GPUUtilization", "gpu2", T0, 20, NULL);
    add(m, "algo-1", "gpu", "GPUMemoryUtilization", "gpu2", T0, 21, NULL);
    add(m, "algo-1", "memory", "MemoryUsedPercent", "MemoryUsedPercent", T0, 55, NULL);
    add(m, "algo-1", "i/o", "ReadBytes", "nvme1", T0, 1, NULL);
    add(m, "algo-1", "i/o", "ReadBytes", "nvme0", T0, 1, NULL);
    add(m, "algo-1", "network", "RxBytes", "eth0", T0, 1, NULL);
    add(m, "algo-1", "custom", "Algorithm", "loss", T0, 0.5, NULL);
    const model_node *n = model_find_node(m, "algo-1");
    assert_int_equal(model_node_gpu_count(n), 2);
    assert_string_equal(model_node_gpu_name(n, 0), "gpu2");
    assert_string_equal(model_node_gpu_name(n, 1), "gpu10");
    assert_non_null(model_node_gpu_util(n, 0));
    assert_null(model_node_gpu_util(n, 1));
    assert_string_equal(series_dimension(model_node_gpu_mem(n, 1)), "GPUMemoryUtilization");
    assert_string_equal(series_name(model_node_host_mem(n)), "MemoryUsedPercent");
    assert_int_equal(model_node_io_count(n), 2);
    assert_string_equal(series_name(model_node_io_at(n, 0)), "nvme0");
    assert_int_equal(model_node_net_count(n), 1);
    assert_null(model_node_cpu_total(n));
    assert_int_equal(model_node_cpu_count(n), 0);
    /* every series, in (type, dimension, natural name) order */
    assert_int_equal(model_node_series_count(n), 9);
    for (size_t i = 1; i < model_node_series_count(n); i++) {
        const series *a = model_node_series_at(n, i - 1), *b = model_node_series_at(n, i);
        int c = strcmp(series_type(a), series_type(b));
        if (!c)
            c = strcmp(series_dimension(a), series_dimension(b));
        if (!c)
            c = model_natural_cmp(series_name(a), series_name(b));
        assert_true(c < 0);
    }
    assert_non_null(model_node_find_series(n, "custom", "Algorithm", "loss"));
    assert_non_null(model_node_find_series(n, "memory", "MemoryUtilization", NULL));
    assert_null(model_node_find_series(n, "custom", "Algorithm", "los"));
    model_free(m);
}

static void test_natural_cmp(void **state)
{
    (void)state;
    assert_true(model_natural_cmp("algo-2", "algo-10") < 0);
    assert_true(model_natural_cmp("cpu10", "cpu2") > 0);
    assert_true(model_natural_cmp("cpu2", "cpu2") == 0);
    assert_true(model_natural_cmp("a", "a1") < 0);
    assert_true(model_natural_cmp("a01", "a1") != 0);   /* total order */
    assert_true(model_natural_cmp("a01", "a1") == -model_natural_cmp("a1", "a01"));
    assert_true(model_natural_cmp("x99999999999999999999", "x100000000000000000000") < 0);
    assert_true(model_natural_cmp("gpu1a", "gpu1b") < 0);
    assert_true(model_natural_cmp("", "a") < 0);
}

static void test_extra_keys(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    const char *x1 = "\"GPUTemperature\":55, \"Nested\":{\"a\":\"x,\\\"y\\\":1\",\"b\":[1,{\"c\":2}]},"
                     "\"Z\":\"s\"";
    add(m, "algo-1", "gpu", "GPUUtilization", "gpu0", T0, 1, x1);
    add(m, "algo-1", "gpu", "GPUUtilization", "gpu0", T0 + 1, 1, "\"Z\":1,\"Power\":[1,2]");
    add(m, "algo-1", "gpu", "GPUUtilization", "gpu0", T0 + 2, 1, "\"Broken\" 5");
    const model_node *n = model_find_node(m, "algo-1");
    assert_int_equal(model_node_extra_key_count(n), 4);
    assert_string_equal(model_node_extra_key_at(n, 0), "GPUTemperature");
    assert_string_equal(model_node_extra_key_at(n, 1), "Nested");
    assert_string_equal(model_node_extra_key_at(n, 2), "Z");
    assert_string_equal(model_node_extra_key_at(n, 3), "Power");
    char k[64], big[64 * 40] = "";
    for (int i = 0; i < 40; i++) {
        snprintf(k, sizeof k, "%s\"k%d\":%d", i ? "," : "", i, i);
        strcat(big, k);
    }
    add(m, "algo-1", "gpu", "GPUUtilization", "gpu0", T0 + 3, 1, big);
    assert_int_equal(model_node_extra_key_count(n), 32);  /* bounded */
    model_free(m);
}

static sm_event ev(const char *node, const char *phase, const char *name, int64_t start,
                   int64_t dur, int64_t step)
{
    sm_event e = {sm_str_c(node), sm_str_c(phase), sm_str_c(name), start, dur, step, 1, 1,
                  {"", 0}};
    return e;
}

static void test_events_and_phases(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    assert_int_equal(add(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0, 3, NULL), 0);
    sm_event es[] = {
        ev("algo-1", "cpu_functions", "conv", T0 + 5000, 10, -1),
        ev("algo-1", "DataIterator", "DataLoaderIter::GetNext", T0 + 900, 50, 0),
        ev("algo-1", "Backward(post-forward)", "bw", T0 + 2000, 300, 0),
        ev("algo-1", "Forward", "fw", T0 + 1500, 400, 0),
        ev("algo-1", "Step:ModeKeys.EVAL", "Step:ModeKeys.EVAL", T0 + 9000, 100, 1),
        ev("algo-1", "Step:ModeKeys.TRAIN", "Step:ModeKeys.TRAIN", T0 + 3000, 1000, 1),
        ev("algo-1", "Step:ModeKeys.TRAIN", "Step:ModeKeys.TRAIN", T0 + 1000, 1500, 0),
        ev("algo-1", "", "", T0 + 20000, 7, -1),
    };
    uint64_t g = model_generation(m);
    for (size_t i = 0; i < sizeof es / sizeof *es; i++)
        assert_int_equal(model_add_event(m, &es[i]), 0);
    assert_int_equal(model_generation(m), g + sizeof es / sizeof *es);
    const model_node *n = model_find_node(m, "algo-1");
    const char *order[] = {"Step:ModeKeys.TRAIN", "Step:ModeKeys.EVAL", "Forward",
                           "Backward(post-forward)", "DataLoaderIter::GetNext",
                           "(unnamed)", "cpu_functions"};
    assert_int_equal(model_node_phase_count(n), 7);
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(phase_stats_label(model_node_phase_at(n, i)), order[i]);
    const phase_stats *train = model_node_find_phase(n, "Step:ModeKeys.TRAIN");
    phase_summary s;
    phase_stats_get_summary(train, &s);
    assert_int_equal(s.count, 2);
    assert_int_equal(phase_stats_kind(model_node_find_phase(n, "DataLoaderIter::GetNext")),
                     PHASE_DATALOADER);
    job_phases jp;
    model_get_job_phases(m, &jp);
    assert_true(jp.has_steps);
    assert_int_equal(jp.first_us, T0);
    assert_int_equal(jp.first_step_us, T0 + 1000);
    assert_int_equal(jp.last_step_end_us, T0 + 9100);
    assert_int_equal(jp.last_us, T0 + 20007);
    assert_int_equal(jp.init_us, 1000);
    assert_int_equal(jp.training_us, 8100);
    assert_int_equal(jp.final_us, 10907);
    assert_int_equal(model_last_sample_us(m), T0);
    assert_int_equal(model_last_event_us(m), T0 + 20007);
    assert_int_equal(model_first_us(m), T0);
    assert_int_equal(model_last_us(m), T0 + 20007);
    model_free(m);
}

static void test_time_filter_and_generations(void **state)
{
    (void)state;
    model_config cfg = {T0 + 1000, T0 + 2000};
    model *m = model_new(&cfg);
    assert_int_equal(model_node_count(m), 0);
    assert_int_equal(model_first_us(m), 0);
    assert_int_equal(add(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + 999, 1, NULL), 1);
    assert_int_equal(add(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + 2000, 1, NULL), 1);
    assert_int_equal(add(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + 1500, NAN, NULL), 1);
    assert_int_equal(model_node_count(m), 0);   /* ignored records create nothing */
    assert_int_equal(model_generation(m), 0);
    assert_int_equal(add(m, "algo-1", "cpu", "CPUUtilization", "cpu0", T0 + 1000, 1, NULL), 0);
    sm_event e = ev("algo-1", "Forward", "f", T0 + 2500, 10, 3);
    assert_int_equal(model_add_event(m, &e), 1);
    e.start_us = T0 + 1999;
    assert_int_equal(model_add_event(m, &e), 0);
    const model_node *n = model_find_node(m, "algo-1");
    assert_int_equal(model_node_generation(n), 2);
    assert_int_equal(model_generation(m), 2);
    assert_int_equal(series_generation(model_node_cpu_core(n, 0)), 1);
    assert_int_equal(phase_stats_generation(model_node_find_phase(n, "Forward")), 1);
    job_phases jp;
    model_get_job_phases(m, &jp);
    assert_false(jp.has_steps);
    assert_int_equal(jp.training_us, 0);
    model_free(m);
}

/* --since/--until keep events that overlap the window: smdebug's readers
 * return every event overlapping a queried range, and an event that ends
 * exactly at since is kept. Samples are instants: since <= t < until. */
static void test_time_filter_keeps_overlapping_events(void **state)
{
    (void)state;
    model_config cfg = {T0 + 1000, T0 + 2000};
    model *m = model_new(&cfg);
    struct { int64_t start, dur; int kept; } cases[] = {
        {T0 + 100, 899, 0},    /* ends 1 µs before since */
        {T0 + 100, 900, 1},    /* ends exactly at since */
        {T0 + 100, 5000, 1},   /* spans the whole window */
        {T0 + 1000, 0, 1},     /* an instant at since */
        {T0 + 1999, 10, 1},    /* starts inside, ends after until */
        {T0 + 2000, 0, 0},     /* starts at until */
        {T0 + 2001, 10, 0},
    };
    int kept = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_event e = ev("algo-1", "Step:ModeKeys.TRAIN", "s", cases[i].start, cases[i].dur, 1);
        assert_int_equal(model_add_event(m, &e), cases[i].kept ? 0 : 1);
        kept += cases[i].kept;
    }
    phase_summary s;
    phase_stats_get_summary(model_node_find_phase(model_find_node(m, "algo-1"), "Step:ModeKeys.TRAIN"), &s);
    assert_int_equal(s.count, kept);
    model_free(m);
}

static sm_event wev(const char *writer, const char *node, const char *phase, int64_t start,
                    int64_t dur, int64_t step)
{
    sm_event e = ev(node, phase, phase, start, dur, step);
    e.process = sm_str_c(writer);
    return e;
}

static int64_t phase_count(const model_node *n, const char *label)
{
    const phase_stats *p = model_node_find_phase(n, label);
    phase_summary s;
    if (!p)
        return -1;
    phase_stats_get_summary(p, &s);
    return s.count;
}

/* Ranks: each writer's steps stay its own, the node pools them; a node's
 * first writer shares the node's phases until a second one appears. */
static void test_processes(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    const char *TR = "Step:ModeKeys.TRAIN";
    for (int i = 0; i < 10; i++) {
        sm_event e = wev("0-algo-1", "algo-1", TR, T0 + i * 1000, 100, i);
        assert_int_equal(model_add_event(m, &e), 0);
    }
    const model_node *n = model_find_node(m, "algo-1");
    assert_int_equal(model_node_process_count(n), 1);
    const model_node *r0 = model_node_process_at(n, 0);
    assert_string_equal(model_node_id(r0), "0-algo-1");
    assert_ptr_equal(model_node_parent(r0), n);
    assert_ptr_equal(model_node_parent(n), n);
    assert_ptr_equal(model_node_phase_at(r0, 0), model_node_phase_at(n, 0));   /* shared, no copy */
    assert_int_equal(model_node_series_count(r0), 0);
    assert_int_equal(model_node_process_count(r0), 0);

    /* a second rank, slower: the first gets its own copy of its history */
    for (int i = 0; i < 4; i++) {
        sm_event e = wev("1-algo-1", "algo-1", TR, T0 + i * 1000 + 10, 300, i);
        assert_int_equal(model_add_event(m, &e), 0);
    }
    sm_event e = wev("0-algo-1", "algo-1", TR, T0 + 20000, 100, 10);
    assert_int_equal(model_add_event(m, &e), 0);
    assert_int_equal(model_node_process_count(n), 2);
    r0 = model_node_find_process(n, "0-algo-1");
    const model_node *r1 = model_node_find_process(n, "1-algo-1");
    assert_non_null(r0);
    assert_non_null(r1);
    assert_ptr_not_equal(model_node_phase_at(r0, 0), model_node_phase_at(n, 0));
    assert_int_equal(phase_count(n, TR), 15);
    assert_int_equal(phase_count(r0, TR), 11);
    assert_int_equal(phase_count(r1, TR), 4);
    phase_summary s0, s1;
    phase_stats_get_summary(model_node_find_phase(r0, TR), &s0);
    phase_stats_get_summary(model_node_find_phase(r1, TR), &s1);
    assert_true(s0.p50_us == 100 && s1.p50_us == 300);   /* a slow rank stays visible */
    assert_int_equal(s0.first_start_us, T0);
    phase_event last;
    assert_int_equal(phase_stats_recent(model_node_find_phase(r0, TR), &last, 1), 1);
    assert_int_equal(last.step, 10);

    /* writers order naturally; lookups by writer id find processes */
    for (int r = 10; r >= 2; r--) {
        char w[32];
        snprintf(w, sizeof w, "%d-algo-1", r);
        sm_event x = wev(w, "algo-1", TR, T0 + 50000, 100, 0);
        assert_int_equal(model_add_event(m, &x), 0);
    }
    assert_int_equal(model_node_process_count(n), 11);
    assert_string_equal(model_node_id(model_node_process_at(n, 2)), "2-algo-1");
    assert_string_equal(model_node_id(model_node_process_at(n, 10)), "10-algo-1");
    assert_ptr_equal(model_find_writer(m, "10-algo-1"), model_node_process_at(n, 10));
    assert_ptr_equal(model_find_writer(m, "algo-1"), n);
    assert_null(model_find_writer(m, "3-algo-2"));
    model_free(m);
}

/* An event naming no writer (e.g. a TF trace placed on the node) counts in
 * the node only: the single writer then needs phases of its own. */
static void test_process_and_loose_events(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    sm_event a = wev("7-algo-2", "algo-2", "Forward", T0, 10, 1);
    sm_event b = ev("algo-2", "Forward", "f", T0 + 100, 10, 1);
    assert_int_equal(model_add_event(m, &a), 0);
    assert_int_equal(model_add_event(m, &b), 0);
    assert_int_equal(model_add_event(m, &a), 0);
    const model_node *n = model_find_node(m, "algo-2");
    assert_int_equal(phase_count(n, "Forward"), 3);
    assert_int_equal(phase_count(model_node_process_at(n, 0), "Forward"), 2);
    /* a writer arriving after loose events never shares the node's phases */
    sm_event c = wev("8-algo-3", "algo-3", "Forward", T0, 10, 1);
    sm_event d = ev("algo-3", "Forward", "f", T0, 10, 1);
    assert_int_equal(model_add_event(m, &d), 0);
    assert_int_equal(model_add_event(m, &c), 0);
    n = model_find_node(m, "algo-3");
    assert_int_equal(phase_count(n, "Forward"), 2);
    assert_int_equal(phase_count(model_node_process_at(n, 0), "Forward"), 1);
    model_free(m);
}

static void test_many_nodes_memory_sane(void **state)
{
    (void)state;
    /* 64 nodes x 50 series x 30 samples: must be cheap (no per-series
     * preallocation); checked through the series' own accounting. */
    model *m = model_new(NULL);
    char nid[16], nm[16];
    for (int t = 0; t < 30; t++)
        for (int nd = 0; nd < 64; nd++)
            for (int s = 0; s < 50; s++) {
                snprintf(nid, sizeof nid, "algo-%d", nd + 1);
                snprintf(nm, sizeof nm, "cpu%d", s);
                assert_int_equal(add(m, nid, "cpu", "CPUUtilization", nm, T0 + t * 500000LL,
                                     core_value(nd + 1, s, t), NULL), 0);
            }
    size_t bytes = 0;
    for (size_t i = 0; i < model_node_count(m); i++) {
        const model_node *n = model_node_at(m, i);
        for (size_t k = 0; k < model_node_series_count(n); k++)
            bytes += series_memory_bytes(model_node_series_at(n, k));
    }
    assert_true(bytes < 8u * 1024 * 1024);
    check_total(m, 64, 50, 30);
    model_free(m);
}

/* Past NODE_CORES_FULL_MAX cores a node's cores keep no raw tier; the
 * total keeps full resolution, and usage per core is still counted per
 * sample (what the report's device_usage shows). */
static void test_many_cores_lean(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    int nts = 300;
    for (int t = 0; t < nts; t++) {
        add_group(m, 1, 32, t);
        add_group(m, 2, 4, t);
    }
    model_flush(m, 1);
    check_total(m, 1, 32, nts);
    check_total(m, 2, 4, nts);
    const model_node *many = model_find_node(m, "algo-1"), *few = model_find_node(m, "algo-2");
    for (size_t i = 0; i < 32; i++)
        assert_true(series_is_lean(model_node_cpu_core(many, i)));
    for (size_t i = 0; i < 4; i++)
        assert_false(series_is_lean(model_node_cpu_core(few, i)));
    assert_false(series_is_lean(model_node_cpu_total(many)));
    device_usage du[64];
    long k = device_usage_compute(m, du, 64);
    assert_true(k > 0);
    int seen = 0;
    for (long i = 0; i < k; i++) {
        if (du[i].is_gpu)
            continue;
        int node = strcmp(du[i].node, "algo-1") == 0 ? 1 : 2, core = atoi(du[i].device + 3);
        double lo = 0, mid = 0, hi = 0;
        for (int t = 0; t < nts; t++) {
            double v = core_value(node, core, t);
            *(v > SAMPLING_BAND_HIGH ? &hi : v < SAMPLING_BAND_LOW ? &lo : &mid) += 1;
        }
        assert_int_equal(du[i].samples, nts);
        assert_close(du[i].pct_low, 100.0 * lo / nts, 1e-9);
        assert_close(du[i].pct_mid, 100.0 * mid / nts, 1e-9);
        assert_close(du[i].pct_high, 100.0 * hi / nts, 1e-9);
        seen++;
    }
    assert_int_equal(seen, 36);
    model_free(m);
}

/* A file's worth of samples as a decoder hands them: slices into one
 * buffer, with each sample's key numbered in order of appearance. */
typedef struct run {
    char buf[1 << 16];
    size_t used;
    sm_sample s[4096];
    uint32_t key[4096];
    size_t n, nkeys;
} run;

static sm_str run_str(run *r, const char *text)
{
    size_t len = strlen(text);
    assert_true(r->used + len <= sizeof r->buf);
    memcpy(r->buf + r->used, text, len);
    sm_str out = {r->buf + r->used, len};
    r->used += len;
    return out;
}

/* Timestamps t0 .. t0 + nts - 1 of 10 cores, 2 GPUs (util, memory) and
 * the host memory, in smdebug's order: a timestamp's series each time. */
static void run_fill(run *r, int t0, int nts)
{
    memset(r, 0, sizeof *r);
    for (int t = t0; t < t0 + nts; t++) {
        uint32_t k = 0;
        for (int i = 0; i < 15; i++, k++) {
            char name[16];
            const char *type = i < 10 ? "cpu" : i < 14 ? "gpu" : "memory";
            const char *dim = i < 10 ? "CPUUtilization" : i < 14 ? (i % 2 ? "GPUMemoryUtilization" : "GPUUtilization") : "MemoryUsedPercent";
            snprintf(name, sizeof name, i < 10 ? "cpu%d" : i < 14 ? "gpu%d" : "", i < 10 ? i : (i - 10) / 2);
            assert_true(r->n < 4096);
            /* two decimals, any order of magnitude: sums depend on order */
            double v = (double)((t * 7919 + i * 104729) % 10000) / 100.0;
            r->s[r->n] = (sm_sample){.node = run_str(r, "algo-1"), .type = run_str(r, type),
                                     .dimension = run_str(r, dim), .name = run_str(r, name),
                                     .value = v, .ts_us = T0 + t * 500000LL};
            r->key[r->n++] = k;
        }
        r->nkeys = k;
    }
}

/* As scan_ingest does: a sample whose key is known waits, the rest go in
 * at once after the waiting ones, which go series by series, then their
 * cores into the CPU total in line order. */
static void run_flush(model *m, const run *r, model_ref *refs, const int *wait, size_t lo,
                      size_t hi, int *added)
{
    for (uint32_t k = 0; k < r->nkeys; k++)
        for (size_t i = lo; i < hi; i++)
            if (wait[i] && r->key[i] == k)
                added[i] = model_add_sample_defer(m, &r->s[i], &refs[k]) == 0;
    for (size_t i = lo; i < hi; i++)
        if (wait[i] && added[i])
            model_note_cpu(m, &refs[r->key[i]], &r->s[i]);
}

static void run_grouped(model *m, const run *r)
{
    static int wait[4096], added[4096];
    model_ref refs[64];
    memset(refs, 0, sizeof refs);
    memset(wait, 0, sizeof wait);
    memset(added, 0, sizeof added);
    size_t lo = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (refs[r->key[i]].ent) {
            wait[i] = 1;
            continue;
        }
        run_flush(m, r, refs, wait, lo, i, added);
        lo = i + 1;
        assert_int_equal(model_add_sample_ref(m, &r->s[i], &refs[r->key[i]]), 0);
    }
    run_flush(m, r, refs, wait, lo, r->n, added);
}

static void assert_same_series(const series *a, const series *b)
{
    series_summary x, y;
    series_get_summary(a, &x);
    series_get_summary(b, &y);
    assert_memory_equal(&x, &y, sizeof x);
    int64_t t0, t1;
    series_extent(a, &t0, &t1);
    for (int64_t w = 0; w < 4; w++) {   /* what each tier holds, in slices */
        int64_t lo = t0 + w * (t1 - t0) / 4, hi = t0 + (w + 1) * (t1 - t0) / 4 + 1;
        series_range_summary(a, lo, hi, &x);
        series_range_summary(b, lo, hi, &y);
        assert_memory_equal(&x, &y, sizeof x);
    }
}

/* Adding a file's samples series by series (model_add_sample_defer, then
 * model_note_cpu in line order) leaves the model exactly as adding them
 * line by line: every series to the bit (sums of two-decimal values
 * depend on their order), the CPU total included, also when the node's
 * cores turn lean on the way and the quantiles go from exact to sketch.
 * Files come newest first, as the scanner reads them. */
static void test_grouped_adds_equal_line_order(void **state)
{
    (void)state;
    static run r;
    model *a = model_new(NULL), *b = model_new(NULL);
    assert_non_null(a);
    assert_non_null(b);
    for (int f = 2; f >= 0; f--) {
        run_fill(&r, f * 120, 120);   /* a file: one minute at 500 ms */
        model_set_stream(a, (uint64_t)f + 1);
        model_set_stream(b, (uint64_t)f + 1);
        for (size_t i = 0; i < r.n; i++)
            assert_int_equal(model_add_sample(a, &r.s[i]), 0);
        run_grouped(b, &r);
    }
    model_flush(a, 1);
    model_flush(b, 1);
    assert_int_equal(model_node_count(a), 1);
    const model_node *na = model_node_at(a, 0), *nb = model_node_at(b, 0);
    assert_int_equal(model_node_series_count(na), 16);   /* with the CPU total */
    assert_int_equal(model_node_series_count(nb), 16);
    for (size_t i = 0; i < model_node_series_count(na); i++)
        assert_same_series(model_node_series_at(na, i), model_node_series_at(nb, i));
    model_free(a);
    model_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_total_interleaved),
        cmocka_unit_test(test_cpu_total_newest_first),
        cmocka_unit_test(test_cpu_total_newest_alone_first),
        cmocka_unit_test(test_nodes_and_aggregates),
        cmocka_unit_test(test_natural_cmp),
        cmocka_unit_test(test_extra_keys),
        cmocka_unit_test(test_events_and_phases),
        cmocka_unit_test(test_time_filter_and_generations),
        cmocka_unit_test(test_time_filter_keeps_overlapping_events),
        cmocka_unit_test(test_processes),
        cmocka_unit_test(test_process_and_loose_events),
        cmocka_unit_test(test_many_nodes_memory_sane),
        cmocka_unit_test(test_many_cores_lean),
        cmocka_unit_test(test_grouped_adds_equal_line_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
