/* gpu_trace_calc: a trace's GPU figures, computed once at the end of the
 * file from the buffers gpu_trace.c filled (definitions in gpu_trace.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/fnv.h"
#include "model/util/heap_sort.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

STABLE_SORT_DEFINE(sort_steps, gpu_kstep, A.ts < B.ts || (A.ts == B.ts && A.n < B.n))
STABLE_SORT_DEFINE(sort_by_stream, gpu_row,
                   A.stream < B.stream || (A.stream == B.stream && A.ts < B.ts))
STABLE_SORT_DEFINE(sort_by_start, gpu_row, A.ts < B.ts)

/* A boundary of a GPU row for the sweep, packed in 8 bytes so that the
 * edges of a large trace and their sort's scratch stay small: the time
 * (|t| < 2^54 µs, as times are clamped to 2^62 ns) offset by EDGE_OFF,
 * then a start bit, then the type's bit index. Sorted by the whole word:
 * the sweep does not depend on the order of the edges at one time. */
typedef uint64_t edge;
#define EDGE_OFF ((int64_t)1 << 54)

static edge edge_make(int64_t t, int start, int type)
{
    return ((uint64_t)(t + EDGE_OFF) << 3) | (start ? 4u : 0u) | (uint64_t)(type >> 1);
}

static int64_t edge_time(edge e)
{
    return (int64_t)(e >> 3) - EDGE_OFF;
}

/* In place: the edges are the end's largest scratch, and a merge sort's
 * copy would double them (their order is the whole word's, so stability
 * does not matter). */
HEAP_SORT_DEFINE(sort_edges, edge, A < B)

static void *alloc_n(size_t n, size_t elem)
{
    return malloc((n ? n : 1) * elem);
}

/* The rows in file order, those HTA keeps only: for (row_iter it = {0};
 * row_next(t, &it);) uses it.r. */
typedef struct row_iter {
    size_t pos, i;
    gpu_row r;
} row_iter;

static int row_next(const gpu_trace *t, row_iter *it)
{
    while (it->pos < t->rlog.n) {
        gpu_trace_row_next(t, &it->pos, &it->r);
        size_t i = it->i++;
        it->r.idx = i;
        if (!t->keep || (t->keep[i / 64] >> (i % 64) & 1))
            return 1;
    }
    return 0;
}

/* Marks the rows HTA keeps: all of them before any cutoff, else those
 * launched by a call that starts before it. 0 or -1 on OOM. */
static int keep_rows(gpu_trace *t, int64_t cutoff)
{
    t->n_kept = t->n_rows;
    if (cutoff == INT64_MAX)
        return 0;
    uint64_t *keep = calloc(t->n_rows / 64 + 1, sizeof *keep);
    if (!keep)
        return -1;
    size_t k = 0;
    for (row_iter it = {0}; row_next(t, &it);) {
        const gpu_call *c = gpu_trace_find_call(t, it.r.corr);
        if (c && c->ts < cutoff) {
            keep[(it.i - 1) / 64] |= (uint64_t)1 << ((it.i - 1) % 64);
            k++;
        }
    }
    t->keep = keep;
    t->n_kept = k;
    return 0;
}

/* Steps kept, each with its share of the sweep's segments (see
 * step_add_segment). */
typedef struct step_cursor {
    gpu_step *s;
    const gpu_kstep *k;
    size_t n, first;
} step_cursor;

/* Adds the segment [a, b) covered by the type set m to the steps it
 * overlaps: compute wins, then communication, then memory. Steps are
 * ProfilerSteps one after another, so a cursor moves forward only. */
static void step_add_segment(step_cursor *c, int64_t a, int64_t b, int m)
{
    while (c->first < c->n && c->k[c->first].end <= a)
        c->first++;
    for (size_t j = c->first; j < c->n && c->k[j].ts < b; j++) {
        int64_t lo = a > c->k[j].ts ? a : c->k[j].ts;
        int64_t hi = b < c->k[j].end ? b : c->k[j].end;
        if (hi <= lo)
            continue;
        if (m & GPU_KT_COMPUTATION)
            c->s[j].compute_us += hi - lo;
        else if (m & GPU_KT_COMMUNICATION)
            c->s[j].comm_us += hi - lo;
        else
            c->s[j].memory_us += hi - lo;
    }
}

