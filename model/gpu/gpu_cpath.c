/* gpu_cpath: a window's critical path (gpu_cpath.h): its nodes, its
 * longest path as networkx's dag_longest_path finds it, and the path's
 * time by HTA's bound_by classes. The edges: gpu_cpath_graph.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/gpu/gpu_sort.h"
#include "model/util/scratch.h"

#define SEQ_BEFORE(A, B) ((A).seq < (B).seq)
GPU_SORT_DEFINE(sort_by_seq, gpu_cp_event, SEQ_BEFORE(A, B))

typedef struct pair {
    int64_t k, v;
} pair;

#define PAIR_BEFORE(A, B) ((A).k < (B).k || ((A).k == (B).k && (A).v < (B).v))
GPU_SORT_DEFINE(sort_pair, pair, PAIR_BEFORE(A, B))

void gpu_cpath_sort_pairs(int64_t *pairs, size_t n, scratch *s)
{
    /* an int64 pair array is laid out as the struct */
    sort_pair_in((pair *)(void *)pairs, n, s);
}

/* A node before its number is known: HTA sorts (ts, event index), starts
 * before ends of the same event (a stable sort of starts then ends). */
typedef struct node_key {
    int64_t ts, seq;
    uint32_t ev;
    uint8_t start;
} node_key;

#define NODE_BEFORE(A, B) \
    ((A).ts < (B).ts || ((A).ts == (B).ts && ((A).seq < (B).seq || \
     ((A).seq == (B).seq && (A).start > (B).start))))
GPU_SORT_DEFINE(sort_nodes, node_key, NODE_BEFORE(A, B))

/* _create_event_nodes' mask: ops and runtime calls, data-loading events,
 * GPU rows and the syncs on a stream that have a correlation. */
static int is_node(const gpu_cp_event *e)
{
    switch (e->kind) {
    case GPU_CE_OP:
    case GPU_CE_RUNTIME:
    case GPU_CE_ROW:
        return 1;
    case GPU_CE_ANNOT:
    case GPU_CE_PY:
        return (e->flags & GPU_CF_DATALOAD) != 0;
    case GPU_CE_SYNC:
        return e->stream != -1 && e->corr != SM_KEV_NONE && e->corr != -1;
    default:
        return 0;
    }
}

static int make_nodes(cp_graph *g)
{
    size_t m = 0;
    for (size_t i = 0; i < g->n; i++)
        m += is_node(&g->ev[i]) ? 2 : 0;
    node_key *k = scratch_take(g->s, CPS_NODE_KEY, m * sizeof *k);
    g->start = scratch_take(g->s, CPS_START, g->n * sizeof *g->start);
    g->end = scratch_take(g->s, CPS_END, g->n * sizeof *g->end);
    g->node_ts = scratch_take(g->s, CPS_NODE_TS, m * sizeof *g->node_ts);
    g->node_ev = scratch_take(g->s, CPS_NODE_EV, m * sizeof *g->node_ev);
    g->node_start = scratch_take(g->s, CPS_NODE_START, m);
    if (!k || !g->start || !g->end || !g->node_ts || !g->node_ev || !g->node_start)
        return -1;
    size_t j = 0;
    for (size_t i = 0; i < g->n; i++) {
        const gpu_cp_event *e = &g->ev[i];
        g->start[i] = g->end[i] = CP_NONE;
        if (!is_node(e))
            continue;
        k[j++] = (node_key){e->ts, e->seq, (uint32_t)i, 1};
        k[j++] = (node_key){e->end, e->seq, (uint32_t)i, 0};
    }
    sort_nodes_in(k, m, g->s);
    for (size_t x = 0; x < m; x++) {
        g->node_ts[x] = k[x].ts;
        g->node_ev[x] = k[x].ev;
        g->node_start[x] = k[x].start;
        if (k[x].start)
            g->start[k[x].ev] = (uint32_t)x;
        else
            g->end[k[x].ev] = (uint32_t)x;
    }
    g->n_nodes = m;
    return 0;
}

static int make_calls(cp_graph *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        n += g->ev[i].kind == GPU_CE_RUNTIME && g->ev[i].corr != SM_KEV_NONE;
    g->rt_corr = scratch_take(g->s, CPS_RT_CORR, n * 2 * sizeof *g->rt_corr);
    if (!g->rt_corr)
        return -1;
    for (size_t i = 0, j = 0; i < g->n; i++)
        if (g->ev[i].kind == GPU_CE_RUNTIME && g->ev[i].corr != SM_KEV_NONE) {
            g->rt_corr[2 * j] = g->ev[i].corr;
            g->rt_corr[2 * j++ + 1] = (int64_t)i;
        }
    g->n_rt = n;
    gpu_cpath_sort_pairs(g->rt_corr, n, g->s);
    return 0;
}

