/* jobfig: a job-list row's figures from the job's own data; see jobfig.h. */
#include "model/jobs/jobfig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/series/sampling.h"
#include "model/util/idmap.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

#define BINS 8          /* minutes kept for the means: the window and slack */
#define WIN_MIN 5
#define GAPS 15         /* gaps that set a GPU series' interval */
#define STEPS_MAX (1u << 20)

enum { FIG_GPU, FIG_CPU, FIG_MEM, FIG_N };

typedef struct bin {
    int64_t minute;     /* epoch minute; -1 empty */
    double sum[FIG_N];
    int64_t n[FIG_N];
} bin;

/* One GPU's utilization series: its idle samples and its interval. */
typedef struct gpu_series {
    char *key;          /* node '\0' name, keylen bytes */
    size_t keylen;
    int64_t last_us;
    int64_t gaps[GAPS];
    int ngaps;
    int64_t idle;       /* samples below SAMPLING_BAND_LOW */
} gpu_series;

struct jobfig_sys {
    bin bins[BINS];
    int64_t newest_us;
    idmap map;
    gpu_series **gpus;
    size_t ngpus, cap;
};

jobfig_sys *jobfig_sys_new(void)
{
    jobfig_sys *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    for (int i = 0; i < BINS; i++)
        s->bins[i].minute = -1;
    idmap_init(&s->map);
    return s;
}

void jobfig_sys_free(jobfig_sys *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ngpus; i++) {
        free(s->gpus[i]->key);
        free(s->gpus[i]);
    }
    free(s->gpus);
    idmap_free(&s->map);
    free(s);
}

static int which_fig(const sm_sample *x)
{
    if (sm_str_eq(x->dimension, "GPUUtilization") && sm_str_eq(x->type, "gpu"))
        return FIG_GPU;
    if (sm_str_eq(x->dimension, "CPUUtilization") && sm_str_eq(x->type, "cpu"))
        return FIG_CPU;
    if (sm_str_eq(x->dimension, "MemoryUsedPercent"))
        return FIG_MEM;
    return -1;
}

static void bin_add(jobfig_sys *s, int fig, int64_t ts_us, double v)
{
    int64_t minute = ts_us / 60000000LL;
    bin *b = &s->bins[minute % BINS];
    if (b->minute > minute)
        return;   /* older than the minutes kept: outside any window to come */
    if (b->minute < minute) {
        memset(b, 0, sizeof *b);
        b->minute = minute;
    }
    b->sum[fig] += v;
    b->n[fig]++;
}

typedef struct series_key {
    const char *p;
    size_t len;
} series_key;

static int series_eq(const void *item, const void *key)
{
    const gpu_series *g = item;
    const series_key *k = key;
    return g->keylen == k->len && !memcmp(g->key, k->p, k->len);
}

static gpu_series *series_get(jobfig_sys *s, const sm_sample *x)
{
    sm_str parts[2] = {x->node, x->name};
    uint64_t h = idmap_hash(parts, 2);
    char buf[512];
    size_t len = x->node.len + 1 + x->name.len;
    if (len > sizeof buf)
        return NULL;
    memcpy(buf, x->node.ptr, x->node.len);
    buf[x->node.len] = '\0';
    memcpy(buf + x->node.len + 1, x->name.ptr, x->name.len);
    series_key k = {buf, len};
    gpu_series *g = idmap_find(&s->map, h, series_eq, &k);
    if (g)
        return g;
    if (vec_grow(&s->gpus, &s->cap, s->ngpus + 1, sizeof *s->gpus, 16) < 0 ||
        idmap_reserve(&s->map, 1) < 0 || !(g = calloc(1, sizeof *g)))
        return NULL;
    if (!(g->key = malloc(len))) {
        free(g);
        return NULL;
    }
    memcpy(g->key, buf, len);
    g->keylen = len;
    g->last_us = INT64_MIN;
    idmap_put(&s->map, h, g);
    s->gpus[s->ngpus++] = g;
    return g;
}

int jobfig_sys_add(jobfig_sys *s, const sm_sample *x)
{
    int fig = which_fig(x);
    if (fig < 0 || !isfinite(x->value))
        return 0;
    if (fig == FIG_GPU) {
        gpu_series *g = series_get(s, x);
        if (!g)
            return x->node.len + x->name.len + 1 > 512 ? 0 : -1;
        if (g->last_us != INT64_MIN && x->ts_us > g->last_us && g->ngaps < GAPS)
            g->gaps[g->ngaps++] = x->ts_us - g->last_us;
        if (x->ts_us > g->last_us)
            g->last_us = x->ts_us;
        g->idle += x->value < SAMPLING_BAND_LOW;
    }
    bin_add(s, fig, x->ts_us, x->value);
    if (x->ts_us > s->newest_us)
        s->newest_us = x->ts_us;
    return 0;
}

