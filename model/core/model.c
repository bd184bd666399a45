/* model: the job: nodes in natural order, time bounds, job phases. The
 * per-node work lives in model_node.c (series), model_cpu.c (CPU total),
 * model_extra.c (extra keys) and model_phase.c (events). */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/model_internal.h"
#include "model/util/lbound.h"

/* Kineto ranks are job-wide, not a node's: whole files (a trace) are read
 * on the scanning thread between shard batches (scan_shard.c), never by a
 * node's worker, so no writer shard needs them. */
struct model_gpus **model_gpus_ref(model *m)
{
    return &m->gpus;
}

void model_bump_generation(model *m)
{
    m->acc.gen++;
    m->acc.ev_gen++;
}

model *model_new(const model_config *cfg)
{
    model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    if (cfg)
        m->cfg = *cfg;
    m->own.m = m;
    m->own.a = &m->acc;
    return m;
}

void model_set_system_source(model *m, const char *name, int64_t interval_us)
{
    snprintf(m->sys_source, sizeof m->sys_source, "%s", name ? name : "");
    m->sys_interval_us = m->sys_source[0] ? interval_us : 0;
    m->acc.gen++;      /* views and rules keyed on the generations see it */
    m->acc.sys_gen++;
}

const char *model_system_source(const model *m, int64_t *interval_us)
{
    if (interval_us)
        *interval_us = m->sys_interval_us;
    return m->sys_source;
}

void model_set_gpus_per_series(model *m, int n)
{
    m->gpus_per_series = n > 1 ? n : 1;
    m->acc.gen++;
    m->acc.sys_gen++;
}

int model_gpus_per_series(const model *m)
{
    return m->gpus_per_series > 1 ? m->gpus_per_series : 1;
}

void model_set_trace_files(model *m, int64_t read, int64_t unread)
{
    if (m->traces_read == read && m->traces_unread == unread)
        return;
    m->traces_read = read;
    m->traces_unread = unread;
    m->acc.gen++;   /* the verdict says it: views keyed on the generation see it */
    m->acc.ev_gen++;
}

void model_get_trace_files(const model *m, int64_t *read, int64_t *unread)
{
    *read = m->traces_read;
    *unread = m->traces_unread;
}

void model_free(model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nodes.n; i++)
        model_node_free(m->nodes.v[i]);
    free(m->nodes.v);
    model_gpus_free(m->gpus);
    model_shard_clear(&m->own);
    free(m);
}

/* Only a flush that emitted CPU-total samples changed what readers see:
 * an idle pass must leave every generation alone, or every cache keyed
 * on them (the rules over all history) recomputes for nothing. */
void model_flush(model *m, int final)
{
    size_t emitted = 0;
    for (size_t i = 0; i < m->nodes.n; i++)
        emitted += model_node_cpu_flush(m->nodes.v[i], !final);
    if (emitted) {
        m->acc.gen++;
        m->acc.sys_gen++;
    }
}

int model_time_plausible(int64_t t_us)
{
    return sm_time_plausible(t_us);
}

void model_get_drops(const model *m, model_drops *out)
{
    *out = m->acc.drops;
}

/* Counts a record whose time is outside the window; returns 1. */
static int drop_bad_time(model_shard *w, int64_t t_us)
{
    w->a->drops.bad_time++;
    w->a->drops.bad_time_us = t_us;
    return 1;
}

void model_set_stream(model *m, uint64_t id)
{
    m->own.stream = id;
}

model_config model_get_config(const model *m)
{
    return m->cfg;
}

static int outside(const model *m, int64_t t)
{
    return (m->cfg.since_us && t < m->cfg.since_us) || (m->cfg.until_us && t >= m->cfg.until_us);
}

/* An event is kept when it overlaps the window: it ends at or after since
 * (one ending exactly at since is kept) and starts before until. */
static int event_outside(const model *m, int64_t start, int64_t end)
{
    return (m->cfg.since_us && end < m->cfg.since_us) ||
           (m->cfg.until_us && start >= m->cfg.until_us);
}

