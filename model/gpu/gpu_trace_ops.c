/* gpu_trace_ops: a trace's CPU-side tables and its GPU memory, computed at
 * the end of the file (definitions in gpu_trace.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

typedef struct group_key {
    const gpu_opgroup *g;
    uint64_t thread;
    int py;
} group_key;

static int group_eq(const void *item, const void *key)
{
    const group_key *k = key;
    const gpu_opgroup *g = &k->g[(uintptr_t)item - 1];
    return g->thread == k->thread && g->py == k->py;
}

static gpu_opgroup *find_group(gpu_trace *t, uint64_t thread, int py)
{
    uint64_t h = thread ^ (uint64_t)py;
    group_key k = {t->groups, thread, py};
    void *it = idmap_find(&t->group_map, h, group_eq, &k);
    if (it)
        return &t->groups[(uintptr_t)it - 1];
    if (vec_grow(&t->groups, &t->cap_groups, t->n_groups + 1, sizeof *t->groups, 8) != 0 ||
        idmap_put(&t->group_map, h, (void *)(uintptr_t)(t->n_groups + 1)) != 0)
        return NULL;
    gpu_opgroup *g = &t->groups[t->n_groups++];
    *g = (gpu_opgroup){.thread = thread, .py = py};
    return g;
}

int gpu_trace_add_op(gpu_trace *t, int64_t ts, int64_t end, uint64_t thread, uint32_t name,
                     int py)
{
    gpu_opgroup *g = find_group(t, thread, py);
    if (!g || vec_grow(&g->ops, &g->cap, g->n + 1, sizeof *g->ops, 64) != 0)
        return -1;
    gpu_op op = {ts, (uint32_t)(end - ts), name};
    if (end - ts >= (int64_t)GPU_OP_WIDE) {
        if (g->n_wide >= UINT32_MAX ||
            vec_grow(&g->wide, &g->cap_wide, g->n_wide + 1, sizeof *g->wide, 4) != 0)
            return -1;
        g->wide[g->n_wide] = (gpu_op_wide){end, name};
        op = (gpu_op){ts, GPU_OP_WIDE, (uint32_t)g->n_wide++};
    }
    g->ops[g->n++] = op;
    return 0;
}

void gpu_trace_free_ops(gpu_trace *t)
{
    for (size_t i = 0; i < t->n_groups; i++) {
        free(t->groups[i].ops);
        free(t->groups[i].wide);
    }
    free(t->groups);
    t->groups = NULL;
    t->n_groups = t->cap_groups = 0;
    idmap_free(&t->group_map);
    idmap_init(&t->group_map);
}

size_t gpu_trace_ops_bytes(const gpu_trace *t)
{
    size_t b = t->cap_groups * sizeof *t->groups + t->group_map.cap * sizeof(idmap_slot);
    for (size_t i = 0; i < t->n_groups; i++)
        b += t->groups[i].cap * sizeof(gpu_op) + t->groups[i].cap_wide * sizeof(gpu_op_wide);
    return b;
}

static int64_t op_end(const gpu_opgroup *g, const gpu_op *o)
{
    return o->dur == GPU_OP_WIDE ? g->wide[o->name].end : o->ts + o->dur;
}

static uint32_t op_name(const gpu_opgroup *g, const gpu_op *o)
{
    return o->dur == GPU_OP_WIDE ? g->wide[o->name].name : o->name;
}

/* Parents before their children: by start, then the longer first (a wide
 * op's dur sorts above every other; wide ops among themselves: fix_wide). */
#define OP_BEFORE(A, B) ((A).ts < (B).ts || ((A).ts == (B).ts && (A).dur > (B).dur))
STABLE_SORT_DEFINE(sort_ops, gpu_op, OP_BEFORE(A, B))

/* Wide ops that start together, by end descending (stable insertion). */
static void fix_wide(gpu_opgroup *g)
{
    for (size_t i = 1; i < g->n; i++) {
        gpu_op x = g->ops[i];
        if (x.dur != GPU_OP_WIDE)
            continue;
        size_t k = i;
        for (; k > 0 && g->ops[k - 1].dur == GPU_OP_WIDE && g->ops[k - 1].ts == x.ts &&
               op_end(g, &g->ops[k - 1]) < op_end(g, &x); k--)
            g->ops[k] = g->ops[k - 1];
        g->ops[k] = x;
    }
}

typedef struct open_op {
    int64_t ts, end, child_us;
    uint32_t name;
} open_op;

static void close_op(gpu_trace *t, int py, const open_op *o)
{
    int64_t dur = o->end - o->ts, self = dur - o->child_us;
    gpu_table_count(py ? &t->res.py : &t->res.ops, o->name, dur, self > 0 ? self : 0);
}

/* Self times by a stack: an op that starts inside the open one is its
 * direct child (clipped to it, should it outlast its parent). The stack
 * grows with the nesting depth, not the ops. */
