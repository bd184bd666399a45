/* tlview: see tlview.h. */
#include "model/view/tlview.h"

#include "model/util/fnv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/model_gpu.h"
#include "model/util/lbound.h"
#include "model/view/gpuview.h"
#include "model/view/stepsview.h"

/* Bars built when the pane has not said how many it shows yet. */
#define TLVIEW_DEFAULT_BARS 128

const model_node *tlview_writer(const model_node *nd, const char *process)
{
    const model_node *w = process && process[0] ? model_node_find_process(nd, process) : NULL;
    if (!w && model_node_process_count(nd) >= 2)
        w = model_node_process_at(nd, 0);
    return w ? w : nd;
}

static const phase_stats *step_phase(const model_node *nd)
{
    for (size_t i = 0; i < model_node_phase_count(nd); i++)
        if (phase_stats_kind(model_node_phase_at(nd, i)) == PHASE_STEP)
            return model_node_phase_at(nd, i);
    return NULL;
}

/* The GPU split of the breakdowns' steps, when rank gr is shown. */
static int add_gpu_steps(tlview *v, const gpu_rank *gr)
{
    if (!gr || v->nsb == 0)
        return 0;
    int64_t *num = malloc(2 * v->nsb * sizeof *num);
    v->gsb = calloc(v->nsb, sizeof *v->gsb);
    if (!num || !v->gsb) {
        free(num);
        return -1;
    }
    for (size_t i = 0; i < v->nsb; i++) {
        num[i] = v->sb[i].step;
        num[v->nsb + i] = v->sb[i].start_us;
    }
    v->has_gpu = gpuview_steps_match(gpu_rank_summary(gr), num, num + v->nsb, v->nsb,
                                     v->gsb) > 0;
    free(num);
    return 0;
}

/* Breakdowns of retained steps [first, first + max) of writer w into v. */
static int add_breakdowns(tlview *v, const model_node *w, size_t first, size_t max)
{
    if (max == 0 || v->nrecent == 0)
        return 0;
    if (!(v->sb = calloc(max, sizeof *v->sb)))
        return -1;
    int n = step_breakdown_node_from(w, NULL, first, v->sb, max);
    if (n < 0)
        return -1;
    v->sb_first = first;
    v->nsb = (size_t)n;
    return 0;
}

/* The Kineto rank shown: the writer picked, or the node's only one. */
static const gpu_rank *shown_rank(const model *m, const model_node *nd, const model_node *w)
{
    if (w == nd && model_node_process_count(nd) == 1)
        w = model_node_process_at(nd, 0);
    return w != nd ? model_process_gpu(m, model_node_id(nd), model_node_id(w)) : NULL;
}

/* The step phase's events, and the breakdowns the view asks for. */
static int add_steps(tlview *v, const model_node *w, const tlview_params *tp)
{
    const phase_stats *sp = step_phase(w);
    if (!sp)
        return 0;
    snprintf(v->step_label, sizeof v->step_label, "%s", phase_stats_label(sp));
    phase_stats_get_summary(sp, &v->step_sum);
    size_t cap = phase_stats_recent_count(sp);
    if (!(v->recent = malloc((cap ? cap : 1) * sizeof *v->recent)))
        return -1;
    v->nrecent = phase_stats_recent(sp, v->recent, cap);
    size_t n = v->nrecent, first, max;
    if (tp->view == TLVIEW_LOADER) {
        first = n > TLVIEW_LOADER_STEPS ? n - TLVIEW_LOADER_STEPS : 0;
        max = TLVIEW_LOADER_STEPS;
    } else if (tp->fit == 0) {
        first = n > TLVIEW_DEFAULT_BARS ? n - TLVIEW_DEFAULT_BARS : 0;
        max = TLVIEW_DEFAULT_BARS;
    } else if (tp->first == TLVIEW_NEWEST) {
        /* Room for a taller pane (zoomed) without waiting for another build. */
        max = 3 * tp->fit > TLVIEW_DEFAULT_BARS ? 3 * tp->fit : TLVIEW_DEFAULT_BARS;
        first = n > max ? n - max : 0;
    } else {   /* a screen above and below the bars shown: scrolling finds them built */
        first = tp->first > tp->fit ? tp->first - tp->fit : 0;
        max = 3 * tp->fit;
    }
    return add_breakdowns(v, w, first, max);
}

/* GetNext calls (and DataIterator spans without an event name): the
 * latencies a training step waits for. */
static int is_getnext(const phase_stats *ps)
{
    const char *l = phase_stats_label(ps);
    return phase_stats_kind(ps) == PHASE_DATALOADER &&
           (strstr(l, "GetNext") || !strcmp(l, "DataIterator"));
}

