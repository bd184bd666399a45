/* gpuview_build: the step split, top-functions and memory builders of
 * gpuview.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/model_gpu.h"
#include "model/gpu/gpu_idle.h"
#include "model/util/fnv.h"
#include "model/util/lbound.h"
#include "model/util/stable_sort.h"
#include "model/view/gpuview.h"

typedef struct start_key {
    const gpu_step *rows;
    int64_t t;
} start_key;

static int starts_before(const void *ctx, size_t i)
{
    const start_key *k = ctx;
    return k->rows[i].start_us < k->t;
}

size_t gpuview_steps_match(const gpu_summary *s, const int64_t *step, const int64_t *start_us,
                           size_t n, gpu_step *out)
{
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].step = step[i];
        out[i].start_us = start_us[i];
        start_key k = {s->step_rows, start_us[i] - GPUVIEW_STEP_SLACK_US};
        for (size_t r = lbound(s->n_steps, starts_before, &k);
             r < s->n_steps && s->step_rows[r].start_us <= start_us[i] + GPUVIEW_STEP_SLACK_US;
             r++)
            if (s->step_rows[r].step == step[i]) {
                out[i] = s->step_rows[r];
                got++;
                break;
            }
    }
    return got;
}

const char *gpuview_src_name(gpuview_src s)
{
    static const char *const names[GPUVIEW_NSRC] = {
        "Kineto ops", "kernels", "Python functions", "GPU idle: host", "critical path"};
    return (unsigned)s < GPUVIEW_NSRC ? names[s] : "";
}

const char *gpuview_sort_name(gpuview_sort s, gpuview_src src)
{
    static const char *const names[GPUVIEW_NSORT] = {"self", "total", "count", "mean", "max"};
    if (s == GPUVIEW_SORT_TIME && src == GPUVIEW_KERNELS)
        return "total";
    if (s == GPUVIEW_SORT_TIME && src == GPUVIEW_IDLE)
        return "idle";
    if (s == GPUVIEW_SORT_TIME && src == GPUVIEW_CPATH)
        return "on path";
    return (unsigned)s < GPUVIEW_NSORT ? names[s] : "";
}

/* A row's value under sort s (the source's time for GPUVIEW_SORT_TIME). */
static double sort_value(const gpu_stat *g, gpuview_sort s, int by_self)
{
    switch (s) {
    case GPUVIEW_SORT_TOTAL: return (double)g->sum_us;
    case GPUVIEW_SORT_COUNT: return (double)g->count;
    case GPUVIEW_SORT_MEAN: return g->count ? (double)g->sum_us / (double)g->count : 0;
    case GPUVIEW_SORT_MAX: return (double)g->max_us;
    default: return (double)(by_self ? g->self_us : g->sum_us);
    }
}

typedef struct keyed {
    const gpu_stat *g;
    double v;
} keyed;

/* Largest first; a tie keeps the source's time order (stable). */
STABLE_SORT_DEFINE(sort_keyed, keyed, A.v > B.v)

static int nt_of(gpuview_src src)
{
    return src == GPUVIEW_OPS ? GPU_NT_OP : src == GPUVIEW_KERNELS ? GPU_NT_KERNEL : GPU_NT_PY;
}

/* The rows of t, sorted, copied into top (at most max). -1 on OOM. */
static int fill(gpuview_top *top, const gpu_table *t, size_t max)
{
    int by_self = top->src != GPUVIEW_KERNELS;
    size_t n = 0;
    const gpu_stat **sorted = gpu_table_sorted(t, by_self, &n);
    if (!sorted && n)
        return -1;
    top->total = n;
    for (size_t i = 0; i < n; i++)
        top->all_us += by_self ? sorted[i]->self_us : sorted[i]->sum_us;
    if (top->sort != GPUVIEW_SORT_TIME && n > 1) {
        keyed *k = malloc(2 * n * sizeof *k);
        if (!k) {
            free(sorted);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            k[i] = (keyed){sorted[i], sort_value(sorted[i], top->sort, by_self)};
        sort_keyed(k, k + n, n);
        for (size_t i = 0; i < n; i++)
            sorted[i] = k[i].g;
        free(k);
    }
    size_t keep = n < max ? n : max;
    top->rows = calloc(keep ? keep : 1, sizeof *top->rows);
    int rc = top->rows ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < keep; i++, top->n++) {
        const gpu_stat *g = sorted[i];
        top->rows[i] = (gpuview_row){NULL, g->type, g->count, g->sum_us, g->self_us, g->max_us};
        if (!(top->rows[i].name = strdup(g->name)))
            rc = -1;
    }
    free(sorted);
    return rc;
}

