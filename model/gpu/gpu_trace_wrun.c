/* gpu_trace_wrun: each analysed window of a trace at its end (after the
 * sweep): its events gathered (the host events from their groups, which
 * are in start order, by a cursor per group; its GPU rows from its state;
 * the syncs), its critical path (gpu_cpath.h), its idle causes
 * (gpu_idle.h) and its table rows, into the window's record and the acc's
 * wlog. One window's events are held at a time. */
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/gpu/gpu_sort.h"
#include "model/util/vec.h"

/* A group's place: the first event a later window may need. */
typedef struct gcur {
    size_t pos;
    gpu_hop last;               /* the event before pos (the deltas' base) */
} gcur;

/* A GPU row carried to later windows. */
typedef struct wspan {
    int64_t lo, hi;
    uint8_t type;
} wspan;

/* What the windows share while they run. */
typedef struct wrun {
    gpu_trace *t;
    int64_t cutoff;
    gcur *cur;                  /* per group */
    uint32_t *flags[GPU_NT_N];  /* gpu_name_flags of each table's rows */
    uint32_t *short_of[GPU_NT_N];  /* the first row of each row's shortened name */
    int64_t *pids, *tids;       /* per thread */
    gpu_cp_event *ev;           /* the window's events (part: GPU_WR_*) */
    size_t n, cap;
    wspan *carry;               /* rows of earlier windows running on */
    size_t n_carry, cap_carry;
    int has_queue, gloo;
    gpu_cpath_ws *cpw;          /* the critical path's buffers, window to window */
    scratch *s;                 /* the other passes' (WRS_*), window to window */
} wrun;

static int push(wrun *r, const gpu_cp_event *e, unsigned part)
{
    if (vec_grow(&r->ev, &r->cap, r->n + 1, sizeof *r->ev, 1024) != 0)
        return -1;
    r->ev[r->n] = *e;
    r->ev[r->n++].part = (uint8_t)part;
    return 0;
}

static int name_table(int cat)
{
    return cat == GPU_CE_OP      ? GPU_NT_OP
           : cat == GPU_CE_PY    ? GPU_NT_PY
           : cat == GPU_CE_ANNOT ? GPU_NT_ANNOT
           : cat == GPU_CE_ROW   ? GPU_NT_KERNEL
                                 : GPU_NT_RUNTIME;
}

/* A group's events of window i: graph [start, end] lasting more than 0 µs,
 * own [start, next). The cursor moves to the first event at or after the
 * next window's start. */
static int gather_group(wrun *r, size_t gi, int64_t start, int64_t end, int64_t next)
{
    const gpu_opgroup *g = &r->t->groups[gi];
    gcur *c = &r->cur[gi];
    int64_t stop = end > next - 1 ? end : next - 1;
    gcur keep = {SIZE_MAX, {0}};
    size_t pos = c->pos;
    gpu_hop op = c->last;
    while (pos < g->log.n) {
        gpu_hop before = op;
        size_t at = pos;
        gpu_trace_op_next(g, &pos, &op);
        if (keep.pos == SIZE_MAX && op.ts >= next)
            keep = (gcur){at, before};
        if (op.ts > stop || op.ts >= r->cutoff)
            break;
        if (op.ts < start)
            continue;
        unsigned part = (op.ts <= end && op.end > op.ts ? GPU_WR_GRAPH : 0) |
                        (op.ts < next ? GPU_WR_OWN : 0);
        if (!part)
            continue;
        gpu_cp_event e = {.ts = op.ts, .end = op.end, .seq = op.seq, .corr = op.corr,
                          .stream = -1, .wait_stream = -1, .wait_corr = SM_KEV_NONE,
                          .thread = g->ti, .name = op.name, .kind = g->cat};
        e.flags = r->flags[name_table(g->cat)][op.name];
        if (push(r, &e, part) != 0)
            return -1;
    }
    if (keep.pos == SIZE_MAX)
        keep = (gcur){pos, op};
    *c = keep;
    return 0;
}

