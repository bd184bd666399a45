/* gpu_acc: the mergeable summary of one trace or one rank (gpu_impl.h).
 * Every merge is commutative: sums, maxima, sketches, and arrays kept
 * sorted by every field, so no result depends on the order of traces. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/pct.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

void gpu_acc_init(gpu_acc *a)
{
    memset(a, 0, sizeof *a);
    gpu_table_init(&a->kernels);
    gpu_table_init(&a->ops);
    gpu_table_init(&a->py);
    gpu_table_init(&a->annot);
    gpu_table_init(&a->rt);
}

void gpu_acc_free(gpu_acc *a)
{
    free(a->streams);
    free(a->steps);
    free(a->mem);
    free(a->peaks);
    quantile_free(a->delay);
    quantile_free(a->cpu);
    quantile_free(a->gpu);
    gpu_table_free(&a->kernels);
    gpu_table_free(&a->ops);
    gpu_table_free(&a->py);
    gpu_table_free(&a->annot);
    gpu_table_free(&a->rt);
    free(a->wins);
    gpu_acc_free_segs(a);
    memset(a, 0, sizeof *a);
}

gpu_stream_idle *gpu_acc_stream(gpu_acc *a, int64_t stream)
{
    size_t i = 0;
    while (i < a->n_streams && a->streams[i].stream < stream)
        i++;
    if (i < a->n_streams && a->streams[i].stream == stream)
        return &a->streams[i];
    if (vec_grow(&a->streams, &a->cap_streams, a->n_streams + 1, sizeof *a->streams, 8) != 0)
        return NULL;
    memmove(&a->streams[i + 1], &a->streams[i], (a->n_streams - i) * sizeof *a->streams);
    a->n_streams++;
    memset(&a->streams[i], 0, sizeof a->streams[i]);
    a->streams[i].stream = stream;
    return &a->streams[i];
}

int gpu_acc_add_peak(gpu_acc *a, int64_t device, int64_t alloc, int64_t reserved)
{
    size_t i = 0;
    while (i < a->n_peaks && a->peaks[i].device < device)
        i++;
    if (i == a->n_peaks || a->peaks[i].device != device) {
        if (vec_grow(&a->peaks, &a->cap_peaks, a->n_peaks + 1, sizeof *a->peaks, 4) != 0)
            return -1;
        memmove(&a->peaks[i + 1], &a->peaks[i], (a->n_peaks - i) * sizeof *a->peaks);
        a->n_peaks++;
        a->peaks[i] = (gpu_mem_peak){device, 0, 0};
    }
    gpu_mem_peak *p = &a->peaks[i];
    p->allocated = alloc > p->allocated ? alloc : p->allocated;
    p->reserved = reserved > p->reserved ? reserved : p->reserved;
    return 0;
}

STABLE_SORT_DEFINE(sort_steps, gpu_step,
                   A.start_us < B.start_us || (A.start_us == B.start_us && (A.step < B.step ||
                   (A.step == B.step && A.dur_us < B.dur_us))))
STABLE_SORT_DEFINE(sort_points, gpu_mem_point,
                   A.t_us < B.t_us || (A.t_us == B.t_us && (A.device < B.device ||
                   (A.device == B.device && (A.allocated < B.allocated ||
                   (A.allocated == B.allocated && A.reserved < B.reserved))))))

static int merge_steps(gpu_acc *d, const gpu_acc *s)
{
    if (s->n_steps == 0)
        return 0;
    size_t n = d->n_steps + s->n_steps;
    gpu_step *tmp = malloc(n * sizeof *tmp);
    if (!tmp || vec_grow(&d->steps, &d->cap_steps, n, sizeof *d->steps, 16) != 0) {
        free(tmp);
        return -1;
    }
    memcpy(d->steps + d->n_steps, s->steps, s->n_steps * sizeof *s->steps);
    d->n_steps = n;
    sort_steps(d->steps, tmp, n);
    free(tmp);
    return 0;
}

static int merge_points(gpu_acc *d, const gpu_acc *s)
{
    if (s->n_mem == 0)
        return 0;
    size_t n = d->n_mem + s->n_mem;
    gpu_mem_point *tmp = malloc(n * sizeof *tmp);
    if (!tmp || vec_grow(&d->mem, &d->cap_mem, n, sizeof *d->mem, 256) != 0) {
        free(tmp);
        return -1;
    }
    memcpy(d->mem + d->n_mem, s->mem, s->n_mem * sizeof *s->mem);
    d->n_mem = n;
    sort_points(d->mem, tmp, n);
    free(tmp);
    return 0;
}

static int merge_quant(quant **d, const quant *s)
{
    if (!s)
        return 0;
    if (!*d && !(*d = quantile_new(GPU_LAUNCH_EXACT)))
        return -1;
    return quantile_merge(*d, s);
}

/* Every row of s's table t into d's (those with no count too: the windows
 * may name them), map[t] filled. */
