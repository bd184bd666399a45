/* Unit tests for model/gpu: each of HTA's definitions (gpu_trace.h) on a
 * small hand-built event list whose figures are worked out in the
 * comments, plus the rank's merge.
 *
 * Mutation audit (one definition broken at a time; which tests fail):
 *   kernel wait for a gap <= 30 (not < 30)   test_idle_categories;
 *                                             conformance: 2 kernel_wait
 *   the last ProfilerStep kept               test_last_step_left_out;
 *                                             conformance: 254 figures
 *   start rounded down (not up)              test_rounding; conformance: 37
 *   overlap divided by compute (not comm)    test_temporal_and_overlap,
 *                                             test_no_comm_is_nan,
 *                                             test_rank_merge_order;
 *                                             conformance: 8 overlap
 *   short kernel: row <= call (not <)        test_launch; conformance: 7
 *   graph launches counted                   test_launch; conformance: 3
 *   ^hip not COMMUNICATION                   test_kernel_type only (no
 *                                             sample has such a GPU row) */
#include <math.h>
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
#include "tests/unit/kineto_build.h"

/* µs (fractions allowed) as ns. */
static int64_t ns(double us)
{
    return (int64_t)llround(us * 1000);
}

/* An X event of cat at ts / dur in µs. */
static sm_kevent ev_x(uint8_t cat, const char *name, double ts_us, double dur_us)
{
    return kb_ev_ns(cat, name, ns(ts_us), ns(dur_us));
}

static void add(gpu_trace *t, sm_kevent e)
{
    assert_int_equal(kb_add(t, e), 0);
}

static void row(gpu_trace *t, const char *name, double ts, double dur, int64_t corr)
{
    assert_int_equal(kb_row_ns(t, name, ns(ts), ns(dur), corr), 0);
}

static void call(gpu_trace *t, const char *name, double ts, double dur, int64_t corr)
{
    assert_int_equal(kb_call_ns(t, name, ns(ts), ns(dur), corr), 0);
}

static void step(gpu_trace *t, int64_t n, double ts, double dur)
{
    assert_int_equal(kb_step_ns(t, n, ns(ts), ns(dur)), 0);
}

static void mem_event(gpu_trace *t, double ts, int64_t dev, int64_t alloc, int64_t res)
{
    assert_int_equal(kb_mem_ns(t, ns(ts), dev, alloc, res), 0);
}

/* A row with a count: a rank's tables also name rows with none (a window
 * of it may name them), which no top list shows. */
static int counted(const gpu_table *t, const char *name)
{
    const gpu_stat *s = gpu_table_find(t, name);
    return s && s->count > 0;
}

/* Ends t (no metadata), merges it into a fresh rank, frees t. */
static gpu_rank *rank_of(gpu_trace *t)
{
    assert_int_equal(gpu_trace_end(t, NULL), 0);
    gpu_rank *r = gpu_rank_new();
    assert_non_null(r);
    assert_int_equal(gpu_rank_merge(r, t), 0);
    gpu_trace_free(t);
    return r;
}

static void test_kernel_type(void **state)
{
    (void)state;
    assert_int_equal(gpu_kernel_type(sm_str_c("ncclKernel_AllReduce_RING_LL_Sum_float")),
                     GPU_KT_COMMUNICATION);
    assert_int_equal(gpu_kernel_type(sm_str_c("ncclDevKernel_SendRecv")), GPU_KT_COMMUNICATION);
    assert_int_equal(gpu_kernel_type(sm_str_c("void x<ncclKernel>")), GPU_KT_COMMUNICATION);
    assert_int_equal(gpu_kernel_type(sm_str_c("hccl_allreduce")), GPU_KT_COMMUNICATION);
    /* SPEC's ^hip comes before the memory names: hipMemcpy is not MEMORY */
    assert_int_equal(gpu_kernel_type(sm_str_c("hipMemcpyAsync")), GPU_KT_COMMUNICATION);
    assert_int_equal(gpu_kernel_type(sm_str_c("Memcpy HtoD (Pinned -> Device)")), GPU_KT_MEMORY);
    assert_int_equal(gpu_kernel_type(sm_str_c("Memset (Device)")), GPU_KT_MEMORY);
    assert_int_equal(gpu_kernel_type(sm_str_c("dma_copy")), GPU_KT_MEMORY);
    assert_int_equal(gpu_kernel_type(sm_str_c("void at::native::Memcpy_like")), GPU_KT_COMPUTATION);
    assert_int_equal(gpu_kernel_type(sm_str_c("Cijk_Ailk_Bjlk_SB")), GPU_KT_COMPUTATION);
    assert_string_equal(gpu_ktype_name(3), "COMPUTATION overlapping COMMUNICATION");
    assert_string_equal(gpu_ktype_name(0), "");
}

