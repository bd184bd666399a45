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
    t->last_end_us = INT64_MIN;
    t->start_epoch_us = INT64_MIN;
    idmap_init(&t->group_map);
    idmap_init(&t->thread_map);
    idmap_init(&t->glast_map);
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
    free(t->threads);
    free(t->syncs);
    free(t->qbits);
    free(t->rt_flags);
    t->qbits = NULL;
    t->rt_flags = NULL;
    t->n_rt_flags = t->cap_rt_flags = 0;
    gpu_trace_wins_free(t);
    idmap_free(&t->thread_map);
    idmap_init(&t->thread_map);
    t->ksteps = NULL;
    t->mdev = NULL;
    t->threads = NULL;
    t->syncs = NULL;
    t->n_threads = t->cap_threads = t->n_syncs = t->cap_syncs = 0;
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
    if (varbuf_reserve(&t->rlog, 60) != 0)
        return -1;
    (void)varbuf_put_signed(&t->rlog, varbuf_diff(r->ts, t->rlast.ts));
    (void)varbuf_put(&t->rlog, (uint64_t)(r->end - r->ts));
    (void)varbuf_put_signed(&t->rlog, varbuf_diff(r->corr, t->rlast.corr));
    (void)varbuf_put_signed(&t->rlog, r->stream);
    (void)varbuf_put(&t->rlog, r->name);
    (void)varbuf_put(&t->rlog, (uint64_t)(r->seq - t->rlast.seq));
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
    r->seq += (int64_t)varbuf_get(&t->rlog, pos);
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
    r.seq = t->events;
    /* One name, one type: classified when first seen (a kernel's name runs
     * to hundreds of bytes, and contains() reads them all). */
    r.type = t->res.kernels.rows[name].type;
    if (!r.type)
        r.type = (uint8_t)gpu_kernel_type(ev->name);
    t->res.kernels.rows[name].type = r.type;
    return gpu_trace_row_put(t, &r);
}

/* A call with a correlation; flags: its name's (gpu_name_flags). */
static int add_call(gpu_trace *t, const sm_kevent *ev, uint32_t flags)
{
    gpu_call c = {.corr = ev->correlation, .seq = (uint32_t)t->calls.n};
    round_span(ev, &c.ts, &c.end);
    c.kind = has_prefix(ev->name, "cudaGraphLaunch") || has_prefix(ev->name, "hipGraphLaunch")
                 ? GPU_CALL_GRAPH
             : flags & GPU_CF_LAUNCH ? GPU_CALL_HTA
                                     : GPU_CALL_LAUNCH;
    return gpu_trace_call_put(t, &c);
}

/* The flags of runtime name row i, worked out once per name. */
static int rt_flags(gpu_trace *t, size_t i, uint32_t *out)
{
    if (i >= t->n_rt_flags) {
        size_t n = t->res.rt.n;
        if (vec_grow(&t->rt_flags, &t->cap_rt_flags, n, sizeof *t->rt_flags, 64) != 0)
            return -1;
        for (size_t k = t->n_rt_flags; k < n; k++) {
            const gpu_stat *st = &t->res.rt.rows[k];
            t->rt_flags[k] = gpu_name_flags(GPU_NT_RUNTIME, st->name, st->len);
        }
        t->n_rt_flags = n;
    }
    *out = t->rt_flags[i];
    return 0;
}

static gpu_table *cat_table(gpu_trace *t, int cat)
{
    return cat == GPU_CE_OP      ? &t->res.ops
           : cat == GPU_CE_PY    ? &t->res.py
           : cat == GPU_CE_ANNOT ? &t->res.annot
                                 : &t->res.rt;
}

/* A host event of category cat (GPU_CE_*): its thread's group. */
static int add_op(gpu_trace *t, const sm_kevent *ev, int cat)
{
    int64_t name = gpu_table_intern(cat_table(t, cat), ev->name);
    if (name < 0 || name >= (int64_t)UINT32_MAX)
        return -1;
    gpu_hop op = {.seq = t->events, .corr = SM_KEV_NONE, .name = (uint32_t)name};
    round_span(ev, &op.ts, &op.end);
    if (cat != GPU_CE_RUNTIME)
        return gpu_trace_add_op(t, &op, ev, cat);
    op.corr = ev->correlation;
    uint32_t flags;
    if (gpu_trace_add_op(t, &op, ev, cat) != 0 || rt_flags(t, (size_t)name, &flags) != 0)
        return -1;
    return op.corr != SM_KEV_NONE ? add_call(t, ev, flags) : 0;
}

