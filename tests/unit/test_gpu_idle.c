/* Unit tests for the idle causes (gpu_idle.h) and the time windows
 * (gpu_rank_window, gpu_rank.h) on a hand-built trace whose figures are
 * worked out in the comments. The critical path itself is checked against
 * HTA's own figures by test_gpu_cpath_conformance.
 *
 * The trace (µs; tid 1 the main thread, tid 2 gloo's): three steps of
 * 1000 µs, the last left out (HTA). GPU rows on stream 7:
 *   k1 [100, 200)  k2 [700, 800)  k3 [1100, 1900)  k4 [2100, 2200)
 * Step 1 [0, 1000), the GPU span from 100: idle [200, 700) + [800, 1000)
 * = 700 µs.
 *   tid 1  DataLoader __next__ [200, 400) around __getitem__ [250, 350)
 *          aten::mm [600, 700) around cudaLaunchKernel [650, 660) (k2)
 *          cudaMemcpyAsync [850, 870), cudaDeviceSynchronize [900, 950)
 *   tid 2  gloo:all_reduce [300, 500)
 * Step 2 [1000, 2000): k4 runs in step 3's time but its launch is in
 * step 2, so it is kept (HTA drops the rows launched in the last step)
 * and the GPU span runs to 2200: idle [1000, 1100) + [1900, 2000) = 200.
 *   tid 1  cudaLaunchKernel [1010, 1020) (k3), then aten::copy_
 *          [1020, 1100); cudaLaunchKernel [1950, 1960) (k4). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gpu/gpu_idle.h"
#include "model/gpu/gpu_rank.h"
#include "model/gpu/gpu_trace.h"
#include "tests/unit/kineto_build.h"

#define DL_NEXT "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
#define GETITEM "train.py(12): __getitem__"

static void add_on(gpu_trace *t, uint8_t cat, const char *name, int64_t ts, int64_t dur,
                   int64_t tid)
{
    sm_kevent e = kb_ev(cat, name, ts, dur);
    e.tid = tid;
    assert_int_equal(kb_add(t, e), 0);
}

static gpu_trace *build(const char *backend)
{
    gpu_trace *t = gpu_trace_new(NULL);
    assert_non_null(t);
    for (int s = 1; s <= 3; s++)
        kb_step(t, s, (s - 1) * 1000, 1000);
    add_on(t, KCAT_PYTHON_FUNCTION, DL_NEXT, 200, 200, 1);
    add_on(t, KCAT_PYTHON_FUNCTION, GETITEM, 250, 100, 1);
    add_on(t, KCAT_USER_ANNOTATION, "gloo:all_reduce", 300, 200, 2);
    kb_launch(t, "k1", 60, 10, 100, 100, 1);
    add_on(t, KCAT_CPU_OP, "aten::mm", 600, 100, 1);
    kb_launch(t, "k2", 650, 10, 700, 100, 2);
    add_on(t, KCAT_CUDA_RUNTIME, "cudaMemcpyAsync", 850, 20, 1);
    add_on(t, KCAT_CUDA_RUNTIME, "cudaDeviceSynchronize", 900, 50, 1);
    kb_launch(t, "k3", 1010, 10, 1100, 800, 3);
    add_on(t, KCAT_CPU_OP, "aten::copy_", 1020, 80, 1);
    kb_launch(t, "k4", 1950, 10, 2100, 100, 4);
    sm_kmeta m = kb_meta(1700000000, 80LL << 30);
    if (backend)
        m.backend = sm_str_c(backend);
    assert_int_equal(gpu_trace_end(t, &m), 0);
    return t;
}

static gpu_rank *rank_of(gpu_trace *t)
{
    gpu_rank *r = gpu_rank_new();
    assert_non_null(r);
    assert_int_equal(gpu_rank_merge(r, t), 0);
    gpu_trace_free(t);
    return r;
}

/* The cause named name of kind on thread tid; NULL when none. */
static const gpu_idle_cause *cause(const gpu_summary *s, const char *name, int kind, int64_t tid)
{
    for (size_t i = 0; i < s->idle_attr.n_causes; i++) {
        const gpu_idle_cause *c = &s->idle_attr.causes[i];
        if (c->kind == kind && c->tid == tid && c->len == strlen(name) &&
            !memcmp(c->name, name, c->len))
            return c;
    }
    return NULL;
}