/* The window's GPU rows from its state (then freed). */
static int gather_rows(wrun *r, size_t i)
{
    gpu_wstate *s = &r->t->ws[i];
    int64_t start = r->t->res.wins[i].start_us, corr = 0, seq = 0;
    for (size_t pos = 0; pos < s->rows.n;) {
        unsigned f = (unsigned)varbuf_get(&s->rows, &pos);
        gpu_cp_event e = {.wait_stream = -1, .wait_corr = SM_KEV_NONE, .kind = GPU_CE_ROW};
        e.ts = start + varbuf_get_signed(&s->rows, &pos);
        e.end = e.ts + (int64_t)varbuf_get(&s->rows, &pos);
        e.name = (uint32_t)varbuf_get(&s->rows, &pos);
        e.stream = varbuf_get_signed(&s->rows, &pos);
        corr = varbuf_add(corr, varbuf_get_signed(&s->rows, &pos));
        seq = varbuf_add(seq, varbuf_get_signed(&s->rows, &pos));
        e.corr = corr;
        e.seq = seq;
        e.flags = r->flags[GPU_NT_KERNEL][e.name] | (uint32_t)(f >> 3) << 9;
        if (push(r, &e, f & 7) != 0)
            return -1;
    }
    varbuf_free(&s->rows);
    return 0;
}

static int64_t find_pair(const int64_t *p, size_t n, int64_t k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[2 * mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && p[2 * lo] == k ? p[2 * lo + 1] : -1;
}

/* The syncs of the window: one on a stream when its call is in the graph,
 * an Event or Context Sync (stream -1) when it starts in [start, end];
 * owned by its start. */
static int gather_syncs(wrun *r, int64_t start, int64_t end, int64_t next)
{
    const gpu_trace *t = r->t;
    size_t n = 0, m = r->n;
    for (size_t i = 0; i < m; i++)
        n += r->ev[i].kind == GPU_CE_RUNTIME && (r->ev[i].part & GPU_WR_GRAPH) &&
             r->ev[i].corr != SM_KEV_NONE;
    int64_t *calls = scratch_take(r->s, WRS_CALLS, n * 2 * sizeof *calls);
    if (!calls)
        return -1;
    for (size_t i = 0, k = 0; i < m; i++)
        if (r->ev[i].kind == GPU_CE_RUNTIME && (r->ev[i].part & GPU_WR_GRAPH) &&
            r->ev[i].corr != SM_KEV_NONE) {
            calls[2 * k] = r->ev[i].corr;
            calls[2 * k++ + 1] = (int64_t)i;
        }
    gpu_cpath_sort_pairs(calls, n, r->s);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < t->n_syncs; i++) {
        const gpu_cp_event *s = &t->syncs[i];
        if (s->ts >= r->cutoff)
            continue;
        unsigned part = s->ts >= start && s->ts < next ? GPU_WR_OWN : 0;
        if (s->stream != -1)
            part |= s->corr != SM_KEV_NONE && find_pair(calls, n, s->corr) >= 0 ? GPU_WR_GRAPH
                                                                                 : 0;
        else if (s->ts >= start && s->ts <= end && s->end > s->ts)
            part |= GPU_WR_GRAPH;
        if (part) {
            gpu_cp_event e = *s;
            e.flags = r->flags[GPU_NT_RUNTIME][e.name];
            rc = push(r, &e, part);
        }
    }
    return rc;
}

/* Moves the events whose part has bit to the front; returns how many. */
static size_t partition(gpu_cp_event *ev, size_t n, unsigned bit)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].part & bit) {
            gpu_cp_event x = ev[k];
            ev[k++] = ev[i];
            ev[i] = x;
        }
    return k;
}

/* ---- the window's table rows: owned events by name; a host event's self
 * time nests per thread and category as the trace's tables do */

typedef const gpu_cp_event *evp;
#define NEST_BEFORE(A, B)                                                           \
    ((A)->kind != (B)->kind ? (A)->kind < (B)->kind                                 \
     : (A)->thread != (B)->thread ? (A)->thread < (B)->thread                       \
     : (A)->ts != (B)->ts ? (A)->ts < (B)->ts                                       \
     : (A)->end != (B)->end ? (A)->end > (B)->end : (A)->seq < (B)->seq)
GPU_SORT_DEFINE(sort_nest, evp, NEST_BEFORE(A, B))