/* comp [0,100), comm [50,150), mem [140,200): comp alone 50, comp+comm 50,
 * comm alone 40, comm+mem 10, mem alone 50; a gap [200,260) then comp
 * [260,300). */
static void test_temporal_and_overlap(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    row(t, "gemm", 0, 100, 1);
    row(t, "ncclKernel_AllReduce", 50, 100, 2);
    row(t, "Memcpy DtoD", 140, 60, 3);
    row(t, "gemm", 260, 40, 4);
    gpu_rank *r = rank_of(t);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_true(s->has_gpu);
    assert_int_equal(s->span_us, 300);
    assert_int_equal(s->idle_us, 60);
    assert_int_equal(s->compute_us, 140);
    assert_int_equal(s->non_compute_us, 100);
    assert_true(fabs(s->idle_pct - 20.0) < 1e-9);
    assert_int_equal(s->ktype_us[1], 90);
    assert_int_equal(s->ktype_us[3], 50);
    assert_int_equal(s->ktype_us[2], 40);
    assert_int_equal(s->ktype_us[6], 10);
    assert_int_equal(s->ktype_us[4], 50);
    assert_int_equal(s->ktype_us[5] + s->ktype_us[7], 0);
    assert_true(s->has_comm);
    assert_true(fabs(s->comm_comp_overlap_pct - 50.0) < 1e-9);   /* 50 of 100 */
    const gpu_stat *k = gpu_table_find(gpu_rank_kernels(r), "gemm");
    assert_non_null(k);
    assert_int_equal(k->count, 2);
    assert_int_equal(k->sum_us, 140);
    assert_int_equal(k->max_us, 100);
    assert_int_equal(k->min_us, 40);
    gpu_rank_free(r);
}

static void test_no_comm_is_nan(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    row(t, "gemm", 0, 10, 1);
    gpu_rank *r = rank_of(t);
    assert_false(gpu_rank_summary(r)->has_comm);
    assert_true(isnan(gpu_rank_summary(r)->comm_comp_overlap_pct));
    gpu_rank_free(r);
}

/* Stream 7: k1 [0,10); k2 [15,20) launched at 2, before k1 ended, gap 5 <
 * 30: kernel wait; k3 [50,60) launched at 3, gap exactly 30: other (the
 * threshold is strict); k4 [200,210) launched at 150, after k3 ended:
 * host wait 140 although the gap is long; k5 [205,230) inside k4's time:
 * no negative gap. The same rows in file order, and reversed (then they
 * are sorted by stream and start first), give the same figures. */
static void idle_categories(int reversed)
{
    gpu_trace *t = gpu_trace_new(NULL);
    call(t, "cudaLaunchKernel", 0, 1, 1);
    call(t, "cudaLaunchKernel", 2, 1, 2);
    call(t, "cudaLaunchKernel", 3, 1, 3);
    call(t, "cudaLaunchKernel", 150, 1, 4);
    call(t, "cudaLaunchKernel", 151, 1, 5);
    const double rows[5][2] = {{0, 10}, {15, 5}, {50, 10}, {200, 10}, {205, 25}};
    for (int i = 0; i < 5; i++) {
        int j = reversed ? 4 - i : i;
        row(t, "k", rows[j][0], rows[j][1], j + 1);
    }
    gpu_rank *r = rank_of(t);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->n_streams, 1);
    assert_int_equal(s->streams[0].stream, 7);
    assert_int_equal(s->streams[0].kernel_wait_us, 5);
    assert_int_equal(s->streams[0].other_us, 30);
    assert_int_equal(s->streams[0].host_wait_us, 140);
    assert_int_equal(s->host_wait_us + s->kernel_wait_us + s->other_idle_us, 175);
    gpu_rank_free(r);
}