static int nest(gpu_trace *t, const gpu_opgroup *g)
{
    open_op *stack = NULL;
    size_t depth = 0, cap = 0;
    for (size_t i = 0; i < g->n; i++) {
        const gpu_op *op = &g->ops[i];
        int64_t end = op_end(g, op);
        /* an op that starts with the open one (both empty after rounding,
         * as sorted) stays inside it */
        while (depth && stack[depth - 1].end <= op->ts && stack[depth - 1].ts < op->ts)
            close_op(t, g->py, &stack[--depth]);
        if (depth) {
            open_op *p = &stack[depth - 1];
            p->child_us += (end < p->end ? end : p->end) - op->ts;
        }
        if (vec_grow(&stack, &cap, depth + 1, sizeof *stack, 16) != 0) {
            free(stack);
            return -1;
        }
        stack[depth++] = (open_op){op->ts, end, 0, op_name(g, op)};
    }
    while (depth)
        close_op(t, g->py, &stack[--depth]);
    free(stack);
    return 0;
}

static int sorted(const gpu_opgroup *g)
{
    for (size_t i = 1; i < g->n; i++)
        if (OP_BEFORE(g->ops[i], g->ops[i - 1]))
            return 0;
    return 1;
}

/* One group: its ops before cutoff, sorted (a scratch copy only when
 * they did not come in order), nested. */
static int calc_group(gpu_trace *t, gpu_opgroup *g, int64_t cutoff_us)
{
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->ops[i].ts < cutoff_us)
            g->ops[k++] = g->ops[i];
    g->n = k;
    if (!sorted(g)) {
        gpu_op *tmp = malloc(k * sizeof *tmp);
        if (!tmp)
            return -1;
        sort_ops(g->ops, tmp, k);
        free(tmp);
    }
    if (g->n_wide > 1)
        fix_wide(g);
    return nest(t, g);
}

int gpu_trace_calc_ops(gpu_trace *t, int64_t cutoff_us)
{
    for (size_t i = 0; i < t->n_groups; i++) {
        gpu_opgroup *g = &t->groups[i];
        int rc = calc_group(t, g, cutoff_us);
        free(g->ops);
        free(g->wide);
        *g = (gpu_opgroup){.thread = g->thread, .py = g->py};
        if (rc != 0)
            return -1;
    }
    return 0;
}

STABLE_SORT_DEFINE(sort_dev_time, gpu_mem_point,
                   A.device < B.device || (A.device == B.device && A.t_us < B.t_us))
STABLE_SORT_DEFINE(sort_time, gpu_mem_point,
                   A.t_us < B.t_us || (A.t_us == B.t_us && (A.device < B.device ||
                   (A.device == B.device && (A.allocated < B.allocated ||
                   (A.allocated == B.allocated && A.reserved < B.reserved))))))

/* One device's points [lo, hi) into at most GPU_MEM_POINTS buckets, each
 * its first time and its highest values, so no peak is thinned away. */
static void thin_device(const gpu_mem_point *p, size_t lo, size_t hi, gpu_mem_point *out,
                        size_t *n)
{
    size_t m = hi - lo, buckets = m < GPU_MEM_POINTS ? m : GPU_MEM_POINTS;
    for (size_t b = 0; b < buckets; b++) {
        size_t from = lo + m * b / buckets, to = lo + m * (b + 1) / buckets;
        gpu_mem_point q = p[from];
        for (size_t i = from + 1; i < to; i++) {
            q.allocated = p[i].allocated > q.allocated ? p[i].allocated : q.allocated;
            q.reserved = p[i].reserved > q.reserved ? p[i].reserved : q.reserved;
        }
        out[(*n)++] = q;
    }
}

int gpu_trace_calc_memory(gpu_trace *t)
{
    gpu_acc *a = &t->res;
    size_t n = t->n_mev;
    if (n == 0)
        return 0;
    gpu_mem_point *tmp = malloc(n * sizeof *tmp);
    a->mem = malloc(n * sizeof *a->mem);
    if (!tmp || !a->mem) {
        free(tmp);
        return -1;
    }
    a->cap_mem = n;
    sort_dev_time(t->mev, tmp, n);
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        int64_t pa = 0, pr = 0;
        for (hi = lo; hi < n && t->mev[hi].device == t->mev[lo].device; hi++) {
            pa = t->mev[hi].allocated > pa ? t->mev[hi].allocated : pa;
            pr = t->mev[hi].reserved > pr ? t->mev[hi].reserved : pr;
        }
        if (gpu_acc_add_peak(a, t->mev[lo].device, pa, pr) != 0) {
            free(tmp);
            return -1;
        }
        thin_device(t->mev, lo, hi, a->mem, &a->n_mem);
    }
    sort_time(a->mem, tmp, a->n_mem);
    free(tmp);
    return 0;
}