/* _validate_graph: a sync between two rows of one stream makes HTA refuse
 * the graph (a negative weight only becomes 0 in the path's search). */
static int valid_syncs(const cp_graph *g)
{
    for (size_t i = 0; i < g->n_e; i++) {
        const cp_edge *e = &g->e[i];
        if (e->type != CP_SYNC)
            continue;
        const gpu_cp_event *a = &g->ev[g->node_ev[e->u]], *b = &g->ev[g->node_ev[e->v]];
        int64_t sa = a->kind == GPU_CE_ROW || a->kind == GPU_CE_SYNC ? a->stream : -1;
        int64_t sb = b->kind == GPU_CE_ROW || b->kind == GPU_CE_SYNC ? b->stream : -1;
        if (sa != -1 && sa == sb)
            return 0;
    }
    return 1;
}

/* Edge indexes grouped by one end, each group in the order the edges were
 * added (a counting sort): networkx's succ / pred dicts. */
static uint32_t *group_edges(const cp_graph *g, int by_v, uint32_t **at)
{
    uint32_t *idx = scratch_take(g->s, by_v ? CPS_PRED : CPS_SUCC, g->n_e * sizeof *idx);
    uint32_t *off = scratch_take(g->s, by_v ? CPS_PRED_OFF : CPS_SUCC_OFF,
                                 (g->n_nodes + 1) * sizeof *off);
    uint32_t *fill = scratch_take(g->s, CPS_FILL, g->n_nodes * sizeof *fill);
    if (!idx || !off || !fill)
        return NULL;
    memset(off, 0, (g->n_nodes + 1) * sizeof *off);
    for (size_t i = 0; i < g->n_e; i++)
        off[(by_v ? g->e[i].v : g->e[i].u) + 1]++;
    for (size_t x = 0; x < g->n_nodes; x++)
        off[x + 1] += off[x];
    memcpy(fill, off, g->n_nodes * sizeof *fill);
    for (size_t i = 0; i < g->n_e; i++)
        idx[fill[by_v ? g->e[i].v : g->e[i].u]++] = (uint32_t)i;
    *at = off;
    return idx;
}

#define CP_TWIN 0xff          /* an edge merged into its twin */
#define TWIN_PAIRWISE 16        /* a node's edges compared pairwise */

/* A DiGraph's add_edge of an edge it has: the edge keeps its place and
 * takes the later add's type and weight, and its attribution when the
 * later has one. */
static void merge_into(cp_edge *old, cp_edge *later)
{
    int32_t attr = later->attr >= 0 || later->attr == CP_ROOT ? later->attr : old->attr;
    *old = *later;
    old->attr = attr;
    later->type = CP_TWIN;
}

/* The twins among one node's edges idx[lo, hi) (in add order), by
 * (v, index) pairs sorted: a node with many edges. */
static int merge_sorted(cp_graph *g, const uint32_t *idx, uint32_t lo, uint32_t hi)
{
    int64_t *p = scratch_take(g->s, CPS_TWINS, (size_t)(hi - lo) * 2 * sizeof *p);
    if (!p)
        return -1;
    for (uint32_t j = lo; j < hi; j++) {
        p[2 * (j - lo)] = g->e[idx[j]].v;
        p[2 * (j - lo) + 1] = idx[j];
    }
    gpu_cpath_sort_pairs(p, hi - lo, g->s);
    for (uint32_t j = 1, first = 0; j < hi - lo; j++) {
        if (p[2 * j] != p[2 * first])
            first = j;
        else
            merge_into(&g->e[p[2 * first + 1]], &g->e[p[2 * j + 1]]);
    }
    return 0;
}

/* Edges added twice, merged as networkx does, and the merged ones
 * dropped. The edges are grouped by their source (a node has one or two
 * as a rule) and twins looked for within the group: a hash map of all
 * edges, looked up at every add, was the critical path's largest cost in
 * time (cache misses and its table's page faults, BENCHMARKS.md). */
