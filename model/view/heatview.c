/* heatview: see heatview.h. */
#include "model/view/heatview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct heatview {
    size_t n;
    int64_t t0, t1;
    int step;
    heatview_row *rows;
    double *gpu_mean, *p50;   /* n each: the heatmap's sort keys */
};

static double window_mean(const series *s, int64_t t0, int64_t t1, int step)
{
    if (!s)
        return NAN;
    series_summary sum;
    series_range_summary(s, t0, t1, &sum);
    if (sum.count == 0 && step) {
        /* A focused step is often shorter than the 100 ms - 1 s sampling
         * interval: its nearest samples (a second either side) say more
         * than an empty cell. */
        const int64_t pad = 1000000;
        series_range_summary(s, t0 - pad, t1 + pad, &sum);
    }
    return sum.count > 0 ? sum.mean : NAN;
}

/* Mean of the non-NaN values; NaN when none. */
static double mean_of(const double *v, size_t n)
{
    double t = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) {
            t += v[i];
            k++;
        }
    return k ? t / (double)k : NAN;
}

static void fill_row(const model_node *nd, const heatview *h, heatview_row *r)
{
    size_t g = model_node_gpu_count(nd);
    double mem[HEATVIEW_MAX_GPUS];
    if (g > HEATVIEW_MAX_GPUS)
        g = HEATVIEW_MAX_GPUS;
    r->gpus = g;
    r->gen = model_node_generation(nd);
    r->cpu = window_mean(model_node_cpu_total(nd), h->t0, h->t1, h->step);
    for (size_t i = 0; i < HEATVIEW_MAX_GPUS; i++)
        r->gpu[i] = NAN;
    for (size_t i = 0; i < g; i++) {
        r->gpu[i] = window_mean(model_node_gpu_util(nd, i), h->t0, h->t1, h->step);
        mem[i] = window_mean(model_node_gpu_mem(nd, i), h->t0, h->t1, h->step);
    }
    r->gmem = mean_of(mem, g);
    r->gpu_mean = mean_of(r->gpu, g);
    r->p50 = straggler_step_p50(nd);
}

/* prev's row for node id at generation gen over the same window. */
static const heatview_row *reusable(const heatview *prev, const heatview *h, size_t i,
                                    const char *id, uint64_t gen)
{
    if (!prev || prev->t0 != h->t0 || prev->t1 != h->t1 || prev->step != h->step ||
        i >= prev->n)
        return NULL;
    const heatview_row *r = &prev->rows[i];
    return r->gen == gen && strcmp(r->id, id) == 0 ? r : NULL;
}

heatview *heatview_build(const model *m, const size_t *nodes, size_t n, int64_t t0_us,
                         int64_t t1_us, int step, const heatview *prev)
{
    heatview *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->t0 = t0_us;
    h->t1 = t1_us;
    h->step = step != 0;
    h->rows = calloc(n ? n : 1, sizeof *h->rows);
    h->gpu_mean = malloc((n ? n : 1) * sizeof *h->gpu_mean);
    h->p50 = malloc((n ? n : 1) * sizeof *h->p50);
    if (!h->rows || !h->gpu_mean || !h->p50) {
        heatview_free(h);
        return NULL;
    }
    for (size_t i = 0; i < n; i++, h->n++) {
        const model_node *nd = model_node_at(m, nodes[i]);
        const char *id = model_node_id(nd);
        const heatview_row *old = reusable(prev, h, i, id, model_node_generation(nd));
        heatview_row *r = &h->rows[i];
        if (old)
            *r = *old;
        else
            fill_row(nd, h, r);
        if (!(r->id = strdup(id))) {
            heatview_free(h);
            return NULL;
        }
        h->gpu_mean[i] = r->gpu_mean;
        h->p50[i] = r->p50;
    }
    return h;
}

void heatview_free(heatview *h)
{
    if (!h)
        return;
    for (size_t i = 0; h->rows && i < h->n; i++)
        free((char *)h->rows[i].id);
    free(h->rows);
    free(h->gpu_mean);
    free(h->p50);
    free(h);
}

size_t heatview_count(const heatview *h)
{
    return h->n;
}

const heatview_row *heatview_row_at(const heatview *h, size_t i)
{
    return &h->rows[i];
}

const double *heatview_gpu_means(const heatview *h)
{
    return h->gpu_mean;
}

const double *heatview_step_p50s(const heatview *h)
{
    return h->p50;
}

static void *query_build(const viewquery_in *in, const void *params)
{
    (void)params;
    return heatview_build(in->m, in->nodes, in->shown, in->t0_us, in->t1_us, in->q->step_focus,
                          in->prev);
}

static void query_free(void *answer)
{
    heatview_free(answer);
}

static uint64_t query_key(const viewdata_req *q, const void *params)
{
    (void)params;
    return viewdata_common_key(q);
}

const viewquery heatview_query = {"heatmap", query_build, query_free, query_key};