static int64_t overlap(const gpu_summary *s, const char *name, int kind, int64_t tid)
{
    const gpu_idle_cause *c = cause(s, name, kind, tid);
    return c ? c->overlap_us : -1;
}

static int64_t thread_us(const gpu_summary *s, int64_t tid)
{
    for (size_t i = 0; i < s->idle_attr.n_threads; i++)
        if (s->idle_attr.threads[i].tid == tid)
            return s->idle_attr.threads[i].busy_us;
    return -1;
}

/* Step 1 alone. */
static void check_step1(const gpu_summary *s)
{
    assert_int_equal(s->idle_attr.windows, 1);
    assert_int_equal(s->idle_attr.idle_us, 700);
    /* innermost first: __getitem__ its 100, the DataLoader its own 100
     * and, as the cause enclosing __getitem__, 100 more */
    assert_int_equal(overlap(s, GETITEM, GPU_IDLE_PYTHON, 1), 100);
    assert_int_equal(overlap(s, DL_NEXT, GPU_IDLE_DATALOADER, 1), 200);
    assert_int_equal(overlap(s, "gloo:all_reduce", GPU_IDLE_COMM_HOST, 2), 200);
    assert_int_equal(overlap(s, "aten::mm", GPU_IDLE_CPU_OP, 1), 90);
    assert_int_equal(overlap(s, "cudaLaunchKernel", GPU_IDLE_RUNTIME, 1), 10);
    assert_int_equal(overlap(s, "cudaMemcpyAsync", GPU_IDLE_MEMCPY, 1), 20);
    assert_int_equal(overlap(s, "cudaDeviceSynchronize", GPU_IDLE_SYNC, 1), 50);
    assert_int_equal(thread_us(s, 1), 200 + 100 + 20 + 50);
    assert_int_equal(thread_us(s, 2), 200);
    assert_true(fabs(s->idle_attr.threads[0].pct_of_idle - 100.0 * 370 / 700) < 1e-9);
    assert_int_equal(s->idle_attr.host_comm_us, 200);
    const gpu_idle_cause *dl = cause(s, DL_NEXT, GPU_IDLE_DATALOADER, 1);
    assert_true(fabs(dl->pct_of_idle - 100.0 * 200 / 700) < 1e-9);
    /* largest first */
    for (size_t i = 1; i < s->idle_attr.n_causes; i++)
        assert_true(s->idle_attr.causes[i - 1].overlap_us >= s->idle_attr.causes[i].overlap_us);
}

static void test_idle_causes_step(void **state)
{
    (void)state;
    gpu_rank *r = rank_of(build("nccl"));
    const gpu_summary *all = gpu_rank_summary(r);
    assert_int_equal(all->n_steps, 2);
    gpu_window *w = gpu_window_new();
    assert_non_null(w);
    int64_t t0 = all->step_rows[0].start_us, t1 = all->step_rows[1].start_us;
    assert_int_equal(gpu_rank_window(r, t0, t1, w), 0);
    check_step1(gpu_window_summary(w));
    /* step 2: aten::copy_ 80, the launches of k3 and k4 10 each */
    assert_int_equal(gpu_rank_window(r, t1, t1 + 1000, w), 0);
    const gpu_summary *s = gpu_window_summary(w);
    assert_int_equal(s->idle_attr.idle_us, 200);
    assert_int_equal(overlap(s, "aten::copy_", GPU_IDLE_CPU_OP, 1), 80);
    assert_int_equal(overlap(s, "cudaLaunchKernel", GPU_IDLE_RUNTIME, 1), 20);
    assert_int_equal(thread_us(s, 1), 100);
    assert_int_equal(thread_us(s, 2), -1);
    assert_int_equal(overlap(s, "gloo:all_reduce", GPU_IDLE_COMM_HOST, 2), -1);
    assert_int_equal(s->idle_attr.host_comm_us, 0);
    gpu_window_free(w);
    gpu_rank_free(r);
}

