/* gpu_rank: a rank's figures over its traces (see gpu_rank.h). */
#include <stdlib.h>

#include "model/gpu/gpu_impl.h"

struct gpu_rank {
    gpu_acc acc;
    gpu_summary sum;    /* refreshed by every merge */
    gpu_wsum ws;        /* its critical path and idle parts */
};

/* The summary refreshed from the acc. 0 or -1 on OOM (the critical path
 * and idle parts then empty). */
static int refresh(gpu_rank *r)
{
    gpu_acc_summary(&r->acc, &r->sum);
    gpu_wsum_free(&r->ws);
    int rc = gpu_wsum_make(&r->acc, 0, r->acc.n_wins, &r->ws);
    gpu_wsum_fill(&r->ws, &r->sum);
    return rc;
}

gpu_rank *gpu_rank_new(void)
{
    gpu_rank *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    gpu_acc_init(&r->acc);
    refresh(r);
    return r;
}

void gpu_rank_free(gpu_rank *r)
{
    if (!r)
        return;
    gpu_acc_free(&r->acc);
    gpu_wsum_free(&r->ws);
    free(r);
}

int gpu_rank_merge(gpu_rank *r, const gpu_trace *t)
{
    if (!t->ended)
        return -1;
    int rc = gpu_acc_merge(&r->acc, &t->res);
    return refresh(r) != 0 ? -1 : rc;
}

const gpu_summary *gpu_rank_summary(const gpu_rank *r)
{
    return &r->sum;
}

const gpu_table *gpu_rank_kernels(const gpu_rank *r)
{
    return &r->acc.kernels;
}

const gpu_table *gpu_rank_ops(const gpu_rank *r)
{
    return &r->acc.ops;
}

const gpu_table *gpu_rank_python(const gpu_rank *r)
{
    return &r->acc.py;
}

const gpu_table *gpu_rank_annotations(const gpu_rank *r)
{
    return &r->acc.annot;
}

const gpu_table *gpu_rank_runtime(const gpu_rank *r)
{
    return &r->acc.rt;
}

const gpu_table *gpu_rank_names(const gpu_rank *r, int table)
{
    return gpu_acc_names(&r->acc, table);
}

int gpu_rank_window(const gpu_rank *r, int64_t t0, int64_t t1, gpu_window *w)
{
    return gpu_window_fill(w, &r->acc, &r->sum, t0, t1);
}

int gpu_rank_window_holds_all(const gpu_rank *r, int64_t t0, int64_t t1)
{
    const gpu_acc *a = &r->acc;
    return t0 == GPU_WINDOW_ALL || a->n_wins == 0 ||
           (a->wins[0].start_us >= t0 && a->wins[a->n_wins - 1].start_us < t1);
}
