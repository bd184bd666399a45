/* gpu_trace_calc: a trace's GPU figures, computed once at the end of the
 * file from the buffers gpu_trace.c filled (definitions in gpu_trace.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/lbound.h"
#include "model/util/stable_sort.h"

STABLE_SORT_DEFINE(sort_steps, gpu_kstep, A.ts < B.ts || (A.ts == B.ts && A.n < B.n))
STABLE_SORT_DEFINE(sort_calls, gpu_call, A.corr < B.corr)
STABLE_SORT_DEFINE(sort_by_stream, gpu_row,
                   A.stream < B.stream || (A.stream == B.stream && A.ts < B.ts))

/* A boundary of a GPU row for the sweep: +1 at its start, -1 at its end. */
typedef struct edge {
    int64_t t;
    int8_t d;
    uint8_t type;
} edge;

STABLE_SORT_DEFINE(sort_edges, edge, A.t < B.t)

static void *scratch(size_t n, size_t elem)
{
    return malloc((n ? n : 1) * elem);
}

typedef struct call_key {
    const gpu_call *c;
    int64_t corr;
} call_key;

static int call_before(const void *ctx, size_t i)
{
    const call_key *k = ctx;
    return k->c[i].corr < k->corr;
}

/* The launch call of correlation id corr (calls sorted by corr), or NULL. */
static const gpu_call *find_call(const gpu_trace *t, int64_t corr)
{
    if (corr == SM_KEV_NONE)
        return NULL;
    call_key k = {t->calls, corr};
    size_t i = lbound(t->n_calls, call_before, &k);
    return i < t->n_calls && t->calls[i].corr == corr ? &t->calls[i] : NULL;
}

/* Leaves the rows HTA keeps: all of them before any cutoff, else those
 * launched by a call that starts before it. */
static void keep_rows(gpu_trace *t, int64_t cutoff)
{
    if (cutoff == INT64_MAX)
        return;
    size_t k = 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const gpu_call *c = find_call(t, t->rows[i].corr);
        if (c && c->ts < cutoff)
            t->rows[k++] = t->rows[i];
    }
    t->n_rows = k;
}

/* Steps kept, each with its share of the sweep's segments (see
 * step_add_segment). */
typedef struct step_cursor {
    gpu_step *s;
    const gpu_kstep *k;
    size_t n, first;
} step_cursor;

/* Adds the segment [a, b) covered by the type set m to the steps it
 * overlaps: compute wins, then communication, then memory. Steps are
 * ProfilerSteps one after another, so a cursor moves forward only. */
static void step_add_segment(step_cursor *c, int64_t a, int64_t b, int m)
{
    while (c->first < c->n && c->k[c->first].end <= a)
        c->first++;
    for (size_t j = c->first; j < c->n && c->k[j].ts < b; j++) {
        int64_t lo = a > c->k[j].ts ? a : c->k[j].ts;
        int64_t hi = b < c->k[j].end ? b : c->k[j].end;
        if (hi <= lo)
            continue;
        if (m & GPU_KT_COMPUTATION)
            c->s[j].compute_us += hi - lo;
        else if (m & GPU_KT_COMMUNICATION)
            c->s[j].comm_us += hi - lo;
        else
            c->s[j].memory_us += hi - lo;
    }
}

/* The temporal and kernel-type breakdowns and the steps' split, in one
 * sweep over the rows' boundaries. */
static int sweep(gpu_trace *t, step_cursor *sc)
{
    gpu_acc *a = &t->res;
    size_t n = 2 * t->n_rows;
    edge *e = scratch(n, sizeof *e), *tmp = scratch(n, sizeof *e);
    if (!e || !tmp) {
        free(e);
        free(tmp);
        return -1;
    }
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < t->n_rows; i++) {
        const gpu_row *r = &t->rows[i];
        e[2 * i] = (edge){r->ts, 1, r->type};
        e[2 * i + 1] = (edge){r->end, -1, r->type};
        lo = r->ts < lo ? r->ts : lo;
        hi = r->end > hi ? r->end : hi;
    }
    sort_edges(e, tmp, n);
    int64_t live[8] = {0}, prev = 0, busy = 0;
    for (size_t i = 0; i < n; i++) {
        int m = (live[1] > 0 ? 1 : 0) | (live[2] > 0 ? 2 : 0) | (live[4] > 0 ? 4 : 0);
        if (i > 0 && m && e[i].t > prev) {
            int64_t len = e[i].t - prev;
            a->ktype_us[m] += len;
            busy += len;
            if (m & GPU_KT_COMPUTATION)
                a->compute_us += len;
            if (m & GPU_KT_COMMUNICATION)
                a->comm_us += len;
            if ((m & 3) == 3)
                a->comm_comp_us += len;
            step_add_segment(sc, prev, e[i].t, m);
        }
        live[e[i].type] += e[i].d;
        prev = e[i].t;
    }
    free(e);
    free(tmp);
    if (t->n_rows) {
        a->span_us = hi - lo;
        a->idle_us = a->span_us - busy;
    }
    return 0;
}

/* Idle time per stream, rows in start order (HTA: the previous row's end,
 * not the latest end, so a row inside its predecessor leaves no gap). */
