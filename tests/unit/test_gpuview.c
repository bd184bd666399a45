/* Unit tests for model/view/gpuview: the job's Kineto figures and the
 * verdict quotes (test_gpucause.c checks the findings), the step split
 * matched to the Timeline's steps, the top-functions tables of each
 * source over the job or one rank, and the memory chart's bins. */
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
#include "model/gpu/gpu_idle.h"
#include "model/rules/rules.h"
#include "model/util/name_match.h"
#include "model/view/gpuview.h"
#include "model/view/sysview.h"
#include "model/view/tlview.h"
#include "model/view/viewdata.h"
#include "tests/unit/model_fixture.h"
#include "tests/unit/kineto_build.h"

#define BASE 1700000000LL

static void merge(model *m, const char *node, const char *proc, int64_t rank, gpu_trace *t)
{
    assert_int_equal(model_gpu_merge(m, node, proc, rank, t, 1), 0);
    gpu_trace_free(t);
}

/* Built by kb_host_bound: per kept step 90 µs of gemm and 130 µs of
 * all-reduce in 1000 µs windows; the job sums both ranks. */
static void test_job_sum(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    rules *r = rules_new();
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 12, 1, 95));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(BASE, 12, 1, 40));
    gpuview_job j;
    gpuview_job_sum(m, &j);
    assert_int_equal(j.ranks, 2);
    assert_int_equal(j.gpu_ranks, 2);
    assert_int_equal(j.steps, 22);
    assert_true(j.idle_pct > 70 && j.idle_pct < 85);
    assert_true(j.host_wait_pct > 90 && j.host_wait_pct <= 100);
    assert_true(fabs(j.comm_overlap_pct) < 1e-9);
    assert_true(fabs(j.short_pct - 90) < 1e-9);        /* 9 of 10 launches */
    assert_true(fabs(j.reserved_pct - 95) < 0.01);

    rules_free(r);
    model_free(m);
}

/* Steps matched by number near their start; a step the rank lacks gets
 * an empty split. */
static void test_steps_match(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 1, 0));
    const gpu_summary *s = gpu_rank_summary(model_gpu_at(m, 0)->gpu);
    assert_int_equal(s->n_steps, 3);
    int64_t t0 = s->step_rows[0].start_us;
    int64_t step[] = {1, 0, 2, 7, 1};
    int64_t start[] = {t0 + 1000, t0 + 10, t0 + 2000, t0 + 3000, t0 + 5000};
    gpu_step out[5];
    assert_int_equal(gpuview_steps_match(s, step, start, 5, out), 3);
    assert_int_equal(out[0].step, 1);
    assert_int_equal(out[0].start_us, t0 + 1000);
    assert_int_equal(out[0].dur_us, 1000);
    /* 9 gemm of 10 µs, the all-reduce's 130 µs; the rest idle */
    assert_int_equal(out[0].compute_us, 90);
    assert_int_equal(out[0].comm_us, 130);
    assert_int_equal(out[0].memory_us, 0);
    assert_int_equal(out[0].idle_us, 780);
    assert_int_equal(out[1].step, 0);
    assert_int_equal(out[2].step, 2);
    assert_int_equal(out[3].dur_us, 0);            /* no step 7 */
    assert_int_equal(out[3].step, 7);
    assert_int_equal(out[4].dur_us, 0);            /* step 1, but 4 ms off */
    model_free(m);
}

/* Ops by self time, kernels by total, over the job or one rank; max
 * keeps the top rows and the totals still count all. */
