/* gpu_cpath_graph: the edges of a window's critical path graph, added in
 * the order HTA's CPGraph._construct_graph adds them (its edge order
 * decides networkx's topological order, and so which of two paths of one
 * length is taken). Definitions in gpu_cpath.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/gpu/gpu_sort.h"
#include "model/util/vec.h"

/* HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US. */
#define KK_THRESHOLD_US 1500

/* HTA's _attribute_edge: a span edge goes to the event it lies in. */
static int32_t attribution(const cp_graph *g, const cp_edge *e, int32_t src_parent)
{
    if (e->type == CP_KK)
        return (int32_t)g->node_ev[e->u];
    if (g->node_start[e->u])
        return (int32_t)g->node_ev[e->u];
    if (!g->node_start[e->v])
        return (int32_t)g->node_ev[e->v];
    return src_parent < 0 ? CP_ROOT : src_parent;
}

int gpu_cpath_edge(cp_graph *g, uint32_t u, uint32_t v, int type, int zero, int32_t src_parent)
{
    cp_edge e = {u, v, 0, -1, (uint8_t)type};
    if (type != CP_DEP && type != CP_SYNC && !zero)
        e.w = g->node_ts[v] - g->node_ts[u];
    if (type == CP_OPK || type == CP_KK)
        e.attr = attribution(g, &e, src_parent);
    /* an edge added twice is merged once all are in
     * (gpu_cpath_merge_twins): a map looked up at every add cost more */
    if (vec_grow(&g->e, &g->cap_e, g->n_e + 1, sizeof *g->e, 256) != 0)
        return -1;
    g->e[g->n_e++] = e;
    return 0;
}

int64_t gpu_cpath_call(const cp_graph *g, int64_t corr)
{
    size_t lo = 0, hi = g->n_rt;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->rt_corr[2 * mid] < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n_rt && g->rt_corr[2 * lo] == corr ? g->rt_corr[2 * lo + 1] : -1;
}

static int has_nodes(const cp_graph *g, int64_t i)
{
    return i >= 0 && g->start[i] != CP_NONE;
}

static int lock_node(const cp_graph *g, uint32_t node)
{
    return g->ev[g->node_ev[node]].flags & GPU_CF_LOCK;
}

/* ---- 1. the CUDA runtime lock (_construct_graph_from_cuda_runtime_events):
 * the lock calls in completion order, each start waiting on the next end */

int gpu_cpath_lock_edges(cp_graph *g)
{
    uint32_t *open = scratch_take(g->s, CPS_OPEN, g->n_nodes * sizeof *open), last = CP_NONE;
    size_t n_open = 0;
    int rc = open ? 0 : -1;
    for (uint32_t node = 0; rc == 0 && node < g->n_nodes; node++) {
        if (!lock_node(g, node))
            continue;
        if (g->node_start[node]) {
            open[n_open++] = node;
        } else {
            while (rc == 0 && n_open) {
                uint32_t p = open[--n_open];
                int same = g->node_ev[p] == g->node_ev[node];
                rc = gpu_cpath_edge(g, p, node, same ? CP_OPK : CP_DEP, 0,
                                    (int32_t)g->node_ev[node]);
            }
            if (rc == 0 && last != CP_NONE && !g->node_start[last])
                rc = gpu_cpath_edge(g, last, node, CP_DEP, 0, -1);
        }
        last = node;
    }
    return rc;
}

/* ---- 2. the call stacks (_construct_graph_from_call_stacks) */

/* HTA's _get_tid_for_event: the tid of the only thread with an op or
 * annotation of this flag, else SM_KEV_NONE. */
static int64_t only_tid(const cp_graph *g, uint32_t flag)
{
    int64_t tid = SM_KEV_NONE;
    for (size_t i = 0; i < g->n; i++) {
        const gpu_cp_event *e = &g->ev[i];
        if ((e->kind != GPU_CE_OP && e->kind != GPU_CE_ANNOT) || !(e->flags & flag))
            continue;
        int64_t t = g->tids[e->thread];
        if (tid != SM_KEV_NONE && t != tid)
            return SM_KEV_NONE;
        tid = t;
    }
    return tid;
}

/* A start or an end of an event of a call stack (call_stack.py's Event). */
typedef struct cs_item {        /* 32 bytes: the pass's largest sort */
    int64_t time, dur;
    uint32_t th;                /* its thread's rank by (pid, tid), remapped */
    uint32_t ev;
    int8_t type;                /* 1 start, -1 end */
} cs_item;

