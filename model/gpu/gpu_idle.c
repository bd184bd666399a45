/* gpu_idle: what the host did while the GPU waited, in one window
 * (gpu_idle.h). */
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/gpu/gpu_sort.h"

/* The GPU's idle intervals of the window and their running total, so that
 * the idle time inside any [a, b) is two searches. */
typedef struct idle_set {
    int64_t *lo, *hi, *before;  /* interval i; idle time before lo[i] */
    size_t n;
    int64_t total;
} idle_set;

static int idle_make(const gpu_idle_in *in, scratch *scr, idle_set *s)
{
    size_t cap = in->n_busy + 1;
    s->lo = scratch_take(scr, WRS_IDLE_LO, cap * sizeof *s->lo);
    s->hi = scratch_take(scr, WRS_IDLE_HI, cap * sizeof *s->hi);
    s->before = scratch_take(scr, WRS_IDLE_BEFORE, cap * sizeof *s->before);
    if (!s->lo || !s->hi || !s->before)
        return -1;
    int64_t at = in->t0;
    for (size_t i = 0; i <= in->n_busy && at < in->t1; i++) {
        int64_t b0 = i < in->n_busy ? in->busy[2 * i] : in->t1;
        int64_t b1 = i < in->n_busy ? in->busy[2 * i + 1] : in->t1;
        b0 = b0 < in->t1 ? b0 : in->t1;
        if (b0 > at) {
            s->lo[s->n] = at;
            s->hi[s->n] = b0;
            s->before[s->n] = s->total;
            s->total += b0 - at;
            s->n++;
        }
        at = b1 > at ? b1 : at;
    }
    return 0;
}

/* Idle time before t. *at: where the last search of this walk ended; a
 * thread's walk only moves forward in time, so the search gallops on
 * from there (two full binary searches per segment were a tenth of the
 * idle pass, callgrind on df_index_resolver), and starts over when t
 * went back. */
