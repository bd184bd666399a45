/* gpu_window: a rank's figures over a time window (gpu_rank.h). */
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"

gpu_window *gpu_window_new(void)
{
    gpu_window *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    gpu_acc_init(&w->own);
    gpu_acc_summary(&w->own, &w->sum);
    for (int i = 0; i < GPU_NT_N; i++)
        w->names[i] = gpu_acc_names(&w->own, i);
    return w;
}

void gpu_window_free(gpu_window *w)
{
    if (!w)
        return;
    gpu_acc_free(&w->own);
    free(w);
}

const gpu_summary *gpu_window_summary(const gpu_window *w)
{
    return &w->sum;
}

const gpu_table *gpu_window_names(const gpu_window *w, int table)
{
    return table >= 0 && table < GPU_NT_N ? w->names[table] : NULL;
}

int gpu_window_fill(gpu_window *w, const gpu_acc *a, const gpu_summary *whole, int64_t t0,
                    int64_t t1)
{
    gpu_acc_free(&w->own);
    gpu_acc_init(&w->own);
    if (t0 == GPU_WINDOW_ALL) {
        w->sum = *whole;
        for (int i = 0; i < GPU_NT_N; i++)
            w->names[i] = gpu_acc_names(a, i);
        return 0;
    }
    (void)t1;   /* the steps' sums come with the per-window records */
    gpu_acc_summary(&w->own, &w->sum);
    for (int i = 0; i < GPU_NT_N; i++)
        w->names[i] = gpu_acc_names(&w->own, i);
    return 0;
}
