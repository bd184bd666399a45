/* model_phase: a node's lifecycle and its framework-event statistics.
 *
 * Labels: the phase (process) name for Step/Forward/Backward, the event
 * name for data-loader events, else the phase name, else "(unnamed)".
 * Past NODE_PHASE_MAX labels on one node further labels share "(other)",
 * so a trace with thousands of distinct names cannot grow memory without
 * bound. */
#include "model/core/model_node.h"

#include <stdlib.h>
#include <string.h>

model_node *model_node_new(const char *id, size_t len)
{
    model_node *n = calloc(1, sizeof *n);
    if (!n || !(n->id = strndup(id, len))) {
        free(n);
        return NULL;
    }
    n->id_len = len;
    idmap_init(&n->series_map);
    idmap_init(&n->phase_map);
    return n;
}

void model_node_free(model_node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->series.n; i++) {
        ser_ent *e = n->series.v[i];
        series_free(e->s);
        free(e);
    }
    for (size_t i = 0; i < n->phases.n; i++)
        phase_stats_free(n->phases.v[i]);
    for (size_t i = 0; i < n->nextra; i++)
        free(n->extra[i]);
    for (size_t i = 0; i < n->procs.n; i++)
        model_node_free(n->procs.v[i]);
    free(n->procs.v);
    free(n->series.v);
    free(n->cores.v);
    free(n->io.v);
    free(n->net.v);
    free(n->phases.v);
    free(n->gpus);
    idmap_free(&n->series_map);
    idmap_free(&n->phase_map);
    free(n->id);
    free(n);
}

/* Display rank: steps (TRAIN, EVAL, GLOBAL, others), forward, backward,
 * data loader, other. */
static int phase_rank(const phase_stats *p)
{
    const char *l = phase_stats_label(p);
    switch (phase_stats_kind(p)) {
    case PHASE_STEP:
        return !strcmp(l, "Step:ModeKeys.TRAIN") ? 0 : !strcmp(l, "Step:ModeKeys.EVAL") ? 1
             : !strcmp(l, "Step:ModeKeys.GLOBAL") ? 2 : 3;
    case PHASE_FORWARD: return 4;
    case PHASE_BACKWARD: return 5;
    case PHASE_DATALOADER: return 6;
    default: return 7;
    }
}

static int phase_cmp(const phase_stats *a, const phase_stats *b)
{
    int ra = phase_rank(a), rb = phase_rank(b);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return model_natural_cmp(phase_stats_label(a), phase_stats_label(b));
}

static int label_eq(const void *item, const void *key)
{
    const sm_str *k = key;
    const char *l = phase_stats_label(item);
    return strlen(l) == k->len && (k->len == 0 || memcmp(l, k->ptr, k->len) == 0);
}

static sm_str event_label(const sm_event *e, phase_kind kind)
{
    if (kind == PHASE_DATALOADER && e->name.len)
        return e->name;
    if (e->phase.len)
        return e->phase;
    return sm_str_c("(unnamed)");
}

/* Finds or creates the stats for label. NULL on OOM (node unchanged). */
static phase_stats *phase_get(model_node *n, sm_str label, phase_kind kind)
{
    uint64_t h = idmap_hash(&label, 1);
    phase_stats *p = idmap_find(&n->phase_map, h, label_eq, &label);
    if (p)
        return p;
    if (n->phases.n >= NODE_PHASE_MAX) {
        label = sm_str_c("(other)");
        kind = PHASE_OTHER;
        h = idmap_hash(&label, 1);
        if ((p = idmap_find(&n->phase_map, h, label_eq, &label)))
            return p;
    }
    char *c = strndup(label.ptr ? label.ptr : "", label.len);
    /* a process (one of several writers) keeps smaller bounds: phase_stats.h */
    p = !c ? NULL : n->parent ? phase_stats_new_bounded(c, kind, PHASE_PROC_EXACT_CAP,
                                                         PHASE_PROC_RECENT_CAP)
                              : phase_stats_new(c, kind);
    free(c);
    if (!p || model_ptrvec_reserve(&n->phases, 1) || idmap_reserve(&n->phase_map, 1)) {
        phase_stats_free(p);
        return NULL;
    }
    size_t i = 0;
    while (i < n->phases.n && phase_cmp(n->phases.v[i], p) < 0)
        i++;
    model_ptrvec_insert(&n->phases, i, p);
    idmap_put(&n->phase_map, h, p);
    return p;
}

int model_node_add_event(model_node *n, const sm_event *e, phase_kind *kind)
{
    *kind = phase_classify(e->phase.ptr, e->phase.len, e->name.ptr, e->name.len);
    phase_stats *p = phase_get(n, event_label(e, *kind), *kind);
    if (!p)
        return -1;
    if (phase_stats_add(p, e->step, e->start_us, e->dur_us) != 0)
        return -1;  /* a newly created, empty stats entry may remain: harmless */
    n->gen++;
    return 0;
}