/* Whether a rank row counts: one (node, process), or a node of a set. */
typedef struct rank_pick {
    const char *node, *process;
    const char *filter;     /* with visible: the node filter */
    int (*visible)(const char *filter, const char *id);
} rank_pick;

static int picked(const rank_pick *k, const model_gpu_row *row)
{
    if (k->visible)
        return k->visible(k->filter, row->node);
    return !k->node || (!strcmp(row->node, k->node) &&
                        (!k->process || !strcmp(row->process, k->process)));
}

/* 1 when [t0, t1) holds every picked rank's steps: the whole job. */
static int holds_all(const model *m, const rank_pick *k, int64_t t0, int64_t t1)
{
    for (size_t i = 0; i < model_gpu_count(m); i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        if (picked(k, row) && !gpu_rank_window_holds_all(row->gpu, t0, t1))
            return 0;
    }
    return 1;
}

/* Row "[kind] name" of all counted with us: the host's idle causes and
 * the path's events are merged over ranks by kind and name (a thread id
 * means nothing on another rank). 0 or -1 on OOM. */
static int count_kind_row(gpu_table *all, const char *kind, const char *name, size_t len,
                          int64_t us)
{
    char key[512];
    int n = snprintf(key, sizeof key, "[%s] %.*s", kind, (int)len, name);
    if (n < 0)
        return -1;
    size_t klen = (size_t)n < sizeof key ? (size_t)n : sizeof key - 1;
    int64_t i = gpu_table_intern(all, (sm_str){key, klen});
    if (i < 0)
        return -1;
    gpu_table_count(all, (size_t)i, us, us);
    return 0;
}

/* One rank's window summed into top (the breakdown, the path's classes,
 * the idle time) and, for the sources that are not name tables, its rows
 * into all. 0 or -1 on OOM. */
static int add_summary(gpuview_top *top, const gpu_summary *s, gpu_table *all)
{
    top->steps += s->steps;
    top->span_us += s->span_us;
    top->idle_us += s->idle_us;
    top->compute_us += s->compute_us;
    top->non_compute_us += s->non_compute_us;
    top->path_steps += s->critical_path.steps;
    top->path_us += s->critical_path.path_us;
    for (int b = 0; b < GPU_BOUND_N; b++)
        top->bound_us[b] += s->critical_path.bound_us[b];
    top->attr_idle_us += s->idle_attr.idle_us;
    int rc = 0;
    for (size_t i = 0; top->src == GPUVIEW_IDLE && rc == 0 && i < s->idle_attr.n_causes; i++) {
        const gpu_idle_cause *c = &s->idle_attr.causes[i];
        rc = count_kind_row(all, gpu_idle_kind_name(c->kind), c->name, c->len, c->overlap_us);
    }
    for (size_t i = 0; top->src == GPUVIEW_CPATH && rc == 0 && i < s->critical_path.n_top; i++) {
        const gpu_name_us *e = &s->critical_path.top[i];
        rc = count_kind_row(all, gpu_nt_name(e->table), e->name, e->len, e->us);
    }
    return rc;
}

/* The picked ranks' rows of src merged into all: over the steps that
 * start in [t0, t1) when top->windowed, else whole (GPU_WINDOW_ALL: the
 * window is the rank's own tables, not a copy). */
static int merge_ranks(const model *m, gpuview_top *top, const rank_pick *k, gpu_table *all)
{
    gpu_window *w = gpu_window_new();
    int64_t t0 = top->windowed ? top->t0_us : GPU_WINDOW_ALL;
    int rc = w ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < model_gpu_count(m); i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        if (!picked(k, row))
            continue;
        if ((rc = gpu_rank_window(row->gpu, t0, top->t1_us, w)) == 0)
            rc = add_summary(top, gpu_window_summary(w), all);
        if (rc == 0 && top->src < GPUVIEW_IDLE)
            rc = gpu_table_merge(all, gpu_window_names(w, nt_of(top->src)));
        top->ranks++;
    }
    gpu_window_free(w);
    return rc;
}

static gpuview_top *top_build(const model *m, gpuview_src src, gpuview_sort sort,
                              const rank_pick *k, size_t max, int64_t t0, int64_t t1)
{
    gpuview_top *top = calloc(1, sizeof *top);
    if (!top)
        return NULL;
    top->src = src;
    top->sort = sort;
    top->windowed = t0 != GPU_WINDOW_ALL && !holds_all(m, k, t0, t1);
    top->t0_us = top->windowed ? t0 : 0;
    top->t1_us = top->windowed ? t1 : 0;
    gpu_table all;
    gpu_table_init(&all);
    int rc = merge_ranks(m, top, k, &all);
    if (rc == 0)
        rc = fill(top, &all, max);
    /* the host's rows overlap each other, and the path's rows are its top
     * events only: their shares are of the idle time and of the path */
    if (top->src == GPUVIEW_IDLE)
        top->all_us = top->attr_idle_us;
    else if (top->src == GPUVIEW_CPATH)
        top->all_us = top->path_us;
    gpu_table_free(&all);
    if (rc != 0) {
        gpuview_top_free(top);
        return NULL;
    }
    return top;
}