typedef struct id_key {
    void *const *v;          /* model_node *, sorted by id */
    const char *id;
    size_t len;
} id_key;

static int id_before(const void *ctx, size_t i)
{
    const id_key *k = ctx;
    const model_node *n = k->v[i];
    return model_natural_cmp_n(n->id, n->id_len, k->id, k->len) < 0;
}

size_t model_node_pos(const model *m, const char *id, size_t len, int *found)
{
    id_key k = {m->nodes.v, id, len};
    size_t lo = lbound(m->nodes.n, id_before, &k);
    const model_node *n = lo < m->nodes.n ? m->nodes.v[lo] : NULL;
    *found = n && n->id_len == len && (len == 0 || memcmp(n->id, id, len) == 0);
    return lo;
}

/* A node writer's node for id: the one it is bound to, found among the
 * model's nodes (which no one changes while node writers run) or made
 * here, unregistered (*is_new) until node_commit. NULL when id names
 * another node (*foreign: the caller defers the record), on OOM, or past
 * MODEL_NODE_MAX (counted; *is_new is then 0 and the caller returns 1). */
static model_node *bound_node(model_shard *w, sm_str id, int *is_new, int *foreign)
{
    if (id.len != w->bind_len || !model_node_bytes_eq(w->bind, id.ptr, id.len)) {
        *foreign = 1;
        return NULL;
    }
    if (w->bound)
        return w->bound;
    model *m = w->m;
    int found;
    size_t pos = model_node_pos(m, w->bind, w->bind_len, &found);
    if (found)
        return w->bound = m->nodes.v[pos];
    if (m->nodes.n + w->fresh.n >= MODEL_NODE_MAX) {
        w->a->drops.node_cap++;
        return NULL;
    }
    if (model_ptrvec_reserve(&w->fresh, 1) != 0)
        return NULL;
    *is_new = 1;
    return model_node_new(w->bind, w->bind_len);
}

/* The node for id, or a new unregistered one (*is_new) that the caller
 * registers with node_commit once the record went in. NULL on OOM, past
 * MODEL_NODE_MAX (counted; *is_new is then 0 and the caller returns 1),
 * or for a node writer, a record of another node (*foreign). */
static model_node *node_get(model_shard *w, sm_str id, int *is_new, size_t *pos, int *foreign)
{
    model *m = w->m;
    model_node *n = w->last_node;
    *is_new = *foreign = 0;
    if (w->worker)
        return bound_node(w, id, is_new, foreign);
    if (n && n->id_len == id.len && model_node_bytes_eq(n->id, id.ptr, id.len))
        return n;
    int found;
    *pos = model_node_pos(m, id.ptr ? id.ptr : "", id.len, &found);
    if (found)
        return w->last_node = m->nodes.v[*pos];
    if (m->nodes.n >= MODEL_NODE_MAX) {
        w->a->drops.node_cap++;
        return NULL;
    }
    if (model_ptrvec_reserve(&m->nodes, 1) != 0)
        return NULL;
    *is_new = 1;
    return model_node_new(id.ptr ? id.ptr : "", id.len);
}

/* Registers a new node after a successful add (a node writer keeps it
 * for model_fold_shard), or frees it after a failed or ignored one. */
static void node_commit(model_shard *w, model_node *n, int is_new, size_t pos, int rc)
{
    if (!is_new)
        return;
    if (rc != 0) {
        model_node_free(n);
        return;
    }
    if (w->worker) {
        w->fresh.v[w->fresh.n++] = n;
        w->bound = n;
        return;
    }
    model_ptrvec_insert(&w->m->nodes, pos, n);
    w->last_node = n;
}

static void note_time(model_acc *a, int64_t t0, int64_t t1)
{
    if (!a->any || t0 < a->first_us)
        a->first_us = t0;
    if (!a->any || t1 > a->last_us)
        a->last_us = t1;
    a->any = 1;
    a->gen++;
}

/* The result for a record node_get gave no node for. */
static int no_node(const model_shard *w, int64_t node_cap_before)
{
    return w->a->drops.node_cap != node_cap_before ? 1 : -1;
}