/* The temporal and kernel-type breakdowns and the steps' split, in one
 * sweep over the rows' boundaries. */
static int sweep(gpu_trace *t, step_cursor *sc)
{
    gpu_acc *a = &t->res;
    size_t n = 2 * t->n_kept, i = 0;
    edge *e = alloc_n(n, sizeof *e);
    if (!e)
        return -1;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (row_iter it = {0}; row_next(t, &it); i += 2) {
        const gpu_row *r = &it.r;
        e[i] = edge_make(r->ts, 1, r->type);
        e[i + 1] = edge_make(r->end, 0, r->type);
        lo = r->ts < lo ? r->ts : lo;
        hi = r->end > hi ? r->end : hi;
    }
    sort_edges(e, n);
    int64_t live[8] = {0}, prev = 0, busy = 0;

    for (size_t i = 0; i < n; i++) {
        int m = (live[1] > 0 ? 1 : 0) | (live[2] > 0 ? 2 : 0) | (live[4] > 0 ? 4 : 0);
        int64_t at = edge_time(e[i]);
        if (i > 0 && m && at > prev) {
            int64_t len = at - prev;
            a->ktype_us[m] += len;
            busy += len;
            if (m & GPU_KT_COMPUTATION)
                a->compute_us += len;
            if (m & GPU_KT_COMMUNICATION)
                a->comm_us += len;
            if ((m & 3) == 3)
                a->comm_comp_us += len;
            step_add_segment(sc, prev, at, m);
        }
        live[1 << (e[i] & 3)] += e[i] & 4 ? 1 : -1;
        prev = at;
    }
    free(e);
    if (t->n_kept) {
        a->span_us = hi - lo;
        a->idle_us = a->span_us - busy;
    }
    return 0;
}

/* The gap before row r (its stream's previous row ended at prev_end) into
 * its category (see gpu_trace.h). */
static void add_gap(gpu_trace *t, const gpu_row *r, int64_t prev_end, int64_t *host,
                    int64_t *kernel, int64_t *other)
{
    int64_t gap = r->ts - prev_end;
    const gpu_call *c = gpu_trace_find_call(t, r->corr);
    int64_t *cat = c && c->ts > prev_end ? host : gap < t->o.kernel_wait_us ? kernel : other;
    *cat += gap > 0 ? gap : 0;
    int64_t w = gpu_trace_win_own(t, r->ts);
    if (w >= 0 && gap > 0) {
        gpu_wstate *x = &t->ws[w];
        *(cat == host ? &x->host_wait_us : cat == kernel ? &x->kernel_wait_us : &x->other_us) += gap;
    }
}

/* HTA's queue length on a stream (trace_counters.py): a launch of its
 * launch names adds one, the row's start takes one. Rows of one stream in
 * start order, in launch order as a stream runs them: after row k's
 * launch the queue is 1 when row k-1 had started by then; after row k's
 * start it is 0 when row k+1 was launched later. */
typedef struct queue_run {
    size_t prev;                /* the stream's last counted row, SIZE_MAX */
    int64_t prev_start;
} queue_run;

static void queue_step(gpu_trace *t, queue_run *q, const gpu_row *r)
{
    const gpu_call *c = gpu_trace_find_call(t, r->corr);
    if (!c || c->kind != GPU_CALL_HTA || !t->qbits)
        return;
    uint8_t b = GPU_CF_Q_KNOWN >> 9 | GPU_CF_Q_START >> 9;
    if (q->prev == SIZE_MAX || q->prev_start <= c->ts)
        b |= GPU_CF_Q_LAUNCH >> 9;
    if (q->prev != SIZE_MAX && c->ts <= q->prev_start)
        t->qbits[q->prev] &= (uint8_t)~(GPU_CF_Q_START >> 9);
    t->qbits[r->idx] = b;
    t->has_queue = 1;
    q->prev = r->idx;
    q->prev_start = r->ts;
}

static void windows_reset_waits(gpu_trace *t)
{
    for (size_t i = 0; i < t->res.n_wins; i++) {
        gpu_wstate *w = &t->ws[i];
        w->host_wait_us = w->kernel_wait_us = w->other_us = 0;
    }
    if (t->qbits)
        memset(t->qbits, 0, t->n_rows);
}

