/* model: the job: nodes in natural order, time bounds, job phases. The
 * per-node work lives in model_node.c (series), model_cpu.c (CPU total),
 * model_extra.c (extra keys) and model_phase.c (events). */
#include "model/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_node.h"
#include "model/util/lbound.h"

struct model {
    model_config cfg;
    ptrvec nodes;           /* model_node*, natural order */
    model_node *last_node;  /* files are per node: consecutive records hit it */
    uint64_t gen, sys_gen, ev_gen;  /* see model_generation */
    int64_t first_us, last_us, last_sample_us, last_event_us;
    int any;
    int64_t first_step_us, last_step_end_us;
    int has_steps;
    uint64_t stream;        /* see model_set_stream */
    size_t nseries;         /* over all nodes */
    model_drops drops;
    struct model_gpus *gpus; /* Kineto ranks (model_gpu.c), NULL until one */
};

struct model_gpus **model_gpus_ref(model *m)
{
    return &m->gpus;
}

void model_bump_generation(model *m)
{
    m->gen++;
    m->ev_gen++;
}

model *model_new(const model_config *cfg)
{
    model *m = calloc(1, sizeof *m);
    if (m && cfg)
        m->cfg = *cfg;
    return m;
}

void model_free(model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nodes.n; i++)
        model_node_free(m->nodes.v[i]);
    free(m->nodes.v);
    model_gpus_free(m->gpus);
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
        m->gen++;
        m->sys_gen++;
    }
}

int model_time_plausible(int64_t t_us)
{
    return t_us >= MODEL_TIME_MIN_US && t_us < MODEL_TIME_MAX_US;
}

void model_get_drops(const model *m, model_drops *out)
{
    *out = m->drops;
}

/* Counts a record whose time is outside the window; returns 1. */
static int drop_bad_time(model *m, int64_t t_us)
{
    m->drops.bad_time++;
    m->drops.bad_time_us = t_us;
    return 1;
}