static int idle_per_stream(gpu_trace *t)
{
    gpu_row *tmp = scratch(t->n_rows, sizeof *tmp);
    if (!tmp)
        return -1;
    sort_by_stream(t->rows, tmp, t->n_rows);
    free(tmp);
    gpu_stream_idle *s = NULL;
    for (size_t i = 0; i < t->n_rows; i++) {
        const gpu_row *r = &t->rows[i];
        if (i == 0 || r->stream != t->rows[i - 1].stream) {
            if (!(s = gpu_acc_stream(&t->res, r->stream)))
                return -1;
            continue;
        }
        int64_t prev_end = t->rows[i - 1].end, gap = r->ts - prev_end;
        const gpu_call *c = find_call(t, r->corr);
        int64_t *cat = c && c->ts > prev_end ? &s->host_wait_us
                     : gap < t->o.kernel_wait_us ? &s->kernel_wait_us : &s->other_us;
        *cat += gap > 0 ? gap : 0;
    }
    return 0;
}

static int new_quants(gpu_acc *a)
{
    if (a->delay)
        return 0;
    a->delay = quantile_new(GPU_LAUNCH_EXACT);
    a->cpu = quantile_new(GPU_LAUNCH_EXACT);
    a->gpu = quantile_new(GPU_LAUNCH_EXACT);
    return a->delay && a->cpu && a->gpu ? 0 : -1;
}

static int launch_stats(gpu_trace *t)
{
    gpu_acc *a = &t->res;
    for (size_t i = 0; i < t->n_rows; i++) {
        const gpu_row *r = &t->rows[i];
        const gpu_call *c = find_call(t, r->corr);
        if (!c || c->kind != GPU_CALL_LAUNCH)
            continue;
        if (new_quants(a) != 0)
            return -1;
        int64_t call = c->end - c->ts, row = r->end - r->ts, delay = r->ts - c->end;
        if (quantile_add(a->delay, (double)(delay > 0 ? delay : 0)) != 0 ||
            quantile_add(a->cpu, (double)call) != 0 || quantile_add(a->gpu, (double)row) != 0)
            return -1;
        a->launches++;
        a->delay_sum_us += delay;
        a->short_kernels += call <= t->o.short_call_us && row < call;
        a->outliers += delay > t->o.delay_outlier_us;
    }
    return 0;
}

static void count_kernels(gpu_trace *t)
{
    for (size_t i = 0; i < t->n_rows; i++) {
        int64_t d = t->rows[i].end - t->rows[i].ts;
        gpu_table_count(&t->res.kernels, t->rows[i].name, d, d);
    }
}

/* Sorts the steps and returns the cutoff: the last step's start when it is
 * left out, else INT64_MAX. */
static int64_t steps_cutoff(gpu_trace *t)
{
    gpu_kstep *tmp = scratch(t->n_ksteps, sizeof *tmp);
    if (!tmp)
        return INT64_MIN;
    sort_steps(t->ksteps, tmp, t->n_ksteps);
    free(tmp);
    if (t->o.include_last_step || t->n_ksteps < 2)
        return INT64_MAX;
    return t->ksteps[t->n_ksteps - 1].ts;
}

static int kept_steps(gpu_trace *t, int64_t cutoff, step_cursor *sc)
{
    size_t n = 0;
    while (n < t->n_ksteps && t->ksteps[n].ts < cutoff)
        n++;
    gpu_acc *a = &t->res;
    a->steps = calloc(n ? n : 1, sizeof *a->steps);
    if (!a->steps)
        return -1;
    a->n_steps = a->cap_steps = n;
    a->n_kept_steps = (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        a->steps[i].step = t->ksteps[i].n;
        a->steps[i].start_us = t->ksteps[i].ts;
        a->steps[i].dur_us = t->ksteps[i].end - t->ksteps[i].ts;
    }
    *sc = (step_cursor){a->steps, t->ksteps, n, 0};
    return 0;
}

int gpu_trace_calc(gpu_trace *t)
{
    int64_t cutoff = steps_cutoff(t);
    gpu_call *ctmp = scratch(t->n_calls, sizeof *ctmp);
    if (cutoff == INT64_MIN || !ctmp) {
        free(ctmp);
        return -1;
    }
    sort_calls(t->calls, ctmp, t->n_calls);
    free(ctmp);
    keep_rows(t, cutoff);
    step_cursor sc;
    if (kept_steps(t, cutoff, &sc) != 0)
        return -1;
    t->res.gpu_rows = (int64_t)t->n_rows;
    count_kernels(t);
    if (sweep(t, &sc) != 0 || launch_stats(t) != 0 || idle_per_stream(t) != 0)
        return -1;
    for (size_t i = 0; i < sc.n; i++) {
        gpu_step *s = &sc.s[i];
        s->idle_us = s->dur_us - s->compute_us - s->comm_us - s->memory_us;
    }
    /* Done with the GPU rows and launch calls: the ops' scratch does not
     * stack on them (a trace's peak memory is at its end). */
    free(t->rows);
    free(t->calls);
    t->rows = NULL;
    t->calls = NULL;
    t->n_rows = t->cap_rows = t->n_calls = t->cap_calls = 0;
    if (gpu_trace_calc_ops(t, cutoff) != 0 || gpu_trace_calc_memory(t) != 0)
        return -1;
    return 0;
}