/* call_stack.py's compare_events for events of positive duration (those of
 * a window): by thread (pid, then tid: its rank), then within one thread
 * by time; at one time ends before starts; starts the longer first, ends
 * the shorter first; then by index (starts ascending, ends descending). */
#define CS_BEFORE(A, B)                                                                  \
    ((A).th != (B).th ? (A).th < (B).th                                                  \
     : (A).time != (B).time ? (A).time < (B).time                                        \
     : (A).type != (B).type ? (A).type < (B).type                                        \
     : (A).dur != (B).dur ? ((A).type > 0 ? (A).dur > (B).dur : (A).dur < (B).dur)       \
     : ((A).type > 0 ? (A).ev < (B).ev : (A).ev > (B).ev))
GPU_SORT_DEFINE(sort_items, cs_item, CS_BEFORE(A, B))

static int host_kind(int kind)
{
    return kind == GPU_CE_OP || kind == GPU_CE_ANNOT || kind == GPU_CE_PY ||
           kind == GPU_CE_RUNTIME;
}

/* HTA's _shares_cuda_runtime_lock. */
static int shares_lock(const cp_graph *g, uint32_t a, uint32_t b)
{
    return lock_node(g, a) && lock_node(g, b) && (g->node_start[a] || !g->node_start[b]);
}

/* The DFS of one thread's call stack (enter_func / exit_func). */
typedef struct cs_walk {
    cp_graph *g;
    uint32_t last;              /* last node, CP_NONE */
    int32_t last_parent;        /* last_ev_parent */
    int depth;                  /* op_depth */
    const int32_t *parent;
} cs_walk;

static int cs_enter(cs_walk *w, uint32_t ev)
{
    cp_graph *g = w->g;
    if (!has_nodes(g, ev))
        return 0;
    uint32_t s = g->start[ev];
    int rc = 0;
    if (w->last != CP_NONE && !shares_lock(g, w->last, s))
        rc = gpu_cpath_edge(g, w->last, s, w->depth == 0 ? CP_DEP : CP_OPK, 0, w->last_parent);
    w->last = s;
    w->last_parent = w->parent[ev];
    w->depth++;
    return rc;
}

static int cs_exit(cs_walk *w, uint32_t ev)
{
    cp_graph *g = w->g;
    if (!has_nodes(g, ev))
        return 0;
    uint32_t e = g->end[ev];
    int rc = 0;
    if (w->last != CP_NONE && !shares_lock(g, w->last, e))
        rc = gpu_cpath_edge(g, w->last, e, CP_OPK, (g->ev[ev].flags & GPU_CF_BLOCKING) != 0,
                            w->last_parent);
    w->last = e;
    w->last_parent = w->parent[ev];
    w->depth--;
    return rc;
}

/* The tree of one thread's call stack: each event's parent, first child
 * and next sibling (children in start order), by event index. */
typedef struct cs_tree {
    int32_t *parent;
    uint32_t *first, *next, *last, *stack;
} cs_tree;

/* One thread's items [lo, hi): parents by the stack of starts (an end
 * pops whatever is on top, as call_stack.py does), then the depth-first
 * walk (enter on the way down, exit on the way up). */
static int walk_thread(cp_graph *g, const cs_item *it, size_t lo, size_t hi, cs_tree *t)
{
    size_t depth = 0;
    uint32_t root_first = CP_NONE, root_last = CP_NONE;
    for (size_t i = lo; i < hi; i++) {
        uint32_t ev = it[i].ev;
        if (it[i].type < 0) {
            depth -= depth > 0;
            continue;
        }
        uint32_t p = depth ? t->stack[depth - 1] : CP_NONE;
        t->parent[ev] = p == CP_NONE ? -1 : (int32_t)p;
        t->first[ev] = t->next[ev] = t->last[ev] = CP_NONE;
        uint32_t *head = p == CP_NONE ? &root_first : &t->first[p];
        uint32_t *tail = p == CP_NONE ? &root_last : &t->last[p];
        if (*head == CP_NONE)
            *head = ev;
        else
            t->next[*tail] = ev;
        *tail = ev;
        t->stack[depth++] = ev;
    }
    cs_walk w = {g, CP_NONE, -1, 0, t->parent};
    uint32_t cur = root_first;
    int rc = 0;
    depth = 0;
    while (rc == 0 && cur != CP_NONE) {
        rc = cs_enter(&w, cur);
        if (t->first[cur] != CP_NONE) {
            t->stack[depth++] = cur;
            cur = t->first[cur];
            continue;
        }
        /* a leaf: exit it and each parent whose last child it closes */
        for (;;) {
            if (rc == 0)
                rc = cs_exit(&w, cur);
            if (t->next[cur] != CP_NONE) {
                cur = t->next[cur];
                break;
            }
            if (!depth) {
                cur = CP_NONE;
                break;
            }
            cur = t->stack[--depth];
        }
    }
    return rc;
}

