/* sysview: see sysview.h. */
#include "model/view/sysview.h"

#include "model/util/fnv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/model_gpu.h"
#include "model/series/series_iter.h"
#include "model/view/gpuview.h"

#define SYSVIEW_MAX_METRICS 256

struct sysview {
    size_t nnodes, ncharts;
    sysview_node *nodes;
    sysview_chart *charts;
};

static int add_metric(sysview_metric *out, size_t max, size_t *n, const series *s,
                      sysview_kind kind, int percent, const char *fmt, const char *arg)
{
    if (!s || *n >= max)
        return 0;
    sysview_metric *m = &out[(*n)++];
    m->s = s;
    m->kind = kind;
    m->percent = percent;
    snprintf(m->label, sizeof m->label, fmt, arg);
    snprintf(m->dimension, sizeof m->dimension, "%s", series_dimension(s));
    snprintf(m->name, sizeof m->name, "%s", series_name(s));
    return 1;
}

/* Series the fixed groups above do not cover (custom "Algorithm"
 * dimensions, unknown types) still belong on screen: a job that reports
 * them expects to see them. */
static int is_known_type(const char *t)
{
    static const char *const known[] = {"cpu", "gpu", "memory", "i/o", "network"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(t, known[i]) == 0)
            return 1;
    return 0;
}

/* "nvme0n1 read" from name "nvme0n1" and dimension "ReadThroughputMB":
 * one device usually has a read and a write (or sent/received) series,
 * and only the dimension's first word tells them apart. */
