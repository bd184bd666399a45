/* gpu_trace_ops: a trace's CPU-side tables and its GPU memory, computed at
 * the end of the file (definitions in gpu_trace.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

/* Within a thread, parents before their children: by start, then the
 * longer first. */
STABLE_SORT_DEFINE(sort_ops, gpu_op,
                   A.py < B.py ||
                   (A.py == B.py && (A.thread < B.thread ||
                   (A.thread == B.thread && (A.ts < B.ts ||
                   (A.ts == B.ts && A.end > B.end))))))

typedef struct open_op {
    size_t i;
    int64_t child_us;
} open_op;

static void close_op(gpu_trace *t, const open_op *o)
{
    const gpu_op *op = &t->ops[o->i];
    int64_t dur = op->end - op->ts, self = dur - o->child_us;
    gpu_table_count(op->py ? &t->res.py : &t->res.ops, op->name, dur, self > 0 ? self : 0);
}

/* Self times by a stack per thread: an op that starts inside the open one
 * is its direct child (clipped to it, should it outlast its parent). */
static void nest(gpu_trace *t, open_op *stack)
{
    size_t depth = 0;
    for (size_t i = 0; i < t->n_ops; i++) {
        const gpu_op *op = &t->ops[i];
        if (i > 0 && (op->py != t->ops[i - 1].py || op->thread != t->ops[i - 1].thread))
            while (depth)
                close_op(t, &stack[--depth]);
        /* an op that starts with the open one (both empty after rounding,
         * as sorted) stays inside it */
        while (depth && t->ops[stack[depth - 1].i].end <= op->ts &&
               t->ops[stack[depth - 1].i].ts < op->ts)
            close_op(t, &stack[--depth]);
        if (depth) {
            const gpu_op *p = &t->ops[stack[depth - 1].i];
            stack[depth - 1].child_us += (op->end < p->end ? op->end : p->end) - op->ts;
        }
        stack[depth++] = (open_op){i, 0};
    }
    while (depth)
        close_op(t, &stack[--depth]);
}

int gpu_trace_calc_ops(gpu_trace *t, int64_t cutoff_us)
{
    size_t k = 0;
    for (size_t i = 0; i < t->n_ops; i++)
        if (t->ops[i].ts < cutoff_us)
            t->ops[k++] = t->ops[i];
    t->n_ops = k;
    gpu_op *tmp = malloc((k ? k : 1) * sizeof *tmp);
    open_op *stack = malloc((k ? k : 1) * sizeof *stack);
    if (!tmp || !stack) {
        free(tmp);
        free(stack);
        return -1;
    }
    sort_ops(t->ops, tmp, k);
    free(tmp);
    nest(t, stack);
    free(stack);
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