static void test_top(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 1, 0));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(BASE, 4, 0, 0));
    gpuview_top *t = gpuview_top_build(m, GPUVIEW_KERNELS, GPUVIEW_SORT_TIME, NULL, NULL, 10);
    assert_non_null(t);
    assert_int_equal(t->total, 2);
    assert_int_equal(t->n, 2);
    assert_string_equal(t->rows[0].name, "sm90_gemm");
    assert_int_equal(t->rows[0].count, 54);                /* 9 x 3 kept steps x 2 ranks */
    assert_int_equal(t->rows[0].sum_us, 540);
    assert_string_equal(t->rows[1].name, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    assert_int_equal(t->rows[1].count, 3);                 /* rank 0 only */
    assert_int_equal(t->rows[1].sum_us, 390);
    assert_int_equal(t->rows[1].type, GPU_KT_COMMUNICATION);
    assert_int_equal(t->all_us, 390 + 540);
    gpuview_top_free(t);

    /* the other orders rank every row before the top is cut: by calls or
     * by the mean call the all-reduce (3 of 130 µs) leads, the cut keeps
     * it, and the totals stay the source's time */
    const gpuview_sort by[] = {GPUVIEW_SORT_MEAN, GPUVIEW_SORT_MAX};
    for (size_t i = 0; i < 2; i++) {
        t = gpuview_top_build(m, GPUVIEW_KERNELS, by[i], NULL, NULL, 1);
        assert_int_equal(t->n, 1);
        assert_string_equal(t->rows[0].name, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
        assert_int_equal(t->all_us, 390 + 540);
        gpuview_top_free(t);
    }
    t = gpuview_top_build(m, GPUVIEW_KERNELS, GPUVIEW_SORT_COUNT, NULL, NULL, 2);
    assert_string_equal(t->rows[0].name, "sm90_gemm");
    assert_true(t->rows[0].count >= t->rows[1].count);
    assert_string_equal(gpuview_sort_name(GPUVIEW_SORT_TIME, GPUVIEW_KERNELS), "total");
    assert_string_equal(gpuview_sort_name(GPUVIEW_SORT_TIME, GPUVIEW_OPS), "self");
    gpuview_top_free(t);

    t = gpuview_top_build(m, GPUVIEW_KERNELS, GPUVIEW_SORT_TIME, "algo-2", "rank 1", 1);
    assert_int_equal(t->total, 1);
    assert_string_equal(t->rows[0].name, "sm90_gemm");
    assert_int_equal(t->rows[0].count, 27);
    gpuview_top_free(t);

    /* under a node filter: algo-2's rank alone, then none */
    t = gpuview_top_build_on(m, GPUVIEW_KERNELS, GPUVIEW_SORT_TIME, "algo-2", name_match, 10);
    assert_int_equal(t->ranks, 1);
    assert_int_equal(t->total, 1);
    assert_int_equal(t->rows[0].count, 27);
    gpuview_top_free(t);
    t = gpuview_top_build_on(m, GPUVIEW_KERNELS, GPUVIEW_SORT_TIME, "nonesuch", name_match, 10);
    assert_int_equal(t->ranks, 0);
    assert_int_equal(t->total, 0);
    gpuview_top_free(t);

    t = gpuview_top_build(m, GPUVIEW_OPS, GPUVIEW_SORT_TIME, NULL, NULL, 1);
    assert_int_equal(t->ranks, 2);
    assert_int_equal(t->n, 1);
    assert_string_equal(t->rows[0].name, "aten::linear");
    assert_int_equal(t->rows[0].count, 6);
    assert_int_equal(t->rows[0].self_us, 6 * 990);
    gpuview_top_free(t);

    t = gpuview_top_build(m, GPUVIEW_PYTHON, GPUVIEW_SORT_TIME, NULL, NULL, 5);    /* none */
    assert_non_null(t);
    assert_int_equal(t->n, 0);
    assert_int_equal(t->total, 0);
    gpuview_top_free(t);
    assert_string_equal(gpuview_src_name(GPUVIEW_PYTHON), "Python functions");
    model_free(m);
}

/* One [memory] point per step at +5 µs: bins hold the points in them,
 * carry the last one across empty bins, and stay empty before any. */
static void test_memory_bins(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 0, 50));
    const gpu_summary *s = gpu_rank_summary(model_gpu_at(m, 0)->gpu);
    assert_true(s->memory.n_series >= 3);
    int64_t p0 = s->memory.series[0].t_us, total;
    gpuview_mem_bin b[8];
    /* 8 bins of 500 µs from 1 ms before the first point */
    size_t got = gpuview_memory(s, p0 - 1000, p0 + 3000, b, 8, &total);
    assert_int_equal(total, 80LL << 30);
    assert_int_equal(b[0].reserved, -1);
    assert_int_equal(b[1].reserved, -1);
    assert_int_equal(b[2].reserved, 40LL << 30);          /* the first point */
    assert_int_equal(b[2].allocated, 20LL << 30);
    assert_int_equal(b[3].reserved, 40LL << 30);          /* carried */
    assert_int_equal(got, 6);
    /* a window after the series: every bin carries the last value */
    got = gpuview_memory(s, p0 + 100000, p0 + 200000, b, 8, NULL);
    assert_int_equal(got, 8);
    assert_int_equal(b[7].reserved, 40LL << 30);
    assert_int_equal(gpuview_memory(s, 10, 10, b, 8, NULL), 0);
    model_free(m);
}