int gpu_cpath_merge_twins(cp_graph *g)
{
    uint32_t *off = NULL, *idx = group_edges(g, 0, &off);
    if (!idx)
        return -1;
    for (size_t u = 0; u < g->n_nodes; u++) {
        uint32_t lo = off[u], hi = off[u + 1];
        if (hi - lo > TWIN_PAIRWISE) {
            if (merge_sorted(g, idx, lo, hi) != 0)
                return -1;
            continue;
        }
        for (uint32_t j = lo + 1; j < hi; j++)
            for (uint32_t k = lo; k < j; k++)
                if (g->e[idx[k]].type != CP_TWIN && g->e[idx[k]].v == g->e[idx[j]].v) {
                    merge_into(&g->e[idx[k]], &g->e[idx[j]]);
                    break;
                }
    }
    size_t n = 0;
    for (size_t i = 0; i < g->n_e; i++)
        if (g->e[i].type != CP_TWIN)
            g->e[n++] = g->e[i];
    g->n_e = n;
    return 0;
}

static int64_t gweight(const cp_edge *e)
{
    return e->w < 0 ? 0 : e->w;   /* _validate_graph zeroes negative weights */
}

/* networkx's topological_sort (by generations, each in discovery order)
 * then dag_longest_path: each node's best predecessor is the first of the
 * longest in insertion order; the path ends at the first node of the
 * longest distance in topological order. The path's edges into *path (in
 * order), their count into *n. 0; 1 a cycle; -1 OOM. */
static int longest_path(const cp_graph *g, uint32_t **path, size_t *n)
{
    uint32_t *soff = NULL, *poff = NULL;
    uint32_t *succ = group_edges(g, 0, &soff), *pred = group_edges(g, 1, &poff);
    size_t m = g->n_nodes;
    uint32_t *order = scratch_take(g->s, CPS_ORDER, m * sizeof *order);
    uint32_t *deg = scratch_take(g->s, CPS_DEG, m * sizeof *deg);
    int64_t *dist = scratch_take(g->s, CPS_DIST, m * sizeof *dist);
    /* the best edge into a node, CP_NONE */
    uint32_t *via = scratch_take(g->s, CPS_VIA, m * sizeof *via);
    int rc = succ && pred && order && deg && dist && via ? 0 : -1;
    /* networkx knows a node from its first edge (CPGraph adds no node
     * alone): its nodes in that order, the sources first in it */
    size_t done = 0, seen = 0;
    for (size_t v = 0; rc == 0 && v < g->n_nodes; v++)
        deg[v] = CP_NONE;
    for (size_t i = 0; rc == 0 && i < 2 * g->n_e; i++) {
        uint32_t v = i % 2 ? g->e[i / 2].v : g->e[i / 2].u;
        if (deg[v] != CP_NONE)
            continue;
        deg[v] = poff[v + 1] - poff[v];
        seen++;
        if (!deg[v])
            order[done++] = v;
    }
    for (size_t i = 0; rc == 0 && i < done; i++) {
        uint32_t u = order[i];
        for (uint32_t j = soff[u]; j < soff[u + 1]; j++)
            if (--deg[g->e[succ[j]].v] == 0)
                order[done++] = g->e[succ[j]].v;
    }
    if (rc == 0 && done < seen)
        rc = 1;
    uint32_t best = CP_NONE;
    for (size_t i = 0; rc == 0 && i < done; i++) {
        uint32_t v = order[i];
        dist[v] = 0;
        via[v] = CP_NONE;
        for (uint32_t j = poff[v]; j < poff[v + 1]; j++) {
            const cp_edge *e = &g->e[pred[j]];
            int64_t d = dist[e->u] + gweight(e);
            if (via[v] == CP_NONE || d > dist[v]) {
                dist[v] = d;
                via[v] = pred[j];
            }
        }
        if (best == CP_NONE || dist[v] > dist[best])
            best = v;
    }
    *n = 0;
    if (rc == 0 && best != CP_NONE) {
        size_t len = 0;
        for (uint32_t v = best; via[v] != CP_NONE; v = g->e[via[v]].u)
            len++;
        *path = scratch_take(g->s, CPS_PATH, len * sizeof **path);
        if (!*path)
            rc = -1;
        for (uint32_t v = best, k = (uint32_t)len; rc == 0 && via[v] != CP_NONE;
             v = g->e[via[v]].u)
            (*path)[--k] = via[v];
        *n = len;
    }
    return rc;
}

static int table_of_kind(int kind)
{
    return kind == GPU_CE_ROW      ? GPU_NT_KERNEL
           : kind == GPU_CE_OP     ? GPU_NT_OP
           : kind == GPU_CE_PY     ? GPU_NT_PY
           : kind == GPU_CE_ANNOT  ? GPU_NT_ANNOT
                                   : GPU_NT_RUNTIME;
}