static void test_idle_categories(void **state)
{
    (void)state;
    idle_categories(0);
    idle_categories(1);
}

/* A row on stream `stream`. */
static void row_on(gpu_trace *t, double ts, double dur, int64_t corr, int64_t stream)
{
    sm_kevent e = kb_ev_ns(KCAT_KERNEL, "k", ns(ts), ns(dur));
    e.stream = stream;
    e.pid = 0;
    e.tid = stream;
    e.correlation = corr;
    add(t, e);
}

/* Two streams taking turns: stream 1 runs [0,10) and [100,110), stream 2
 * [50,60) and [150,160). Each stream idles 90 µs (180 summed), the rank
 * only [10,50), [60,100), [110,150): 120 of its 160 µs span. In the
 * rank's classes (issue 33: what the verdict reads) each gap goes by the
 * row that ends it: [10,50) ends at stream 2's row launched at 45, after
 * the GPU went idle (host wait 40); [60,100) at a row launched at 20
 * (other 40); [110,150) at one launched at 120 (host wait 40). They sum
 * to idle_us, never more; the streams' sums go on summing streams. The
 * rows in start order or not, the same. */
static void rank_idle_classes(int reversed)
{
    gpu_trace *t = gpu_trace_new(NULL);
    call(t, "cudaLaunchKernel", 0, 1, 1);
    call(t, "cudaLaunchKernel", 20, 1, 3);
    call(t, "cudaLaunchKernel", 45, 1, 2);
    call(t, "cudaLaunchKernel", 120, 1, 4);
    const double rows[4][3] = {{0, 1, 1}, {50, 2, 2}, {100, 3, 1}, {150, 4, 2}};
    for (int i = 0; i < 4; i++) {
        int j = reversed ? 3 - i : i;
        row_on(t, rows[j][0], 10, (int64_t)rows[j][1], (int64_t)rows[j][2]);
    }
    gpu_rank *r = rank_of(t);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->span_us, 160);
    assert_int_equal(s->idle_us, 120);
    assert_int_equal(s->host_wait_us + s->kernel_wait_us + s->other_idle_us, 180);
    assert_int_equal(s->idle_host_wait_us, 80);
    assert_int_equal(s->idle_kernel_wait_us, 0);
    assert_int_equal(s->idle_other_us, 40);
    assert_int_equal(s->idle_host_wait_us + s->idle_kernel_wait_us + s->idle_other_us,
                     s->idle_us);
    gpu_rank_free(r);
}

static void test_rank_idle_classes(void **state)
{
    (void)state;
    rank_idle_classes(0);
    rank_idle_classes(1);
}

/* Calls and their rows: delays 15, 40, -2 (the row started before its
 * call returned: 0 for the percentiles, -2 in HTA's mean), 150 (an
 * outlier); the 60 µs call is not short (> 50), the 10 µs calls whose row
 * is shorter are; a graph launch is not counted. */
