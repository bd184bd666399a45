/* gpu_trace: taking a trace's events into compact buffers, and the trace's
 * life cycle (see gpu_trace.h). The figures are computed in
 * gpu_trace_calc*.c at the end of the file. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/fnv.h"
#include "model/util/vec.h"

gpu_trace *gpu_trace_new(const gpu_trace_opts *o)
{
    gpu_trace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (o)
        t->o = *o;
    if (t->o.kernel_wait_us <= 0)
        t->o.kernel_wait_us = 30;
    if (t->o.short_call_us <= 0)
        t->o.short_call_us = 50;
    if (t->o.delay_outlier_us <= 0)
        t->o.delay_outlier_us = 100;
    t->first_ts_us = INT64_MAX;
    t->start_epoch_us = INT64_MIN;
    idmap_init(&t->group_map);
    gpu_acc_init(&t->res);
    return t;
}

static void free_buffers(gpu_trace *t)
{
    varbuf_free(&t->rlog);
    free(t->keep);
    t->keep = NULL;
    gpu_trace_calls_free(&t->calls);
    gpu_trace_free_ops(t);
    free(t->ksteps);
    varbuf_free(&t->mlog);
    free(t->mdev);
    t->ksteps = NULL;
    t->mdev = NULL;
    t->n_rows = 0;
    t->n_ksteps = t->cap_ksteps = 0;
    t->n_mev = t->n_mdev = t->cap_mdev = 0;
}

void gpu_trace_free(gpu_trace *t)
{
    if (!t)
        return;
    free_buffers(t);
    gpu_acc_free(&t->res);
    free(t);
}

/* Floor and ceiling of a / 1000 for any sign (ts may precede the base). */
static int64_t floor_us(int64_t ns)
{
    int64_t q = ns / 1000;
    return (ns % 1000 != 0 && ns < 0) ? q - 1 : q;
}

static int64_t ceil_us(int64_t ns)
{
    return -floor_us(-ns);
}

/* HTA's rounding: start up, end down, in float64 µs as HTA (pandas)
 * computes them. At an epoch-µs ts (1.7e15) a double holds quarter µs, so
 * start + dur is itself rounded before the floor and an end moves by up to
 * 1 µs against exact arithmetic: on ns_resolution that is 6 % of the idle
 * time, hence HTA's arithmetic rather than the exact one. Below 2^53 ns
 * (relative ts) both agree. An event that rounds to less than nothing is
 * empty, never negative (smtop). */
/* Times past ±2^62 ns (146 years around the trace's zero) are clamped
 * there, so no sum or difference of µs can overflow, whatever a file says. */
static int64_t clamp_ns(int64_t v)
{
    const int64_t lim = (int64_t)1 << 62;
    return v > lim ? lim : v < -lim ? -lim : v;
}

static void round_span(const sm_kevent *ev, int64_t *ts, int64_t *end)
{
    int64_t dur = ev->dur_ns > 0 ? clamp_ns(ev->dur_ns) : 0, at = clamp_ns(ev->ts_ns);
    int64_t whole = floor_us(at);
    double t = (double)whole + (double)(at - whole * 1000) / 1000.0;
    *ts = (int64_t)ceil(t);
    *end = (int64_t)floor(t + (double)dur / 1000.0);
    if (*end < *ts)
        *end = *ts;
}

static int has_prefix(sm_str s, const char *p)
{
    size_t n = strlen(p);
    return s.len >= n && memcmp(s.ptr, p, n) == 0;
}

static int contains(sm_str s, const char *p)
{
    size_t n = strlen(p);
    for (size_t i = 0; i + n <= s.len; i++)
        if (memcmp(s.ptr + i, p, n) == 0)
            return 1;
    return 0;
}

int gpu_kernel_type(sm_str name)
{
    if (has_prefix(name, "nccl") || has_prefix(name, "hip") ||
        has_prefix(name, "hccl") || contains(name, "ncclKernel"))
        return GPU_KT_COMMUNICATION;
    if (has_prefix(name, "Memcpy") || has_prefix(name, "hipMemcpy") ||
        has_prefix(name, "Memset") || has_prefix(name, "hipMemset") ||
        has_prefix(name, "dma"))
        return GPU_KT_MEMORY;
    return GPU_KT_COMPUTATION;
}

const char *gpu_ktype_name(int set)
{
    static const char *const names[8] = {
        "",
        "COMPUTATION",
        "COMMUNICATION",
        "COMPUTATION overlapping COMMUNICATION",
        "MEMORY",
        "COMPUTATION overlapping MEMORY",
        "COMMUNICATION overlapping MEMORY",
        "COMPUTATION overlapping COMMUNICATION overlapping MEMORY",
    };
    return set >= 1 && set <= 7 ? names[set] : "";
}

