/* viewdata: see viewdata.h. */
#include "model/view/viewdata.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/fnv.h"
#include "model/util/pick.h"

#include "model/core/model_gpu.h"
#include "model/view/freshness.h"

/* One query's answer, shared by the view data that reuse it. */
typedef struct part {
    atomic_int refs;
    uint64_t key;             /* the request fields it was built for */
    const viewquery *query;
    void *p;
} part;

/* A node as keys see it: facts copied from the model. */
typedef struct vd_node {
    const char *id;           /* into viewdata.pool */
    int traced;               /* has framework events */
    size_t w0, nw;            /* its writers: writers[w0 .. w0 + nw) */
} vd_node;

struct viewdata {
    viewdata_req q;
    size_t total, shown;
    vd_node *node;            /* total, model order */
    const char **writers;
    char *pool;               /* every id above */
    int64_t first_us, newest_us, t0_us, t1_us, interval_us;
    int64_t trace_gap_us;   /* traces only: the longest cycle gap; -1 otherwise */
    char sys_source[48];    /* model_system_source: "" for Debugger's files */
    int64_t sys_interval_us;
    uint64_t model_gen;
    int has_traces, has_system;
    size_t gpu_ranks;
    int gpu_memory;
    part *parts[VIEWDATA_ASKS];   /* the answer to q.ask[i] */
};

static part *part_new(const viewquery *query, void *p, uint64_t key)
{
    part *x = p ? malloc(sizeof *x) : NULL;
    if (!x) {
        if (p)
            query->free(p);
        return NULL;
    }
    atomic_init(&x->refs, 1);
    x->key = key;
    x->query = query;
    x->p = p;
    return x;
}

static void part_unref(part *x)
{
    if (!x || atomic_fetch_sub(&x->refs, 1) != 1)
        return;
    x->query->free(x->p);
    free(x);
}

int viewdata_ask_for(viewdata_req *q, const viewquery *query, const void *params,
                     size_t size)
{
    if (size > VIEWDATA_PARAMS)
        return -1;
    for (size_t i = 0; i < VIEWDATA_ASKS; i++)
        if (!q->ask[i].query) {
            q->ask[i].query = query;
            q->ask[i].size = size;
            if (size)
                memcpy(q->ask[i].params, params, size);
            return 0;
        }
    return -1;
}

uint64_t viewdata_common_key(const viewdata_req *q)
{
    uint64_t h = fnv_add_u64(FNV_SEED, (uint64_t)q->live);
    h = fnv_add_u64(h, (uint64_t)q->span_us);
    h = fnv_add_u64(h, (uint64_t)q->end_us);
    h = fnv_add_u64(h, (uint64_t)q->step_focus);
    h = fnv_add_u64(h, (uint64_t)q->step_t0_us);
    h = fnv_add_u64(h, (uint64_t)q->step_t1_us);
    return fnv_add_str(h, q->filter);
}

/* The first answer of prev to query, or NULL. */
static const part *prev_part(const viewdata *prev, const viewquery *query)
{
    for (size_t i = 0; prev && i < VIEWDATA_ASKS; i++)
        if (prev->parts[i] && prev->parts[i]->query == query)
            return prev->parts[i];
    return NULL;
}

void viewdata_window(const viewdata_req *q, int64_t newest_us, int64_t *t0, int64_t *t1)
{
    if (q->step_focus) {
        *t0 = q->step_t0_us;
        *t1 = q->step_t1_us;
        return;
    }
    int64_t end = q->live ? newest_us : q->end_us;
    /* The newest sample must fall inside the half-open window. */
    if (q->live && end > 0)
        end += 1;
    *t1 = end;
    *t0 = end - q->span_us;
}

/* Copies id into the pool at *at. */
static const char *pool_put(char *pool, size_t *at, const char *id)
{
    size_t n = strlen(id) + 1;
    memcpy(pool + *at, id, n);
    *at += n;
    return pool + *at - n;
}

/* Every node's id, whether it has framework events and its writers'
 * ids: what a key needs (the selection's clamp under a filter typed
 * since, the node a pane picks, the writers r/R cycle through) without
 * the model. 0, or -1 on OOM. */
static int copy_nodes(viewdata *v, const model *m)
{
    size_t bytes = 0, nw = 0;
    for (size_t i = 0; i < v->total; i++) {
        const model_node *nd = model_node_at(m, i);
        bytes += strlen(model_node_id(nd)) + 1;
        for (size_t k = 0; k < model_node_process_count(nd); k++, nw++)
            bytes += strlen(model_node_id(model_node_process_at(nd, k))) + 1;
    }
    v->node = calloc(v->total ? v->total : 1, sizeof *v->node);
    v->writers = malloc((nw ? nw : 1) * sizeof *v->writers);
    v->pool = malloc(bytes ? bytes : 1);
    if (!v->node || !v->writers || !v->pool)
        return -1;
    size_t at = 0, w = 0;
    for (size_t i = 0; i < v->total; i++) {
        const model_node *nd = model_node_at(m, i);
        vd_node *x = &v->node[i];
        x->id = pool_put(v->pool, &at, model_node_id(nd));
        x->traced = model_node_phase_count(nd) > 0;
        v->has_traces |= x->traced;
        v->has_system |= model_node_series_count(nd) > 0;
        x->w0 = w;
        x->nw = model_node_process_count(nd);
        for (size_t k = 0; k < x->nw; k++)
            v->writers[w++] = pool_put(v->pool, &at, model_node_id(model_node_process_at(nd, k)));
    }
    return 0;
}

