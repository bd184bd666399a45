/* gpu_trace_mem: a trace's GPU memory, computed at the end of the file
 * (definitions in gpu_trace.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

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