typedef struct tab_entry {
    uint8_t table;
    uint32_t name;
    int64_t dur, self;
} tab_entry;

/* Self times of ev[lo, hi) (one kind and thread, nesting order) into e,
 * as gpu_nest_push does it. */
static void nest_self(evp *ev, size_t lo, size_t hi, tab_entry *e, size_t *stack)
{
    size_t depth = 0;
    for (size_t i = lo; i < hi; i++) {
        while (depth && ev[stack[depth - 1]]->end <= ev[i]->ts &&
               ev[stack[depth - 1]]->ts < ev[i]->ts)
            depth--;
        if (depth) {
            size_t p = stack[depth - 1];
            e[p].self -= (ev[i]->end < ev[p]->end ? ev[i]->end : ev[p]->end) - ev[i]->ts;
        }
        e[i] = (tab_entry){(uint8_t)name_table(ev[i]->kind), ev[i]->name,
                           ev[i]->end - ev[i]->ts, ev[i]->end - ev[i]->ts};
        stack[depth++] = i;
    }
}

/* A table row of the window, summed: rows by (table, name). */
typedef struct tab_row {
    uint8_t table;
    gpu_wrow r;
} tab_row;

#define TROW_BEFORE(A, B) \
    ((A).table < (B).table || ((A).table == (B).table && (A).r.name < (B).r.name))
GPU_SORT_DEFINE(sort_trows, tab_row, TROW_BEFORE(A, B))

/* e[0..m) summed by (table, name) into rows (at most m), by (table,
 * name); their count, or -1 OOM. The entries are many and their names
 * few: summed through a key map, only the few are sorted. */
static ptrdiff_t sum_tab(const tab_entry *e, size_t m, scratch *s, tab_row **rows)
{
    gpu_keymap map;
    tab_row *t = scratch_take(s, WRS_TAB_ROWS, m * sizeof *t);
    if (!t || gpu_keymap_take_sums(&map, s, WRS_TAB_MAP, m) != 0)
        return -1;
    size_t k = 0;
    for (size_t x = 0; x < m; x++) {
        if (gpu_keymap_room(&map) != 0)
            return -1;
        size_t at = gpu_keymap_put(&map, (uint64_t)e[x].table << 32 | e[x].name, k);
        int64_t self = e[x].self > 0 ? e[x].self : 0, d = e[x].dur;
        if (at == k) {
            t[k++] = (tab_row){e[x].table, {e[x].name, 1, d, self, d}};
            continue;
        }
        gpu_wrow *w = &t[at].r;
        w->count++;
        w->sum_us += d;
        w->self_us += self;
        w->max_us = d > w->max_us ? d : w->max_us;
    }
    sort_trows_in(t, k, s);
    *rows = t;
    return (ptrdiff_t)k;
}

static int window_tables(const gpu_cp_event *ev, size_t n, scratch *s, gpu_win_rows *out)
{
    evp *h = scratch_take(s, WRS_NEST, n * sizeof *h);
    tab_entry *e = scratch_take(s, WRS_TAB, n * sizeof *e);
    size_t *stack = scratch_take(s, WRS_TAB_STACK, n * sizeof *stack);
    if (!h || !e || !stack)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].kind != GPU_CE_SYNC)
            h[m++] = &ev[i];
    sort_nest_in(h, m, s);
    for (size_t lo = 0, hi; lo < m; lo = hi) {
        for (hi = lo; hi < m && h[hi]->kind == h[lo]->kind && h[hi]->thread == h[lo]->thread &&
                      (h[lo]->kind != GPU_CE_ROW || hi == lo);
             hi++)
            ;
        nest_self(h, lo, hi, e, stack);
    }
    tab_row *t = NULL;
    ptrdiff_t k = sum_tab(e, m, s, &t);
    if (k < 0)
        return -1;
    for (size_t i = 0, j; i < (size_t)k; i = j) {
        for (j = i; j < (size_t)k && t[j].table == t[i].table; j++)
            ;
        gpu_wrow *rows = malloc((j - i) * sizeof *rows);
        if (!rows)
            return -1;
        for (size_t x = i; x < j; x++)
            rows[x - i] = t[x].r;
        out->rows[t[i].table] = rows;
        out->n_rows[t[i].table] = j - i;
    }
    return 0;
}