/* The rank's summary sums both steps. Its idle time is the steps' idle
 * time (gpu_step.idle_us) but the part of step 1 before the GPU span
 * starts (k1 at 100): HTA's idle time lies inside the span. */
static void test_idle_causes_rank(void **state)
{
    (void)state;
    gpu_rank *r = rank_of(build("nccl"));
    const gpu_summary *s = gpu_rank_summary(r);
    int64_t idle = 0;
    for (size_t i = 0; i < s->n_steps; i++)
        idle += s->step_rows[i].idle_us;
    assert_int_equal(s->idle_attr.windows, 2);
    assert_int_equal(s->idle_attr.idle_us, 900);
    assert_int_equal(idle, 900 + 100);
    assert_int_equal(overlap(s, "cudaLaunchKernel", GPU_IDLE_RUNTIME, 1), 30);
    assert_int_equal(thread_us(s, 1), 370 + 100);
    assert_true(fabs(s->idle_attr.host_comm_per_step_us - 100.0) < 1e-9);
    assert_string_equal(s->backend, "nccl");
    gpu_rank_free(r);
}

/* Two steps, the last left out: step 1's GPU idle time is [200, 900). */
static gpu_trace *idle_700(void)
{
    gpu_trace *t = gpu_trace_new(NULL);
    assert_non_null(t);
    kb_step(t, 1, 0, 1000);
    kb_step(t, 2, 1000, 1000);
    kb_launch(t, "k", 10, 10, 100, 100, 1);
    kb_launch(t, "k", 880, 10, 900, 100, 2);
    return t;
}

static gpu_rank *end_with_backend(gpu_trace *t, const char *backend)
{
    sm_kmeta m = kb_meta(1700000000, 80LL << 30);
    m.backend = sm_str_c(backend);
    assert_int_equal(gpu_trace_end(t, &m), 0);
    return rank_of(t);
}

/* Under the gloo backend a c10d:: op is host communication too; under
 * nccl it is a CPU op. */
static void test_gloo_backend(void **state)
{
    (void)state;
    for (int gloo = 0; gloo < 2; gloo++) {
        gpu_trace *t = idle_700();
        add_on(t, KCAT_CPU_OP, "c10d::allreduce_", 300, 400, 1);
        gpu_rank *r = end_with_backend(t, gloo ? "gloo" : "nccl");
        const gpu_summary *s = gpu_rank_summary(r);
        assert_int_equal(s->idle_attr.idle_us, 700);   /* [200, 900) */
        assert_int_equal(overlap(s, "c10d::allreduce_", gloo ? GPU_IDLE_COMM_HOST : GPU_IDLE_CPU_OP,
                                 1),
                         400);
        assert_int_equal(s->idle_attr.host_comm_us, gloo ? 400 : 0);
        gpu_rank_free(r);
    }
}

/* gloo all-reduces on two threads at once: each thread's row has its own
 * overlap (300 and 500 µs, 800 in all), but the GPU's idle time during
 * which the host communicated is their union, [300, 900): 600 of 700. */
static void test_gloo_two_threads(void **state)
{
    (void)state;
    gpu_trace *t = idle_700();
    add_on(t, KCAT_USER_ANNOTATION, "gloo:all_reduce", 300, 300, 2);
    add_on(t, KCAT_USER_ANNOTATION, "gloo:all_reduce", 400, 550, 3);
    gpu_rank *r = end_with_backend(t, "gloo");
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->idle_attr.idle_us, 700);   /* [200, 900) */
    assert_int_equal(overlap(s, "gloo:all_reduce", GPU_IDLE_COMM_HOST, 2), 300);
    assert_int_equal(overlap(s, "gloo:all_reduce", GPU_IDLE_COMM_HOST, 3), 500);
    assert_int_equal(s->idle_attr.host_comm_us, 650);        /* [300, 950) */
    assert_int_equal(s->idle_attr.host_comm_idle_us, 600);   /* [300, 900) */
    gpu_rank_free(r);
}