static void test_launch(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    call(t, "cudaLaunchKernel", 0, 10, 1);
    row(t, "a", 25, 5, 1);              /* delay 15, short (5 < 10) */
    call(t, "cudaLaunchKernel", 100, 60, 2);
    row(t, "b", 200, 5, 2);             /* delay 40, call too long */
    call(t, "hipLaunchKernel", 300, 10, 3);
    row(t, "c", 308, 20, 3);            /* delay -2 -> 0, row longer: not short */
    call(t, "cuLaunchKernel", 400, 10, 4);
    row(t, "d", 560, 3, 4);             /* delay 150: outlier, short */
    call(t, "cudaGraphLaunch", 700, 10, 5);
    row(t, "e", 720, 3, 5);
    row(t, "f", 730, 3, 5);
    call(t, "cudaMemcpyAsync", 800, 4, 6);
    row(t, "g", 804, 4, 6);             /* as long as its call: not short */
    gpu_rank *r = rank_of(t);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->launch.count, 5);
    assert_int_equal(s->launch.short_kernels, 2);
    assert_int_equal(s->launch.delay_outliers, 1);
    assert_true(fabs(s->launch.delay_p50_us - 15) < 1e-9);      /* 0 0 15 40 150 */
    assert_true(fabs(s->launch.delay_p95_us - (40 + 0.8 * 110)) < 1e-9);
    /* the mean clamps each delay at 0 as HTA does (a -2 counts 0) */
    assert_true(fabs(s->launch.delay_mean_us - (15 + 40 + 0 + 150 + 0) / 5.0) < 1e-9);
    assert_true(fabs(s->launch.cpu_p50_us - 10) < 1e-9);        /* 4 10 10 10 60 */
    gpu_rank_free(r);
}

/* Steps #1 [0,1000) and #2 [1000,2000): #2 is left out, with the rows its
 * calls launched and the ops that start in it; a row with no call is left
 * out too. include_last_step keeps everything; a lone step is kept. */
static void fill_two_steps(gpu_trace *t)
{
    step(t, 2, 1000, 1000);   /* file order need not be time order */
    step(t, 1, 0, 1000);
    call(t, "cudaLaunchKernel", 10, 5, 1);
    call(t, "cudaLaunchKernel", 1010, 5, 2);
    row(t, "in_step1", 900, 200, 1);    /* runs into step 2: still kept */
    row(t, "in_step2", 1100, 50, 2);
    row(t, "orphan", 500, 10, 99);
    add(t, ev_x(KCAT_CPU_OP, "aten::mm", 20, 10));
    add(t, ev_x(KCAT_CPU_OP, "aten::mm", 1020, 10));
}

static void test_last_step_left_out(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    fill_two_steps(t);
    gpu_rank *r = rank_of(t);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->steps, 1);
    assert_int_equal(s->n_steps, 1);
    assert_int_equal(s->step_rows[0].step, 1);
    assert_int_equal(s->span_us, 200);
    assert_false(counted(gpu_rank_kernels(r), "in_step2"));   /* named, not counted */
    assert_false(counted(gpu_rank_kernels(r), "orphan"));
    assert_int_equal(gpu_table_find(gpu_rank_ops(r), "aten::mm")->count, 1);
    gpu_rank_free(r);

    gpu_trace_opts o = {.include_last_step = 1};
    t = gpu_trace_new(&o);
    fill_two_steps(t);
    r = rank_of(t);
    s = gpu_rank_summary(r);
    assert_int_equal(s->steps, 2);
    assert_int_equal(gpu_table_find(gpu_rank_kernels(r), "in_step2")->count, 1);
    assert_int_equal(gpu_table_find(gpu_rank_kernels(r), "orphan")->count, 1);
    assert_int_equal(gpu_table_find(gpu_rank_ops(r), "aten::mm")->count, 2);
    gpu_rank_free(r);

    t = gpu_trace_new(NULL);
    step(t, 7, 0, 100);
    row(t, "orphan", 50, 10, 99);
    r = rank_of(t);
    assert_int_equal(gpu_rank_summary(r)->steps, 1);
    assert_int_equal(gpu_rank_summary(r)->span_us, 10);
    gpu_rank_free(r);
}

/* The last step is found among CPU annotations only: a GPU-side copy of
 * ProfilerStep#2 (gpu_user_annotation), which starts later, moves nothing.
 * HTA f4d0062 would take the copy's start as the cutoff and keep the
 * kernel "late" (man page, DIFFERENCES FROM HTA). */