int gpu_trace_row_put(gpu_trace *t, const gpu_row *r)
{
    if (varbuf_reserve(&t->rlog, 50) != 0)
        return -1;
    (void)varbuf_put_signed(&t->rlog, varbuf_diff(r->ts, t->rlast.ts));
    (void)varbuf_put(&t->rlog, (uint64_t)(r->end - r->ts));
    (void)varbuf_put_signed(&t->rlog, varbuf_diff(r->corr, t->rlast.corr));
    (void)varbuf_put_signed(&t->rlog, r->stream);
    (void)varbuf_put(&t->rlog, r->name);
    t->rlast = *r;
    t->n_rows++;
    return 0;
}

void gpu_trace_row_next(const gpu_trace *t, size_t *pos, gpu_row *r)
{
    r->ts = varbuf_add(r->ts, varbuf_get_signed(&t->rlog, pos));
    r->end = r->ts + (int64_t)varbuf_get(&t->rlog, pos);
    r->corr = varbuf_add(r->corr, varbuf_get_signed(&t->rlog, pos));
    r->stream = varbuf_get_signed(&t->rlog, pos);
    r->name = (uint32_t)varbuf_get(&t->rlog, pos);
    r->type = (uint8_t)t->res.kernels.rows[r->name].type;
}

static int add_row(gpu_trace *t, const sm_kevent *ev)
{
    int64_t name = gpu_table_intern(&t->res.kernels, ev->name);
    if (name < 0 || name > (int64_t)UINT32_MAX)
        return -1;
    gpu_row r;
    round_span(ev, &r.ts, &r.end);
    r.corr = ev->correlation;
    /* a GPU event's tid is its stream when args.stream is missing */
    r.stream = ev->stream != SM_KEV_NONE ? ev->stream
             : ev->tid != SM_KEV_NONE ? ev->tid : -1;
    r.name = (uint32_t)name;
    /* One name, one type: classified when first seen (a kernel's name runs
     * to hundreds of bytes, and contains() reads them all). */
    r.type = t->res.kernels.rows[name].type;
    if (!r.type)
        r.type = (uint8_t)gpu_kernel_type(ev->name);
    t->res.kernels.rows[name].type = r.type;
    return gpu_trace_row_put(t, &r);
}

static int add_call(gpu_trace *t, const sm_kevent *ev)
{
    gpu_call c = {.corr = ev->correlation, .seq = (uint32_t)t->calls.n};
    round_span(ev, &c.ts, &c.end);
    c.kind = has_prefix(ev->name, "cudaGraphLaunch") ||
             has_prefix(ev->name, "hipGraphLaunch") ? GPU_CALL_GRAPH : GPU_CALL_LAUNCH;
    return gpu_trace_call_put(t, &c);
}

/* pid and tid, numeric or string, as one key: self times nest per thread. */
static uint64_t thread_key(const sm_kevent *ev)
{
    uint64_t h = fnv_add(FNV_SEED, &ev->pid, sizeof ev->pid);
    h = fnv_add(h, &ev->tid, sizeof ev->tid);
    h = fnv_add(h, ev->pid_str.ptr ? ev->pid_str.ptr : "", ev->pid_str.len);
    h = fnv_add(h, "/", 1);
    return fnv_add(h, ev->tid_str.ptr ? ev->tid_str.ptr : "", ev->tid_str.len);
}

static int add_op(gpu_trace *t, const sm_kevent *ev, int py)
{
    int64_t name = gpu_table_intern(py ? &t->res.py : &t->res.ops, ev->name);
    if (name < 0 || name >= (int64_t)UINT32_MAX)
        return -1;
    int64_t ts, end;
    round_span(ev, &ts, &end);
    return gpu_trace_add_op(t, ts, end, thread_key(ev), (uint32_t)name, py);
}

static int add_step(gpu_trace *t, const sm_kevent *ev)
{
    if (vec_grow(&t->ksteps, &t->cap_ksteps, t->n_ksteps + 1, sizeof *t->ksteps, 16) != 0)
        return -1;
    gpu_kstep *s = &t->ksteps[t->n_ksteps++];
    round_span(ev, &s->ts, &s->end);
    s->n = ev->step;
    return 0;
}

static int add_memory(gpu_trace *t, const sm_kevent *ev)
{
    if (ev->mem_device == SM_KEV_NONE || ev->mem_device < 0 ||
        (ev->mem_total_allocated == SM_KEV_NONE && ev->mem_total_reserved == SM_KEV_NONE))
        return 0;   /* the host's, or no totals: not GPU memory */
    gpu_mem_point p = {
        .t_us = ceil_us(clamp_ns(ev->ts_ns)),
        .device = ev->mem_device,
        .allocated = ev->mem_total_allocated == SM_KEV_NONE ? 0 : ev->mem_total_allocated,
        .reserved = ev->mem_total_reserved == SM_KEV_NONE ? 0 : ev->mem_total_reserved,
    };
    return gpu_trace_add_memory(t, &p);
}

