/* gpu_window: a rank's figures over a time window (gpu_rank.h): the sums
 * of its analysed windows that start in [t0, t1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/pct.h"

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

static void window_clear(gpu_window *w)
{
    gpu_acc_free(&w->own);
    gpu_acc_init(&w->own);
    gpu_wsum_free(&w->ws);
    free(w->peaks);
    w->peaks = NULL;
}

void gpu_window_free(gpu_window *w)
{
    if (!w)
        return;
    window_clear(w);
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

size_t gpu_acc_win_at(const gpu_acc *a, int64_t t)
{
    size_t lo = 0, hi = a->n_wins;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->wins[mid].start_us < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One window's figures added into s; delay: the launch delays' sum. */
static void add_figures(const gpu_win *w, const gpu_wfig *f, gpu_summary *s, int64_t *delay)
{
    s->steps += w->step >= 0;
    s->span_us += w->end_us - w->start_us;
    s->idle_us += f->idle_us;
    s->compute_us += f->compute_us;
    s->comm_comp_us += f->comm_comp_us;
    for (int k = 1; k < 8; k++) {
        s->ktype_us[k] += f->ktype_us[k];
        s->comm_us += k & GPU_KT_COMMUNICATION ? f->ktype_us[k] : 0;
    }
    s->host_wait_us += f->host_wait_us;
    s->kernel_wait_us += f->kernel_wait_us;
    s->other_idle_us += f->other_us;
    s->launch.count += f->launches;
    s->launch.short_kernels += f->short_kernels;
    s->launch.delay_outliers += f->outliers;
    *delay += f->delay_sum_us;
}

/* The ratios of the sums (whole: the rank's summary). */
static void finish_figures(const gpu_summary *whole, int64_t delay, gpu_summary *s)
{
    s->traces = whole->traces;
    s->placed = whole->placed;
    s->has_gpu = whole->has_gpu;
    s->non_compute_us = s->span_us - s->compute_us - s->idle_us;
    s->idle_pct = s->has_gpu ? pct_of(s->idle_us, s->span_us, NAN) : NAN;
    s->compute_pct = s->has_gpu ? pct_of(s->compute_us, s->span_us, NAN) : NAN;
    s->non_compute_pct = s->has_gpu ? pct_of(s->non_compute_us, s->span_us, NAN) : NAN;
    s->has_comm = s->comm_us > 0;
    s->comm_comp_overlap_pct = pct_of(s->comm_comp_us, s->comm_us, NAN);
    int64_t all = 0;
    for (int k = 1; k < 8; k++)
        all += s->ktype_us[k];
    for (int k = 1; k < 8; k++)
        s->ktype_pct[k] = pct_of(s->ktype_us[k], all, NAN);
    s->launch.delay_mean_us = s->launch.count ? (double)delay / (double)s->launch.count : NAN;
    s->launch.delay_p50_us = s->launch.delay_p95_us = NAN;
    s->launch.cpu_p50_us = s->launch.gpu_p50_us = NAN;
    s->backend = whole->backend;
}

/* The Timeline's steps and the memory series in [t0, t1): ranges of the
 * rank's arrays; the peaks over the points in it. 0 or -1 on OOM. */