static void test_last_step_gpu_copy(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    fill_two_steps(t);
    sm_kevent copy = ev_x(KCAT_GPU_USER_ANNOTATION, "ProfilerStep#2", 1400, 500);
    copy.pid = 0;
    copy.tid = 7;
    add(t, copy);
    call(t, "cudaLaunchKernel", 1200, 5, 3);
    row(t, "late", 1300, 20, 3);            /* launched in step 2, before the copy */
    gpu_rank *r = rank_of(t);
    assert_int_equal(gpu_rank_summary(r)->steps, 1);
    assert_int_equal(gpu_rank_summary(r)->span_us, 200);
    assert_false(counted(gpu_rank_kernels(r), "late"));
    gpu_rank_free(r);
}

/* A row inside one microsecond lasts 0, where HTA's rounding gives it -1
 * and subtracts it from its kernel's sum (man page, DIFFERENCES FROM HTA):
 * "k" is [2, 5) and [7.2, 7.7), so its sum is 3, not 2. */
static void test_sub_us_row(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    row(t, "k", 2.0, 3.0, 1);
    row(t, "k", 7.2, 0.5, 2);
    gpu_rank *r = rank_of(t);
    const gpu_stat *k = gpu_table_find(gpu_rank_kernels(r), "k");
    assert_int_equal(k->count, 2);
    assert_int_equal(k->sum_us, 3);
    assert_int_equal(k->min_us, 0);
    gpu_rank_free(r);
}

/* Start up, end down: [0.4, 3.1) is [1, 3); [5.2, 5.7) is empty; an end
 * on a whole µs stays. */
static void test_rounding(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    row(t, "a", 0.4, 2.7, 1);
    row(t, "b", 5.2, 0.5, 2);
    row(t, "c", 6.0, 4.0, 3);
    gpu_rank *r = rank_of(t);
    assert_int_equal(gpu_table_find(gpu_rank_kernels(r), "a")->sum_us, 2);
    assert_int_equal(gpu_table_find(gpu_rank_kernels(r), "b")->sum_us, 0);
    assert_int_equal(gpu_table_find(gpu_rank_kernels(r), "c")->sum_us, 4);
    assert_int_equal(gpu_rank_summary(r)->span_us, 9);    /* [1, 10) */
    gpu_rank_free(r);
}

/* Self time: parent [0,100) with children [10,30) and [40,50), a grandchild
 * [12,20); an op on another thread does not nest; Python functions nest
 * among themselves only. */
static void test_self_time(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    add(t, ev_x(KCAT_CPU_OP, "parent", 0, 100));
    add(t, ev_x(KCAT_CPU_OP, "child", 10, 20));
    add(t, ev_x(KCAT_CPU_OP, "grandchild", 12, 8));
    add(t, ev_x(KCAT_CPU_OP, "child", 40, 10));
    sm_kevent other = ev_x(KCAT_CPU_OP, "other_thread", 5, 50);
    other.tid = 2;
    add(t, other);
    add(t, ev_x(KCAT_PYTHON_FUNCTION, "train.py(10): step", 0, 90));
    add(t, ev_x(KCAT_PYTHON_FUNCTION, "nn.Module: forward", 10, 30));
    gpu_rank *r = rank_of(t);
    const gpu_table *ops = gpu_rank_ops(r), *py = gpu_rank_python(r);
    assert_int_equal(gpu_table_find(ops, "parent")->self_us, 70);
    assert_int_equal(gpu_table_find(ops, "child")->self_us, 22);
    assert_int_equal(gpu_table_find(ops, "child")->sum_us, 30);
    assert_int_equal(gpu_table_find(ops, "grandchild")->self_us, 8);
    assert_int_equal(gpu_table_find(ops, "other_thread")->self_us, 50);
    assert_int_equal(gpu_table_find(py, "train.py(10): step")->self_us, 60);
    assert_null(gpu_table_find(ops, "train.py(10): step"));
    size_t n = 0;
    const gpu_stat **top = gpu_table_sorted(ops, 1, &n);
    assert_int_equal(n, 4);
    assert_string_equal(top[0]->name, "parent");
    assert_string_equal(top[1]->name, "other_thread");
    free(top);
    gpu_rank_free(r);
}