/* The Timeline's steps of a Kineto rank carry its GPU split; another
 * node's steps (smdebug's) do not. */
static void test_timeline_gpu(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    for (int s = 0; s < 4; s++) {   /* the rank's steps as the ingest adds them */
        sm_event e = {.node = sm_str_c("algo-1"), .phase = sm_str_c("Step:ModeKeys.TRAIN"),
                      .name = sm_str_c("ProfilerStep#"), .start_us = BASE * 1000000 + s * 1000,
                      .dur_us = 1000, .step = s, .pid = 1, .tid = 1,
                      .process = sm_str_c("rank 0")};
        assert_int_equal(model_add_event(m, &e), 0);
        fx_step(m, "algo-2", s, BASE * 1000000 + s * 1000, 1000);
    }
    model_flush(m, 1);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 1, 0));
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.live = 1;
    q.span_us = 60 * 1000000LL;
    tlview_params tp;
    memset(&tp, 0, sizeof tp);
    tp.view = TLVIEW_STEPS;
    tp.first = TLVIEW_NEWEST;
    tp.fit = 10;
    assert_int_equal(viewdata_ask_for(&q, &tlview_query, &tp, sizeof tp), 0);
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    const tlview *tv = viewdata_answer(v, &tlview_query);
    assert_int_equal(viewdata_gpu_ranks(v), 1);
    assert_false(viewdata_gpu_memory(v));      /* no [memory] events */
    assert_null(tv->why);
    assert_string_equal(tv->node, "algo-1");
    assert_int_equal(tv->nsb, 4);
    assert_true(tv->has_gpu);
    for (int s = 0; s < 3; s++) {
        assert_int_equal(tv->gsb[s].step, s);
        assert_int_equal(tv->gsb[s].compute_us, 90);
        assert_int_equal(tv->gsb[s].comm_us, 130);
        assert_int_equal(tv->gsb[s].idle_us, 780);
    }
    assert_int_equal(tv->gsb[3].dur_us, 0);   /* the last step: HTA leaves it out */
    viewdata_free(v);
    q.selected = 1;                            /* algo-2: no rank */
    v = viewdata_build(m, &q, NULL, 0);
    tv = viewdata_answer(v, &tlview_query);
    assert_string_equal(tv->node, "algo-2");
    assert_int_equal(tv->nsb, 4);
    assert_false(tv->has_gpu);
    assert_null(tv->gsb);
    viewdata_free(v);
    model_free(m);
}

/* The System pane charts a rank's [memory] when its node's system
 * metrics have no GPU memory, and only then. */
static void test_system_memory_chart(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    for (int s = 0; s < 4; s++) {
        sm_event e = {.node = sm_str_c("algo-1"), .phase = sm_str_c("Step:ModeKeys.TRAIN"),
                      .name = sm_str_c("ProfilerStep#"), .start_us = BASE * 1000000 + s * 1000,
                      .dur_us = 1000, .step = s, .pid = 1, .tid = 1,
                      .process = sm_str_c("rank 0")};
        assert_int_equal(model_add_event(m, &e), 0);
        fx_step(m, "algo-2", s, BASE * 1000000 + s * 1000, 1000);
    }
    fx_sample(m, "algo-2", "gpu", "GPUMemoryUtilization", "gpu0", BASE * 1000000, 30);
    model_flush(m, 1);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 0, 50));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(BASE, 4, 0, 50));
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.live = 0;
    q.end_us = BASE * 1000000 + 4000;
    q.span_us = 8000;
    sysview_params sp = {.bins = 8, .count = 10};
    assert_int_equal(viewdata_ask_for(&q, &sysview_query, &sp, sizeof sp), 0);
    viewdata *v = viewdata_build(m, &q, NULL, 0);
    assert_int_equal(viewdata_gpu_ranks(v), 2);
    assert_true(viewdata_gpu_memory(v));
    const sysview *sv = viewdata_answer(v, &sysview_query);
    assert_int_equal(sysview_node_count(sv), 2);
    const sysview_node *n1 = sysview_node_at(sv, 0);
    assert_string_equal(n1->id, "algo-1");
    assert_int_equal(n1->count, 1);
    const sysview_chart *c = sysview_chart_at(sv, n1->first);
    assert_string_equal(c->m.label, "gmem rank 0");
    assert_int_equal(c->m.kind, SYSVIEW_GPUMEM);
    assert_true(c->m.percent);
    assert_int_equal(c->nbins, 8);
    assert_true(isnan(c->vals[0]));          /* before the first event */
    assert_true(fabs(c->vals[7] - 50) < 1e-6);
    assert_true(c->have_cur && fabs(c->cur - 50) < 1e-6);
    const sysview_node *n2 = sysview_node_at(sv, 1);
    for (size_t j = 0; j < n2->count; j++)   /* algo-2 has its system GPU memory */
        assert_string_not_equal(sysview_chart_at(sv, n2->first + j)->m.label, "gmem rank 1");
    viewdata_free(v);
    model_free(m);
}