/* GPU_WINDOW_ALL is the rank's summary and tables, byte for byte. */
static void test_window_all(void **state)
{
    (void)state;
    gpu_rank *r = rank_of(build("gloo"));
    gpu_window *w = gpu_window_new();
    assert_non_null(w);
    assert_int_equal(gpu_rank_window(r, GPU_WINDOW_ALL, 0, w), 0);
    assert_memory_equal(gpu_window_summary(w), gpu_rank_summary(r), sizeof(gpu_summary));
    for (int t = 0; t < GPU_NT_N; t++)
        assert_ptr_equal(gpu_window_names(w, t), gpu_rank_names(r, t));
    gpu_window_free(w);
    gpu_rank_free(r);
}

static const gpu_stat *row_of(const gpu_table *t, const char *name)
{
    const gpu_stat *s = gpu_table_find(t, name);
    return s && s->count ? s : NULL;
}

/* A window over every step sums the steps: its span and idle time are
 * the steps' (the rank's summary spans the GPU rows, k4's end included),
 * its critical path, idle causes and tables the rank's; one over step 1
 * holds step 1's rows only; one with no step is empty. */
static void test_window_sums(void **state)
{
    (void)state;
    gpu_rank *r = rank_of(build("nccl"));
    const gpu_summary *all = gpu_rank_summary(r);
    gpu_window *w = gpu_window_new();
    assert_non_null(w);
    int64_t t0 = all->step_rows[0].start_us;
    assert_int_equal(gpu_rank_window(r, t0, t0 + 3000, w), 0);
    const gpu_summary *s = gpu_window_summary(w);
    assert_int_equal(s->steps, all->steps);
    int64_t span = 0, idle = 0, compute = 0;
    for (size_t i = 0; i < all->n_steps; i++) {
        span += all->step_rows[i].dur_us;
        idle += all->step_rows[i].idle_us;
        compute += all->step_rows[i].compute_us;
    }
    assert_int_equal(s->span_us, span);
    assert_int_equal(s->idle_us, idle);
    assert_int_equal(s->compute_us, compute);
    assert_int_equal(compute, 1000);   /* k4 runs after the last kept step */
    assert_int_equal(s->launch.count, all->launch.count);
    assert_int_equal(s->critical_path.steps, all->critical_path.steps);
    assert_int_equal(s->critical_path.path_us, all->critical_path.path_us);
    assert_memory_equal(s->critical_path.bound_us, all->critical_path.bound_us,
                        sizeof s->critical_path.bound_us);
    assert_int_equal(s->idle_attr.idle_us, all->idle_attr.idle_us);
    assert_int_equal(s->idle_attr.n_causes, all->idle_attr.n_causes);
    for (size_t i = 0; i < s->idle_attr.n_causes; i++)
        assert_int_equal(s->idle_attr.causes[i].overlap_us, all->idle_attr.causes[i].overlap_us);
    for (int t = 0; t < GPU_NT_N; t++) {   /* every counted row, k4 included */
        const gpu_table *rt = gpu_rank_names(r, t);
        size_t n = 0;
        const gpu_stat **rows = gpu_table_sorted(rt, 0, &n);
        for (size_t i = 0; i < n; i++) {
            const gpu_stat *k = row_of(gpu_window_names(w, t), rows[i]->name);
            assert_non_null(k);
            assert_int_equal(k->count, rows[i]->count);
            assert_int_equal(k->sum_us, rows[i]->sum_us);
            assert_int_equal(k->self_us, rows[i]->self_us);
        }
        free(rows);
    }
    assert_int_equal(row_of(gpu_window_names(w, GPU_NT_KERNEL), "k4")->sum_us, 100);

    assert_int_equal(gpu_rank_window(r, t0, t0 + 1000, w), 0);
    s = gpu_window_summary(w);
    assert_int_equal(s->steps, 1);
    assert_int_equal(s->n_steps, 1);
    assert_int_equal(s->span_us, all->step_rows[0].dur_us);
    assert_int_equal(s->critical_path.steps, 1);
    assert_true(s->critical_path.path_us > 0);
    assert_true(s->critical_path.path_us < all->critical_path.path_us);
    assert_non_null(row_of(gpu_window_names(w, GPU_NT_KERNEL), "k1"));
    assert_null(row_of(gpu_window_names(w, GPU_NT_KERNEL), "k3"));
    assert_int_equal(row_of(gpu_window_names(w, GPU_NT_OP), "aten::mm")->count, 1);
    assert_null(row_of(gpu_window_names(w, GPU_NT_OP), "aten::copy_"));
    assert_int_equal(row_of(gpu_window_names(w, GPU_NT_ANNOT), "gloo:all_reduce")->count, 1);

    assert_int_equal(gpu_rank_window(r, t0 + 5000, t0 + 6000, w), 0);
    s = gpu_window_summary(w);
    assert_int_equal(s->steps, 0);
    assert_int_equal(s->critical_path.steps, 0);
    assert_int_equal(s->idle_attr.n_causes, 0);
    assert_null(row_of(gpu_window_names(w, GPU_NT_KERNEL), "k1"));
    gpu_window_free(w);
    gpu_rank_free(r);
}