static const char *device_label(const series *s, const char *kind, char *buf, size_t cap)
{
    const char *d = series_dimension(s);
    size_t w = 1;
    while (d[0] && d[w] && !(d[w] >= 'A' && d[w] <= 'Z'))
        w++;
    char word[16];
    snprintf(word, sizeof word, "%.*s", (int)(w < 15 ? w : 15), d);
    for (char *c = word; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    const char *name = series_name(s);
    snprintf(buf, cap, "%s %s", *name ? name : kind, word);
    return buf;
}

size_t sysview_node_metrics(const model_node *nd, int per_core, sysview_metric *out,
                            size_t max)
{
    char dev[64];
    size_t n = 0;
    char buf[21];
    add_metric(out, max, &n, model_node_cpu_total(nd), SYSVIEW_CPU, 1, "cpu%s", "");
    for (size_t i = 0; per_core && i < model_node_cpu_count(nd); i++) {
        snprintf(buf, sizeof buf, "%zu", i);
        add_metric(out, max, &n, model_node_cpu_core(nd, i), SYSVIEW_CPU, 1, " cpu%s", buf);
    }
    for (size_t i = 0; i < model_node_gpu_count(nd); i++) {
        const char *name = model_node_gpu_name(nd, i);
        add_metric(out, max, &n, model_node_gpu_util(nd, i), SYSVIEW_GPU, 1, "%s", name);
        if (strncmp(name, "gpu", 3) == 0)
            add_metric(out, max, &n, model_node_gpu_mem(nd, i), SYSVIEW_GPUMEM, 1, "gmem%s",
                       name + 3);
        else
            add_metric(out, max, &n, model_node_gpu_mem(nd, i), SYSVIEW_GPUMEM, 1, "mem %s",
                       name);
    }
    add_metric(out, max, &n, model_node_host_mem(nd), SYSVIEW_MEM, 0, "mem%s", "");
    for (size_t i = 0; i < model_node_io_count(nd); i++) {
        const series *s = model_node_io_at(nd, i);
        add_metric(out, max, &n, s, SYSVIEW_IO, 0, "%s", device_label(s, "io", dev, sizeof dev));
    }
    for (size_t i = 0; i < model_node_net_count(nd); i++) {
        const series *s = model_node_net_at(nd, i);
        add_metric(out, max, &n, s, SYSVIEW_NET, 0, "%s",
                   device_label(s, "net", dev, sizeof dev));
    }
    for (size_t i = 0; i < model_node_series_count(nd); i++) {
        const series *s = model_node_series_at(nd, i);
        if (is_known_type(series_type(s)))
            continue;
        const char *nm = *series_name(s) ? series_name(s) : series_dimension(s);
        add_metric(out, max, &n, s, SYSVIEW_OTHER, 0, "%s", nm);
    }
    return n;
}

double sysview_scale_top(const series_bin *b, size_t n, int util)
{
    if (util)
        return 100.0;
    double top = 0;
    for (size_t i = 0; i < n; i++)
        if (b[i].count > 0 && b[i].max > top)
            top = b[i].max;
    return top > 0 ? top : 1.0;
}

size_t sysview_bin_values(const series_bin *b, size_t n, double *vals)
{
    size_t have = 0;
    for (size_t i = 0; i < n; i++) {
        vals[i] = b[i].count > 0 ? b[i].mean : NAN;
        have += b[i].count > 0;
    }
    return have;
}

typedef struct near_walk {
    int64_t t0, t1;
    double *vals;
    size_t max, inside;
    int have;
    int64_t near_us, dist;
    double near_v;
} near_walk;

static int near_visit(void *ud, const series_point *pt)
{
    near_walk *nw = ud;
    if (pt->t_us >= nw->t0 && pt->t_us < nw->t1) {
        if (nw->inside < nw->max)
            nw->vals[nw->inside] = pt->mean;
        nw->inside++;
        return 0;
    }
    int64_t d = pt->t_us < nw->t0 ? nw->t0 - pt->t_us : pt->t_us - nw->t1;
    if (!nw->have || d < nw->dist) {
        nw->have = 1;
        nw->dist = d;
        nw->near_us = pt->t_us;
        nw->near_v = pt->mean;
    }
    return 0;
}

/* SageMaker samples every 100 ms to 60 s: a minute on each side of the
 * step finds its nearest sample at any interval without walking the whole
 * series. */
#define SYSVIEW_NEAR_US (60LL * 1000000)

size_t sysview_step_samples(const series *s, int64_t t0_us, int64_t t1_us, double *vals,
                            size_t max, int *have_near, int64_t *near_us, double *near_v)
{
    near_walk nw = {.t0 = t0_us, .t1 = t1_us, .vals = vals, .max = max};
    series_visit(s, t0_us - SYSVIEW_NEAR_US, t1_us + SYSVIEW_NEAR_US, near_visit, &nw);
    *have_near = nw.have;
    *near_us = nw.near_us;
    *near_v = nw.near_v;
    return nw.inside;
}

int sysview_current_value(const series *s, int64_t t0_us, int64_t t1_us,
                          const series_bin *b, size_t n, double *out)
{
    series_summary sum;
    series_get_summary(s, &sum);
    if (sum.count > 0 && sum.last_us >= t0_us && sum.last_us < t1_us) {
        *out = sum.last_value;
        return 1;
    }
    for (size_t i = n; i-- > 0;)
        if (b[i].count > 0) {
            *out = b[i].mean;
            return 1;
        }
    return 0;
}

/* One chart's numbers over [t0, t1) into c (bins is scratch, nb long). */
static int fill_chart(sysview_chart *c, const series *s, const viewdata_req *q, int64_t t0,
                      int64_t t1, series_bin *bins, size_t nb)
{
    series_summary sum;
    series_range_summary(s, t0, t1, &sum);
    c->have_mean = sum.count > 0;
    c->mean = sum.mean;
    if (q->step_focus) {
        c->step_k = sysview_step_samples(s, t0, t1, c->step_v, 3, &c->have_near, &c->near_us,
                                         &c->near_v);
        if (c->step_k < 3)
            return 0;
    }
    double *vals = malloc(nb * sizeof *vals);
    if (!vals)
        return -1;
    series_query(s, t0, t1, nb, bins);
    c->have = sysview_bin_values(bins, nb, vals);
    c->have += series_hold_gaps(s, t0, t1, nb, vals);
    c->vals = vals;
    c->nbins = nb;
    c->top = sysview_scale_top(bins, nb, 0);
    c->have_cur = sysview_current_value(s, t0, t1, bins, nb, &c->cur);
    return 0;
}

/* Rank row's GPU memory from its [memory] events as chart c: reserved,
 * as a share of the device when its size is known, else in bytes. */
static int fill_kineto_mem(sysview_chart *c, const model_gpu_row *row, const sysview_params *sp,
                           int64_t t0, int64_t t1, int binned)
{
    const gpu_summary *s = gpu_rank_summary(row->gpu);
    int64_t total = 0;
    gpuview_mem_bin probe;
    gpuview_memory(s, 0, 0, &probe, 0, &total);
    c->m.kind = SYSVIEW_GPUMEM;
    c->m.percent = total > 0;
    snprintf(c->m.label, sizeof c->m.label, "gmem %s", row->process);
    snprintf(c->m.dimension, sizeof c->m.dimension, "%s",
             total > 0 ? "GPUMemoryReservedPercent" : "GPUMemoryReservedBytes");
    snprintf(c->m.name, sizeof c->m.name, "%s", row->process);
    size_t nb = sp->bins;
    if (!binned || nb == 0)
        return 0;
    gpuview_mem_bin *b = malloc(nb * sizeof *b);
    double *vals = malloc(nb * sizeof *vals);
    if (!b || !vals) {
        free(b);
        free(vals);
        return -1;
    }
    c->have = gpuview_memory(s, t0, t1, b, nb, NULL);
    double sum = 0;
    for (size_t i = 0; i < nb; i++) {
        vals[i] = b[i].reserved < 0 ? NAN
                  : total > 0   ? 100.0 * (double)b[i].reserved / (double)total
                                : (double)b[i].reserved;
        if (isnan(vals[i]))
            continue;
        sum += vals[i];
        c->top = vals[i] > c->top ? vals[i] : c->top;
        c->cur = vals[i];
        c->have_cur = c->have_mean = 1;
    }
    c->mean = c->have ? sum / (double)c->have : 0;
    c->top = total > 0 ? 100 : c->top > 0 ? c->top : 1;
    c->vals = vals;
    c->nbins = nb;
    free(b);
    return 0;
}

/* The node's PyTorch profiler ranks' GPU memory, when its system metrics
 * have none: a Kineto-only job still charts it. */
static int add_kineto_mem(sysview *v, sysview_node *n, const model *m, int binned,
                          const sysview_params *sp, int64_t t0, int64_t t1)
{
    for (size_t j = n->first; j < v->ncharts; j++)
        if (v->charts[j].m.kind == SYSVIEW_GPUMEM)
            return 0;
    for (size_t i = 0; i < model_gpu_count(m); i++) {
        const model_gpu_row *row = model_gpu_at(m, i);
        if (strcmp(row->node, n->id) || gpu_rank_summary(row->gpu)->memory.n_series == 0)
            continue;
        sysview_chart *grown = realloc(v->charts, (v->ncharts + 1) * sizeof *grown);
        if (!grown)
            return -1;
        v->charts = grown;
        sysview_chart *c = &v->charts[v->ncharts++];
        memset(c, 0, sizeof *c);
        n->count++;
        if (fill_kineto_mem(c, row, sp, t0, t1, binned) != 0)
            return -1;
    }
    return 0;
}

/* Node k (model index idx): its header facts and charts appended to v. */
static int add_node(sysview *v, const model *m, const model_node *nd, int binned,
                    const viewdata_req *q, const sysview_params *sp, int64_t t0, int64_t t1,
                    sysview_metric *ms, series_bin *bins)
{
    sysview_node *n = &v->nodes[v->nnodes];
    if (!(n->id = strdup(model_node_id(nd))))
        return -1;
    v->nnodes++;
    n->cpus = model_node_cpu_count(nd);
    n->gpus = model_node_gpu_count(nd);
    n->nseries = model_node_series_count(nd);
    n->phases = model_node_phase_count(nd);
    n->gen = model_node_generation(nd);
    n->count = sysview_node_metrics(nd, sp->per_core, ms, SYSVIEW_MAX_METRICS);
    n->first = v->ncharts;
    sysview_chart *grown = realloc(v->charts, (v->ncharts + n->count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    v->charts = grown;
    for (size_t j = 0; j < n->count; j++) {
        sysview_chart *c = &v->charts[v->ncharts++];
        memset(c, 0, sizeof *c);
        c->m = ms[j];
        c->m.s = NULL;
        if (binned && sp->bins > 0 && fill_chart(c, ms[j].s, q, t0, t1, bins, sp->bins))
            return -1;
    }
    return add_kineto_mem(v, n, m, binned, sp, t0, t1);
}

sysview *sysview_build(const model *m, const size_t *nodes, size_t n, const viewdata_req *q,
                       const sysview_params *sp, int64_t t0_us, int64_t t1_us)
{
    sysview *v = calloc(1, sizeof *v);
    sysview_metric *ms = malloc(SYSVIEW_MAX_METRICS * sizeof *ms);
    series_bin *bins = malloc((sp->bins ? sp->bins : 1) * sizeof *bins);
    if (v)
        v->nodes = calloc(n ? n : 1, sizeof *v->nodes);
    int ok = v && ms && bins && v->nodes;
    for (size_t i = 0; ok && i < n; i++) {
        int binned = i >= sp->first && i - sp->first < sp->count;
        ok = add_node(v, m, model_node_at(m, nodes[i]), binned, q, sp, t0_us, t1_us, ms, bins) == 0;
    }
    free(ms);
    free(bins);
    if (!ok) {
        sysview_free(v);
        return NULL;
    }
    return v;
}

void sysview_free(sysview *v)
{
    if (!v)
        return;
    for (size_t i = 0; v->nodes && i < v->nnodes; i++)
        free((char *)v->nodes[i].id);
    for (size_t i = 0; i < v->ncharts; i++)
        free((double *)v->charts[i].vals);
    free(v->nodes);
    free(v->charts);
    free(v);
}

size_t sysview_node_count(const sysview *v)
{
    return v->nnodes;
}

const sysview_node *sysview_node_at(const sysview *v, size_t i)
{
    return &v->nodes[i];
}

const sysview_chart *sysview_chart_at(const sysview *v, size_t i)
{
    return &v->charts[i];
}

static void *query_build(const viewquery_in *in, const void *params)
{
    return sysview_build(in->m, in->nodes, in->shown, in->q, params, in->t0_us, in->t1_us);
}

static void query_free(void *answer)
{
    sysview_free(answer);
}

static uint64_t query_key(const viewdata_req *q, const void *params)
{
    const sysview_params *sp = params;
    uint64_t h = fnv_add_u64(viewdata_common_key(q), (uint64_t)sp->per_core);
    h = fnv_add_u64(h, sp->bins);
    h = fnv_add_u64(h, sp->first);
    return fnv_add_u64(h, sp->count);
}

const viewquery sysview_query = {"system", query_build, query_free, query_key};
