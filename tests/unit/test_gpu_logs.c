/* A Kineto trace's per-event logs (model/util/varbuf, model/gpu): values
 * round-trip at the int64 extremes, and the two ways to a figure agree.
 * CPU ops that came in nesting order are nested straight from the log,
 * others are decoded and sorted; [memory] points in each device's time
 * order are thinned in passes over the log, others sorted first; launch
 * calls are found in their log, merged from sorted runs or sorted as an
 * array. The same events in file order and shuffled must give the same
 * tables, peaks, series and launch figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gpu/gpu_rank.h"
#include "model/gpu/gpu_trace.h"
#include "model/util/varbuf.h"
#include "tests/unit/kineto_build.h"

static void test_varbuf_round_trip(void **state)
{
    (void)state;
    static const int64_t v[] = {0, 1, -1, 63, 64, -64, -65, 127, 128, INT64_MAX, INT64_MIN,
                                INT64_MIN + 1, (int64_t)1 << 62, -((int64_t)1 << 62)};
    size_t n = sizeof v / sizeof v[0];
    varbuf b = {0};
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(varbuf_put_signed(&b, varbuf_diff(v[i], prev)), 0);
        assert_int_equal(varbuf_put(&b, (uint64_t)v[i]), 0);
        prev = v[i];
    }
    size_t pos = 0;
    prev = 0;
    for (size_t i = 0; i < n; i++) {
        prev = varbuf_add(prev, varbuf_get_signed(&b, &pos));
        assert_int_equal(prev, v[i]);
        assert_int_equal((int64_t)varbuf_get(&b, &pos), v[i]);
    }
    assert_int_equal(pos, b.n);
    assert_true(b.n < 3 * n * 10);
    varbuf_fit(&b);
    assert_int_equal(b.cap, b.n);
    varbuf_free(&b);
}

static sm_kevent ev(uint8_t cat, char ph, const char *name, int64_t ts_ns, int64_t dur_ns)
{
    sm_kevent e = kb_ev_ns(cat, name, ts_ns, dur_ns);
    e.ph = ph;
    return e;
}

#define N_EV 20000
static const char *const names[] = {"aten::add", "aten::mm", "aten::copy_", "fwd", "bwd"};

/* Random events in a valid file order: nested ops on two threads (each
 * thread's in nesting order), steps, [memory] points on two devices in
 * time order; a seed per call. */
static size_t make_events(sm_kevent *out, uint64_t seed)
{
    size_t n = 0;
    int64_t at[2] = {0, 0};
    for (int i = 0; n + 4 < N_EV; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t x = seed >> 11;
        int tid = (int)(x & 1);
        int64_t len = (int64_t)((x >> 3) % 90 + 10) * 1000 + (int64_t)((x >> 12) % 1000);
        /* a parent and two children, sometimes starting together */
        sm_kevent p = ev(KCAT_CPU_OP, 'X', names[(x >> 20) % 5], at[tid] * 1000, 3 * len);
        p.tid = tid;
        out[n++] = p;
        sm_kevent c = ev(x >> 30 & 1 ? KCAT_CPU_OP : KCAT_PYTHON_FUNCTION, 'X',
                         names[(x >> 24) % 5], at[tid] * 1000 + (x >> 31 & 1 ? 0 : len), len);
        c.tid = tid;
        out[n++] = c;
        sm_kevent m = ev(KCAT_MEMORY, 'i', "[memory]", at[tid] * 1000, SM_KEV_NONE);
        m.mem_device = tid;
        m.mem_total_allocated = (int64_t)((x >> 33) % 5000) << 20;
        m.mem_total_reserved = (int64_t)((x >> 40) % 7000) << 20;
        out[n++] = m;
        if (i % 50 == 0) {
            sm_kevent s = ev(KCAT_USER_ANNOTATION, 'X', "ProfilerStep#1", at[0] * 1000, 1000);
            s.step = i / 50;
            out[n++] = s;
        }
        at[tid] += 3 * len / 1000 + (int64_t)((x >> 50) % 3);
    }
    return n;
}

static gpu_rank *analyse(const sm_kevent *e, size_t n)
{
    gpu_trace *t = gpu_trace_new(NULL);
    assert_non_null(t);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(gpu_trace_add(t, &e[i]), 0);
    assert_int_equal(gpu_trace_end(t, NULL), 0);
    gpu_rank *r = gpu_rank_new();
    assert_int_equal(gpu_rank_merge(r, t), 0);
    gpu_trace_free(t);
    return r;
}