static int sum_series(gpu_window *w, const gpu_summary *whole, int64_t t0, int64_t t1)
{
    gpu_summary *s = &w->sum;
    size_t i = 0, j;
    while (i < whole->n_steps && whole->step_rows[i].start_us < t0)
        i++;
    for (j = i; j < whole->n_steps && whole->step_rows[j].start_us < t1; j++)
        ;
    s->step_rows = whole->step_rows + i;
    s->n_steps = j - i;
    for (i = 0; i < whole->memory.n_series && whole->memory.series[i].t_us < t0; i++)
        ;
    for (j = i; j < whole->memory.n_series && whole->memory.series[j].t_us < t1; j++)
        ;
    s->memory.series = whole->memory.series + i;
    s->memory.n_series = j - i;
    memcpy(s->memory.total_global_mem, whole->memory.total_global_mem,
           sizeof s->memory.total_global_mem);
    s->memory.n_devices = whole->memory.n_devices;
    w->peaks = calloc(whole->memory.n_peaks ? whole->memory.n_peaks : 1, sizeof *w->peaks);
    if (!w->peaks)
        return -1;
    size_t np = 0;
    for (size_t k = i; k < j; k++) {
        const gpu_mem_point *p = &whole->memory.series[k];
        size_t d = 0;
        while (d < np && w->peaks[d].device != p->device)
            d++;
        if (d == np) {
            if (np == whole->memory.n_peaks)
                continue;   /* a device without a peak: none */
            w->peaks[np++] = (gpu_mem_peak){p->device, 0, 0};
        }
        w->peaks[d].allocated = p->allocated > w->peaks[d].allocated ? p->allocated
                                                                    : w->peaks[d].allocated;
        w->peaks[d].reserved = p->reserved > w->peaks[d].reserved ? p->reserved
                                                                 : w->peaks[d].reserved;
    }
    int64_t pa = 0, pr = 0;
    for (size_t d = 0; d < np; d++) {
        pa = w->peaks[d].allocated > pa ? w->peaks[d].allocated : pa;
        pr = w->peaks[d].reserved > pr ? w->peaks[d].reserved : pr;
    }
    s->memory.peaks = w->peaks;
    s->memory.n_peaks = np;
    s->memory.peak_allocated_mb = (double)pa / (1024.0 * 1024.0);
    s->memory.peak_reserved_mb = (double)pr / (1024.0 * 1024.0);
    return 0;
}

/* One window's table rows into w's own tables, named as a's. 0 or -1. */
static int add_tables(gpu_window *w, const gpu_acc *a, const gpu_win_rows *r)
{
    for (int t = 0; t < GPU_NT_N; t++) {
        const gpu_table *src = gpu_acc_names(a, t);
        gpu_table *dst = (gpu_table *)gpu_acc_names(&w->own, t);
        for (size_t k = 0; k < r->n_rows[t]; k++) {
            const gpu_wrow *x = &r->rows[t][k];
            const gpu_stat *st = &src->rows[x->name];
            int64_t j = gpu_table_intern(dst, (sm_str){st->name, st->len});
            if (j < 0)
                return -1;
            gpu_stat *d = &dst->rows[j];
            d->type = st->type;
            d->max_us = d->count == 0 || x->max_us > d->max_us ? x->max_us : d->max_us;
            d->min_us = 0;   /* not kept per window */
            d->count += x->count;
            d->sum_us += x->sum_us;
            d->self_us += x->self_us;
        }
    }
    return 0;
}

/* Windows [lo, hi) of a into w: figures, tables, critical path and idle
 * causes, each window's record read once. 0 or -1 on OOM. */
static int sum_windows(gpu_window *w, const gpu_acc *a, const gpu_summary *whole, size_t lo,
                       size_t hi)
{
    int64_t delay = 0;
    void *c = gpu_wsum_begin();
    int rc = c ? 0 : -1;
    memset(&w->ws, 0, sizeof w->ws);
    for (size_t i = lo; rc == 0 && i < hi; i++) {
        gpu_win_rows r;
        if ((rc = gpu_win_rows_read(a, &a->wins[i], &r)) != 0)
            break;
        add_figures(&a->wins[i], &r.fig, &w->sum, &delay);
        gpu_wsum_add(&w->ws, &r, c);
        rc = add_tables(w, a, &r);
        gpu_win_rows_free(&r);
    }
    finish_figures(whole, delay, &w->sum);
    if (rc != 0) {
        free(c);
        c = NULL;
    }
    return gpu_wsum_end(a, &w->ws, c);
}

int gpu_window_fill(gpu_window *w, const gpu_acc *a, const gpu_summary *whole, int64_t t0,
                    int64_t t1)
{
    window_clear(w);
    if (t0 == GPU_WINDOW_ALL) {
        w->sum = *whole;
        for (int i = 0; i < GPU_NT_N; i++)
            w->names[i] = gpu_acc_names(a, i);
        return 0;
    }
    memset(&w->sum, 0, sizeof w->sum);
    for (int i = 0; i < GPU_NT_N; i++)
        w->names[i] = gpu_acc_names(&w->own, i);
    size_t lo = gpu_acc_win_at(a, t0), hi = t1 > t0 ? gpu_acc_win_at(a, t1) : lo;
    if (sum_windows(w, a, whole, lo, hi) != 0 || sum_series(w, whole, t0, t1) != 0) {
        window_clear(w);
        gpu_acc_summary(&w->own, &w->sum);
        return -1;
    }
    gpu_wsum_fill(&w->ws, &w->sum);
    return 0;
}