/* Top follows the request's window (issue 32 point 5): the rows of the
 * steps that start in it, the whole job (every kept step) when it holds
 * all of them. kb_host_bound's steps start at 0, 1000, 2000 µs from BASE;
 * the last (3000) is not kept. */
static const gpuview_top *top_src_in(const model *m, gpuview_src src, int64_t t0, int64_t t1,
                                     viewdata **v)
{
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.end_us = BASE * 1000000 + t1;
    q.span_us = t1 - t0;
    gpuview_top_params tp;
    memset(&tp, 0, sizeof tp);
    tp.src = src;
    assert_int_equal(viewdata_ask_for(&q, &gpuview_top_query, &tp, sizeof tp), 0);
    *v = viewdata_build(m, &q, NULL, 0);
    assert_non_null(*v);
    const gpuview_top *t = viewdata_answer(*v, &gpuview_top_query);
    assert_non_null(t);
    return t;
}

static const gpuview_top *top_in(const model *m, int64_t t0, int64_t t1, viewdata **v)
{
    return top_src_in(m, GPUVIEW_KERNELS, t0, t1, v);
}

static void test_top_window(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 1, 0));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(BASE, 4, 0, 0));
    viewdata *v;
    const gpuview_top *t = top_in(m, 1000, 3000, &v);   /* steps 1 and 2 */
    assert_true(t->windowed);
    assert_int_equal(t->t0_us, BASE * 1000000 + 1000);
    assert_int_equal(t->t1_us, BASE * 1000000 + 3000);
    assert_int_equal(t->ranks, 2);
    assert_string_equal(t->rows[0].name, "sm90_gemm");
    assert_int_equal(t->rows[0].count, 36);              /* 9 x 2 steps x 2 ranks */
    assert_int_equal(t->rows[0].sum_us, 360);
    assert_int_equal(t->rows[1].count, 2);               /* the all-reduce: rank 0 */
    viewdata_free(v);
    t = top_in(m, 1500, 2500, &v);                       /* step 2 starts in it */
    assert_true(t->windowed);
    assert_int_equal(t->rows[0].count, 18);
    viewdata_free(v);
    t = top_in(m, 5000, 9000, &v);                       /* no step */
    assert_true(t->windowed);
    assert_int_equal(t->total, 0);
    viewdata_free(v);
    t = top_in(m, -1000, 9000, &v);                      /* all: the whole job */
    assert_false(t->windowed);
    assert_int_equal(t->rows[0].count, 54);
    viewdata_free(v);
    model_free(m);
}

/* The sum over every rank of what the rank's own window [t0, t1) says,
 * straight from gpu_rank_window: the idle time the causes are shares of,
 * one cause's overlap (by kind and name), the path's length and class. */
typedef struct rank_sums {
    int64_t attr_idle_us, idle_us, span_us, path_us, cpu_us, cause_us;
} rank_sums;