/* A stream's state while the rows are walked in file order. */
typedef struct stream_run {
    int64_t stream, last_ts, prev_end, host, kernel, other;
    queue_run q;
} stream_run;

typedef struct run_key {
    const stream_run *runs;
    int64_t stream;
} run_key;

static int run_eq(const void *item, const void *key)
{
    const run_key *k = key;
    return k->runs[(uintptr_t)item - 1].stream == k->stream;
}

typedef struct run_set {
    stream_run *runs;
    size_t n, cap;
    idmap map;                  /* stream hash -> index + 1 */
} run_set;

/* The run of r's stream, created (at r) when absent; NULL on OOM. */
static stream_run *run_of(run_set *rs, const gpu_row *r, int *fresh)
{
    uint64_t h = fnv_add(FNV_SEED, &r->stream, sizeof r->stream);
    run_key k = {rs->runs, r->stream};
    void *it = idmap_find(&rs->map, h, run_eq, &k);
    *fresh = !it;
    if (it)
        return &rs->runs[(uintptr_t)it - 1];
    if (vec_grow(&rs->runs, &rs->cap, rs->n + 1, sizeof *rs->runs, 8) != 0 ||
        idmap_put(&rs->map, h, (void *)(uintptr_t)(rs->n + 1)) != 0)
        return NULL;
    rs->runs[rs->n] = (stream_run){r->stream, r->ts, r->end, 0, 0, 0, {SIZE_MAX, 0}};
    return &rs->runs[rs->n++];
}

/* Idle per stream without sorting when every stream's rows came in start
 * order, as a stable sort by (stream, start) would leave them: 1 done, 0
 * not in order (nothing added), -1 on OOM. */
static int idle_in_file_order(gpu_trace *t)
{
    run_set rs = {0};
    idmap_init(&rs.map);
    int rc = 1;
    for (row_iter it = {0}; rc == 1 && row_next(t, &it);) {
        const gpu_row *r = &it.r;
        int fresh;
        stream_run *s = run_of(&rs, r, &fresh);
        if (!s)
            rc = -1;
        else if (!fresh && r->ts < s->last_ts)
            rc = 0;
        else if (!fresh) {
            add_gap(t, r, s->prev_end, &s->host, &s->kernel, &s->other);
            s->last_ts = r->ts;
            s->prev_end = r->end;
        }
        if (s && rc == 1)
            queue_step(t, &s->q, r);
    }
    for (size_t i = 0; i < rs.n && rc == 1; i++) {
        gpu_stream_idle *s = gpu_acc_stream(&t->res, rs.runs[i].stream);
        if (!s) {
            rc = -1;
            break;
        }
        s->host_wait_us += rs.runs[i].host;
        s->kernel_wait_us += rs.runs[i].kernel;
        s->other_us += rs.runs[i].other;
    }
    free(rs.runs);
    idmap_free(&rs.map);
    return rc;
}

/* Idle time per stream, rows in start order (HTA: the previous row's end,
 * not the latest end, so a row inside its predecessor leaves no gap). */
static int idle_per_stream(gpu_trace *t)
{
    int rc = idle_in_file_order(t);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    windows_reset_waits(t);
    gpu_row *rows = alloc_n(t->n_kept, sizeof *rows), *tmp = alloc_n(t->n_kept, sizeof *tmp);
    if (!rows || !tmp) {
        free(rows);
        free(tmp);
        return -1;
    }
    size_t n = 0;
    for (row_iter it = {0}; row_next(t, &it);)
        rows[n++] = it.r;
    sort_by_stream(rows, tmp, n);
    free(tmp);
    gpu_stream_idle *s = NULL;
    queue_run q = {SIZE_MAX, 0};
    for (size_t i = 0; i < n; i++) {
        const gpu_row *r = &rows[i];
        if (i == 0 || r->stream != rows[i - 1].stream) {
            if (!(s = gpu_acc_stream(&t->res, r->stream))) {
                free(rows);
                return -1;
            }
            q = (queue_run){SIZE_MAX, 0};
            queue_step(t, &q, r);
            continue;
        }
        queue_step(t, &q, r);
        add_gap(t, r, rows[i - 1].end, &s->host_wait_us, &s->kernel_wait_us, &s->other_us);
    }
    free(rows);
    return 0;
}