/* What every sample the model took does to the job's own state. */
static void sample_taken(model_acc *a, const sm_sample *s)
{
    if (s->ts_us > a->last_sample_us)
        a->last_sample_us = s->ts_us;
    a->sys_gen++;
    note_time(a, s->ts_us, s->ts_us);
}

/* The series w may still make. */
static size_t series_room(const model_shard *w)
{
    return w->worker ? w->room : MODEL_SERIES_MAX - w->a->nseries;
}

static int add_sample(model_shard *w, const sm_sample *s, model_ref *ref, int cpu)
{
    const model *m = w->m;
    if (!model_time_plausible(s->ts_us))
        return drop_bad_time(w, s->ts_us);
    if (outside(m, s->ts_us) || !isfinite(s->value))
        return 1;
    if (ref && ref->ent) {
        /* The key's series exists: no node or series lookup (issue 15:
         * they were a tenth of the merging thread's time). */
        int rc = model_node_add_to(ref->node, ref->ent, s, w->stream, cpu);
        if (rc == 0)
            sample_taken(w->a, s);
        return rc;
    }
    int is_new, foreign;
    size_t pos = 0;
    int64_t capped = w->a->drops.node_cap;
    model_node *n = node_get(w, s->node, &is_new, &pos, &foreign);
    if (foreign)
        return model_shard_defer_sample(w, s);
    if (!n)
        return no_node(w, capped);
    size_t before = n->series.n;
    void *ent = NULL;
    int rc = model_node_add_sample_ent(n, s, w->stream, series_room(w), &ent, cpu);
    if (rc == MNODE_CAPPED) {
        w->a->drops.series_cap++;
        rc = 1;
    }
    node_commit(w, n, is_new, pos, rc);
    if (rc != 0)
        return rc;
    size_t made = n->series.n - before;
    w->a->nseries += made;
    if (w->worker)
        w->room -= made;
    if (ref)
        *ref = (model_ref){n, ent};
    sample_taken(w->a, s);
    return 0;
}

int model_add_sample_ref(model *m, const sm_sample *s, model_ref *ref)
{
    return add_sample(&m->own, s, ref, 1);
}

int model_add_sample(model *m, const sm_sample *s)
{
    return add_sample(&m->own, s, NULL, 1);
}

int model_add_sample_defer(model *m, const sm_sample *s, model_ref *ref)
{
    return add_sample(&m->own, s, ref, 0);
}

void model_note_cpu(model *m, const model_ref *ref, const sm_sample *s)
{
    model_node_note_core(ref->node, ref->ent, s, m->own.stream);
}

int model_shard_add_sample_ref(model_shard *w, const sm_sample *s, model_ref *ref)
{
    return add_sample(w, s, ref, 1);
}

int model_shard_add_sample_defer(model_shard *w, const sm_sample *s, model_ref *ref)
{
    return add_sample(w, s, ref, 0);
}

void model_shard_add_run(model_shard *w, const model_ref *ref, const sm_sample *proto,
                         const int64_t *ts, const double *v, size_t n, unsigned char *taken)
{
    const model *m = w->m;
    int64_t kts[MODEL_RUN_MAX];
    double kv[MODEL_RUN_MAX];
    unsigned char ktaken[MODEL_RUN_MAX];
    uint16_t from[MODEL_RUN_MAX];   /* a kept sample's index in the run */
    size_t kept = 0;
    if (n > MODEL_RUN_MAX)
        n = MODEL_RUN_MAX;
    memset(taken, 0, n);
    /* add_sample's tests, sample by sample in order (the latest bad time
     * is the drops'), then the kept ones into the series as one run */
    for (size_t i = 0; i < n; i++) {
        if (!model_time_plausible(ts[i])) {
            drop_bad_time(w, ts[i]);
        } else if (!outside(m, ts[i]) && isfinite(v[i])) {
            kts[kept] = ts[i];
            kv[kept] = v[i];
            from[kept++] = (uint16_t)i;
        }
    }
    if (!kept || !model_node_add_run(ref->node, ref->ent, proto, kts, kv, kept, ktaken))
        return;
    /* sample_taken's per sample, summed: the newest time, one
     * generation each, the job's first and last time */
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    uint64_t added = 0;
    for (size_t k = 0; k < kept; k++) {
        if (!ktaken[k])
            continue;
        taken[from[k]] = 1;
        added++;
        lo = kts[k] < lo ? kts[k] : lo;
        hi = kts[k] > hi ? kts[k] : hi;
    }
    model_acc *a = w->a;
    if (hi > a->last_sample_us)
        a->last_sample_us = hi;
    a->sys_gen += added;
    note_time(a, lo, hi);
    a->gen += added - 1;   /* note_time's own one, once a sample */
}

