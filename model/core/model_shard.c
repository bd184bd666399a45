/* model_shard: writers of their own, so that several threads add to one
 * model at once, each to nodes no other touches (the scanner's node
 * workers, issue 28). See model.h. */
#include "model/core/model_internal.h"

#include <stdlib.h>
#include <string.h>

model_shard *model_shard_new(model *m)
{
    model_shard *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->m = m;
    w->a = &w->own;
    w->worker = 1;
    return w;
}

model_shard *model_writer(model *m)
{
    return &m->own;
}

void model_shard_clear(model_shard *w)
{
    for (size_t i = 0; i < w->ndef; i++)
        free(w->def[i].strs);
    free(w->def);
    for (size_t i = 0; i < w->fresh.n; i++)
        model_node_free(w->fresh.v[i]);
    free(w->fresh.v);
    free(w->bind);
}

void model_shard_free(model_shard *w)
{
    if (!w)
        return;
    model_shard_clear(w);
    free(w);
}

int model_shard_bind(model_shard *w, const char *id, size_t len, size_t room)
{
    if (len + 1 > w->bind_cap) {
        char *b = realloc(w->bind, len + 1);
        if (!b)
            return -1;
        w->bind = b;
        w->bind_cap = len + 1;
    }
    memcpy(w->bind, id, len);
    w->bind[len] = '\0';
    w->bind_len = len;
    w->bound = NULL;
    w->room = room;
    return 0;
}

void model_shard_set_stream(model_shard *w, uint64_t id)
{
    w->stream = id;
}

void model_shard_set_tag(model_shard *w, uint64_t tag)
{
    w->tag = tag;
}

void model_shard_get_drops(const model_shard *w, model_drops *out)
{
    *out = w->a->drops;
}

size_t model_series_room(const model *m)
{
    return MODEL_SERIES_MAX - m->acc.nseries;
}

int model_reserve_nodes(model *m, size_t n)
{
    return model_ptrvec_reserve(&m->nodes, n);
}

static void fold_acc(model_acc *to, const model_acc *a)
{
    to->gen += a->gen;
    to->sys_gen += a->sys_gen;
    to->ev_gen += a->ev_gen;
    if (a->any) {
        if (!to->any || a->first_us < to->first_us)
            to->first_us = a->first_us;
        if (!to->any || a->last_us > to->last_us)
            to->last_us = a->last_us;
        to->any = 1;
    }
    if (a->last_sample_us > to->last_sample_us)
        to->last_sample_us = a->last_sample_us;
    if (a->last_event_us > to->last_event_us)
        to->last_event_us = a->last_event_us;
    if (a->has_steps) {
        if (!to->has_steps || a->first_step_us < to->first_step_us)
            to->first_step_us = a->first_step_us;
        if (!to->has_steps || a->last_step_end_us > to->last_step_end_us)
            to->last_step_end_us = a->last_step_end_us;
        to->has_steps = 1;
    }
    to->nseries += a->nseries;
}

void model_fold_shard(model *m, model_shard *w)
{
    fold_acc(&m->acc, &w->own);
    for (size_t i = 0; i < w->fresh.n; i++) {
        model_node *n = w->fresh.v[i];
        int found;
        size_t pos = model_node_pos(m, n->id, n->id_len, &found);
        model_ptrvec_insert(&m->nodes, pos, n);   /* room: model_reserve_nodes */
    }
    w->fresh.n = 0;
    w->bound = NULL;
    memset(&w->own, 0, sizeof w->own);
}

void model_add_drops(model *m, const model_drops *d)
{
    model_drops *to = &m->acc.drops;
    if (d->bad_time) {
        to->bad_time += d->bad_time;
        to->bad_time_us = d->bad_time_us;
    }
    to->series_cap += d->series_cap;
    to->node_cap += d->node_cap;
}

/* ---- records of another node, applied later ------------------------- */

/* Copies the strings of n slices into one allocation; 0, or -1 on OOM. */
static int copy_strs(sm_str **v, size_t n, char **owner)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i]->len + 1;
    char *p = malloc(total ? total : 1);
    if (!p)
        return -1;
    *owner = p;
    for (size_t i = 0; i < n; i++) {
        if (v[i]->len)
            memcpy(p, v[i]->ptr, v[i]->len);
        p[v[i]->len] = '\0';
        v[i]->ptr = p;
        p += v[i]->len + 1;
    }
    return 0;
}

static model_deferred *defer_slot(model_shard *w)
{
    if (w->ndef == w->capdef) {
        size_t cap = w->capdef ? 2 * w->capdef : 16;
        model_deferred *d = realloc(w->def, cap * sizeof *d);
        if (!d)
            return NULL;
        w->def = d;
        w->capdef = cap;
    }
    model_deferred *d = &w->def[w->ndef];
    memset(d, 0, sizeof *d);
    d->tag = w->tag;
    d->stream = w->stream;
    return d;
}

int model_shard_defer_sample(model_shard *w, const sm_sample *s)
{
    model_deferred *d = defer_slot(w);
    if (!d)
        return -1;
    d->s = *s;
    sm_str *v[] = {&d->s.type, &d->s.dimension, &d->s.name, &d->s.node, &d->s.extra};
    if (copy_strs(v, sizeof v / sizeof *v, &d->strs) != 0)
        return -1;
    w->ndef++;
    return 0;
}

int model_shard_defer_event(model_shard *w, const sm_event *e)
{
    model_deferred *d = defer_slot(w);
    if (!d)
        return -1;
    d->is_event = 1;
    d->ev = *e;
    sm_str *v[] = {&d->ev.node, &d->ev.phase, &d->ev.name, &d->ev.process};
    if (copy_strs(v, sizeof v / sizeof *v, &d->strs) != 0)
        return -1;
    w->ndef++;
    return 0;
}

void model_shard_apply_deferred(model *m, model_shard *w, uint64_t tag)
{
    if (!w->ndef)
        return;
    uint64_t stream = m->own.stream;
    /* A writer's tags need not come in order (a worker takes one node's
     * files, then another's), but each tag's records sit together. */
    for (size_t k = 0; k < w->ndef; k++) {
        model_deferred *d = &w->def[k];
        if (d->tag != tag || !d->strs)
            continue;
        m->own.stream = d->stream;
        if (d->is_event)
            model_add_event(m, &d->ev);
        else
            model_add_sample(m, &d->s);
        free(d->strs);
        d->strs = NULL;
        w->def_at++;
    }
    m->own.stream = stream;
    if (w->def_at == w->ndef)
        w->def_at = w->ndef = 0;
}
