/* kineto_build: hand-built PyTorch profiler traces for the tests of what
 * reads a rank (rules, views): sm_kevent records fed to gpu_trace as the
 * decoder would, with figures worked out by construction. Header-only,
 * static inline functions; include once per test program. Times in µs,
 * or in ns where a name ends in _ns. */
#ifndef SMTOP_TEST_KINETO_BUILD_H
#define SMTOP_TEST_KINETO_BUILD_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/gpu/gpu_trace.h"

/* An X event of cat at ts_ns / dur_ns on pid 1, tid 1, nothing else set. */
static inline sm_kevent kb_ev_ns(uint8_t cat, const char *name, int64_t ts_ns, int64_t dur_ns)
{
    sm_kevent e;
    memset(&e, 0, sizeof e);
    e.ph = 'X';
    e.cat = cat;
    e.name = sm_str_c(name);
    e.ts_ns = ts_ns;
    e.dur_ns = dur_ns;
    e.pid = 1;
    e.tid = 1;
    e.correlation = e.external_id = e.device = e.stream = SM_KEV_NONE;
    e.mem_bytes = e.mem_total_allocated = e.mem_total_reserved = e.mem_device = SM_KEV_NONE;
    e.msg_bytes = e.wait_stream = e.wait_corr = SM_KEV_NONE;
    e.step = -1;
    return e;
}

static inline sm_kevent kb_ev(uint8_t cat, const char *name, int64_t ts_us, int64_t dur_us)
{
    return kb_ev_ns(cat, name, ts_us * 1000, dur_us * 1000);
}

static inline int kb_add(gpu_trace *t, sm_kevent e)
{
    return gpu_trace_add(t, &e);
}

/* The kb_*_ns adders return gpu_trace_add's result. */

/* ProfilerStep#n over [ts, ts+dur). */
static inline int kb_step_ns(gpu_trace *t, int64_t n, int64_t ts_ns, int64_t dur_ns)
{
    char name[32];
    snprintf(name, sizeof name, "ProfilerStep#%lld", (long long)n);
    sm_kevent e = kb_ev_ns(KCAT_USER_ANNOTATION, name, ts_ns, dur_ns);
    e.step = n;
    return kb_add(t, e);
}

/* A CUDA runtime call (a launch: name "cudaLaunchKernel") of correlation corr. */
static inline int kb_call_ns(gpu_trace *t, const char *name, int64_t ts_ns, int64_t dur_ns,
                             int64_t corr)
{
    sm_kevent e = kb_ev_ns(KCAT_CUDA_RUNTIME, name, ts_ns, dur_ns);
    e.correlation = corr;
    return kb_add(t, e);
}

/* A GPU row on stream 7 launched by correlation corr. */
static inline int kb_row_ns(gpu_trace *t, const char *kernel, int64_t ts_ns, int64_t dur_ns,
                            int64_t corr)
{
    sm_kevent e = kb_ev_ns(KCAT_KERNEL, kernel, ts_ns, dur_ns);
    e.stream = 7;
    e.pid = 0;
    e.tid = 7;
    e.correlation = corr;
    return kb_add(t, e);
}

/* A [memory] instant: device dev's allocated and reserved bytes. */
static inline int kb_mem_ns(gpu_trace *t, int64_t ts_ns, int64_t dev, int64_t alloc, int64_t res)
{
    sm_kevent e = kb_ev_ns(KCAT_MEMORY, "[memory]", ts_ns, 0);
    e.ph = 'i';
    e.dur_ns = SM_KEV_NONE;
    e.mem_device = dev;
    e.mem_total_allocated = alloc;
    e.mem_total_reserved = res;
    return kb_add(t, e);
}

/* A trace's metadata: its clock base (epoch s), one device of total_mem
 * bytes, the rank unknown (-1). */
static inline sm_kmeta kb_meta(int64_t base_s, int64_t total_mem)
{
    sm_kmeta m;
    memset(&m, 0, sizeof m);
    m.has_base = 1;
    m.base_ns = base_s * 1000000000LL;
    m.n_devices = 1;
    m.total_global_mem[0] = total_mem;
    m.rank = -1;
    return m;
}

static inline void kb_step(gpu_trace *t, int64_t n, int64_t ts, int64_t dur)
{
    kb_step_ns(t, n, ts * 1000, dur * 1000);
}

/* A launch call [ts, ts+call) and its row [row_ts, row_ts+dur) on stream 7. */
static inline void kb_launch(gpu_trace *t, const char *kernel, int64_t ts, int64_t call,
                             int64_t row_ts, int64_t dur, int64_t corr)
{
    kb_call_ns(t, "cudaLaunchKernel", ts * 1000, call * 1000, corr);
    kb_row_ns(t, kernel, row_ts * 1000, dur * 1000, corr);
}

static inline void kb_op(gpu_trace *t, const char *name, int64_t ts, int64_t dur)
{
    kb_add(t, kb_ev(KCAT_CPU_OP, name, ts, dur));
}

static inline void kb_mem(gpu_trace *t, int64_t ts, int64_t dev, int64_t alloc, int64_t res)
{
    kb_mem_ns(t, ts * 1000, dev, alloc, res);
}

/* A host-bound rank: steps 0..n-1 of 1000 µs from base_s (epoch s); in each,
 * 10 launches 100 µs apart, each call 20 µs and its 10 µs kernel 5 µs after
 * it, so the GPU waits for the host ~90 % of the time and every kernel is
 * shorter than its call. Then a 70 µs all-reduce not overlapped per step
 * when comm, and a [memory] event per step reserving res_pct % of an
 * 80 GiB device. The last step is left out by the analysis (HTA). */
static inline gpu_trace *kb_host_bound(int64_t base_s, int n, int comm, double res_pct)
{
    gpu_trace *t = gpu_trace_new(NULL);
    int64_t corr = 1, total = 80LL << 30;
    for (int s = 0; s < n; s++) {
        int64_t t0 = (int64_t)s * 1000;
        kb_step(t, s, t0, 1000);
        kb_op(t, "aten::linear", t0 + 1, 990);
        for (int i = 0; i < 9; i++, corr++)
            kb_launch(t, "sm90_gemm", t0 + 10 + i * 100, 20, t0 + 35 + i * 100, 10, corr);
        if (comm)
            kb_launch(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", t0 + 850, 20, t0 + 860, 130,
                      corr++);
        if (res_pct > 0)
            kb_mem(t, t0 + 5, 0, (int64_t)(res_pct / 200 * (double)total),
                   (int64_t)(res_pct / 100 * (double)total));
    }
    sm_kmeta m = kb_meta(base_s, total);
    gpu_trace_end(t, &m);
    return t;
}

#endif