static int sync_kind(sm_str name)
{
    static const char *const kinds[] = {"", "Stream Sync", "Context Sync", "Event Sync",
                                        "Stream Wait Event"};
    for (int k = GPU_SYNC_STREAM; k <= GPU_SYNC_WAIT; k++)
        if (name.len == strlen(kinds[k]) && !memcmp(name.ptr, kinds[k], name.len))
            return k;
    return GPU_SYNC_NONE;
}

/* A cuda_sync row: the host blocked in a sync call, on the stream it
 * waits for; kept whole (they are few). */
static int add_sync(gpu_trace *t, const sm_kevent *ev)
{
    int64_t name = gpu_table_intern(&t->res.rt, ev->name);
    if (name < 0 || name >= (int64_t)UINT32_MAX ||
        vec_grow(&t->syncs, &t->cap_syncs, t->n_syncs + 1, sizeof *t->syncs, 16) != 0)
        return -1;
    gpu_cp_event *e = &t->syncs[t->n_syncs++];
    memset(e, 0, sizeof *e);
    round_span(ev, &e->ts, &e->end);
    e->seq = t->events;
    e->corr = ev->correlation;
    e->stream = ev->stream != SM_KEV_NONE ? ev->stream : -1;
    e->wait_stream = ev->wait_stream != SM_KEV_NONE ? ev->wait_stream : -1;
    e->wait_corr = ev->wait_corr;
    e->name = (uint32_t)name;
    e->kind = GPU_CE_SYNC;
    e->sync = (uint8_t)sync_kind(ev->name);
    return 0;
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

/* A host event into its thread's group: 0 done (nothing more to do with
 * it), 1 not a host event, -1 on OOM. */
static int add_host(gpu_trace *t, const sm_kevent *ev, int x)
{
    if (!x)
        return 1;
    switch (ev->cat) {
    case KCAT_CPU_OP:
        return add_op(t, ev, GPU_CE_OP);
    case KCAT_PYTHON_FUNCTION:
        return add_op(t, ev, GPU_CE_PY);
    case KCAT_USER_ANNOTATION:
        return add_op(t, ev, GPU_CE_ANNOT) != 0 ? -1 : 1;   /* a step is one too */
    case KCAT_CUDA_RUNTIME:
    case KCAT_CUDA_DRIVER:
        return add_op(t, ev, GPU_CE_RUNTIME);   /* and its call */
    default:
        return 1;
    }
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
    if (x) {
        int64_t ts, end;
        round_span(ev, &ts, &end);
        t->last_end_us = end > t->last_end_us ? end : t->last_end_us;
    }
    int rc = add_host(t, ev, x);
    if (rc <= 0)
        return rc;
    switch (ev->cat) {
    case KCAT_KERNEL:
    case KCAT_GPU_MEMCPY:
    case KCAT_GPU_MEMSET:
        return x ? add_row(t, ev) : 0;
    case KCAT_USER_ANNOTATION:
        return x && ev->step >= 0 ? add_step(t, ev) : 0;
    case KCAT_CUDA_SYNC:
        return x ? add_sync(t, ev) : 0;
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
    for (size_t i = 0; i < a->n_wins; i++) {
        a->wins[i].start_us += off;
        a->wins[i].end_us += off;
    }
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
    if (meta)
        copy_backend(t->res.backend, sizeof t->res.backend, meta->backend);
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
        copy_backend(t->res.backend, sizeof t->res.backend, meta->backend);   /* kept after a failed calc */
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
           t->cap_threads * sizeof *t->threads + t->thread_map.cap * sizeof(idmap_slot) +
           t->cap_syncs * sizeof *t->syncs +
           t->mlog.cap + t->cap_mdev * sizeof *t->mdev + gpu_acc_memory_bytes(&t->res);
}