#define TOP_BEFORE(A, B)                                                            \
    ((A).us > (B).us || ((A).us == (B).us && ((A).table < (B).table ||              \
     ((A).table == (B).table && (A).name < (B).name))))
GPU_SORT_DEFINE(sort_top, gpu_cpath_top, TOP_BEFORE(A, B))
#define NAME_BEFORE(A, B) \
    ((A).table < (B).table || ((A).table == (B).table && (A).name < (B).name))
GPU_SORT_DEFINE(sort_top_name, gpu_cpath_top, NAME_BEFORE(A, B))

/* rows[0..n) summed by (table, name) into rows[0..m), by (table, name);
 * returns m. The path's rows are many and their names few: summed
 * through a key map, only the few are sorted (a sort of all of them was
 * the critical path's largest sort). */
static size_t sum_by_name(gpu_cpath_top *rows, size_t n, scratch *s)
{
    gpu_keymap map;
    size_t m = 0, i = 0;
    if (gpu_keymap_take_sums(&map, s, CPS_TOP_MAP, n) == 0)
        for (; i < n && gpu_keymap_room(&map) == 0; i++) {
            size_t at = gpu_keymap_put(&map, (uint64_t)rows[i].table << 32 | rows[i].name, m);
            if (at < m)
                rows[at].us += rows[i].us;
            else
                rows[m++] = rows[i];
        }
    if (i < n) {   /* out of memory: the sums so far and the rest by sorting */
        memmove(rows + m, rows + i, (n - i) * sizeof *rows);
        n = m + n - i;
        sort_top_name_in(rows, n, s);
        m = 0;
        for (i = 0; i < n; i++) {
            if (m && rows[m - 1].table == rows[i].table && rows[m - 1].name == rows[i].name)
                rows[m - 1].us += rows[i].us;
            else
                rows[m++] = rows[i];
        }
        return m;
    }
    sort_top_name_in(rows, m, s);
    return m;
}

typedef struct top_g {
    gpu_cpath_top t;
    uint32_t g;                 /* its shortened name's group */
} top_g;

#define GROUP_BEFORE(A, B) ((A).g != (B).g ? (A).g < (B).g : TOP_BEFORE((A).t, (B).t))
GPU_SORT_DEFINE(sort_groups, top_g, GROUP_BEFORE(A, B))

static uint32_t group_of(const uint32_t *const *short_of, const gpu_cpath_top *r)
{
    return short_of && short_of[r->table] ? short_of[r->table][r->name]
                                          : GPU_SHORT_GROUP(r->table, r->name);
}

/* The tops rows[0..n) summed by name, then by shortened name (the group
 * named by its name of the most time), the largest kept in out. */
static void keep_top(gpu_cpath_top *rows, size_t n, const uint32_t *const *short_of,
                     scratch *s, gpu_cpath *out)
{
    size_t m = sum_by_name(rows, n, s);
    /* by group, each group's largest first, then summed into it */
    top_g *g = scratch_take(s, CPS_TOP_GROUPS, m * sizeof *g);
    if (!g) {
        m = 0;   /* out of memory: no top events (the path's time stands) */
    } else {
        for (size_t i = 0; i < m; i++)
            g[i] = (top_g){rows[i], group_of(short_of, &rows[i])};
        sort_groups_in(g, m, s);
        size_t k = 0;
        for (size_t i = 0; i < m; i++) {
            if (i && g[i - 1].g == g[i].g)
                rows[k - 1].us += g[i].t.us;
            else
                rows[k++] = g[i].t;
        }
        m = k;
    }
    sort_top_in(rows, m, s);
    out->n_top = m < GPU_CPATH_TOP ? m : GPU_CPATH_TOP;
    memcpy(out->top, rows, out->n_top * sizeof *rows);
}

/* get_critical_path_breakdown and bound_by over the path's edges. 0, 1
 * when an edge is attributed to a call stack's root (HTA's bound_by then
 * fails its assertion), -1 OOM. */