int gpu_trace_add(gpu_trace *t, const sm_kevent *ev)
{
    if (t->ended)
        return -1;
    t->events++;
    if (ev->ts_ns == SM_KEV_NONE)
        return 0;
    int x = ev->ph == 'X';
    if ((x || ev->ph == 'i') && ceil_us(clamp_ns(ev->ts_ns)) < t->first_ts_us)
        t->first_ts_us = ceil_us(clamp_ns(ev->ts_ns));
    switch (ev->cat) {
    case KCAT_KERNEL:
    case KCAT_GPU_MEMCPY:
    case KCAT_GPU_MEMSET:
        return x ? add_row(t, ev) : 0;
    case KCAT_CUDA_RUNTIME:
    case KCAT_CUDA_DRIVER:
        return x && ev->correlation != SM_KEV_NONE ? add_call(t, ev) : 0;
    case KCAT_CPU_OP:
    case KCAT_PYTHON_FUNCTION:
        return x ? add_op(t, ev, ev->cat == KCAT_PYTHON_FUNCTION) : 0;
    case KCAT_USER_ANNOTATION:
        return x && ev->step >= 0 ? add_step(t, ev) : 0;
    case KCAT_MEMORY:
        return add_memory(t, ev);
    case KCAT_OOM:
        t->oom++;
        return 0;
    default:
        return 0;
    }
}

/* The trace clock's offset to the epoch in µs, or 0 with *placed = 0. */
static int64_t epoch_offset_us(const sm_kmeta *m, int *placed)
{
    *placed = 1;
    if (m && m->has_base)
        return floor_us(clamp_ns(m->base_ns));
    if (m && m->ts_epoch)
        return 0;
    *placed = 0;
    return 0;
}

static void shift_times(gpu_acc *a, int64_t off)
{
    for (size_t i = 0; i < a->n_steps; i++)
        a->steps[i].start_us += off;
    for (size_t i = 0; i < a->n_mem; i++)
        a->mem[i].t_us += off;
}

/* The backend's name, letters, digits, '_' and '-' only (what a terminal
 * may show as it is), cut to fit. */
static void copy_backend(char *dst, size_t cap, sm_str b)
{
    size_t n = 0;
    for (size_t i = 0; i < b.len && n + 1 < cap; i++) {
        char c = b.ptr[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-')
            dst[n++] = c;
    }
    dst[n] = 0;
}

int gpu_trace_end(gpu_trace *t, const sm_kmeta *meta)
{
    if (t->ended)
        return -1;
    t->ended = 1;
    /* the logs' slack grown by doubling goes before the end's scratch */
    varbuf_fit(&t->rlog);
    varbuf_fit(&t->calls.log);
    varbuf_fit(&t->mlog);
    gpu_trace_fit_ops(t);
    int rc = gpu_trace_calc(t);
    if (rc != 0) {
        gpu_acc_free(&t->res);
        gpu_acc_init(&t->res);
    }
    int placed;
    int64_t off = epoch_offset_us(meta, &placed);
    shift_times(&t->res, off);
    if (placed && t->first_ts_us != INT64_MAX)
        t->start_epoch_us = t->first_ts_us + off;
    t->res.traces = 1;
    t->res.placed = placed;
    t->res.oom = t->oom;
    if (meta) {
        t->res.n_dev = meta->n_devices < SM_KMETA_MAX_DEVICES ? meta->n_devices
                                                              : SM_KMETA_MAX_DEVICES;
        memcpy(t->res.tgm, meta->total_global_mem, t->res.n_dev * sizeof *t->res.tgm);
        copy_backend(t->res.backend, sizeof t->res.backend, meta->backend);
    }
    free_buffers(t);
    return rc;
}

int64_t gpu_trace_start_us(const gpu_trace *t)
{
    return t->start_epoch_us;
}

int64_t gpu_trace_events(const gpu_trace *t)
{
    return t->events;
}

int gpu_trace_rename(gpu_trace *t, gpu_table_name_fn fn, void *ud)
{
    gpu_table *tabs[] = {&t->res.kernels, &t->res.ops, &t->res.py, &t->res.annot, &t->res.rt};
    _Static_assert(sizeof tabs / sizeof *tabs == GPU_NT_N, "every name table of gpu_acc_names");
    for (size_t k = 0; k < GPU_NT_N; k++)
        if (gpu_table_rename(tabs[k], fn, ud) != 0)
            return -1;
    return 0;
}

size_t gpu_trace_memory_bytes(const gpu_trace *t)
{
    return sizeof *t + t->rlog.cap + gpu_trace_calls_bytes(t) +
           gpu_trace_ops_bytes(t) + t->cap_ksteps * sizeof *t->ksteps +
           t->mlog.cap + t->cap_mdev * sizeof *t->mdev + gpu_acc_memory_bytes(&t->res);
}
