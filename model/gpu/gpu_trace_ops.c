/* gpu_trace_ops: a trace's host events (CPU ops, Python functions, user
 * annotations, runtime calls) in groups per thread and category, and their
 * self-time tables, computed at the end of the file (gpu_trace.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/fnv.h"
#include "model/util/heap_sort.h"
#include "model/util/vec.h"

/* pid and tid, numeric or string, as one key: self times nest per thread. */
static uint64_t thread_key(const sm_kevent *ev)
{
    uint64_t h = fnv_add(FNV_SEED, &ev->pid, sizeof ev->pid);
    h = fnv_add(h, &ev->tid, sizeof ev->tid);
    h = fnv_add(h, ev->pid_str.ptr ? ev->pid_str.ptr : "", ev->pid_str.len);
    h = fnv_add(h, "/", 1);
    return fnv_add(h, ev->tid_str.ptr ? ev->tid_str.ptr : "", ev->tid_str.len);
}

typedef struct group_key {
    const gpu_opgroup *g;
    uint64_t thread;
    int cat;
} group_key;

static int group_eq(const void *item, const void *key)
{
    const group_key *k = key;
    const gpu_opgroup *g = &k->g[(uintptr_t)item - 1];
    return g->thread == k->thread && g->cat == k->cat;
}

typedef struct thread_find {
    const gpu_thread *th;
    uint64_t key;
} thread_find;

static int thread_eq(const void *item, const void *key)
{
    const thread_find *k = key;
    return k->th[(uintptr_t)item - 1].key == k->key;
}

/* The index of ev's thread, made on first sight; -1 on OOM. */
static int64_t thread_of(gpu_trace *t, uint64_t key, const sm_kevent *ev)
{
    thread_find k = {t->threads, key};
    void *it = idmap_find(&t->thread_map, key, thread_eq, &k);
    if (it)
        return (int64_t)(uintptr_t)it - 1;
    if (t->n_threads >= UINT32_MAX ||
        vec_grow(&t->threads, &t->cap_threads, t->n_threads + 1, sizeof *t->threads, 8) != 0 ||
        idmap_put(&t->thread_map, key, (void *)(uintptr_t)(t->n_threads + 1)) != 0)
        return -1;
    t->threads[t->n_threads] = (gpu_thread){key, ev->pid, ev->tid};
    return (int64_t)t->n_threads++;
}

static gpu_opgroup *find_group(gpu_trace *t, const sm_kevent *ev, int cat)
{
    uint64_t thread = thread_key(ev), h = thread ^ (uint64_t)cat;
    group_key k = {t->groups, thread, cat};
    void *it = idmap_find(&t->group_map, h, group_eq, &k);
    if (it)
        return &t->groups[(uintptr_t)it - 1];
    int64_t ti = thread_of(t, thread, ev);
    if (ti < 0 ||
        vec_grow(&t->groups, &t->cap_groups, t->n_groups + 1, sizeof *t->groups, 8) != 0 ||
        idmap_put(&t->group_map, h, (void *)(uintptr_t)(t->n_groups + 1)) != 0)
        return NULL;
    gpu_opgroup *g = &t->groups[t->n_groups++];
    *g = (gpu_opgroup){.thread = thread, .ti = (uint32_t)ti, .cat = (uint8_t)cat};
    return g;
}

int gpu_trace_add_op(gpu_trace *t, const gpu_hop *op, const sm_kevent *ev, int cat)
{
    gpu_opgroup *g = find_group(t, ev, cat);
    if (!g)
        return -1;
    /* the order nesting needs: start ascending, then the longer first */
    if (g->n && (op->ts < g->last.ts || (op->ts == g->last.ts && op->end > g->last.end)))
        g->unordered = 1;
    return gpu_trace_op_log(g, op);
}

int gpu_trace_op_log(gpu_opgroup *g, const gpu_hop *op)
{
    if (varbuf_reserve(&g->log, 50) != 0)
        return -1;
    (void)varbuf_put_signed(&g->log, varbuf_diff(op->ts, g->last.ts));
    (void)varbuf_put(&g->log, (uint64_t)(op->end - op->ts));
    (void)varbuf_put(&g->log, op->name);
    (void)varbuf_put_signed(&g->log, varbuf_diff(op->seq, g->last.seq));
    if (g->cat == GPU_CE_RUNTIME)
        (void)varbuf_put_signed(&g->log, varbuf_diff(op->corr, g->last.corr));
    g->last = *op;
    g->n++;
    return 0;
}

void gpu_trace_op_next(const gpu_opgroup *g, size_t *pos, gpu_hop *op)
{
    op->ts = varbuf_add(op->ts, varbuf_get_signed(&g->log, pos));
    op->end = op->ts + (int64_t)varbuf_get(&g->log, pos);
    op->name = (uint32_t)varbuf_get(&g->log, pos);
    op->seq = varbuf_add(op->seq, varbuf_get_signed(&g->log, pos));
    op->corr = g->cat == GPU_CE_RUNTIME ? varbuf_add(op->corr, varbuf_get_signed(&g->log, pos))
                                        : SM_KEV_NONE;
}