gpuview_top *gpuview_top_build(const model *m, gpuview_src src, gpuview_sort sort,
                               const char *node, const char *process, size_t max)
{
    rank_pick k = {node, process, NULL, NULL};
    return top_build(m, src, sort, &k, max, GPU_WINDOW_ALL, 0);
}

gpuview_top *gpuview_top_build_on(const model *m, gpuview_src src, gpuview_sort sort,
                                  const char *filter,
                                  int (*visible)(const char *filter, const char *id),
                                  size_t max)
{
    rank_pick k = {NULL, NULL, filter, visible};
    return top_build(m, src, sort, &k, max, GPU_WINDOW_ALL, 0);
}

void gpuview_top_free(gpuview_top *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i].name);
    free(t->rows);
    free(t);
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

size_t gpuview_memory(const gpu_summary *s, int64_t t0, int64_t t1, gpuview_mem_bin *bins,
                      size_t nbins, int64_t *total_bytes)
{
    if (total_bytes) {
        *total_bytes = 0;
        for (size_t d = 0; d < s->memory.n_devices && d < SM_KMETA_MAX_DEVICES; d++)
            *total_bytes = max64(*total_bytes, s->memory.total_global_mem[d]);
    }
    for (size_t b = 0; b < nbins; b++)
        bins[b] = (gpuview_mem_bin){-1, -1};
    if (nbins == 0 || t1 <= t0 || s->memory.n_series == 0)
        return 0;
    /* Each device's latest value carries into the bins after it (memory
     * stays as it was until the next event); the series is by time, so one
     * pass keeps each device's current value. */
    int64_t cur_a[SM_KMETA_MAX_DEVICES], cur_r[SM_KMETA_MAX_DEVICES];
    for (size_t d = 0; d < SM_KMETA_MAX_DEVICES; d++)
        cur_a[d] = cur_r[d] = -1;
    size_t i = 0, got = 0;
    const gpu_mem_point *p = s->memory.series;
    for (; i < s->memory.n_series && p[i].t_us < t0; i++) {
        size_t d = (size_t)p[i].device % SM_KMETA_MAX_DEVICES;
        cur_a[d] = p[i].allocated;
        cur_r[d] = p[i].reserved;
    }
    for (size_t b = 0; b < nbins; b++) {
        int64_t end = t0 + (int64_t)((double)(t1 - t0) * (double)(b + 1) / (double)nbins);
        int64_t a = -1, r = -1;
        for (size_t d = 0; d < SM_KMETA_MAX_DEVICES; d++) {   /* carried values */
            a = max64(a, cur_a[d]);
            r = max64(r, cur_r[d]);
        }
        for (; i < s->memory.n_series && p[i].t_us < end; i++) {
            size_t d = (size_t)p[i].device % SM_KMETA_MAX_DEVICES;
            cur_a[d] = p[i].allocated;
            cur_r[d] = p[i].reserved;
            a = max64(a, p[i].allocated);
            r = max64(r, p[i].reserved);
        }
        bins[b] = (gpuview_mem_bin){a, r};
        got += a >= 0 || r >= 0;
    }
    return got;
}

/* Top-function rows built when the pane has not said how many it shows. */
#define TOP_DEFAULT 200

static void *query_build(const viewquery_in *in, const void *params)
{
    const gpuview_top_params *tp = params;
    const viewdata_req *q = in->q;
    size_t max = tp->max ? tp->max : TOP_DEFAULT;
    rank_pick k = {NULL, NULL, NULL, NULL};
    if (q->visible && q->filter[0])
        k = (rank_pick){NULL, NULL, q->filter, q->visible};
    /* a window not yet known (no data: t1 0) is the whole job */
    int64_t t0 = in->t1_us > 0 ? in->t0_us : GPU_WINDOW_ALL;
    return top_build(in->m, tp->src, tp->sort, &k, max, t0, in->t1_us);
}

static void query_free(void *answer)
{
    gpuview_top_free(answer);
}

/* The window and the node filter (viewdata_common_key), then the
 * params. */
static uint64_t query_key(const viewdata_req *q, const void *params)
{
    const gpuview_top_params *tp = params;
    uint64_t h = fnv_add_u64(viewdata_common_key(q), (uint64_t)tp->src);
    h = fnv_add_u64(h, tp->max);
    return fnv_add_u64(h, (uint64_t)tp->sort);
}

const viewquery gpuview_top_query = {"top", query_build, query_free, query_key};
