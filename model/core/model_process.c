/* model_process: the trace writers ("processes") of a node.
 *
 * A node trained by 8 ranks has 8 writers, 0-algo-1 .. 7-algo-1, each with
 * its own steps. Every event counts in its node (the pooled statistics)
 * and in its writer's process, a model_node holding only phases, so every
 * phase getter and view works on a process as on a node.
 *
 * Memory: most jobs have one writer per node, and a copy of the node's
 * phases would double what framework events cost. So the first writer of
 * a node `alias`es the node's phases; when a second writer (or an event
 * naming none) arrives, the first gets a copy of the node's phases — all
 * of which came from it — and from then on each keeps its own, within the
 * smaller bounds of phase_stats.h's PHASE_PROC_* (the node keeps the full
 * ones for the pooled events). */
#include "model/core/model_node.h"

#include <stdlib.h>
#include <string.h>
#include "model/util/lbound.h"

typedef struct proc_key {
    void *const *procs;     /* model_node *, sorted by id */
    sm_str id;
} proc_key;

static int proc_before(const void *ctx, size_t i)
{
    const proc_key *k = ctx;
    const model_node *p = k->procs[i];
    return model_natural_cmp_n(p->id, p->id_len, k->id.ptr, k->id.len) < 0;
}

static size_t proc_pos(const model_node *n, sm_str id, int *found)
{
    proc_key k = {n->procs.v, id};
    size_t lo = lbound(n->procs.n, proc_before, &k);
    const model_node *p = lo < n->procs.n ? n->procs.v[lo] : NULL;
    *found = p && p->id_len == id.len && memcmp(p->id, id.ptr, id.len) == 0;
    return lo;
}

/* Gives an aliasing process its own copy of its node's phases. 0, or -1
 * on OOM (p still aliases). */
static int proc_own(model_node *p)
{
    const model_node *n = p->parent;
    if (!p->alias)
        return 0;
    if (model_ptrvec_reserve(&p->phases, n->phases.n) != 0 ||
        idmap_reserve(&p->phase_map, n->phases.n) != 0)
        return -1;
    for (size_t i = 0; i < n->phases.n; i++) {
        phase_stats *c = phase_stats_clone(n->phases.v[i], PHASE_PROC_EXACT_CAP,
                                           PHASE_PROC_RECENT_CAP);
        if (!c) {
            for (size_t k = 0; k < p->phases.n; k++)
                phase_stats_free(p->phases.v[k]);
            p->phases.n = 0;
            idmap_free(&p->phase_map);
            idmap_init(&p->phase_map);
            return -1;
        }
        sm_str label = sm_str_c(phase_stats_label(c));
        model_ptrvec_insert(&p->phases, p->phases.n, c);   /* the node's order */
        idmap_put(&p->phase_map, idmap_hash(&label, 1), c);
    }
    p->gen = n->gen;
    p->alias = 0;
    return 0;
}

/* The process of writer `id`, created when new (aliasing the node's
 * phases when it is the node's only source of events). NULL on OOM or
 * past NODE_PROC_MAX. */
static model_node *proc_get(model_node *n, sm_str id)
{
    model_node *last = n->last_proc;   /* a file's events share one writer */
    if (last && last->id_len == id.len && model_node_bytes_eq(last->id, id.ptr, id.len))
        return last;
    int found;
    size_t pos = proc_pos(n, id, &found);
    if (found)
        return n->last_proc = n->procs.v[pos];
    if (n->procs.n >= NODE_PROC_MAX || model_ptrvec_reserve(&n->procs, 1) != 0)
        return NULL;
    if (n->procs.n == 1 && proc_own(n->procs.v[0]) != 0)
        return NULL;
    model_node *p = model_node_new(id.ptr, id.len);
    if (!p)
        return NULL;
    p->parent = n;
    p->alias = n->procs.n == 0 && !n->loose && n->phases.n == 0;
    model_ptrvec_insert(&n->procs, pos, p);
    return n->last_proc = p;
}

int model_node_add_writer_event(model_node *n, const sm_event *e, phase_kind *kind)
{
    model_node *p = NULL;
    if (e->process.len == 0) {
        if (n->procs.n == 1 && proc_own(n->procs.v[0]) != 0)
            return -1;
        n->loose = 1;
    } else if (!(p = proc_get(n, e->process)) && n->procs.n < NODE_PROC_MAX) {
        return -1;   /* OOM; past the cap the node alone counts the event */
    }
    if (model_node_add_event(n, e, kind) != 0)
        return -1;
    if (p && !p->alias && model_node_add_event(p, e, kind) != 0)
        return -1;
    return 0;
}

size_t model_node_process_count(const model_node *n) { return n->procs.n; }

const model_node *model_node_process_at(const model_node *n, size_t i)
{
    return i < n->procs.n ? n->procs.v[i] : NULL;
}

const model_node *model_node_find_process(const model_node *n, const char *id)
{
    int found;
    size_t pos = proc_pos(n, sm_str_c(id), &found);
    return found ? n->procs.v[pos] : NULL;
}

const model_node *model_node_parent(const model_node *n) { return n->parent ? n->parent : n; }

const model_node *model_find_writer(const model *m, const char *id)
{
    const model_node *n = model_find_node(m, id);
    for (size_t i = 0; !n && i < model_node_count(m); i++)
        n = model_node_find_process(model_node_at(m, i), id);
    return n;
}