void gpu_trace_free_ops(gpu_trace *t)
{
    for (size_t i = 0; i < t->n_groups; i++)
        varbuf_free(&t->groups[i].log);
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
        b += t->groups[i].log.cap;
    return b;
}

void gpu_trace_fit_ops(gpu_trace *t)
{
    for (size_t i = 0; i < t->n_groups; i++)
        varbuf_fit(&t->groups[i].log);
}

/* Self times by a stack: an op that starts inside the open one is its
 * direct child (clipped to it, should it outlast its parent). The stack
 * grows with the nesting depth, not the ops. Ops come in nesting order. */
static void close_op(gpu_nest *s)
{
    const gpu_nest_op *o = &s->stack[--s->depth];
    int64_t dur = o->end - o->ts, self = dur - o->child_us;
    gpu_table_count(s->tab, o->name, dur, self > 0 ? self : 0);
}

int gpu_nest_push(gpu_nest *s, int64_t ts, int64_t end, uint32_t name)
{
    /* an op that starts with the open one (both empty after rounding,
     * as sorted) stays inside it */
    while (s->depth && s->stack[s->depth - 1].end <= ts && s->stack[s->depth - 1].ts < ts)
        close_op(s);
    if (s->depth) {
        gpu_nest_op *p = &s->stack[s->depth - 1];
        p->child_us += (end < p->end ? end : p->end) - ts;
    }
    if (vec_grow(&s->stack, &s->cap, s->depth + 1, sizeof *s->stack, 16) != 0)
        return -1;
    s->stack[s->depth++] = (gpu_nest_op){ts, end, 0, name};
    return 0;
}

void gpu_nest_finish(gpu_nest *s)
{
    while (s->depth)
        close_op(s);
    free(s->stack);
    s->stack = NULL;
    s->cap = 0;
}

/* Parents before their children: by start, then the longer first, then
 * file order (what a stable sort of the file's order gives). */
#define OP_BEFORE(A, B) \
    ((A).ts < (B).ts || ((A).ts == (B).ts && ((A).end > (B).end || \
     ((A).end == (B).end && (A).seq < (B).seq))))
HEAP_SORT_DEFINE(sort_hops, gpu_hop, OP_BEFORE(A, B))

/* An unordered group: decoded, sorted into nesting order in place (a total
 * order, so the sort need not be stable and needs no scratch), and logged
 * again in that order, so that it reads as an ordered group from now on.
 * 0 or -1 on OOM (g unchanged). */
static int reorder_group(gpu_opgroup *g)
{
    gpu_hop *ops = malloc((g->n ? g->n : 1) * sizeof *ops), op = {0};
    if (!ops)
        return -1;
    size_t n = 0;
    for (size_t pos = 0; pos < g->log.n;) {
        gpu_trace_op_next(g, &pos, &op);
        ops[n++] = op;
    }
    sort_hops(ops, n);
    gpu_opgroup o = {.thread = g->thread, .ti = g->ti, .cat = g->cat};
    for (size_t i = 0; i < n; i++)
        if (gpu_trace_op_log(&o, &ops[i]) != 0) {
            varbuf_free(&o.log);
            free(ops);
            return -1;
        }
    free(ops);
    varbuf_free(&g->log);
    varbuf_fit(&o.log);
    *g = o;
    return 0;
}

static gpu_table *group_table(gpu_trace *t, const gpu_opgroup *g)
{
    return g->cat == GPU_CE_OP      ? &t->res.ops
           : g->cat == GPU_CE_PY    ? &t->res.py
           : g->cat == GPU_CE_ANNOT ? &t->res.annot
                                    : &t->res.rt;
}

/* One group's events before cutoff, nested, in nesting order (an
 * unordered group sorted first). */
static int calc_group(gpu_trace *t, gpu_opgroup *g, int64_t cutoff_us)
{
    if (g->unordered && reorder_group(g) != 0)
        return -1;
    gpu_nest s = {group_table(t, g), NULL, 0, 0};
    gpu_hop op = {0};
    int rc = 0;
    for (size_t pos = 0; pos < g->log.n && rc == 0;) {
        gpu_trace_op_next(g, &pos, &op);
        if (op.ts < cutoff_us)
            rc = gpu_nest_push(&s, op.ts, op.end, op.name);
    }
    if (rc == 0)
        gpu_nest_finish(&s);
    else
        free(s.stack);
    return rc;
}

int gpu_trace_calc_ops(gpu_trace *t, int64_t cutoff_us)
{
    for (size_t i = 0; i < t->n_groups; i++)
        if (calc_group(t, &t->groups[i], cutoff_us) != 0)
            return -1;
    return 0;
}