typedef struct th_key {
    int64_t pid, tid;
    uint32_t th;
} th_key;

#define TH_BEFORE(A, B) \
    ((A).pid < (B).pid || ((A).pid == (B).pid && ((A).tid < (B).tid || \
     ((A).tid == (B).tid && (A).th < (B).th))))
GPU_SORT_DEFINE(sort_threads, th_key, TH_BEFORE(A, B))

/* Each thread's rank by (pid, tid), the backward thread's tid read as
 * the forward one's when remap (one rank for both): the stack sort then
 * compares one word where it compared two. NULL on OOM. */
static uint32_t *thread_ranks(cp_graph *g, int remap, int64_t fwd, int64_t bwd)
{
    size_t n = g->n_threads;
    th_key *k = scratch_take(g->s, CPS_THREADS, n * sizeof *k);
    uint32_t *rank = scratch_take(g->s, CPS_RANK, n * sizeof *rank);
    if (!k || !rank)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        int64_t tid = g->tids[i];
        k[i] = (th_key){g->pids[i], remap && tid == bwd ? fwd : tid, (uint32_t)i};
    }
    sort_threads_in(k, n, g->s);
    for (size_t i = 0, r = 0; i < n; i++) {
        if (i && (k[i].pid != k[i - 1].pid || k[i].tid != k[i - 1].tid))
            r++;
        rank[k[i].th] = (uint32_t)r;
    }
    return rank;
}

int gpu_cpath_stack_edges(cp_graph *g)
{
    int64_t fwd = only_tid(g, GPU_CF_FORWARD), bwd = only_tid(g, GPU_CF_AUTOGRAD);
    int remap = fwd != SM_KEV_NONE && bwd != SM_KEV_NONE && fwd != bwd;
    size_t n = 0, m = g->n;
    for (size_t i = 0; i < g->n; i++)
        n += host_kind(g->ev[i].kind) ? 2 : 0;
    uint32_t *rank = thread_ranks(g, remap, fwd, bwd);
    cs_item *it = scratch_take(g->s, CPS_ITEMS, n * sizeof *it);
    cs_tree t = {scratch_take(g->s, CPS_PARENT, m * sizeof *t.parent),
                 scratch_take(g->s, CPS_FIRST, m * sizeof *t.first),
                 scratch_take(g->s, CPS_NEXT, m * sizeof *t.next),
                 scratch_take(g->s, CPS_LAST, m * sizeof *t.last),
                 scratch_take(g->s, CPS_STACK, m * sizeof *t.stack)};
    int rc = rank && it && t.parent && t.first && t.next && t.last && t.stack ? 0 : -1;
    for (size_t i = 0, k = 0; rc == 0 && i < g->n; i++) {
        const gpu_cp_event *e = &g->ev[i];
        if (!host_kind(e->kind))
            continue;
        int64_t dur = e->end - e->ts;
        it[k++] = (cs_item){e->ts, dur, rank[e->thread], (uint32_t)i, 1};
        it[k++] = (cs_item){e->end, dur, rank[e->thread], (uint32_t)i, -1};
    }
    if (rc == 0)
        sort_items_in(it, n, g->s);
    for (size_t lo = 0, hi; rc == 0 && lo < n; lo = hi) {
        for (hi = lo; hi < n && it[hi].th == it[lo].th; hi++)
            ;
        rc = walk_thread(g, it, lo, hi, &t);
    }
    return rc;
}

/* ---- 3. the GPU rows and the syncs (_construct_graph_from_kernels) */

typedef struct k_item {
    int64_t key, seq;           /* a row's start, a sync's end; file order */
    uint32_t ev;
} k_item;

#define K_BEFORE(A, B) ((A).key < (B).key || ((A).key == (B).key && (A).seq < (B).seq))
GPU_SORT_DEFINE(sort_kitems, k_item, K_BEFORE(A, B))

typedef struct last_node {
    int64_t stream;
    uint32_t node;
} last_node;