/* Self time of ops taken out of order and longer than 2^32 µs (kept
 * apart from the 16-byte rows): "outer" [0, 5e9) and "inner" [0, 4.5e9)
 * start together, so the longer is the parent whatever their order in the
 * file; "leaf" [10, 20) comes first in the file. */
static void test_self_time_wide_unsorted(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    add(t, ev_x(KCAT_CPU_OP, "leaf", 10, 10));
    add(t, ev_x(KCAT_CPU_OP, "inner", 0, 4.5e9));
    add(t, ev_x(KCAT_CPU_OP, "outer", 0, 5e9));
    add(t, ev_x(KCAT_CPU_OP, "late", 4.6e9, 1));
    gpu_rank *r = rank_of(t);
    const gpu_table *ops = gpu_rank_ops(r);
    assert_int_equal(gpu_table_find(ops, "outer")->sum_us, 5000000000LL);
    assert_int_equal(gpu_table_find(ops, "outer")->self_us, 500000000LL - 1);
    assert_int_equal(gpu_table_find(ops, "inner")->self_us, 4500000000LL - 10);
    assert_int_equal(gpu_table_find(ops, "leaf")->self_us, 10);
    assert_int_equal(gpu_table_find(ops, "late")->self_us, 1);
    gpu_rank_free(r);
}

/* Step [0,100): comp [10,30), comm [20,50), mem [45,70): compute 20,
 * communication 20 ([30,50)), memory 20 ([50,70)), idle 40. */
static void test_step_split(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    step(t, 3, 0, 100);
    row(t, "gemm", 10, 20, 1);
    row(t, "ncclKernel_x", 20, 30, 2);
    row(t, "Memset (Device)", 45, 25, 3);
    gpu_rank *r = rank_of(t);
    const gpu_step *s = &gpu_rank_summary(r)->step_rows[0];
    assert_int_equal(s->step, 3);
    assert_int_equal(s->compute_us, 20);
    assert_int_equal(s->comm_us, 20);
    assert_int_equal(s->memory_us, 20);
    assert_int_equal(s->idle_us, 40);
    gpu_rank_free(r);
}

/* Peaks per device, the host (-1) left out, OOMs counted, the series
 * thinned to GPU_MEM_POINTS per device with its peak kept. */
static void test_memory(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    for (int i = 0; i < 3 * GPU_MEM_POINTS; i++)
        mem_event(t, i, 0, i == 1234 ? 900 << 20 : 100 << 20, 1000 << 20);
    mem_event(t, 5, 1, 50 << 20, 60 << 20);
    mem_event(t, 6, -1, (int64_t)5000 << 20, (int64_t)5000 << 20);
    sm_kevent oom = ev_x(KCAT_OOM, "[OutOfMemory]", 7, 0);
    oom.ph = 'i';
    add(t, oom);
    gpu_rank *r = rank_of(t);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->memory.oom_events, 1);
    assert_true(fabs(s->memory.peak_allocated_mb - 900) < 1e-9);
    assert_true(fabs(s->memory.peak_reserved_mb - 1000) < 1e-9);
    assert_int_equal(s->memory.n_peaks, 2);
    assert_int_equal(s->memory.n_series, GPU_MEM_POINTS + 1);
    int64_t top = 0;
    for (size_t i = 0; i < s->memory.n_series; i++) {
        assert_true(i == 0 || s->memory.series[i - 1].t_us <= s->memory.series[i].t_us);
        top = s->memory.series[i].allocated > top ? s->memory.series[i].allocated : top;
    }
    assert_int_equal(top, 900 << 20);
    gpu_rank_free(r);
}

static gpu_trace *small_trace(int64_t base_s, int64_t step_n, const char *kernel)
{
    gpu_trace *t = gpu_trace_new(NULL);
    step(t, step_n, 0, 100);
    call(t, "cudaLaunchKernel", 1, 2, 1);
    row(t, kernel, 10, 20, 1);
    row(t, "ncclKernel_AllReduce", 20, 30, 1);
    mem_event(t, 5, 0, step_n << 20, 2 * step_n << 20);
    sm_kmeta m = kb_meta(base_s, 80LL << 30);
    m.rank = 0;
    assert_int_equal(gpu_trace_end(t, &m), 0);
    return t;
}