static rank_sums sum_ranks(const model *m, int64_t t0, int64_t t1, const char *kind,
                           const char *name)
{
    rank_sums r = {0};
    gpu_window *w = gpu_window_new();
    for (size_t i = 0; i < model_gpu_count(m); i++) {
        assert_int_equal(gpu_rank_window(model_gpu_at(m, i)->gpu, t0, t1, w), 0);
        const gpu_summary *s = gpu_window_summary(w);
        r.attr_idle_us += s->idle_attr.idle_us;
        r.idle_us += s->idle_us;
        r.span_us += s->span_us;
        r.path_us += s->critical_path.path_us;
        r.cpu_us += s->critical_path.bound_us[GPU_BOUND_CPU];
        for (size_t k = 0; k < s->idle_attr.n_causes; k++) {
            const gpu_idle_cause *c = &s->idle_attr.causes[k];
            if (!strcmp(gpu_idle_kind_name(c->kind), kind) && c->len == strlen(name) &&
                !memcmp(c->name, name, c->len))
                r.cause_us += c->overlap_us;
        }
    }
    gpu_window_free(w);
    return r;
}

/* Top's "GPU idle: host" and "critical path" (issue 32 point 5): over a
 * window they are the ranks' own windows summed, their rows merged by
 * kind and name; over every step, the ranks' whole summaries. */
static void test_top_idle_and_path(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    merge(m, "algo-1", "rank 0", 0, kb_host_bound(BASE, 4, 1, 0));
    merge(m, "algo-2", "rank 1", 1, kb_host_bound(BASE, 4, 0, 0));
    const int64_t b = BASE * 1000000;
    const int64_t win[3][2] = {{1000, 3000}, {1500, 2500}, {-1000, 9000}};
    for (int i = 0; i < 3; i++) {
        viewdata *v;
        const gpuview_top *t = top_src_in(m, GPUVIEW_IDLE, win[i][0], win[i][1], &v);
        assert_true(t->n > 0);
        assert_int_equal(t->ranks, 2);
        assert_int_equal(t->windowed, i < 2);
        assert_memory_equal(t->rows[0].name, "[", 1);
        /* the first row's kind and name, to find it in the ranks' rows */
        char kind[32];
        const char *close = strchr(t->rows[0].name, ']');
        assert_non_null(close);
        snprintf(kind, sizeof kind, "%.*s", (int)(close - t->rows[0].name - 1),
                 t->rows[0].name + 1);
        int64_t t0 = t->windowed ? b + win[i][0] : GPU_WINDOW_ALL;
        rank_sums r = sum_ranks(m, t0, b + win[i][1], kind, close + 2);
        assert_true(r.attr_idle_us > 0);
        assert_int_equal(t->all_us, r.attr_idle_us);
        assert_int_equal(t->idle_us, r.idle_us);
        assert_int_equal(t->span_us, r.span_us);
        assert_int_equal(t->rows[0].self_us, r.cause_us);
        assert_true(t->rows[0].self_us <= t->all_us);
        viewdata_free(v);
        t = top_src_in(m, GPUVIEW_CPATH, win[i][0], win[i][1], &v);
        assert_int_equal(t->all_us, r.path_us);
        assert_int_equal(t->path_us, r.path_us);
        assert_int_equal(t->bound_us[GPU_BOUND_CPU], r.cpu_us);
        assert_true(t->n > 0 && t->rows[0].self_us <= t->path_us);
        assert_string_equal(gpuview_sort_name(GPUVIEW_SORT_TIME, GPUVIEW_CPATH), "on path");
        viewdata_free(v);
    }
    /* the window of step 2 alone holds less idle time than steps 1-2 */
    viewdata *v1, *v2;
    const gpuview_top *one = top_src_in(m, GPUVIEW_IDLE, 1500, 2500, &v1);
    const gpuview_top *two = top_src_in(m, GPUVIEW_IDLE, 1000, 3000, &v2);
    assert_int_equal(one->steps, 2);       /* one step on each rank */
    assert_int_equal(two->steps, 4);
    assert_true(one->all_us < two->all_us);
    viewdata_free(v1);
    viewdata_free(v2);
    assert_string_equal(gpuview_src_name(GPUVIEW_IDLE), "GPU idle: host");
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_sum),
        cmocka_unit_test(test_steps_match),
        cmocka_unit_test(test_top),
        cmocka_unit_test(test_top_window),
        cmocka_unit_test(test_top_idle_and_path),
        cmocka_unit_test(test_memory_bins),
        cmocka_unit_test(test_timeline_gpu),
        cmocka_unit_test(test_system_memory_chart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