/* One gap of the rank's union of rows, [idle_from, r's start), into its
 * class by r, the row that ends it (see rank_idle). */
static void rank_gap(gpu_trace *t, const gpu_row *r, int64_t idle_from)
{
    gpu_acc *a = &t->res;
    int64_t gap = r->ts - idle_from;
    const gpu_call *c = gpu_trace_find_call(t, r->corr);
    int64_t *cat = c && c->ts > idle_from ? &a->rank_host_us
                   : gap < t->o.kernel_wait_us ? &a->rank_kernel_us : &a->rank_other_us;
    *cat += gap;
}

/* The rank's idle time (the gaps of the union of its rows over every
 * stream: idle_us) in HTA's classes, each gap by the row that ends it:
 * host wait when its launch call began after the GPU went idle, kernel
 * wait when the gap is shorter than kernel_wait_us, else other. Unlike
 * the per-stream sums, the three add up to idle_us (gpu_trace.h). Rows
 * in start order: file order when it is, else a sorted copy. */
static int rank_idle(gpu_trace *t)
{
    int64_t prev = INT64_MIN;
    int ordered = 1;
    for (row_iter it = {0}; ordered && row_next(t, &it); prev = it.r.ts)
        ordered = it.r.ts >= prev;
    gpu_row *rows = NULL;
    size_t n = 0;
    if (!ordered) {
        gpu_row *tmp = alloc_n(t->n_kept, sizeof *tmp);
        rows = alloc_n(t->n_kept, sizeof *rows);
        if (!rows || !tmp) {
            free(rows);
            free(tmp);
            return -1;
        }
        for (row_iter it = {0}; row_next(t, &it);)
            rows[n++] = it.r;
        sort_by_start(rows, tmp, n);
        free(tmp);
    }
    int64_t end = INT64_MIN;
    row_iter it = {0};
    for (size_t i = 0; ordered ? row_next(t, &it) : i < n; i++) {
        const gpu_row *r = ordered ? &it.r : &rows[i];
        if (end != INT64_MIN && r->ts > end)
            rank_gap(t, r, end);
        end = r->end > end ? r->end : end;
    }
    free(rows);
    return 0;
}

static int new_quants(gpu_acc *a)
{
    if (a->delay)
        return 0;
    a->delay = quantile_new(GPU_LAUNCH_EXACT);
    a->cpu = quantile_new(GPU_LAUNCH_EXACT);
    a->gpu = quantile_new(GPU_LAUNCH_EXACT);
    return a->delay && a->cpu && a->gpu ? 0 : -1;
}

static int launch_stats(gpu_trace *t)
{
    gpu_acc *a = &t->res;
    for (row_iter it = {0}; row_next(t, &it);) {
        const gpu_row *r = &it.r;
        const gpu_call *c = gpu_trace_find_call(t, r->corr);
        if (!c || (c->kind != GPU_CALL_LAUNCH && c->kind != GPU_CALL_HTA))
            continue;
        if (new_quants(a) != 0)
            return -1;
        int64_t call = c->end - c->ts, row = r->end - r->ts, delay = r->ts - c->end;
        if (quantile_add(a->delay, (double)(delay > 0 ? delay : 0)) != 0 ||
            quantile_add(a->cpu, (double)call) != 0 || quantile_add(a->gpu, (double)row) != 0)
            return -1;
        a->launches++;
        a->delay_sum_us += delay > 0 ? delay : 0;
        a->short_kernels += call <= t->o.short_call_us && row < call;
        a->outliers += delay > t->o.delay_outlier_us;
        int64_t w = gpu_trace_win_own(t, r->ts);
        if (w >= 0) {
            gpu_wstate *x = &t->ws[w];
            x->launches++;
            x->delay_sum_us += delay > 0 ? delay : 0;
            x->short_kernels += call <= t->o.short_call_us && row < call;
            x->outliers += delay > t->o.delay_outlier_us;
        }
    }
    return 0;
}

static void count_kernels(gpu_trace *t)
{
    for (row_iter it = {0}; row_next(t, &it);) {
        int64_t d = it.r.end - it.r.ts;
        gpu_table_count(&t->res.kernels, it.r.name, d, d);
    }
}