static int merge_names(gpu_acc *d, const gpu_acc *s, int t, uint32_t *map)
{
    gpu_table *dt = (gpu_table *)gpu_acc_names(d, t);
    const gpu_table *st = gpu_acc_names(s, t);
    if (gpu_table_merge_map(dt, st, map) != 0)
        return -1;
    for (size_t i = 0; i < st->n; i++) {
        if (map[i] != UINT32_MAX)
            continue;
        int64_t j = gpu_table_intern(dt, (sm_str){st->rows[i].name, st->rows[i].len});
        if (j < 0)
            return -1;
        if (dt->rows[j].count == 0)
            dt->rows[j].type = st->rows[i].type;
        map[i] = (uint32_t)j;
    }
    return 0;
}

static int merge_tables(gpu_acc *d, const gpu_acc *s, uint32_t **map)
{
    for (int t = 0; t < GPU_NT_N; t++)
        if (merge_names(d, s, t, map[t]) != 0)
            return -1;
    for (size_t i = 0; i < s->n_streams; i++) {
        gpu_stream_idle *x = gpu_acc_stream(d, s->streams[i].stream);
        if (!x)
            return -1;
        x->host_wait_us += s->streams[i].host_wait_us;
        x->kernel_wait_us += s->streams[i].kernel_wait_us;
        x->other_us += s->streams[i].other_us;
    }
    for (size_t i = 0; i < s->n_peaks; i++)
        if (gpu_acc_add_peak(d, s->peaks[i].device, s->peaks[i].allocated,
                             s->peaks[i].reserved) != 0)
            return -1;
    return 0;
}

/* Traces that disagree on the backend make the rank "mixed", in either
 * order of merging. */
static void merge_backend(char *d, size_t cap, const char *s)
{
    if (!s[0] || !strcmp(d, s))
        return;
    snprintf(d, cap, "%s", d[0] ? "mixed" : s);
}

static void free_maps(uint32_t **map)
{
    for (int t = 0; t < GPU_NT_N; t++)
        free(map[t]);
}

/* A rank's acc is kept to the end, most often the merge of one trace:
 * the doubling's slack is given back (1,024 ranks of one trace each:
 * peak RSS 236 -> 208 MB, BENCHMARKS.md). A later merge doubles again. */
static void fit_arrays(gpu_acc *d)
{
    vec_fit(&d->mem, &d->cap_mem, d->n_mem, sizeof *d->mem);
    vec_fit(&d->steps, &d->cap_steps, d->n_steps, sizeof *d->steps);
    vec_fit(&d->wins, &d->cap_wins, d->n_wins, sizeof *d->wins);
    vec_fit(&d->segs, &d->cap_segs, d->n_segs, sizeof *d->segs);
    for (int t = 0; t < GPU_NT_N; t++) {
        gpu_table *x = (gpu_table *)gpu_acc_names(d, t);
        vec_fit(&x->rows, &x->cap, x->n, sizeof *x->rows);
    }
}