void model_shard_note_cpu(model_shard *w, const model_ref *ref, const sm_sample *s)
{
    model_node_note_core(ref->node, ref->ent, s, w->stream);
}

int model_shard_add_event(model_shard *w, const sm_event *e)
{
    const model *m = w->m;
    model_acc *a = w->a;
    int64_t end;
    if (__builtin_add_overflow(e->start_us, e->dur_us > 0 ? e->dur_us : 0, &end))
        end = INT64_MAX;
    if (!model_time_plausible(e->start_us))
        return drop_bad_time(w, e->start_us);
    if (!model_time_plausible(end))
        return drop_bad_time(w, end);
    if (event_outside(m, e->start_us, end))
        return 1;
    int is_new, foreign;
    size_t pos = 0;
    int64_t capped = a->drops.node_cap;
    model_node *n = node_get(w, e->node, &is_new, &pos, &foreign);
    if (foreign)
        return model_shard_defer_event(w, e);
    if (!n)
        return no_node(w, capped);
    phase_kind kind;
    int rc = model_node_add_writer_event(n, e, &kind);
    node_commit(w, n, is_new, pos, rc);
    if (rc != 0)
        return rc;
    if (kind == PHASE_STEP) {
        if (!a->has_steps || e->start_us < a->first_step_us)
            a->first_step_us = e->start_us;
        if (!a->has_steps || end > a->last_step_end_us)
            a->last_step_end_us = end;
        a->has_steps = 1;
    }
    if (end > a->last_event_us)
        a->last_event_us = end;
    a->ev_gen++;
    note_time(a, e->start_us, end);
    return 0;
}

int model_add_event(model *m, const sm_event *e)
{
    return model_shard_add_event(&m->own, e);
}

int64_t model_first_us(const model *m) { return m->acc.any ? m->acc.first_us : 0; }
int64_t model_last_us(const model *m) { return m->acc.any ? m->acc.last_us : 0; }
int64_t model_last_sample_us(const model *m) { return m->acc.last_sample_us; }
int64_t model_last_event_us(const model *m) { return m->acc.last_event_us; }
uint64_t model_generation(const model *m) { return m->acc.gen; }
uint64_t model_system_generation(const model *m) { return m->acc.sys_gen; }
uint64_t model_event_generation(const model *m) { return m->acc.ev_gen; }

void model_get_job_phases(const model *m, job_phases *out)
{
    const model_acc *a = &m->acc;
    memset(out, 0, sizeof *out);
    if (!a->any)
        return;
    out->first_us = a->first_us;
    out->last_us = a->last_us;
    if (!a->has_steps)
        return;
    out->has_steps = 1;
    out->first_step_us = a->first_step_us;
    out->last_step_end_us = a->last_step_end_us;
    out->init_us = a->first_step_us - a->first_us;
    out->training_us = a->last_step_end_us - a->first_step_us;
    out->final_us = a->last_us - a->last_step_end_us;
}

size_t model_node_count(const model *m) { return m->nodes.n; }

const model_node *model_node_at(const model *m, size_t i)
{
    return i < m->nodes.n ? m->nodes.v[i] : NULL;
}

const model_node *model_find_node(const model *m, const char *id)
{
    int found;
    size_t i = model_node_pos(m, id, strlen(id), &found);
    return found ? m->nodes.v[i] : NULL;
}