static int breakdown(const cp_graph *g, const uint32_t *path, size_t n,
                     const uint32_t *const *short_of, gpu_cpath *out)
{
    gpu_cpath_top *rows = scratch_take(g->s, CPS_TOP_ROWS, n * sizeof *rows);
    if (!rows)
        return -1;
    size_t nr = 0;
    for (size_t i = 0; i < n; i++) {
        const cp_edge *e = &g->e[path[i]];
        int cls;
        if (e->type == CP_LAUNCH) {
            cls = GPU_BOUND_LAUNCH;
        } else if (e->type == CP_KK || e->type == CP_OPK) {
            if (e->attr < 0)
                return 1;
            const gpu_cp_event *a = &g->ev[e->attr];
            if (e->type == CP_KK)
                cls = GPU_BOUND_KERNEL_KERNEL;
            else if (a->kind == GPU_CE_ROW || a->kind == GPU_CE_SYNC)
                cls = a->flags & GPU_CF_COMM ? GPU_BOUND_COMM : GPU_BOUND_COMPUTE;
            else
                cls = a->flags & GPU_CF_DATA_BOUND ? GPU_BOUND_DATA_LOADING : GPU_BOUND_CPU;
            rows[nr++] = (gpu_cpath_top){a->name, (uint8_t)table_of_kind(a->kind), e->w};
        } else {
            continue;
        }
        out->bound_us[cls] += e->w;
        out->path_us += e->w;
    }
    keep_top(rows, nr, short_of, g->s, out);
    return 0;
}

static int run_graph(cp_graph *g, const uint32_t *const *short_of, gpu_cpath *out)
{
    if (make_calls(g) != 0 || make_nodes(g) != 0)
        return -1;
    if (gpu_cpath_lock_edges(g) != 0 || gpu_cpath_stack_edges(g) != 0 ||
        gpu_cpath_kernel_edges(g) != 0 || gpu_cpath_merge_twins(g) != 0)
        return -1;
    if (!valid_syncs(g)) {
        out->status = GPU_CPATH_INVALID;
        return 0;
    }
    uint32_t *path = NULL;
    size_t n = 0;
    int rc = longest_path(g, &path, &n);
    if (rc == 0 && n == 0)
        out->status = GPU_CPATH_EMPTY;   /* one node: HTA's assertion fails */
    else if (rc == 0 && (rc = breakdown(g, path, n, short_of, out)) == 1)
        out->status = GPU_CPATH_INVALID;
    else if (rc == 1)
        out->status = GPU_CPATH_INVALID;
    return rc < 0 ? -1 : 0;
}

/* The buffers of one window's graph kept for the next: its numbered
 * arrays and its edges. */
struct gpu_cpath_ws {
    scratch *s;
    cp_edge *e;
    size_t cap_e;
};

gpu_cpath_ws *gpu_cpath_ws_new(void)
{
    gpu_cpath_ws *w = calloc(1, sizeof *w);
    if (w && !(w->s = scratch_new())) {
        free(w);
        return NULL;
    }
    return w;
}

void gpu_cpath_ws_free(gpu_cpath_ws *w)
{
    if (!w)
        return;
    scratch_free(w->s);
    free(w->e);
    free(w);
}

/* The window's graph on w's buffers. */
static void graph_on(cp_graph *g, gpu_cpath_ws *w)
{
    g->s = w->s;
    g->e = w->e;
    g->cap_e = w->cap_e;
}

static void graph_off(const cp_graph *g, gpu_cpath_ws *w)
{
    w->e = g->e;
    w->cap_e = g->cap_e;
}

int gpu_cpath_run(const gpu_cpath_in *in, gpu_cpath *out)
{
    memset(out, 0, sizeof *out);
    if (!in->has_queue) {
        out->status = GPU_CPATH_NO_GPU;
        return 0;
    }
    if (in->n > GPU_CPATH_MAX_EVENTS) {
        out->status = GPU_CPATH_TOO_LARGE;
        return 0;
    }
    gpu_cpath_ws *own = in->ws ? NULL : gpu_cpath_ws_new(), *w = in->ws ? in->ws : own;
    int rc = w ? 0 : -1;
    if (w) {
        sort_by_seq_in(in->ev, in->n, w->s);
        cp_graph g = {.ev = in->ev, .n = in->n, .pids = in->pids, .tids = in->tids,
                      .n_threads = in->n_threads};
        graph_on(&g, w);
        rc = run_graph(&g, in->short_of, out);
        graph_off(&g, w);
    }
    gpu_cpath_ws_free(own);
    if (rc != 0 || out->status != GPU_CPATH_OK) {
        int st = rc != 0 ? GPU_CPATH_TOO_LARGE : out->status;
        memset(out, 0, sizeof *out);
        out->status = st;
    }
    return rc;
}