static void assert_same(const gpu_rank *a, const gpu_rank *b)
{
    const gpu_summary *x = gpu_rank_summary(a), *y = gpu_rank_summary(b);
    assert_int_equal(x->span_us, y->span_us);
    assert_memory_equal(x->ktype_us, y->ktype_us, sizeof x->ktype_us);
    assert_int_equal(x->n_steps, y->n_steps);
    assert_memory_equal(x->step_rows, y->step_rows, x->n_steps * sizeof *x->step_rows);
    assert_int_equal(x->memory.n_series, y->memory.n_series);
    assert_memory_equal(x->memory.series, y->memory.series,
                        x->memory.n_series * sizeof *x->memory.series);
    assert_true(x->launch.delay_p50_us == y->launch.delay_p50_us);
    size_t n1, n2;
    const gpu_stat **k1 = gpu_table_sorted(gpu_rank_kernels(a), 0, &n1);
    const gpu_stat **k2 = gpu_table_sorted(gpu_rank_kernels(b), 0, &n2);
    assert_int_equal(n1, n2);
    for (size_t i = 0; i < n1; i++) {
        assert_string_equal(k1[i]->name, k2[i]->name);
        assert_int_equal(k1[i]->sum_us, k2[i]->sum_us);
    }
    free(k1);
    free(k2);
}

/* Two traces merged in either order give the same rank; steps go to the
 * epoch clock (base 1000 s and 2000 s). */
static void test_rank_merge_order(void **state)
{
    (void)state;
    gpu_trace *a = small_trace(1000, 1, "gemm"), *b = small_trace(2000, 2, "conv");
    assert_int_equal(gpu_trace_start_us(a), 1000000000LL);
    gpu_rank *ab = gpu_rank_new(), *ba = gpu_rank_new();
    assert_int_equal(gpu_rank_merge(ab, a), 0);
    assert_int_equal(gpu_rank_merge(ab, b), 0);
    assert_int_equal(gpu_rank_merge(ba, b), 0);
    assert_int_equal(gpu_rank_merge(ba, a), 0);
    assert_same(ab, ba);
    const gpu_summary *s = gpu_rank_summary(ab);
    assert_int_equal(s->traces, 2);
    assert_int_equal(s->placed, 2);
    assert_int_equal(s->step_rows[0].start_us, 1000000000LL);
    assert_int_equal(s->step_rows[1].start_us, 2000000000LL);
    assert_int_equal(s->span_us, 80);
    assert_true(fabs(s->comm_comp_overlap_pct - 100.0 * 20 / 60) < 1e-9);
    assert_int_equal(s->memory.total_global_mem[0], 80LL << 30);
    assert_true(fabs(s->memory.peak_reserved_mb - 4) < 1e-9);
    gpu_rank_free(ab);
    gpu_rank_free(ba);
    gpu_trace_free(a);
    gpu_trace_free(b);
}

/* A CPU-only trace: no GPU figures, its steps and ops still there; an
 * unplaced trace has no epoch start; events after the end are refused. */
static void test_cpu_only_and_unplaced(void **state)
{
    (void)state;
    gpu_trace *t = gpu_trace_new(NULL);
    step(t, 551, 0, 100);
    add(t, ev_x(KCAT_CPU_OP, "gloo:all_reduce", 10, 50));
    assert_int_equal(gpu_trace_end(t, NULL), 0);
    assert_true(gpu_trace_start_us(t) == INT64_MIN);
    sm_kevent late = ev_x(KCAT_CPU_OP, "late", 1, 1);
    assert_int_equal(gpu_trace_add(t, &late), -1);
    gpu_rank *r = gpu_rank_new();
    assert_int_equal(gpu_rank_merge(r, t), 0);
    const gpu_summary *s = gpu_rank_summary(r);
    assert_false(s->has_gpu);
    assert_true(isnan(s->idle_pct));
    assert_true(isnan(s->launch.delay_p50_us));
    assert_int_equal(s->steps, 1);
    assert_int_equal(s->placed, 0);
    assert_int_equal(gpu_table_find(gpu_rank_ops(r), "gloo:all_reduce")->self_us, 50);
    gpu_rank_free(r);
    gpu_trace_free(t);
}