static void same_table(const gpu_table *a, const gpu_table *b)
{
    size_t na, nb;
    const gpu_stat **x = gpu_table_sorted(a, 1, &na), **y = gpu_table_sorted(b, 1, &nb);
    assert_int_equal(na, nb);
    assert_true(na > 0);
    for (size_t i = 0; i < na; i++) {
        assert_string_equal(x[i]->name, y[i]->name);
        assert_int_equal(x[i]->count, y[i]->count);
        assert_int_equal(x[i]->sum_us, y[i]->sum_us);
        assert_int_equal(x[i]->self_us, y[i]->self_us);
        assert_int_equal(x[i]->max_us, y[i]->max_us);
    }
    free(x);
    free(y);
}

/* The events in file order against the same events with every op and
 * point moved by a random swap (out of order: the sorting paths). */
static void test_ordered_equals_sorted(void **state)
{
    (void)state;
    sm_kevent *e = malloc(N_EV * sizeof *e), *s = malloc(N_EV * sizeof *s);
    assert_non_null(e);
    assert_non_null(s);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        size_t n = make_events(e, seed);
        memcpy(s, e, n * sizeof *e);
        uint64_t x = seed;
        for (size_t i = n - 1; i > 0; i--) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t j = (size_t)((x >> 33) % (i + 1));
            sm_kevent tmp = s[i];
            s[i] = s[j];
            s[j] = tmp;
        }
        gpu_rank *a = analyse(e, n), *b = analyse(s, n);
        same_table(gpu_rank_ops(a), gpu_rank_ops(b));
        same_table(gpu_rank_python(a), gpu_rank_python(b));
        const gpu_summary *sa = gpu_rank_summary(a), *sb = gpu_rank_summary(b);
        assert_true(sa->steps > 10);
        assert_int_equal(sa->steps, sb->steps);
        assert_int_equal(sa->memory.n_peaks, 2);
        assert_int_equal(sa->memory.n_peaks, sb->memory.n_peaks);
        assert_memory_equal(sa->memory.peaks, sb->memory.peaks,
                            sa->memory.n_peaks * sizeof *sa->memory.peaks);
        /* more points than kept: thinned, peaks in the series */
        assert_int_equal(sa->memory.n_series, 2 * GPU_MEM_POINTS);
        assert_int_equal(sa->memory.n_series, sb->memory.n_series);
        assert_memory_equal(sa->memory.series, sb->memory.series,
                            sa->memory.n_series * sizeof *sa->memory.series);
        gpu_rank_free(a);
        gpu_rank_free(b);
    }
    free(e);
    free(s);
}

/* A few points on many devices: both paths keep every point. */
static void test_memory_many_devices(void **state)
{
    (void)state;
    sm_kevent e[200];
    for (int i = 0; i < 200; i++) {
        e[i] = ev(KCAT_MEMORY, 'i', "[memory]", (int64_t)(i / 100) * 1000, SM_KEV_NONE);
        e[i].mem_device = i % 100;
        e[i].mem_total_allocated = (int64_t)(i * 7 % 13) << 20;
        e[i].mem_total_reserved = (int64_t)i << 20;
    }
    gpu_rank *r = analyse(e, 200);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->memory.n_peaks, 100);
    assert_int_equal(s->memory.n_series, 200);
    for (size_t i = 1; i < s->memory.n_series; i++)
        assert_true(s->memory.series[i - 1].t_us < s->memory.series[i].t_us ||
                    s->memory.series[i - 1].device < s->memory.series[i].device);
    assert_int_equal(s->memory.peaks[99].reserved, (int64_t)199 << 20);
    gpu_rank_free(r);
}

/* Launch calls found by correlation id from the log as it came (sorted),
 * merged from sorted runs (two threads written one after the other), or
 * sorted as an array (past the runs merged: random order). The rows
 * stay in one order; the figures that read the calls must not move. */
#define N_CALLS 3000

static void add_calls(gpu_trace *t, const int64_t *order, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t c = order[i];
        sm_kevent e = ev(KCAT_CUDA_RUNTIME, 'X', "cudaLaunchKernel", c * 10000 + c % 7 * 100,
                         (c % 5 + 1) * 1000);
        e.correlation = c;
        assert_int_equal(gpu_trace_add(t, &e), 0);
    }
}

static gpu_rank *launch_trace(const int64_t *order, size_t n)
{
    gpu_trace *t = gpu_trace_new(NULL);
    add_calls(t, order, n);
    for (int64_t c = 0; c < (int64_t)n; c++) {
        if (c % 11 == 3)
            continue;   /* a call without its row */
        sm_kevent e = ev(KCAT_KERNEL, 'X', c % 3 ? "gemm" : "ncclKernel_x",
                         c * 10000 + 7000 + c % 13 * 300, (c % 4 + 1) * 900);
        e.correlation = c % 17 == 5 ? c + 100000 : c;  /* some rows miss their call */
        e.stream = 7 + c % 2;
        assert_int_equal(gpu_trace_add(t, &e), 0);
    }
    for (int64_t s = 0; s < 4; s++) {
        sm_kevent e = ev(KCAT_USER_ANNOTATION, 'X', "ProfilerStep#1", s * 7500000, 7500000);
        e.step = s;
        assert_int_equal(gpu_trace_add(t, &e), 0);
    }
    assert_int_equal(gpu_trace_end(t, NULL), 0);
    gpu_rank *r = gpu_rank_new();
    assert_int_equal(gpu_rank_merge(r, t), 0);
    gpu_trace_free(t);
    return r;
}