void model_set_stream(model *m, uint64_t id)
{
    m->stream = id;
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

static size_t node_pos(const model *m, const char *id, size_t len, int *found)
{
    id_key k = {m->nodes.v, id, len};
    size_t lo = lbound(m->nodes.n, id_before, &k);
    const model_node *n = lo < m->nodes.n ? m->nodes.v[lo] : NULL;
    *found = n && n->id_len == len && (len == 0 || memcmp(n->id, id, len) == 0);
    return lo;
}

/* The node for id, or a new unregistered one (*is_new) that the caller
 * registers with node_commit once the record went in. NULL on OOM, or
 * past MODEL_NODE_MAX (counted; *is_new is then 0 and the caller
 * returns 1). */
static model_node *node_get(model *m, sm_str id, int *is_new, size_t *pos)
{
    model_node *n = m->last_node;
    *is_new = 0;
    if (n && n->id_len == id.len && model_node_bytes_eq(n->id, id.ptr, id.len))
        return n;
    int found;
    *pos = node_pos(m, id.ptr ? id.ptr : "", id.len, &found);
    if (found)
        return m->last_node = m->nodes.v[*pos];
    if (m->nodes.n >= MODEL_NODE_MAX) {
        m->drops.node_cap++;
        return NULL;
    }
    if (model_ptrvec_reserve(&m->nodes, 1) != 0)
        return NULL;
    *is_new = 1;
    return model_node_new(id.ptr ? id.ptr : "", id.len);
}

/* Registers a new node after a successful add, or frees it after a
 * failed or ignored one. */
static void node_commit(model *m, model_node *n, int is_new, size_t pos, int rc)
{
    if (!is_new)
        return;
    if (rc != 0) {
        model_node_free(n);
        return;
    }
    model_ptrvec_insert(&m->nodes, pos, n);
    m->last_node = n;
}

static void note_time(model *m, int64_t t0, int64_t t1)
{
    if (!m->any || t0 < m->first_us)
        m->first_us = t0;
    if (!m->any || t1 > m->last_us)
        m->last_us = t1;
    m->any = 1;
    m->gen++;
}

/* The result for a record node_get gave no node for. */
static int no_node(const model *m, int64_t node_cap_before)
{
    return m->drops.node_cap != node_cap_before ? 1 : -1;
}

/* What every sample the model took does to the model's own state. */
static void sample_taken(model *m, const sm_sample *s)
{
    if (s->ts_us > m->last_sample_us)
        m->last_sample_us = s->ts_us;
    m->sys_gen++;
    note_time(m, s->ts_us, s->ts_us);
}

static int add_sample(model *m, const sm_sample *s, model_ref *ref, int cpu)
{
    if (!model_time_plausible(s->ts_us))
        return drop_bad_time(m, s->ts_us);
    if (outside(m, s->ts_us) || !isfinite(s->value))
        return 1;
    if (ref && ref->ent) {
        /* The key's series exists: no node or series lookup (issue 15:
         * they were a tenth of the merging thread's time). */
        int rc = model_node_add_to(ref->node, ref->ent, s, m->stream, cpu);
        if (rc == 0)
            sample_taken(m, s);
        return rc;
    }
    int is_new;
    size_t pos = 0;
    int64_t capped = m->drops.node_cap;
    model_node *n = node_get(m, s->node, &is_new, &pos);
    if (!n)
        return no_node(m, capped);
    size_t before = n->series.n;
    void *ent = NULL;
    int rc = model_node_add_sample_ent(n, s, m->stream, MODEL_SERIES_MAX - m->nseries, &ent,
                                       cpu);
    if (rc == MNODE_CAPPED) {
        m->drops.series_cap++;
        rc = 1;
    }
    node_commit(m, n, is_new, pos, rc);
    if (rc != 0)
        return rc;
    m->nseries += n->series.n - before;
    if (ref)
        *ref = (model_ref){n, ent};
    sample_taken(m, s);
    return 0;
}

int model_add_sample_ref(model *m, const sm_sample *s, model_ref *ref)
{
    return add_sample(m, s, ref, 1);
}

int model_add_sample(model *m, const sm_sample *s)
{
    return add_sample(m, s, NULL, 1);
}

int model_add_sample_defer(model *m, const sm_sample *s, model_ref *ref)
{
    return add_sample(m, s, ref, 0);
}

void model_note_cpu(model *m, const model_ref *ref, const sm_sample *s)
{
    model_node_note_core(ref->node, ref->ent, s, m->stream);
}

int model_add_event(model *m, const sm_event *e)
{
    int64_t end;
    if (__builtin_add_overflow(e->start_us, e->dur_us > 0 ? e->dur_us : 0, &end))
        end = INT64_MAX;
    if (!model_time_plausible(e->start_us))
        return drop_bad_time(m, e->start_us);
    if (!model_time_plausible(end))
        return drop_bad_time(m, end);
    if (event_outside(m, e->start_us, end))
        return 1;
    int is_new;
    size_t pos = 0;
    int64_t capped = m->drops.node_cap;
    model_node *n = node_get(m, e->node, &is_new, &pos);
    if (!n)
        return no_node(m, capped);
    phase_kind kind;
    int rc = model_node_add_writer_event(n, e, &kind);
    node_commit(m, n, is_new, pos, rc);
    if (rc != 0)
        return rc;
    if (kind == PHASE_STEP) {
        if (!m->has_steps || e->start_us < m->first_step_us)
            m->first_step_us = e->start_us;
        if (!m->has_steps || end > m->last_step_end_us)
            m->last_step_end_us = end;
        m->has_steps = 1;
    }
    if (end > m->last_event_us)
        m->last_event_us = end;
    m->ev_gen++;
    note_time(m, e->start_us, end);
    return 0;
}

int64_t model_first_us(const model *m) { return m->any ? m->first_us : 0; }
int64_t model_last_us(const model *m) { return m->any ? m->last_us : 0; }
int64_t model_last_sample_us(const model *m) { return m->last_sample_us; }
int64_t model_last_event_us(const model *m) { return m->last_event_us; }
uint64_t model_generation(const model *m) { return m->gen; }
uint64_t model_system_generation(const model *m) { return m->sys_gen; }
uint64_t model_event_generation(const model *m) { return m->ev_gen; }

void model_get_job_phases(const model *m, job_phases *out)
{
    memset(out, 0, sizeof *out);
    if (!m->any)
        return;
    out->first_us = m->first_us;
    out->last_us = m->last_us;
    if (!m->has_steps)
        return;
    out->has_steps = 1;
    out->first_step_us = m->first_step_us;
    out->last_step_end_us = m->last_step_end_us;
    out->init_us = m->first_step_us - m->first_us;
    out->training_us = m->last_step_end_us - m->first_step_us;
    out->final_us = m->last_us - m->last_step_end_us;
}

size_t model_node_count(const model *m) { return m->nodes.n; }

const model_node *model_node_at(const model *m, size_t i)
{
    return i < m->nodes.n ? m->nodes.v[i] : NULL;
}

const model_node *model_find_node(const model *m, const char *id)
{
    int found;
    size_t i = node_pos(m, id, strlen(id), &found);
    return found ? m->nodes.v[i] : NULL;
}