int gpu_acc_merge(gpu_acc *d, const gpu_acc *s)
{
    uint32_t *map[GPU_NT_N] = {0};
    for (int t = 0; t < GPU_NT_N; t++) {
        size_t n = gpu_acc_names(s, t)->n;
        if (!(map[t] = malloc((n ? n : 1) * sizeof *map[t]))) {
            free_maps(map);
            return -1;
        }
    }
    int rc = merge_tables(d, s, map) != 0 || gpu_acc_merge_wins(d, s, map) != 0 ||
             merge_steps(d, s) != 0 || merge_points(d, s) != 0 ||
             merge_quant(&d->delay, s->delay) != 0 || merge_quant(&d->cpu, s->cpu) != 0 ||
             merge_quant(&d->gpu, s->gpu) != 0;
    free_maps(map);
    if (rc)
        return -1;
    fit_arrays(d);
    d->traces += s->traces;
    d->placed += s->placed;
    d->gpu_rows += s->gpu_rows;
    d->n_kept_steps += s->n_kept_steps;
    d->span_us += s->span_us;
    d->idle_us += s->idle_us;
    d->rank_host_us += s->rank_host_us;
    d->rank_kernel_us += s->rank_kernel_us;
    d->rank_other_us += s->rank_other_us;
    d->compute_us += s->compute_us;
    d->comm_us += s->comm_us;
    d->comm_comp_us += s->comm_comp_us;
    for (int k = 0; k < 8; k++)
        d->ktype_us[k] += s->ktype_us[k];
    d->launches += s->launches;
    d->short_kernels += s->short_kernels;
    d->outliers += s->outliers;
    d->delay_sum_us += s->delay_sum_us;
    d->oom += s->oom;
    for (size_t i = 0; i < s->n_dev; i++)
        d->tgm[i] = s->tgm[i] > d->tgm[i] ? s->tgm[i] : d->tgm[i];
    d->n_dev = s->n_dev > d->n_dev ? s->n_dev : d->n_dev;
    merge_backend(d->backend, sizeof d->backend, s->backend);
    return 0;
}

static double quant_at(quant *q, double p)
{
    return q && quantile_count(q) > 0 ? quantile_get(q, p) : NAN;
}

static void fill_launch(const gpu_acc *a, gpu_summary *s)
{
    s->launch.count = a->launches;
    s->launch.short_kernels = a->short_kernels;
    s->launch.delay_outliers = a->outliers;
    /* quantile_get sorts its exact buffer in place; no answer changes */
    s->launch.delay_p50_us = quant_at(a->delay, 50);
    s->launch.delay_p95_us = quant_at(a->delay, 95);
    s->launch.cpu_p50_us = quant_at(a->cpu, 50);
    s->launch.gpu_p50_us = quant_at(a->gpu, 50);
    s->launch.delay_mean_us = a->launches ? (double)a->delay_sum_us / (double)a->launches
                                          : NAN;
}

static void fill_memory(const gpu_acc *a, gpu_summary *s)
{
    int64_t pa = 0, pr = 0;
    for (size_t i = 0; i < a->n_peaks; i++) {
        pa = a->peaks[i].allocated > pa ? a->peaks[i].allocated : pa;
        pr = a->peaks[i].reserved > pr ? a->peaks[i].reserved : pr;
    }
    s->memory.oom_events = a->oom;
    s->memory.peak_allocated_mb = (double)pa / (1024.0 * 1024.0);
    s->memory.peak_reserved_mb = (double)pr / (1024.0 * 1024.0);
    s->memory.peaks = a->peaks;
    s->memory.n_peaks = a->n_peaks;
    s->memory.series = a->mem;
    s->memory.n_series = a->n_mem;
    memcpy(s->memory.total_global_mem, a->tgm, sizeof a->tgm);
    s->memory.n_devices = a->n_dev;
}