typedef struct k_state {
    cp_graph *g;
    int64_t *row_corr;          /* (corr, event) of rows, by corr */
    size_t n_rows;
    int32_t *ksync;             /* a row's kernel to wait on (-1) */
    last_node *last;            /* by the order streams were first seen */
    size_t n_last, cap_last;
} k_state;

static int64_t row_of(const k_state *k, int64_t corr)
{
    size_t lo = 0, hi = k->n_rows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->row_corr[2 * mid] < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k->n_rows && k->row_corr[2 * lo] == corr ? k->row_corr[2 * lo + 1] : -1;
}

static last_node *last_on(k_state *k, int64_t stream)
{
    for (size_t i = 0; i < k->n_last; i++)
        if (k->last[i].stream == stream)
            return &k->last[i];
    return NULL;
}

/* The row a launch call of the window launched, when it ran on stream. */
static int64_t launched_on(const k_state *k, const gpu_cp_event *c, int64_t stream)
{
    if (!(c->flags & GPU_CF_LAUNCH) || c->corr == SM_KEV_NONE)
        return -1;
    int64_t r = row_of(k, c->corr);
    return r >= 0 && k->g->ev[r].stream == stream ? r : -1;
}

/* _get_cuda_event_record_df: the row of the last launch onto stream at or
 * before the cudaEventRecord of correlation corr; -1 when none is in the
 * window (then it has no nodes here either). */
static int64_t record_src(const k_state *k, int64_t corr, int64_t stream)
{
    const cp_graph *g = k->g;
    int64_t rec = gpu_cpath_call(g, corr);
    if (rec < 0 || !(g->ev[rec].flags & GPU_CF_RECORD))
        return -1;
    const gpu_cp_event *r = &g->ev[rec];
    int64_t best = -1, bts = INT64_MIN, bseq = INT64_MIN;
    for (size_t i = 0; i < g->n; i++) {
        const gpu_cp_event *c = &g->ev[i];
        if (c->kind != GPU_CE_RUNTIME || c->ts > r->ts)
            continue;
        int64_t row = launched_on(k, c, stream);
        if (row >= 0 && (c->ts > bts || (c->ts == bts && c->seq > bseq))) {
            best = row;
            bts = c->ts;
            bseq = c->seq;
        }
    }
    return best;
}

/* _get_cuda_stream_wait_event_df: the row of the first launch onto stream
 * from the thread of the cudaStreamWaitEvent call at or after it; -1. */
static int64_t wait_dest(const k_state *k, int64_t call, int64_t stream)
{
    const cp_graph *g = k->g;
    const gpu_cp_event *w = &g->ev[call];
    int64_t best = -1, bts = INT64_MAX, bseq = INT64_MAX;
    for (size_t i = 0; i < g->n; i++) {
        const gpu_cp_event *c = &g->ev[i];
        if (c->kind != GPU_CE_RUNTIME || c->thread != w->thread || c->ts < w->ts ||
            (c->ts == w->ts && c->seq < w->seq))
            continue;
        int64_t row = launched_on(k, c, stream);
        if (row >= 0 && (c->ts < bts || (c->ts == bts && c->seq < bseq))) {
            best = row;
            bts = c->ts;
            bseq = c->seq;
        }
    }
    return best;
}

/* handle_cuda_sync: a sync row's edges. */
static int on_sync(k_state *k, const gpu_cp_event *s)
{
    cp_graph *g = k->g;
    int64_t call = s->corr == SM_KEV_NONE ? -1 : gpu_cpath_call(g, s->corr);
    if (s->sync == GPU_SYNC_EVENT || s->sync == GPU_SYNC_WAIT) {
        if (s->wait_corr == SM_KEV_NONE)
            return 0;
        int64_t src = record_src(k, s->wait_corr, s->wait_stream);
        if (src < 0)
            return 0;
        if (s->sync == GPU_SYNC_WAIT) {
            if (call < 0 || !(g->ev[call].flags & GPU_CF_WAIT))
                return 0;
            int64_t dest = wait_dest(k, call, s->stream);
            if (dest >= 0)
                k->ksync[dest] = (int32_t)src;
            return 0;
        }
        if (has_nodes(g, src) && has_nodes(g, call))
            return gpu_cpath_edge(g, g->end[src], g->end[call], CP_SYNC, 0, -1);
        return 0;
    }
    if (!has_nodes(g, call))
        return 0;
    for (size_t i = 0; i < k->n_last; i++)
        if (s->sync == GPU_SYNC_CONTEXT || k->last[i].stream == s->stream)
            if (gpu_cpath_edge(g, k->last[i].node, g->end[call], CP_SYNC, 0, -1) != 0)
                return -1;
    return 0;
}

