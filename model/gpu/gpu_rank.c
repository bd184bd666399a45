/* gpu_rank: a rank's figures over its traces (see gpu_rank.h). */
#include <stdlib.h>

#include "model/gpu/gpu_impl.h"

struct gpu_rank {
    gpu_acc acc;
    gpu_summary sum;    /* refreshed by every merge */
    gpu_wsum ws;        /* its critical path and idle parts */
    /* The model's time filter (--since/--until), f0 GPU_WINDOW_ALL when
     * none; fw holds the figures inside it when it leaves a window out
     * (use_fw), and every reader then sees only those. */
    int64_t f0, f1;
    int64_t e0;         /* f0 moved back to the start of a window it cuts */
    gpu_window *fw;
    int use_fw;
};

/* 1 when [t0, t1) holds every window of a (or a has none). */
static int holds_all(const gpu_acc *a, size_t lo, size_t hi, int64_t t0, int64_t t1)
{
    return lo == hi || (a->wins[lo].start_us >= t0 && a->wins[hi - 1].start_us < t1);
}

/* fw refilled from the acc when the filter leaves a window out. On OOM
 * fw is empty but still used: figures outside the filter never show. */
static int refilter(gpu_rank *r)
{
    const gpu_acc *a = &r->acc;
    r->use_fw = 0;
    if (r->f0 == GPU_WINDOW_ALL)
        return 0;
    /* A step is kept when it overlaps the filter, as the model keeps an
     * event (model.h): the one the filter's start cuts counts whole. A
     * rank's steps do not overlap, so their ends follow their starts. */
    size_t i = 0;
    while (i < a->n_wins && a->wins[i].end_us < r->f0)
        i++;
    r->e0 = i < a->n_wins && a->wins[i].start_us < r->f0 ? a->wins[i].start_us : r->f0;
    if (holds_all(a, 0, a->n_wins, r->e0, r->f1))
        return 0;
    if (!r->fw && !(r->fw = gpu_window_new()))
        return -1;
    r->use_fw = 1;
    return gpu_window_fill(r->fw, a, &r->sum, r->e0, r->f1);
}

/* The summary refreshed from the acc. 0 or -1 on OOM (the critical path
 * and idle parts then empty). */
static int refresh(gpu_rank *r)
{
    gpu_acc_summary(&r->acc, &r->sum);
    gpu_wsum_free(&r->ws);
    int rc = gpu_wsum_make(&r->acc, 0, r->acc.n_wins, &r->ws);
    gpu_wsum_fill(&r->ws, &r->sum);
    return refilter(r) != 0 ? -1 : rc;
}

gpu_rank *gpu_rank_new(void)
{
    gpu_rank *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    gpu_acc_init(&r->acc);
    r->f0 = GPU_WINDOW_ALL;
    r->f1 = INT64_MAX;
    refresh(r);
    return r;
}

int gpu_rank_set_filter(gpu_rank *r, int64_t t0, int64_t t1)
{
    r->f0 = t0;
    r->f1 = t1;
    return refilter(r);
}

void gpu_rank_free(gpu_rank *r)
{
    if (!r)
        return;
    gpu_acc_free(&r->acc);
    gpu_wsum_free(&r->ws);
    gpu_window_free(r->fw);
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
    return r->use_fw ? gpu_window_summary(r->fw) : &r->sum;
}

const gpu_table *gpu_rank_kernels(const gpu_rank *r)
{
    return gpu_rank_names(r, GPU_NT_KERNEL);
}

const gpu_table *gpu_rank_ops(const gpu_rank *r)
{
    return gpu_rank_names(r, GPU_NT_OP);
}

const gpu_table *gpu_rank_python(const gpu_rank *r)
{
    return gpu_rank_names(r, GPU_NT_PY);
}

const gpu_table *gpu_rank_annotations(const gpu_rank *r)
{
    return gpu_rank_names(r, GPU_NT_ANNOT);
}

const gpu_table *gpu_rank_runtime(const gpu_rank *r)
{
    return gpu_rank_names(r, GPU_NT_RUNTIME);
}

const gpu_table *gpu_rank_names(const gpu_rank *r, int table)
{
    return r->use_fw ? gpu_window_names(r->fw, table) : gpu_acc_names(&r->acc, table);
}

/* [t0, t1) cut to the filter's, when it leaves a window out. */
static void clamp(const gpu_rank *r, int64_t *t0, int64_t *t1)
{
    if (!r->use_fw)
        return;
    if (*t0 == GPU_WINDOW_ALL) {
        *t0 = r->e0;
        *t1 = r->f1;
        return;
    }
    *t0 = *t0 > r->e0 ? *t0 : r->e0;
    *t1 = *t1 < r->f1 ? *t1 : r->f1;
    *t1 = *t1 > *t0 ? *t1 : *t0;
}

int gpu_rank_window(const gpu_rank *r, int64_t t0, int64_t t1, gpu_window *w)
{
    clamp(r, &t0, &t1);
    return gpu_window_fill(w, &r->acc, &r->sum, t0, t1);
}

int gpu_rank_window_holds_all(const gpu_rank *r, int64_t t0, int64_t t1)
{
    const gpu_acc *a = &r->acc;
    if (t0 == GPU_WINDOW_ALL)
        return 1;
    if (!r->use_fw)
        return holds_all(a, 0, a->n_wins, t0, t1);
    return holds_all(a, gpu_acc_win_at(a, r->e0), gpu_acc_win_at(a, r->f1), t0, t1);
}