/* Random events, extreme times and ids included, through add, end and
 * merge: no crash, no sanitizer report, and the summary stays coherent
 * (the times add up). A fixed seed: the same run every time. */
static void test_random_events(void **state)
{
    (void)state;
    static const int64_t edge[] = {INT64_MIN + 1, INT64_MAX, -1, 0, 1, 999, 1001,
                                   (int64_t)1 << 62, -((int64_t)1 << 62) - 5};
    static const char *const names[] = {"ncclKernel_x", "Memcpy", "gemm", "", "hipLaunchKernel",
                                        "cudaGraphLaunch", "ProfilerStep#3", "[memory]"};
    uint64_t seed = 42;
    gpu_rank *r = gpu_rank_new();
    for (int trace = 0; trace < 20; trace++) {
        gpu_trace *t = gpu_trace_new(NULL);
        for (int i = 0; i < 500; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            uint64_t x = seed >> 11;
            sm_kevent e = ev_x((uint8_t)(x % KCAT_COUNT), names[(x >> 5) % 8], 0, 0);
            e.ph = "XiXsX"[(x >> 8) % 5];
            e.ts_ns = (x >> 12) % 7 == 0 ? edge[(x >> 16) % 9] : (int64_t)((x >> 20) % 100000000);
            e.dur_ns = (x >> 24) % 11 == 0 ? edge[(x >> 28) % 9] : (int64_t)((x >> 30) % 500000);
            e.correlation = (int64_t)((x >> 33) % 50);
            e.stream = (x >> 40) % 3 ? (int64_t)((x >> 41) % 4) : SM_KEV_NONE;
            e.step = (x >> 43) % 5 == 0 ? (int64_t)((x >> 45) % 4) : -1;
            e.mem_device = (int64_t)((x >> 47) % 3) - 1;
            e.mem_total_allocated = (int64_t)(x >> 20);
            e.mem_total_reserved = edge[(x >> 50) % 9];
            e.tid = (int64_t)((x >> 52) % 3);
            gpu_trace_add(t, &e);
        }
        sm_kmeta m;
        memset(&m, 0, sizeof m);
        m.has_base = trace % 2;
        m.base_ns = edge[trace % 9];
        m.n_devices = SM_KMETA_MAX_DEVICES + 5;   /* capped */
        assert_int_equal(gpu_trace_end(t, &m), 0);
        assert_int_equal(gpu_rank_merge(r, t), 0);
        gpu_trace_free(t);
    }
    const gpu_summary *s = gpu_rank_summary(r);
    assert_int_equal(s->traces, 20);
    assert_int_equal(s->span_us, s->idle_us + s->compute_us + s->non_compute_us);
    for (size_t i = 0; i < s->n_steps; i++)
        assert_int_equal(s->step_rows[i].dur_us, s->step_rows[i].compute_us +
                         s->step_rows[i].comm_us + s->step_rows[i].memory_us +
                         s->step_rows[i].idle_us);
    gpu_rank_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_type),
        cmocka_unit_test(test_temporal_and_overlap),
        cmocka_unit_test(test_no_comm_is_nan),
        cmocka_unit_test(test_idle_categories), cmocka_unit_test(test_rank_idle_classes),
        cmocka_unit_test(test_launch),
        cmocka_unit_test(test_last_step_left_out),
        cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_last_step_gpu_copy),
        cmocka_unit_test(test_sub_us_row),
        cmocka_unit_test(test_self_time),
        cmocka_unit_test(test_self_time_wide_unsorted),
        cmocka_unit_test(test_step_split),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_rank_merge_order),
        cmocka_unit_test(test_cpu_only_and_unplaced),
        cmocka_unit_test(test_random_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