static int add_loader(tlview *v, const model_node *w)
{
    for (size_t i = 0; i < model_node_phase_count(w); i++) {
        const phase_stats *ps = model_node_phase_at(w, i);
        v->has_loader |= phase_stats_kind(ps) == PHASE_DATALOADER;
        if (strstr(phase_stats_label(ps), "DataLoaderWorker")) {
            phase_summary s;
            phase_stats_get_summary(ps, &s);
            v->worker_labels++;
            v->worker_events += s.count;
        }
        if (is_getnext(ps)) {
            const uint32_t *c = phase_stats_histogram(ps);
            for (size_t b = 0; b < PHASE_HIST_BUCKETS; b++) {
                v->getnext[b] += c[b];
                v->getnext_total += c[b];
            }
        }
    }
    v->worker_par = -1;
    if (v->worker_labels) {
        /* The model keeps no pids: parallel worker spans estimate the count. */
        event_window *ew = event_window_query(w, INT64_MIN, INT64_MAX, "DataLoaderWorker");
        v->worker_par = ew ? event_window_max_concurrency(ew) : -1;
        event_window_free(ew);
    }
    return 0;
}

static int add_events(tlview *v, const model_node *w, const tlview_params *tp, int64_t t0,
                      int64_t t1)
{
    event_window *ew = event_window_query(w, t0, t1, tp->filter);
    if (!ew)
        return -1;
    event_window_sort(ew, (ew_order)tp->order);
    size_t n = event_window_count(ew);
    v->ev = calloc(n ? n : 1, sizeof *v->ev);
    int rc = v->ev ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++, v->nev++) {
        v->ev[i] = *event_window_at(ew, i);
        if (!(v->ev[i].label = strdup(v->ev[i].label)))
            rc = -1;
    }
    event_window_free(ew);
    return rc;
}

/* The node picked for q->selected (the first with framework events when
 * it has none); NULL with v->why when none has. */
static const model_node *pick(tlview *v, const model *m, const size_t *nodes, size_t n,
                              const viewdata_req *q)
{
    const model_node **nd = calloc(n ? n : 1, sizeof *nd);
    if (!nd)
        return NULL;
    for (size_t i = 0; i < n; i++)
        nd[i] = model_node_at(m, nodes[i]);
    long k = stepsview_pick_node(nd, n, q->selected < n ? q->selected : (n ? n - 1 : 0));
    const model_node *got = k >= 0 ? nd[k] : NULL;
    free(nd);
    if (!got)
        v->why = n == 0 ? "waiting for data"
                        : "no framework trace events in this job - system metrics only";
    return got;
}

tlview *tlview_build(const model *m, const size_t *nodes, size_t n, const viewdata_req *q,
                     const tlview_params *tp, int64_t t0_us, int64_t t1_us)
{
    tlview *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    const model_node *nd = pick(v, m, nodes, n, q);
    if (!nd)
        return v;
    const model_node *w = tlview_writer(nd, q->process);
    snprintf(v->node, sizeof v->node, "%s", model_node_id(nd));
    v->nprocs = model_node_process_count(nd);
    v->proc_k = v->nprocs;
    for (size_t k = 0; w != nd && k < v->nprocs; k++)
        if (model_node_process_at(nd, k) == w)
            v->proc_k = k;
    snprintf(v->shown, sizeof v->shown, "%s", w != nd ? model_node_id(w) : "");
    int rc = 0;
    if (tp->view == TLVIEW_EVENTS)
        rc = add_events(v, w, tp, t0_us, t1_us);
    else
        rc = add_steps(v, w, tp);
    if (rc == 0 && tp->view == TLVIEW_STEPS)
        rc = add_gpu_steps(v, shown_rank(m, nd, w));
    if (rc == 0 && tp->view == TLVIEW_LOADER)
        rc = add_loader(v, w);
    if (rc != 0) {
        tlview_free(v);
        return NULL;
    }
    return v;
}

void tlview_free(tlview *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->nev; i++)
        free((char *)v->ev[i].label);
    free(v->ev);
    free(v->recent);
    free(v->sb);
    free(v->gsb);
    free(v);
}

typedef struct upto_key {
    const phase_event *ev;
    int64_t t;
} upto_key;

static int starts_by(const void *ctx, size_t i)
{
    const upto_key *k = ctx;
    return k->ev[i].start_us <= k->t;
}

size_t tlview_recent_upto(const tlview *v, int64_t t_us)
{
    upto_key k = {v->recent, t_us};
    return lbound(v->nrecent, starts_by, &k);
}

static void *query_build(const viewquery_in *in, const void *params)
{
    return tlview_build(in->m, in->nodes, in->shown, in->q, params, in->t0_us, in->t1_us);
}

static void query_free(void *answer)
{
    tlview_free(answer);
}

static uint64_t query_key(const viewdata_req *q, const void *params)
{
    const tlview_params *tp = params;
    uint64_t h = fnv_add_u64(viewdata_common_key(q), q->selected);
    h = fnv_add_str(h, q->process);
    h = fnv_add_u64(h, (uint64_t)tp->view);
    h = fnv_add_u64(h, tp->first);
    h = fnv_add_u64(h, tp->fit);
    h = fnv_add_u64(h, (uint64_t)tp->order);
    return fnv_add_str(h, tp->filter);
}

const viewquery tlview_query = {"timeline", query_build, query_free, query_key};