void jobfig_sys_means(const jobfig_sys *s, double *gpu, double *cpu, double *mem)
{
    double sum[FIG_N] = {0};
    int64_t n[FIG_N] = {0};
    int64_t newest = s->newest_us / 60000000LL;
    for (int i = 0; i < BINS && s->newest_us > 0; i++) {
        const bin *b = &s->bins[i];
        if (b->minute < 0 || b->minute > newest || b->minute <= newest - WIN_MIN)
            continue;
        for (int f = 0; f < FIG_N; f++) {
            sum[f] += b->sum[f];
            n[f] += b->n[f];
        }
    }
    *gpu = n[FIG_GPU] ? sum[FIG_GPU] / (double)n[FIG_GPU] : NAN;
    *cpu = n[FIG_CPU] ? sum[FIG_CPU] / (double)n[FIG_CPU] : NAN;
    *mem = n[FIG_MEM] ? sum[FIG_MEM] / (double)n[FIG_MEM] : NAN;
}

STABLE_SORT_DEFINE(sort_i64, int64_t, A < B)

static int64_t series_interval(const gpu_series *g)
{
    int64_t v[GAPS], tmp[GAPS];
    if (g->ngaps == 0)
        return 0;
    memcpy(v, g->gaps, (size_t)g->ngaps * sizeof *v);
    sort_i64(v, tmp, (size_t)g->ngaps);
    return sampling_snap_interval((double)v[g->ngaps / 2]);
}

double jobfig_sys_idle_hours(const jobfig_sys *s)
{
    if (s->ngpus == 0)
        return NAN;
    double us = 0;
    for (size_t i = 0; i < s->ngpus; i++)
        us += (double)s->gpus[i]->idle * (double)series_interval(s->gpus[i]);
    return us / 3600e6;
}

int64_t jobfig_sys_newest_us(const jobfig_sys *s)
{
    return s->newest_us;
}

typedef struct step_rec {
    int64_t step, end_us, dur_us;
} step_rec;

struct jobfig_steps {
    step_rec *v;
    size_t n, cap;
    int64_t newest_end;
};

jobfig_steps *jobfig_steps_new(void)
{
    return calloc(1, sizeof(jobfig_steps));
}

void jobfig_steps_free(jobfig_steps *st)
{
    if (st)
        free(st->v);
    free(st);
}

void jobfig_steps_clear(jobfig_steps *st)
{
    st->n = 0;
    st->newest_end = 0;
}

/* Drops the steps that ended a window or more before the newest end. */
static void steps_prune(jobfig_steps *st)
{
    size_t k = 0;
    for (size_t i = 0; i < st->n; i++)
        if (st->v[i].end_us > st->newest_end - JOBFIG_WINDOW_US)
            st->v[k++] = st->v[i];
    st->n = k;
}

int jobfig_steps_add(jobfig_steps *st, int64_t step, int64_t start_us, int64_t dur_us)
{
    if (dur_us < 0)
        return 0;
    if (st->n == st->cap && st->n >= 4096)
        steps_prune(st);
    if (st->n >= STEPS_MAX)
        return 0;   /* a window this dense is read from its first million steps */
    if (vec_grow(&st->v, &st->cap, st->n + 1, sizeof *st->v, 256) < 0)
        return -1;
    int64_t end = start_us + dur_us;
    st->v[st->n++] = (step_rec){step, end, dur_us};
    if (end > st->newest_end)
        st->newest_end = end;
    return 0;
}

double jobfig_steps_p50_ms(const jobfig_steps *st, int64_t window_us, int drop_last)
{
    int64_t top = INT64_MIN;
    size_t top_at = SIZE_MAX;
    for (size_t i = 0; drop_last && i < st->n; i++)
        if (st->v[i].step > top) {
            top = st->v[i].step;
            top_at = i;
        }
    int64_t *d = malloc((st->n ? st->n : 1) * 2 * sizeof *d);
    if (!d)
        return NAN;
    size_t m = 0;
    for (size_t i = 0; i < st->n; i++)
        if (i != top_at && st->v[i].end_us > st->newest_end - window_us)
            d[m++] = st->v[i].dur_us;
    double p50 = NAN;
    if (m) {
        sort_i64(d, d + st->n, m);
        p50 = m % 2 ? (double)d[m / 2] : ((double)d[m / 2 - 1] + (double)d[m / 2]) / 2;
        p50 /= 1000.0;
    }
    free(d);
    return p50;
}

int64_t jobfig_steps_newest_us(const jobfig_steps *st)
{
    return st->newest_end;
}
