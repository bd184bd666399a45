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
    if (!g || varbuf_reserve(&g->log, 30) != 0)
        return -1;
    /* the order nesting needs: start ascending, then the longer first */
    if (g->n && (ts < g->last_ts || (ts == g->last_ts && end > g->last_end)))
        g->unordered = 1;
    (void)varbuf_put_signed(&g->log, varbuf_diff(ts, g->last_ts));
    (void)varbuf_put(&g->log, (uint64_t)(end - ts));
    (void)varbuf_put(&g->log, name);
    g->last_ts = ts;
    g->last_end = end;
    g->n++;
    return 0;
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

/* One op decoded from a group's log (its start carried in *ts). */
static void next_op(const gpu_opgroup *g, size_t *pos, int64_t *ts, int64_t *end,
                    uint32_t *name)
{
    *ts = varbuf_add(*ts, varbuf_get_signed(&g->log, pos));
    *end = *ts + (int64_t)varbuf_get(&g->log, pos);
    *name = (uint32_t)varbuf_get(&g->log, pos);
}

typedef struct open_op {
    int64_t ts, end, child_us;
    uint32_t name;
} open_op;

/* Self times by a stack: an op that starts inside the open one is its
 * direct child (clipped to it, should it outlast its parent). The stack
 * grows with the nesting depth, not the ops. Ops come in nesting order. */
typedef struct nester {
    gpu_table *tab;
    open_op *stack;
    size_t depth, cap;
} nester;

static void close_op(nester *s)
{
    const open_op *o = &s->stack[--s->depth];
    int64_t dur = o->end - o->ts, self = dur - o->child_us;
    gpu_table_count(s->tab, o->name, dur, self > 0 ? self : 0);
}

static int nest_push(nester *s, int64_t ts, int64_t end, uint32_t name)
{
    /* an op that starts with the open one (both empty after rounding,
     * as sorted) stays inside it */
    while (s->depth && s->stack[s->depth - 1].end <= ts && s->stack[s->depth - 1].ts < ts)
        close_op(s);
    if (s->depth) {
        open_op *p = &s->stack[s->depth - 1];
        p->child_us += (end < p->end ? end : p->end) - ts;
    }
    if (vec_grow(&s->stack, &s->cap, s->depth + 1, sizeof *s->stack, 16) != 0)
        return -1;
    s->stack[s->depth++] = (open_op){ts, end, 0, name};
    return 0;
}

static void nest_finish(nester *s)
{
    while (s->depth)
        close_op(s);
    free(s->stack);
}

/* An op of a group decoded for sorting: 16 bytes. One longer than
 * OP_WIDE - 1 µs (71 min) keeps its end and name in wide[name]. */
#define OP_WIDE UINT32_MAX
typedef struct sort_op {
    int64_t ts;
    uint32_t dur;               /* µs, or OP_WIDE */
    uint32_t name;              /* row in ops or py, or index into wide */
} sort_op;

typedef struct wide_op {
    int64_t end;
    uint32_t name;
} wide_op;

typedef struct op_array {
    sort_op *ops;
    size_t n, cap;
    wide_op *wide;
    size_t n_wide, cap_wide;
} op_array;

static int64_t op_end(const op_array *g, const sort_op *o)
{
    return o->dur == OP_WIDE ? g->wide[o->name].end : o->ts + o->dur;
}

static uint32_t op_name(const op_array *g, const sort_op *o)
{
    return o->dur == OP_WIDE ? g->wide[o->name].name : o->name;
}

static int array_add(op_array *g, int64_t ts, int64_t end, uint32_t name)
{
    sort_op op = {ts, (uint32_t)(end - ts), name};
    if (end - ts >= (int64_t)OP_WIDE) {
        if (g->n_wide >= UINT32_MAX ||
            vec_grow(&g->wide, &g->cap_wide, g->n_wide + 1, sizeof *g->wide, 4) != 0)
            return -1;
        g->wide[g->n_wide] = (wide_op){end, name};
        op = (sort_op){ts, OP_WIDE, (uint32_t)g->n_wide++};
    }
    g->ops[g->n++] = op;
    return 0;
}

/* Parents before their children: by start, then the longer first (a wide
 * op's dur sorts above every other; wide ops among themselves: fix_wide). */
#define OP_BEFORE(A, B) ((A).ts < (B).ts || ((A).ts == (B).ts && (A).dur > (B).dur))
STABLE_SORT_DEFINE(sort_ops, sort_op, OP_BEFORE(A, B))