viewdata *viewdata_build(const model *m, const viewdata_req *q, const viewdata *prev,
                         int reuse)
{
    viewdata *v = calloc(1, sizeof *v);
    size_t total = model_node_count(m);
    size_t *nodes = malloc((total ? total : 1) * sizeof *nodes);
    if (!v || !nodes) {
        free(nodes);
        free(v);
        return NULL;
    }
    v->q = *q;
    v->total = total;
    v->newest_us = model_last_us(m);
    v->first_us = model_first_us(m);
    v->model_gen = model_generation(m);
    v->interval_us = freshness_sample_interval(m);
    snprintf(v->sys_source, sizeof v->sys_source, "%s",
             model_system_source(m, &v->sys_interval_us));
    v->gpu_ranks = model_gpu_count(m);
    v->trace_gap_us = !v->interval_us && v->gpu_ranks ? freshness_trace_gap(m) : -1;
    for (size_t i = 0; i < v->gpu_ranks && !v->gpu_memory; i++)
        v->gpu_memory = gpu_rank_summary(model_gpu_at(m, i)->gpu)->memory.n_series > 0;
    viewdata_window(q, v->newest_us, &v->t0_us, &v->t1_us);
    int ok = copy_nodes(v, m) == 0;
    /* The parts' nodes by the same rule the keys count them with. */
    if (ok)
        v->shown = viewdata_nodes_passing(v, q->filter, q->visible, nodes, total);
    viewquery_in in = {m, nodes, v->shown, &v->q, v->t0_us, v->t1_us, NULL};
    for (size_t k = 0; ok && k < VIEWDATA_ASKS; k++) {
        const viewdata_ask *a = &q->ask[k];
        if (!a->query)
            continue;
        uint64_t key = a->query->key(q, a->params);
        part *old = (part *)prev_part(prev, a->query);
        if (reuse && old && old->key == key) {
            atomic_fetch_add(&old->refs, 1);
            v->parts[k] = old;
            v->model_gen = 0;   /* older than the model: a full build follows */
            continue;
        }
        in.prev = old ? old->p : NULL;
        ok = (v->parts[k] = part_new(a->query, a->query->build(&in, a->params), key)) != NULL;
    }
    free(nodes);
    if (!ok) {
        viewdata_free(v);
        return NULL;
    }
    return v;
}

void viewdata_free(viewdata *v)
{
    if (!v)
        return;
    for (size_t k = 0; k < VIEWDATA_ASKS; k++)
        part_unref(v->parts[k]);
    free(v->node);
    free(v->writers);
    free(v->pool);
    free(v);
}

const viewdata_req *viewdata_request(const viewdata *v)
{
    return &v->q;
}

size_t viewdata_node_total(const viewdata *v)
{
    return v->total;
}

size_t viewdata_node_shown(const viewdata *v)
{
    return v->shown;
}

int64_t viewdata_newest_us(const viewdata *v)
{
    return v->newest_us;
}

int64_t viewdata_first_us(const viewdata *v)
{
    return v->first_us;
}

void viewdata_time_window(const viewdata *v, int64_t *t0, int64_t *t1)
{
    *t0 = v->t0_us;
    *t1 = v->t1_us;
}

uint64_t viewdata_model_generation(const viewdata *v)
{
    return v->model_gen;
}

const void *viewdata_answer(const viewdata *v, const viewquery *query)
{
    for (size_t i = 0; i < VIEWDATA_ASKS; i++)
        if (v->parts[i] && v->parts[i]->query == query)
            return v->parts[i]->p;
    return NULL;
}

const char *viewdata_system_source(const viewdata *v, int64_t *interval_us)
{
    if (interval_us)
        *interval_us = v->sys_interval_us;
    return v->sys_source;
}

int64_t viewdata_sample_interval_us(const viewdata *v)
{
    return v->interval_us;
}

freshness viewdata_freshness(const viewdata *v, int64_t now_us, int64_t scan_us)
{
    if (v->trace_gap_us >= 0)
        return freshness_of_traces(now_us, v->newest_us, v->trace_gap_us, scan_us);
    return freshness_of(now_us, v->newest_us, v->interval_us, scan_us);
}

int viewdata_has_system(const viewdata *v)
{
    return v->has_system;
}

size_t viewdata_gpu_ranks(const viewdata *v)
{
    return v->gpu_ranks;
}

int viewdata_gpu_memory(const viewdata *v)
{
    return v->gpu_memory;
}

int viewdata_has_traces(const viewdata *v)
{
    return v->has_traces;
}

const char *viewdata_node_id(const viewdata *v, size_t i)
{
    return i < v->total ? v->node[i].id : NULL;
}

int viewdata_node_traced(const viewdata *v, size_t i)
{
    return i < v->total && v->node[i].traced;
}

size_t viewdata_node_writer_count(const viewdata *v, size_t i)
{
    return i < v->total ? v->node[i].nw : 0;
}

const char *viewdata_node_writer(const viewdata *v, size_t i, size_t k)
{
    return k < viewdata_node_writer_count(v, i) ? v->writers[v->node[i].w0 + k] : NULL;
}

size_t viewdata_nodes_passing(const viewdata *v, const char *filter,
                              int (*visible)(const char *filter, const char *id),
                              size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; v && i < v->total; i++) {
        if (visible && !visible(filter, v->node[i].id))
            continue;
        if (n < max)
            out[n] = i;
        n++;
    }
    return n;
}

typedef struct traced_ctx {
    const viewdata *v;
    const size_t *nodes;
} traced_ctx;

static int traced_at(const void *ctx, size_t i)
{
    const traced_ctx *c = ctx;
    return viewdata_node_traced(c->v, c->nodes[i]);
}

long viewdata_pick_traced(const viewdata *v, const size_t *nodes, size_t n, size_t selected)
{
    traced_ctx c = {v, nodes};
    return pick_preferred(n, selected, traced_at, &c);
}