/* Sorts the steps and returns the cutoff: the last step's start when it is
 * left out, else INT64_MAX. */
static int64_t steps_cutoff(gpu_trace *t)
{
    gpu_kstep *tmp = alloc_n(t->n_ksteps, sizeof *tmp);
    if (!tmp)
        return INT64_MIN;
    sort_steps(t->ksteps, tmp, t->n_ksteps);
    free(tmp);
    if (t->o.include_last_step || t->n_ksteps < 2)
        return INT64_MAX;
    return t->ksteps[t->n_ksteps - 1].ts;
}

static int kept_steps(gpu_trace *t, int64_t cutoff, step_cursor *sc)
{
    size_t n = 0;
    while (n < t->n_ksteps && t->ksteps[n].ts < cutoff)
        n++;
    gpu_acc *a = &t->res;
    a->steps = calloc(n ? n : 1, sizeof *a->steps);
    if (!a->steps)
        return -1;
    a->n_steps = a->cap_steps = n;
    a->n_kept_steps = (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        a->steps[i].step = t->ksteps[i].n;
        a->steps[i].start_us = t->ksteps[i].ts;
        a->steps[i].dur_us = t->ksteps[i].end - t->ksteps[i].ts;
    }
    *sc = (step_cursor){a->steps, t->ksteps, n, 0};
    return 0;
}

/* Every kept row into the windows it belongs to (by its launch for the
 * critical path, by its start for the tables). */
static int rows_to_windows(gpu_trace *t)
{
    t->span_lo = INT64_MAX;
    t->span_hi = INT64_MIN;
    for (row_iter it = {0}; row_next(t, &it);) {
        t->span_lo = it.r.ts < t->span_lo ? it.r.ts : t->span_lo;
        t->span_hi = it.r.end > t->span_hi ? it.r.end : t->span_hi;
        if (gpu_trace_win_row(t, &it.r, gpu_trace_find_call(t, it.r.corr)) != 0)
            return -1;
    }
    if (gpu_trace_win_rows_end(t) != 0)
        return -1;
    for (size_t i = 0; i < t->res.n_wins; i++)
        varbuf_fit(&t->ws[i].rows);
    return 0;
}

int gpu_trace_calc(gpu_trace *t)
{
    int64_t cutoff = steps_cutoff(t);
    if (cutoff == INT64_MIN)
        return -1;
    t->cutoff_us = cutoff;
    /* A trace's peak memory is at its end: each log is freed once read,
     * [memory]'s first (it needs only the cutoff), so the calls' merge and
     * the sweep's edges do not stack on it. The host events' groups stay
     * to the end: the windows read them last. */
    if (gpu_trace_calc_ops(t, cutoff) != 0 || gpu_trace_calc_memory(t) != 0 ||
        gpu_trace_calls_ready(t) != 0)
        return -1;
    step_cursor sc;
    if (keep_rows(t, cutoff) != 0 || kept_steps(t, cutoff, &sc) != 0 ||
        gpu_trace_wins_make(t, cutoff) != 0)
        return -1;
    t->res.gpu_rows = (int64_t)t->n_kept;
    t->qbits = calloc(t->n_rows ? t->n_rows : 1, 1);
    if (!t->qbits)
        return -1;
    count_kernels(t);
    if (launch_stats(t) != 0 || idle_per_stream(t) != 0 || rank_idle(t) != 0 ||
        rows_to_windows(t) != 0)
        return -1;
    /* done with the calls; the windows next (they free the host events'
     * groups and their rows), then the sweep's edges, so that neither
     * stacks on the other */
    gpu_trace_calls_free(&t->calls);
    free(t->qbits);
    t->qbits = NULL;
    if (gpu_trace_wins_run(t) != 0)
        return -1;
    gpu_trace_free_ops(t);
    if (sweep(t, &sc) != 0)
        return -1;
    for (size_t i = 0; i < sc.n; i++) {
        gpu_step *s = &sc.s[i];
        s->idle_us = s->dur_us - s->compute_us - s->comm_us - s->memory_us;
    }
    varbuf_free(&t->rlog);
    free(t->keep);
    t->keep = NULL;
    t->n_rows = t->n_kept = 0;
    return 0;
}