/* Wide ops that start together, by end descending (stable insertion). */
static void fix_wide(op_array *g)
{
    for (size_t i = 1; i < g->n; i++) {
        sort_op x = g->ops[i];
        if (x.dur != OP_WIDE)
            continue;
        size_t k = i;
        for (; k > 0 && g->ops[k - 1].dur == OP_WIDE && g->ops[k - 1].ts == x.ts &&
               op_end(g, &g->ops[k - 1]) < op_end(g, &x); k--)
            g->ops[k] = g->ops[k - 1];
        g->ops[k] = x;
    }
}

/* An unordered group: its ops before cutoff decoded (the log freed then),
 * stable-sorted into nesting order, nested. */
static int nest_sorted(nester *s, gpu_opgroup *g, int64_t cutoff_us)
{
    op_array a = {0};
    int rc = -1;
    a.ops = malloc((g->n ? g->n : 1) * sizeof *a.ops);
    int64_t ts = 0, end;
    uint32_t name;
    for (size_t pos = 0; a.ops && pos < g->log.n;) {
        next_op(g, &pos, &ts, &end, &name);
        if (ts < cutoff_us && array_add(&a, ts, end, name) != 0)
            goto out;
    }
    varbuf_free(&g->log);
    sort_op *tmp = a.ops ? malloc((a.n ? a.n : 1) * sizeof *tmp) : NULL;
    if (!tmp)
        goto out;
    sort_ops(a.ops, tmp, a.n);
    free(tmp);
    if (a.n_wide > 1)
        fix_wide(&a);
    for (size_t i = 0; i < a.n; i++)
        if (nest_push(s, a.ops[i].ts, op_end(&a, &a.ops[i]), op_name(&a, &a.ops[i])) != 0)
            goto out;
    rc = 0;
out:
    free(a.ops);
    free(a.wide);
    return rc;
}

/* One group's ops before cutoff, nested: straight from the log when they
 * came in order (a stable sort would leave them as they are). */
static int calc_group(gpu_trace *t, gpu_opgroup *g, int64_t cutoff_us)
{
    nester s = {g->py ? &t->res.py : &t->res.ops, NULL, 0, 0};
    int rc = 0;
    if (g->unordered) {
        rc = nest_sorted(&s, g, cutoff_us);
    } else {
        int64_t ts = 0, end;
        uint32_t name;
        for (size_t pos = 0; pos < g->log.n && rc == 0;) {
            next_op(g, &pos, &ts, &end, &name);
            if (ts < cutoff_us)
                rc = nest_push(&s, ts, end, name);
        }
    }
    if (rc == 0)
        nest_finish(&s);
    else
        free(s.stack);
    return rc;
}