static int64_t idle_until(const idle_set *s, int64_t t, size_t *at)
{
    size_t lo = *at <= s->n && (*at == 0 || s->lo[*at - 1] < t) ? *at : 0, hi = lo;
    for (size_t step = 1; hi < s->n && s->lo[hi] < t; step *= 2) {
        lo = hi + 1;
        hi = lo + step;
    }
    hi = hi < s->n ? hi : s->n;
    while (lo < hi) {   /* the first interval starting at or after t */
        size_t mid = lo + (hi - lo) / 2;
        if (s->lo[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    if (lo == 0)
        return 0;
    size_t i = lo - 1;
    return s->before[i] + ((t < s->hi[i] ? t : s->hi[i]) - s->lo[i]);
}

static int64_t idle_in(const idle_set *s, int64_t a, int64_t b, size_t *at)
{
    if (b <= a)
        return 0;
    int64_t before = idle_until(s, a, at);
    return idle_until(s, b, at) - before;
}

/* What an event is, as a cause. */
static int kind_of(const gpu_cp_event *e, int gloo)
{
    if (e->flags & GPU_CF_DATALOAD)
        return GPU_IDLE_DATALOADER;
    if ((e->flags & GPU_CF_GLOO) || (gloo && (e->flags & GPU_CF_C10D)))
        return GPU_IDLE_COMM_HOST;
    switch (e->kind) {
    case GPU_CE_ANNOT:
        return GPU_IDLE_ANNOTATION;
    case GPU_CE_OP:
        return GPU_IDLE_CPU_OP;
    case GPU_CE_PY:
        return GPU_IDLE_PYTHON;
    case GPU_CE_SYNC:
        return GPU_IDLE_SYNC;
    default:
        return e->flags & GPU_CF_MEMCPY                       ? GPU_IDLE_MEMCPY
               : e->flags & (GPU_CF_SYNC | GPU_CF_BLOCKING) ? GPU_IDLE_SYNC
                                                              : GPU_IDLE_RUNTIME;
    }
}

static int table_of(int kind)
{
    return kind == GPU_CE_OP      ? GPU_NT_OP
           : kind == GPU_CE_PY    ? GPU_NT_PY
           : kind == GPU_CE_ANNOT ? GPU_NT_ANNOT
                                  : GPU_NT_RUNTIME;
}

static int host_event(const gpu_cp_event *e)
{
    return (e->kind == GPU_CE_OP || e->kind == GPU_CE_ANNOT || e->kind == GPU_CE_PY ||
            e->kind == GPU_CE_RUNTIME) &&
           !(e->flags & GPU_CF_STEP) && e->end > e->ts;
}

/* A credit: idle time given to a row. */
typedef struct credit {
    uint32_t name;
    uint8_t table, kind;
    uint32_t tix;               /* its tid's place among the window's (set_tid) */
    int64_t tid, us;
} credit;

#define CREDIT_KEY(A, B)                                                            \
    ((A).tid != (B).tid ? (A).tid < (B).tid                                         \
     : (A).table != (B).table ? (A).table < (B).table                               \
     : (A).kind != (B).kind ? (A).kind < (B).kind : (A).name < (B).name)
GPU_SORT_DEFINE(sort_credit_key, credit, CREDIT_KEY(A, B))
#define CREDIT_MORE(A, B) ((A).us > (B).us || ((A).us == (B).us && CREDIT_KEY(A, B)))
GPU_SORT_DEFINE(sort_credit_us, credit, CREDIT_MORE(A, B))

/* Host events of a thread in nesting order: by thread, start, the longer
 * first, file order. */
#define NEST_BEFORE(A, B)                                                           \
    ((A)->thread != (B)->thread ? (A)->thread < (B)->thread                         \
     : (A)->ts != (B)->ts ? (A)->ts < (B)->ts                                       \
     : (A)->end != (B)->end ? (A)->end > (B)->end : (A)->seq < (B)->seq)
typedef const gpu_cp_event *evp;
GPU_SORT_DEFINE(sort_nest, evp, NEST_BEFORE(A, B))
GPU_SORT_DEFINE(sort_by_ts, evp, A->ts < B->ts)

typedef struct frame {
    const gpu_cp_event *e;
    int64_t end;                /* clipped to its parent's */
    int kind;
    int cause;                  /* the nearest frame at or below that names a
                                   cause of its own (dataloader, comm_host); -1 */
} frame;

typedef struct walk {
    const idle_set *idle;
    scratch *s;                 /* c's buffer */
    credit *c;
    size_t n, cap;
    int64_t tid, busy;
    uint32_t tix;               /* tid's place among the window's tids */
    gpu_keymap tids;            /* tid -> its place + 1 (no table: none kept) */
    size_t at;                  /* idle_until's place */
    int gloo;
} walk;

static int give(walk *w, const gpu_cp_event *e, int kind, int64_t us)
{
    if (us <= 0)
        return 0;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 256;
        credit *c = scratch_grow(w->s, WRS_IDLE_CREDITS, cap * sizeof *c);
        if (!c)
            return -1;
        w->c = c;
        w->cap = cap;
    }
    w->c[w->n++] =
        (credit){e->name, (uint8_t)table_of(e->kind), (uint8_t)kind, w->tix, w->tid, us};
    return 0;
}

/* The segment [a, b) with the stack as it is: its idle time to the
 * innermost frame, and to the nearest cause enclosing it. */
static int segment(walk *w, const frame *st, size_t depth, int64_t a, int64_t b)
{
    if (!depth || b <= a)
        return 0;
    int64_t us = idle_in(w->idle, a, b, &w->at);
    if (us <= 0)
        return 0;
    const frame *top = &st[depth - 1];
    w->busy += us;
    if (give(w, top->e, top->kind, us) != 0)
        return -1;
    int c = depth >= 2 ? st[depth - 2].cause : -1;
    return c >= 0 ? give(w, st[c].e, st[c].kind, us) : 0;
}

static int named_cause(int kind)
{
    return kind == GPU_IDLE_DATALOADER || kind == GPU_IDLE_COMM_HOST;
}

/* One thread's events ev[lo, hi) (nesting order). */
static int walk_thread(walk *w, evp *ev, size_t lo, size_t hi, frame *st)
{
    size_t depth = 0;
    int64_t now = INT64_MIN;
    for (size_t i = lo; i <= hi; i++) {
        int64_t at = i < hi ? ev[i]->ts : INT64_MAX;
        while (depth && st[depth - 1].end <= at) {
            if (segment(w, st, depth, now, st[depth - 1].end) != 0)
                return -1;
            now = st[--depth].end;
        }
        if (i == hi)
            break;
        if (segment(w, st, depth, now, at) != 0)
            return -1;
        now = at;
        int64_t end = depth && ev[i]->end > st[depth - 1].end ? st[depth - 1].end : ev[i]->end;
        int kind = kind_of(ev[i], w->gloo);
        int below = depth ? st[depth - 1].cause : -1;
        st[depth] = (frame){ev[i], end, kind, named_cause(kind) ? (int)depth : below};
        depth++;
    }
    return 0;
}

/* The union of host communication in [w0, w1); *idle_us its part in the
 * GPU's idle time. gloo all-reduces on two threads at once: summing the
 * threads' rows would give more than the idle time. */
static int64_t host_comm(const gpu_idle_in *in, scratch *s, const idle_set *idle, evp *ev,
                         size_t n, int64_t *idle_us)
{
    *idle_us = 0;
    int64_t total = 0, at = INT64_MIN;
    size_t at_idle = 0;
    /* ev is by thread: a second pass by time over the comm events alone */
    evp *c = scratch_take(s, WRS_IDLE_COMM, n * sizeof *c);
    if (!c)
        return 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (kind_of(ev[i], in->gloo) == GPU_IDLE_COMM_HOST)
            c[m++] = ev[i];
    sort_by_ts_in(c, m, s);
    for (size_t i = 0; i < m; i++) {
        int64_t a = c[i]->ts > in->w0 ? c[i]->ts : in->w0;
        int64_t b = c[i]->end < in->w1 ? c[i]->end : in->w1;
        a = a > at ? a : at;
        if (b > a) {
            total += b - a;
            *idle_us += idle_in(idle, a, b, &at_idle);
            at = b;
        }
    }
    return total;
}

/* A credit's key as one word: the tid's place, the table, the kind, the
 * name (tables and kinds are under 8). */
#define CREDIT_WORD(C) \
    ((uint64_t)(C).tix << 38 | (uint64_t)(C).table << 35 | (uint64_t)(C).kind << 32 | (C).name)

/* Credits c[0..n) summed by key into c[0..m); returns m. Through a key
 * map when the window's tids have places (a window's credits are many,
 * their keys few: the sort of every credit was the idle pass's largest
 * cost), else by sorting. */
static size_t sum_credits(credit *c, size_t n, const walk *w, scratch *s)
{
    gpu_keymap map;
    size_t m = 0, i = 0;
    if (w->tids.slot && w->tids.len < 1u << 26 &&
        gpu_keymap_take_sums(&map, s, WRS_IDLE_MAP, n) == 0)
        for (; i < n && gpu_keymap_room(&map) == 0; i++) {
            size_t at = gpu_keymap_put(&map, CREDIT_WORD(c[i]), m);
            if (at < m)
                c[at].us += c[i].us;
            else
                c[m++] = c[i];
        }
    if (i == n)
        return m;
    /* no map (or out of memory): the sums so far and the rest by sorting */
    memmove(c + m, c + i, (n - i) * sizeof *c);
    n = m + n - i;
    sort_credit_key_in(c, n, s);
    m = 0;
    for (i = 0; i < n; i++) {
        if (m && !CREDIT_KEY(c[m - 1], c[i]) && !CREDIT_KEY(c[i], c[m - 1]))
            c[m - 1].us += c[i].us;
        else
            c[m++] = c[i];
    }
    return m;
}

/* Credits summed by row, the largest kept in out->rows, the rest in
 * other_us (their order is CREDIT_MORE's alone: summing first by sort or
 * by map gives the same rows). */
static void keep_rows(credit *c, size_t n, const walk *w, scratch *s, gpu_idle *out)
{
    size_t m = sum_credits(c, n, w, s);
    sort_credit_us_in(c, m, s);
    for (size_t i = 0; i < m; i++) {
        if (i < GPU_IDLE_ROWS)
            out->rows[out->n_rows++] =
                (gpu_idle_row){c[i].name, c[i].table, c[i].kind, c[i].tid, c[i].us};
        else
            out->other_us += c[i].us;
    }
}

/* w's tid, and its place among the window's tids (credits of one tid sum
 * whatever thread they came from, as CREDIT_KEY compares tids). Without
 * a map (out of memory) the places are not used. */
static void set_tid(walk *w, int64_t tid)
{
    w->tid = tid;
    if (!w->tids.slot)
        return;
    w->tix = (uint32_t)gpu_keymap_put(&w->tids, (uint64_t)tid, w->tids.len);
}

/* A thread's share into out->threads, the largest kept. */
static void add_thread(gpu_idle *out, int64_t tid, int64_t busy)
{
    if (busy <= 0)
        return;
    size_t i = out->n_threads;
    if (i == GPU_IDLE_ROWS) {
        if (busy <= out->threads[i - 1].busy_us)
            return;
        i--;
    } else {
        out->n_threads++;
    }
    while (i > 0 && out->threads[i - 1].busy_us < busy) {
        out->threads[i] = out->threads[i - 1];
        i--;
    }
    out->threads[i] = (gpu_idle_thread){tid, busy};
}

/* The run on s's buffers. */
static int idle_run(const gpu_idle_in *in, scratch *s, gpu_idle *out)
{
    idle_set idle = {0};
    evp *ev = scratch_take(s, WRS_IDLE_EV, in->n * sizeof *ev);
    frame *st = scratch_take(s, WRS_IDLE_STACK, in->n * sizeof *st);
    walk w = {&idle, s, NULL, 0, 0, 0, 0, 0, {NULL, 0, 0, NULL, 0}, 0, in->gloo};
    if (gpu_keymap_take(&w.tids, s, WRS_IDLE_TIDS, in->n_threads + 1) != 0)
        w.tids.slot = NULL;
    int rc = ev && st && idle_make(in, s, &idle) == 0 ? 0 : -1;
    size_t n = 0;
    for (size_t i = 0; rc == 0 && i < in->n; i++)
        if (host_event(&in->ev[i]))
            ev[n++] = &in->ev[i];
    if (rc == 0) {
        out->idle_us = idle.total;
        out->host_comm_us = host_comm(in, s, &idle, ev, n, &out->host_comm_idle_us);
        sort_nest_in(ev, n, s);
    }
    for (size_t lo = 0, hi; rc == 0 && lo < n; lo = hi) {
        for (hi = lo; hi < n && ev[hi]->thread == ev[lo]->thread; hi++)
            ;
        int64_t tid = ev[lo]->thread < in->n_threads ? in->tids[ev[lo]->thread] : -1;
        set_tid(&w, tid == SM_KEV_NONE ? -1 : tid);
        w.busy = 0;
        rc = walk_thread(&w, ev, lo, hi, st);
        add_thread(out, w.tid, w.busy);
    }
    for (size_t i = 0; rc == 0 && i < in->n; i++) {
        const gpu_cp_event *e = &in->ev[i];
        if (e->kind == GPU_CE_SYNC) {
            set_tid(&w, -1);
            rc = give(&w, e, GPU_IDLE_SYNC, idle_in(&idle, e->ts, e->end, &w.at));
        }
    }
    if (rc == 0)
        keep_rows(w.c, w.n, &w, s, out);
    return rc;
}

int gpu_idle_run(const gpu_idle_in *in, gpu_idle *out)
{
    memset(out, 0, sizeof *out);
    scratch *own = in->s ? NULL : scratch_new();
    int rc = in->s || own ? idle_run(in, in->s ? in->s : own, out) : -1;
    scratch_free(own);
    return rc;
}