static void same_launch(const gpu_summary *a, const gpu_summary *b)
{
    assert_true(a->launch.count > N_CALLS / 2);
    assert_int_equal(a->launch.count, b->launch.count);
    assert_int_equal(a->launch.short_kernels, b->launch.short_kernels);
    assert_int_equal(a->launch.delay_outliers, b->launch.delay_outliers);
    assert_true(a->launch.delay_p50_us == b->launch.delay_p50_us);
    assert_true(a->launch.delay_p95_us == b->launch.delay_p95_us);
    assert_true(a->launch.delay_mean_us == b->launch.delay_mean_us);
    assert_int_equal(a->host_wait_us, b->host_wait_us);
    assert_int_equal(a->kernel_wait_us, b->kernel_wait_us);
    assert_int_equal(a->other_idle_us, b->other_idle_us);
    assert_int_equal(a->span_us, b->span_us);
    assert_int_equal(a->compute_us, b->compute_us);
}

static void test_calls_three_ways(void **state)
{
    (void)state;
    int64_t sorted[N_CALLS], runs[N_CALLS], shuffled[N_CALLS];
    size_t k = 0;
    for (int64_t c = 0; c < N_CALLS; c++)
        sorted[c] = shuffled[c] = c;
    for (int pass = 0; pass < 2; pass++)   /* odd ids, then even ones */
        for (int64_t c = 0; c < N_CALLS; c++)
            if (c % 2 != pass)
                runs[k++] = c;
    uint64_t x = 7;
    for (size_t i = N_CALLS - 1; i > 0; i--) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t j = (size_t)((x >> 33) % (i + 1));
        int64_t tmp = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = tmp;
    }
    gpu_rank *a = launch_trace(sorted, N_CALLS), *b = launch_trace(runs, N_CALLS),
             *c = launch_trace(shuffled, N_CALLS);
    same_launch(gpu_rank_summary(a), gpu_rank_summary(b));
    same_launch(gpu_rank_summary(a), gpu_rank_summary(c));
    gpu_rank_free(a);
    gpu_rank_free(b);
    gpu_rank_free(c);
}

/* Two calls of one id: the first in the file launches the row (a delay
 * of 100 µs, not 10), whichever way the calls are kept. */
static void test_calls_duplicate_id(void **state)
{
    (void)state;
    for (int way = 0; way < 3; way++) {
        gpu_trace *t = gpu_trace_new(NULL);
        int64_t before[2 * N_CALLS];
        size_t n = 0;
        for (int64_t c = 0; c < 2 * N_CALLS; c++)
            if (c != 42)
                before[n++] = way == 0 ? c : way == 1 ? (c + N_CALLS) % (2 * N_CALLS)
                                       : (c * 7919) % (2 * N_CALLS);
        for (size_t i = 0; i < n; i++)
            before[i] = before[i] == 42 ? 2 * N_CALLS : before[i];
        /* way 0: in order, one run; 1: three runs; 2: past GPU_CALL_RUNS */
        size_t split = way == 0 ? 42 : n / 2;
        add_calls(t, before, split);
        sm_kevent e = ev(KCAT_CUDA_RUNTIME, 'X', "cudaLaunchKernel", 1000000000, 1000);
        e.correlation = 42;
        assert_int_equal(gpu_trace_add(t, &e), 0);
        e.ts_ns += 90000;
        assert_int_equal(gpu_trace_add(t, &e), 0);
        add_calls(t, before + split, n - split);
        sm_kevent r = ev(KCAT_KERNEL, 'X', "gemm", 1000000000 + 101000, 5000);
        r.correlation = 42;
        r.stream = 7;
        assert_int_equal(gpu_trace_add(t, &r), 0);
        assert_int_equal(gpu_trace_end(t, NULL), 0);
        gpu_rank *g = gpu_rank_new();
        assert_int_equal(gpu_rank_merge(g, t), 0);
        gpu_trace_free(t);
        const gpu_summary *s = gpu_rank_summary(g);
        assert_int_equal(s->launch.count, 1);
        assert_true(s->launch.delay_mean_us == 100);
        gpu_rank_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varbuf_round_trip),
        cmocka_unit_test(test_ordered_equals_sorted),
        cmocka_unit_test(test_memory_many_devices),
        cmocka_unit_test(test_calls_three_ways),
        cmocka_unit_test(test_calls_duplicate_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