/* A GPU row's boundary in a window's sweep: its time, +1 start or -1 end,
 * its type's bit. */
typedef struct bound {
    int64_t t;
    int8_t d;
    uint8_t type;
} bound;

#define BOUND_BEFORE(A, B) ((A).t < (B).t || ((A).t == (B).t && (A).d < (B).d))
GPU_SORT_DEFINE(sort_bounds, bound, BOUND_BEFORE(A, B))

typedef struct span_out {
    int64_t *pairs;             /* busy [lo, hi) in [t0, t1), disjoint, sorted */
    size_t n;
} span_out;

/* The segment [a, b) of type set m: the window's split (the Timeline's
 * and the breakdowns' rules, over [start, end)) and its busy pairs. */
static void sweep_segment(const gpu_win *w, gpu_wfig *f, int64_t t0, int64_t t1, int64_t a,
                          int64_t b, int m, span_out *o)
{
    int64_t lo = a > w->start_us ? a : w->start_us, hi = b < w->end_us ? b : w->end_us;
    if (hi > lo) {
        f->ktype_us[m] += hi - lo;
        f->comm_comp_us += (m & 3) == 3 ? hi - lo : 0;
        if (m & GPU_KT_COMPUTATION)
            f->compute_us += hi - lo;
        else if (m & GPU_KT_COMMUNICATION)
            f->comm_us += hi - lo;
        else
            f->memory_us += hi - lo;
    }
    lo = a > t0 ? a : t0;
    hi = b < t1 ? b : t1;
    if (hi <= lo)
        return;
    if (o->n && o->pairs[2 * o->n - 1] == lo) {
        o->pairs[2 * o->n - 1] = hi;
    } else {
        o->pairs[2 * o->n] = lo;
        o->pairs[2 * o->n + 1] = hi;
        o->n++;
    }
}

/* The rows that run in window w: its own, those before the first window,
 * and those carried from earlier windows (the carry then keeps the rows
 * that run past next); each a start and an end. NULL on OOM. */
static bound *window_bounds(wrun *r, int64_t next, size_t *nb)
{
    const gpu_table *k = &r->t->res.kernels;
    size_t m = r->n_carry;
    for (size_t i = 0; i < r->n; i++)
        m += r->ev[i].kind == GPU_CE_ROW && (r->ev[i].part & (GPU_WR_OWN | GPU_WR_BUSY));
    bound *b = scratch_take(r->s, WRS_BOUNDS, 2 * m * sizeof *b);
    if (!b)
        return NULL;
    size_t n = 0, keep = 0;
    for (size_t i = 0; i < r->n_carry; i++) {
        b[n++] = (bound){r->carry[i].lo, 1, r->carry[i].type};
        b[n++] = (bound){r->carry[i].hi, -1, r->carry[i].type};
        if (r->carry[i].hi > next)
            r->carry[keep++] = r->carry[i];
    }
    r->n_carry = keep;
    for (size_t i = 0; i < r->n; i++) {
        const gpu_cp_event *e = &r->ev[i];
        if (e->kind != GPU_CE_ROW || !(e->part & (GPU_WR_OWN | GPU_WR_BUSY)))
            continue;
        uint8_t type = (uint8_t)k->rows[e->name].type;
        b[n++] = (bound){e->ts, 1, type};
        b[n++] = (bound){e->end, -1, type};
        if (e->end > next) {
            if (vec_grow(&r->carry, &r->cap_carry, r->n_carry + 1, sizeof *r->carry, 8) != 0)
                return NULL;
            r->carry[r->n_carry++] = (wspan){e->ts, e->end, type};
        }
    }
    sort_bounds_in(b, n, r->s);
    *nb = n;
    return b;
}

/* The window's rows swept (as gpu_trace_calc's sweep, over this window):
 * its split into f, its busy pairs in [t0, t1) into o. 0 or -1 on OOM. */