void gpu_acc_summary(const gpu_acc *a, gpu_summary *s)
{
    memset(s, 0, sizeof *s);
    s->traces = a->traces;
    s->placed = a->placed;
    s->has_gpu = a->gpu_rows > 0;
    s->steps = a->n_kept_steps;
    s->span_us = a->span_us;
    s->idle_us = a->idle_us;
    s->compute_us = a->compute_us;
    s->non_compute_us = a->span_us - a->compute_us - a->idle_us;
    s->idle_pct = pct_of(s->idle_us, s->span_us, NAN);
    s->compute_pct = pct_of(s->compute_us, s->span_us, NAN);
    s->non_compute_pct = pct_of(s->non_compute_us, s->span_us, NAN);
    s->has_comm = a->comm_us > 0;
    s->comm_us = a->comm_us;
    s->comm_comp_us = a->comm_comp_us;
    s->comm_comp_overlap_pct = pct_of(a->comm_comp_us, a->comm_us, NAN);
    int64_t all = 0;
    for (int k = 1; k < 8; k++)
        all += a->ktype_us[k];
    for (int k = 1; k < 8; k++) {
        s->ktype_us[k] = a->ktype_us[k];
        s->ktype_pct[k] = pct_of(a->ktype_us[k], all, NAN);
    }
    for (size_t i = 0; i < a->n_streams; i++) {
        s->host_wait_us += a->streams[i].host_wait_us;
        s->kernel_wait_us += a->streams[i].kernel_wait_us;
        s->other_idle_us += a->streams[i].other_us;
    }
    s->idle_host_wait_us = a->rank_host_us;
    s->idle_kernel_wait_us = a->rank_kernel_us;
    s->idle_other_us = a->rank_other_us;
    s->streams = a->streams;
    s->n_streams = a->n_streams;
    s->step_rows = a->steps;
    s->n_steps = a->n_steps;
    fill_launch(a, s);
    fill_memory(a, s);
    for (int b = 0; b < GPU_BOUND_N; b++)
        s->critical_path.bound_pct[b] = NAN;
    s->idle_attr.host_comm_per_step_us = NAN;
    s->backend = a->backend;
}

const gpu_table *gpu_acc_names(const gpu_acc *a, int table)
{
    switch (table) {
    case GPU_NT_KERNEL:
        return &a->kernels;
    case GPU_NT_OP:
        return &a->ops;
    case GPU_NT_PY:
        return &a->py;
    case GPU_NT_ANNOT:
        return &a->annot;
    case GPU_NT_RUNTIME:
        return &a->rt;
    default:
        return NULL;
    }
}

size_t gpu_acc_memory_bytes(const gpu_acc *a)
{
    size_t b = a->cap_streams * sizeof *a->streams + a->cap_steps * sizeof *a->steps +
               a->cap_mem * sizeof *a->mem + a->cap_peaks * sizeof *a->peaks +
               gpu_table_memory_bytes(&a->kernels) + gpu_table_memory_bytes(&a->ops) +
               gpu_table_memory_bytes(&a->py) + gpu_table_memory_bytes(&a->annot) +
               gpu_table_memory_bytes(&a->rt) + a->cap_wins * sizeof *a->wins +
               a->cap_segs * sizeof *a->segs;
    for (size_t k = 0; k < a->n_segs; k++) {
        for (int t = 0; t < GPU_NT_N; t++)
            b += a->segs[k].n_map[t] * sizeof *a->segs[k].map[t];
        b += gpu_wblob_bytes(a->segs[k].blob) / (size_t)a->segs[k].blob->refs;   /* a share */
    }
    if (a->delay)
        b += quantile_memory_bytes(a->delay) + quantile_memory_bytes(a->cpu) +
             quantile_memory_bytes(a->gpu);
    return b;
}