/* A GPU row's edges: its span, the kernel it waits on, then a launch
 * delay when its stream had nothing queued, else a kernel-kernel gap. */
static int on_row(k_state *k, uint32_t i)
{
    cp_graph *g = k->g;
    const gpu_cp_event *r = &g->ev[i];
    if (!has_nodes(g, i))
        return 0;
    uint32_t s = g->start[i];
    if (gpu_cpath_edge(g, s, g->end[i], CP_OPK, 0, -1) != 0)
        return -1;
    int64_t ks = k->ksync[i];
    uint32_t ks_end = CP_NONE;
    if (ks >= 0) {
        if (has_nodes(g, ks)) {
            ks_end = g->end[ks];
            if (gpu_cpath_edge(g, ks_end, s, CP_SYNC, 0, -1) != 0)
                return -1;
        }
        k->ksync[i] = -1;
    }
    ks = ks_end != CP_NONE ? ks : -1;   /* a kernel out of the window: none */
    last_node *ln = last_on(k, r->stream);
    int64_t call = r->corr == SM_KEV_NONE ? -1 : gpu_cpath_call(g, r->corr);
    uint32_t q = GPU_CF_Q_KNOWN | GPU_CF_Q_LAUNCH | GPU_CF_Q_START;
    int rc = 0;
    if ((r->flags & q) == q && call >= 0 && has_nodes(g, call) &&
        (!ln || g->node_ts[ln->node] < g->ev[call].ts) &&
        (ks < 0 || g->node_ts[ks_end] < g->ev[call].ts))
        rc = gpu_cpath_edge(g, g->start[call], s, CP_LAUNCH, 0, -1);
    else if (ln && g->node_ts[s] - g->node_ts[ln->node] < KK_THRESHOLD_US &&
             (ks < 0 || g->node_ts[ks_end] < g->node_ts[ln->node]))
        rc = gpu_cpath_edge(g, ln->node, s, CP_KK, 0, -1);
    if (rc != 0)
        return -1;
    if (!ln) {
        if (vec_grow(&k->last, &k->cap_last, k->n_last + 1, sizeof *k->last, 8) != 0)
            return -1;
        ln = &k->last[k->n_last++];
        ln->stream = r->stream;
    }
    ln->node = g->end[i];
    return 0;
}

int gpu_cpath_kernel_edges(cp_graph *g)
{
    size_t n = 0, nr = 0;
    for (size_t i = 0; i < g->n; i++) {
        n += g->ev[i].kind == GPU_CE_ROW || g->ev[i].kind == GPU_CE_SYNC;
        nr += g->ev[i].kind == GPU_CE_ROW && g->ev[i].corr != SM_KEV_NONE;
    }
    k_state k = {g, scratch_take(g->s, CPS_ROW_CORR, nr * 2 * sizeof *k.row_corr), nr,
                 scratch_take(g->s, CPS_KSYNC, g->n * sizeof *k.ksync), NULL, 0, 0};
    k_item *it = scratch_take(g->s, CPS_KITEMS, n * sizeof *it);
    int rc = k.row_corr && k.ksync && it ? 0 : -1;
    for (size_t i = 0, a = 0, b = 0; rc == 0 && i < g->n; i++) {
        const gpu_cp_event *e = &g->ev[i];
        k.ksync[i] = -1;
        if (e->kind == GPU_CE_ROW && e->corr != SM_KEV_NONE) {
            k.row_corr[2 * b] = e->corr;
            k.row_corr[2 * b++ + 1] = (int64_t)i;
        }
        if (e->kind == GPU_CE_ROW || e->kind == GPU_CE_SYNC)
            it[a++] = (k_item){e->kind == GPU_CE_SYNC ? e->end : e->ts, e->seq, (uint32_t)i};
    }
    if (rc == 0) {
        gpu_cpath_sort_pairs(k.row_corr, nr, g->s);
        sort_kitems_in(it, n, g->s);
    }
    for (size_t j = 0; rc == 0 && j < n; j++) {
        const gpu_cp_event *e = &g->ev[it[j].ev];
        rc = e->kind == GPU_CE_SYNC ? on_sync(&k, e) : on_row(&k, it[j].ev);
    }
    free(k.last);
    return rc;
}