static int window_sweep(wrun *r, const gpu_win *w, int64_t next, int64_t t0, int64_t t1,
                        gpu_wfig *f, span_out *o)
{
    size_t n = 0;
    bound *b = window_bounds(r, next, &n);
    o->n = 0;
    o->pairs = scratch_take(r->s, WRS_BUSY, n * sizeof *o->pairs);
    if (!b || !o->pairs)
        return -1;
    int64_t live[8] = {0}, prev = 0;
    for (size_t i = 0; i < n; i++) {
        int m = (live[1] > 0 ? 1 : 0) | (live[2] > 0 ? 2 : 0) | (live[4] > 0 ? 4 : 0);
        if (i > 0 && m && b[i].t > prev)
            sweep_segment(w, f, t0, t1, prev, b[i].t, m, o);
        live[b[i].type] += b[i].d;
        prev = b[i].t;
    }
    return 0;
}

/* Window i: its events gathered, analysed, its record and rows filled. */
static int run_window(wrun *r, size_t i)
{
    gpu_trace *t = r->t;
    gpu_win *w = &t->res.wins[i];
    int64_t next = i + 1 < t->res.n_wins ? t->res.wins[i + 1].start_us : INT64_MAX;
    r->n = 0;
    for (size_t g = 0; g < t->n_groups; g++)
        if (gather_group(r, g, w->start_us, w->end_us, next) != 0)
            return -1;
    if (gather_rows(r, i) != 0 || gather_syncs(r, w->start_us, w->end_us, next) != 0)
        return -1;
    gpu_cpath cp;
    gpu_cpath_in cin = {r->ev, partition(r->ev, r->n, GPU_WR_GRAPH), r->pids, r->tids,
                        t->n_threads, r->has_queue, (const uint32_t *const *)r->short_of,
                        r->cpw};
    gpu_win_rows rows = {0};
    if (gpu_cpath_run(&cin, &cp) != 0)
        return -1;
    int gpu = t->res.gpu_rows > 0;
    int64_t t0 = gpu && w->start_us > t->span_lo ? w->start_us : t->span_lo;
    int64_t t1 = gpu && w->end_us < t->span_hi ? w->end_us : t->span_hi;
    const gpu_wstate *st = &t->ws[i];
    gpu_wfig *f = &rows.fig;
    f->host_wait_us = st->host_wait_us;
    f->kernel_wait_us = st->kernel_wait_us;
    f->other_us = st->other_us;
    f->launches = st->launches;
    f->short_kernels = st->short_kernels;
    f->outliers = st->outliers;
    f->delay_sum_us = st->delay_sum_us;
    span_out busy;
    if (window_sweep(r, w, next, t0, t1, f, &busy) != 0)
        return -1;
    size_t own = partition(r->ev, r->n, GPU_WR_OWN);
    gpu_idle_in iin = {r->ev, own, busy.pairs, busy.n, t0, gpu ? t1 : t0, w->start_us,
                       w->end_us, r->tids, t->n_threads, r->gloo, r->s};
    gpu_idle idle;
    int rc = gpu_idle_run(&iin, &idle);
    if (rc == 0)
        rc = window_tables(r->ev, own, r->s, &rows);
    if (rc == 0) {
        f->idle_us = w->end_us - w->start_us - f->compute_us - f->comm_us - f->memory_us;
        f->cp_status = cp.status;
        f->path_us = cp.path_us;
        memcpy(f->bound_us, cp.bound_us, sizeof f->bound_us);
        f->gap_us = idle.idle_us;
        f->idle_other_us = idle.other_us;
        f->host_comm_us = idle.host_comm_us;
        f->host_comm_idle_us = idle.host_comm_idle_us;
        memcpy(rows.top, cp.top, cp.n_top * sizeof *cp.top);
        rows.n_top = cp.n_top;
        memcpy(rows.idle, idle.rows, idle.n_rows * sizeof *idle.rows);
        rows.n_idle = idle.n_rows;
        memcpy(rows.threads, idle.threads, idle.n_threads * sizeof *idle.threads);
        rows.n_threads = idle.n_threads;
        rc = gpu_win_rows_write(&t->res, w, &rows);
    }
    gpu_win_rows_free(&rows);
    return rc;
}

typedef struct short_name {
    char *s;
    uint32_t table, row;
} short_name;