/* Two traces merged in either order give the same critical path and idle
 * causes (ties are broken by names, not by table rows). */
static void test_merge_order(void **state)
{
    (void)state;
    gpu_rank *a = gpu_rank_new(), *b = gpu_rank_new();
    gpu_trace *x = build("nccl"), *y = gpu_trace_new(NULL);
    kb_step(y, 1, 5000, 1000);
    kb_step(y, 2, 6000, 1000);
    add_on(y, KCAT_CPU_OP, "aten::zeros", 5100, 300, 1);
    kb_launch(y, "kz", 5020, 10, 5060, 40, 1);
    kb_launch(y, "kz", 5900, 10, 5950, 40, 2);
    kb_launch(y, "kz", 6010, 10, 6100, 100, 3);
    sm_kmeta m = kb_meta(1700000000, 80LL << 30);
    assert_int_equal(gpu_trace_end(y, &m), 0);
    assert_int_equal(gpu_rank_merge(a, x), 0);
    assert_int_equal(gpu_rank_merge(a, y), 0);
    assert_int_equal(gpu_rank_merge(b, y), 0);
    assert_int_equal(gpu_rank_merge(b, x), 0);
    const gpu_summary *sa = gpu_rank_summary(a), *sb = gpu_rank_summary(b);
    assert_int_equal(sa->critical_path.steps, 3);
    assert_int_equal(sa->critical_path.path_us, sb->critical_path.path_us);
    assert_int_equal(sa->critical_path.n_top, sb->critical_path.n_top);
    for (size_t i = 0; i < sa->critical_path.n_top; i++) {
        assert_int_equal(sa->critical_path.top[i].len, sb->critical_path.top[i].len);
        assert_memory_equal(sa->critical_path.top[i].name, sb->critical_path.top[i].name,
                            sa->critical_path.top[i].len);
        assert_int_equal(sa->critical_path.top[i].us, sb->critical_path.top[i].us);
    }
    assert_int_equal(sa->idle_attr.n_causes, sb->idle_attr.n_causes);
    for (size_t i = 0; i < sa->idle_attr.n_causes; i++) {
        assert_int_equal(sa->idle_attr.causes[i].len, sb->idle_attr.causes[i].len);
        assert_memory_equal(sa->idle_attr.causes[i].name, sb->idle_attr.causes[i].name,
                            sa->idle_attr.causes[i].len);
        assert_int_equal(sa->idle_attr.causes[i].overlap_us, sb->idle_attr.causes[i].overlap_us);
    }
    assert_int_equal(overlap(sa, "aten::zeros", GPU_IDLE_CPU_OP, 1), 300);
    gpu_trace_free(x);
    gpu_trace_free(y);
    gpu_rank_free(a);
    gpu_rank_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_causes_step), cmocka_unit_test(test_idle_causes_rank),
        cmocka_unit_test(test_gloo_backend),     cmocka_unit_test(test_gloo_two_threads),
        cmocka_unit_test(test_window_all),
        cmocka_unit_test(test_window_sums),      cmocka_unit_test(test_merge_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