int gpu_trace_calc_ops(gpu_trace *t, int64_t cutoff_us)
{
    for (size_t i = 0; i < t->n_groups; i++) {
        gpu_opgroup *g = &t->groups[i];
        int rc = calc_group(t, g, cutoff_us);
        varbuf_free(&g->log);
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

/* Devices whose points are counted as they come; past this many the
 * points are sorted at the end instead (a file with odd Device Ids). */
#define MEM_DEVICES_TRACKED 64

int gpu_trace_add_memory(gpu_trace *t, const gpu_mem_point *p)
{
    size_t d = 0;
    while (d < t->n_mdev && t->mdev[d].device != p->device)
        d++;
    if (!t->mev_unordered && d == t->n_mdev) {
        if (t->n_mdev >= MEM_DEVICES_TRACKED)
            t->mev_unordered = 1;
        else if (vec_grow(&t->mdev, &t->cap_mdev, t->n_mdev + 1, sizeof *t->mdev, 4) != 0)
            return -1;
        else
            t->mdev[t->n_mdev++] = (gpu_mem_dev){p->device, p->t_us, 0};
    }
    if (varbuf_reserve(&t->mlog, 40) != 0)
        return -1;
    if (!t->mev_unordered) {
        gpu_mem_dev *m = &t->mdev[d];
        if (p->t_us < m->last_t)
            t->mev_unordered = 1;
        m->last_t = p->t_us;
        m->n++;
    }
    gpu_mem_point *l = &t->mlast;
    (void)varbuf_put_signed(&t->mlog, varbuf_diff(p->t_us, l->t_us));
    (void)varbuf_put_signed(&t->mlog, varbuf_diff(p->device, l->device));
    (void)varbuf_put_signed(&t->mlog, varbuf_diff(p->allocated, l->allocated));
    (void)varbuf_put_signed(&t->mlog, varbuf_diff(p->reserved, l->reserved));
    *l = *p;
    t->n_mev++;
    return 0;
}

/* The next point of the log at *pos (the previous one in *p). */
static void next_point(const varbuf *b, size_t *pos, gpu_mem_point *p)
{
    p->t_us = varbuf_add(p->t_us, varbuf_get_signed(b, pos));
    p->device = varbuf_add(p->device, varbuf_get_signed(b, pos));
    p->allocated = varbuf_add(p->allocated, varbuf_get_signed(b, pos));
    p->reserved = varbuf_add(p->reserved, varbuf_get_signed(b, pos));
}

/* Every point, in a device's time order (a stable sort by device, time,
 * as sort_dev_time gives): its peaks, and its points thinned as
 * thin_device does, one pass over the log per device. */
static int memory_ordered(gpu_trace *t, gpu_acc *a)
{
    size_t total = 0;
    for (size_t d = 0; d < t->n_mdev; d++)
        total += t->mdev[d].n < GPU_MEM_POINTS ? t->mdev[d].n : GPU_MEM_POINTS;
    a->mem = malloc((total ? total : 1) * sizeof *a->mem);
    if (!a->mem)
        return -1;
    a->cap_mem = total;
    for (size_t d = 0; d < t->n_mdev; d++) {
        const gpu_mem_dev *m = &t->mdev[d];
        size_t buckets = m->n < GPU_MEM_POINTS ? m->n : GPU_MEM_POINTS;
        size_t i = 0, b = 0, to = m->n / buckets;
        int64_t pa = 0, pr = 0;
        gpu_mem_point p = {0}, q = {0};
        for (size_t pos = 0; pos < t->mlog.n;) {
            next_point(&t->mlog, &pos, &p);
            if (p.device != m->device)
                continue;
            pa = p.allocated > pa ? p.allocated : pa;
            pr = p.reserved > pr ? p.reserved : pr;
            if (i == to) {
                a->mem[a->n_mem++] = q;
                to = m->n * (++b + 1) / buckets;
            }
            if (i == 0 || i == m->n * b / buckets) {
                q = p;
            } else {
                q.allocated = p.allocated > q.allocated ? p.allocated : q.allocated;
                q.reserved = p.reserved > q.reserved ? p.reserved : q.reserved;
            }
            i++;
        }
        a->mem[a->n_mem++] = q;
        if (gpu_acc_add_peak(a, m->device, pa, pr) != 0)
            return -1;
    }
    return 0;
}

/* Points out of order: decoded whole (the log freed then), sorted by
 * device and time, thinned per device. */
static int memory_sorted(gpu_trace *t, gpu_acc *a)
{
    size_t n = t->n_mev;
    gpu_mem_point *p = malloc(n * sizeof *p);
    if (!p)
        return -1;
    gpu_mem_point q = {0};
    for (size_t pos = 0, i = 0; pos < t->mlog.n; i++) {
        next_point(&t->mlog, &pos, &q);
        p[i] = q;
    }
    varbuf_free(&t->mlog);
    gpu_mem_point *tmp = malloc(n * sizeof *tmp);
    a->mem = malloc(n * sizeof *a->mem);
    if (!tmp || !a->mem) {
        free(tmp);
        free(p);
        return -1;
    }
    a->cap_mem = n;
    sort_dev_time(p, tmp, n);
    free(tmp);
    int rc = 0;
    for (size_t lo = 0, hi; lo < n && rc == 0; lo = hi) {
        int64_t pa = 0, pr = 0;
        for (hi = lo; hi < n && p[hi].device == p[lo].device; hi++) {
            pa = p[hi].allocated > pa ? p[hi].allocated : pa;
            pr = p[hi].reserved > pr ? p[hi].reserved : pr;
        }
        rc = gpu_acc_add_peak(a, p[lo].device, pa, pr);
        thin_device(p, lo, hi, a->mem, &a->n_mem);
    }
    free(p);
    return rc;
}

int gpu_trace_calc_memory(gpu_trace *t)
{
    gpu_acc *a = &t->res;
    if (t->n_mev == 0)
        return 0;
    int rc = t->mev_unordered ? memory_sorted(t, a) : memory_ordered(t, a);
    varbuf_free(&t->mlog);
    if (rc != 0)
        return -1;
    gpu_mem_point *tmp = malloc((a->n_mem ? a->n_mem : 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    sort_time(a->mem, tmp, a->n_mem);
    free(tmp);
    return 0;
}