static int short_cmp(const void *a, const void *b)
{
    const short_name *x = a, *y = b;
    int c = strcmp(x->s, y->s);
    if (c)
        return c;
    if (x->table != y->table)
        return x->table < y->table ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* r->short_of[t][i]: the group of row i of table t, the first (table,
 * row) of its shortened name over every table. */
static int short_groups(wrun *r)
{
    size_t all = 0;
    for (int k = 0; k < GPU_NT_N; k++)
        all += gpu_acc_names(&r->t->res, k)->n;
    short_name *v = malloc((all ? all : 1) * sizeof *v);
    int rc = v ? 0 : -1;
    size_t n = 0;
    for (int k = 0; rc == 0 && k < GPU_NT_N; k++) {
        const gpu_table *tab = gpu_acc_names(&r->t->res, k);
        for (size_t i = 0; rc == 0 && i < tab->n; i++) {
            char buf[512];
            size_t len = gpu_shorten_name(tab->rows[i].name, tab->rows[i].len, buf, sizeof buf);
            if (!(v[n].s = malloc(len + 1)))
                rc = -1;
            else {
                memcpy(v[n].s, buf, len + 1);
                v[n].table = (uint32_t)k;
                v[n++].row = (uint32_t)i;
            }
        }
    }
    if (rc == 0)
        qsort(v, n, sizeof *v, short_cmp);
    for (size_t i = 0, first = 0; rc == 0 && i < n; i++) {
        if (i && strcmp(v[i].s, v[i - 1].s))
            first = i;
        r->short_of[v[i].table][v[i].row] = GPU_SHORT_GROUP(v[first].table, v[first].row);
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].s);
    free(v);
    return rc;
}

static int wrun_init(wrun *r, gpu_trace *t)
{
    memset(r, 0, sizeof *r);
    r->t = t;
    r->cutoff = t->cutoff_us;
    r->has_queue = t->has_queue;
    r->gloo = !strcmp(t->res.backend, "gloo");
    r->cur = calloc(t->n_groups ? t->n_groups : 1, sizeof *r->cur);
    r->pids = malloc((t->n_threads ? t->n_threads : 1) * sizeof *r->pids);
    r->tids = malloc((t->n_threads ? t->n_threads : 1) * sizeof *r->tids);
    r->cpw = gpu_cpath_ws_new();
    r->s = scratch_new();
    if (!r->cur || !r->pids || !r->tids || !r->cpw || !r->s)
        return -1;
    for (size_t i = 0; i < t->n_threads; i++) {
        r->pids[i] = t->threads[i].pid;
        r->tids[i] = t->threads[i].tid;
    }
    for (int k = 0; k < GPU_NT_N; k++) {
        const gpu_table *tab = gpu_acc_names(&t->res, k);
        r->flags[k] = malloc((tab->n ? tab->n : 1) * sizeof *r->flags[k]);
        r->short_of[k] = malloc((tab->n ? tab->n : 1) * sizeof *r->short_of[k]);
        if (!r->flags[k] || !r->short_of[k])
            return -1;
        for (size_t i = 0; i < tab->n; i++)
            r->flags[k][i] = gpu_name_flags(k, tab->rows[i].name, tab->rows[i].len);
    }
    return short_groups(r);
}

static void wrun_free(wrun *r)
{
    free(r->cur);
    free(r->pids);
    free(r->tids);
    free(r->ev);
    free(r->carry);
    gpu_cpath_ws_free(r->cpw);
    scratch_free(r->s);
    for (int k = 0; k < GPU_NT_N; k++) {
        free(r->flags[k]);
        free(r->short_of[k]);
    }
}

int gpu_trace_wins_run(gpu_trace *t)
{
    wrun r;
    int rc = wrun_init(&r, t);
    for (size_t i = 0; rc == 0 && i < t->res.n_wins; i++)
        rc = run_window(&r, i);
    wrun_free(&r);
    gpu_trace_wins_free(t);
    if (t->res.n_segs && t->res.segs[0].blob->n_chunks) {
        gpu_wblob *b = t->res.segs[0].blob;
        varbuf_fit(&b->chunks[b->n_chunks - 1]);
    }
    return rc;
}
