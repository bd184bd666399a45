/* model_node: the per-node series registry. A sample's series is found
 * through the last-hit cache or the (type, dimension, name) hash; a new
 * series is fully prepared (allocations, reservations, first sample)
 * before it is registered, so an OOM leaves the node as it was. */
#include "model/core/model_node.h"

#include <stdlib.h>
#include <string.h>
#include "model/util/vec.h"
#include "model/util/lbound.h"

#include "model/series/sampling.h"

enum role { R_PLAIN, R_CORE, R_GPU_UTIL, R_GPU_MEM, R_MEM, R_IO, R_NET, R_CLASH };

int model_ptrvec_reserve(ptrvec *pv, size_t extra)
{
    return vec_grow(&pv->v, &pv->cap, pv->n + extra, sizeof *pv->v, 8);
}

void model_ptrvec_insert(ptrvec *pv, size_t i, void *p)
{
    memmove(pv->v + i + 1, pv->v + i, (pv->n - i) * sizeof *pv->v);
    pv->v[i] = p;
    pv->n++;
}

static int slice_is(sm_str s, const char *lit)
{
    return sm_str_eq(s, lit);
}

static enum role role_of(const sm_sample *s)
{
    if (slice_is(s->type, "cpu") && slice_is(s->dimension, "CPUUtilization")) {
        if (slice_is(s->name, "total"))
            return R_CLASH;
        return s->name.len ? R_CORE : R_PLAIN;
    }
    if (slice_is(s->type, "gpu") && s->name.len) {
        if (slice_is(s->dimension, "GPUUtilization"))
            return R_GPU_UTIL;
        if (slice_is(s->dimension, "GPUMemoryUtilization"))
            return R_GPU_MEM;
    }
    if (slice_is(s->type, "memory"))
        return R_MEM;
    if (slice_is(s->type, "i/o"))
        return R_IO;
    if (slice_is(s->type, "network"))
        return R_NET;
    return R_PLAIN;
}

static int ent_eq(const void *item, const void *key)
{
    const ser_ent *e = item;
    const sm_sample *s = key;
    return e->lt == s->type.len && e->ld == s->dimension.len && e->ln == s->name.len &&
           model_node_bytes_eq(e->n, s->name.ptr, e->ln) &&
           model_node_bytes_eq(e->d, s->dimension.ptr, e->ld) &&
           model_node_bytes_eq(e->t, s->type.ptr, e->lt);
}

static int series_cmp(const series *a, const series *b)
{
    int c = strcmp(series_type(a), series_type(b));
    if (!c)
        c = strcmp(series_dimension(a), series_dimension(b));
    return c ? c : model_natural_cmp(series_name(a), series_name(b));
}

typedef struct ser_key {
    const ptrvec *pv;
    const series *s;
    int ents;
} ser_key;

static int ser_before(const void *ctx, size_t i)
{
    const ser_key *k = ctx;
    const series *m = k->ents ? ((const ser_ent *)k->pv->v[i])->s : k->pv->v[i];
    return series_cmp(m, k->s) < 0;
}

/* Insertion point keeping pv (of ser_ent* when ents, else series*) sorted. */
static size_t sorted_pos(const ptrvec *pv, const series *s, int ents)
{
    ser_key k = {pv, s, ents};
    return lbound(pv->n, ser_before, &k);
}

static ser_ent *ent_new(const char *t, size_t lt, const char *d, size_t ld,
                        const char *nm, size_t ln)
{
    char *tmp = malloc(lt + ld + ln + 3);
    ser_ent *e = malloc(sizeof *e);
    if (tmp && e) {
        memcpy(tmp, t, lt);
        tmp[lt] = 0;
        memcpy(tmp + lt + 1, d, ld);
        tmp[lt + 1 + ld] = 0;
        memcpy(tmp + lt + ld + 2, nm, ln);
        tmp[lt + ld + 2 + ln] = 0;
        e->s = series_new(tmp, tmp + lt + 1, tmp + lt + ld + 2);
    }
    free(tmp);
    if (e && !e->s) {
        free(e);
        e = NULL;
    }
    if (e) {
        e->t = series_type(e->s);
        e->d = series_dimension(e->s);
        e->n = series_name(e->s);
        e->next = NULL;
        e->lt = (uint32_t)lt;
        e->ld = (uint32_t)ld;
        e->ln = (uint32_t)ln;
        e->core = 0;
    }
    return e;
}

static void ent_free(ser_ent *e)
{
    if (e) {
        series_free(e->s);
        free(e);
    }
}

static void ent_register(model_node *n, ser_ent *e)
{
    sm_str parts[3] = {sm_str_c(series_type(e->s)), sm_str_c(series_dimension(e->s)),
                       sm_str_c(series_name(e->s))};
    model_ptrvec_insert(&n->series, sorted_pos(&n->series, e->s, 1), e);
    idmap_put(&n->series_map, idmap_hash(parts, 3), e);  /* reserved: cannot fail */
}

static size_t gpu_pos(const model_node *n, const char *name, int *found)
{
    size_t i = 0;
    while (i < n->ngpus && model_natural_cmp(n->gpus[i].name, name) < 0)
        i++;
    *found = i < n->ngpus && strcmp(n->gpus[i].name, name) == 0;
    return i;
}

static int gpus_reserve(model_node *n)
{
    return vec_grow(&n->gpus, &n->gpus_cap, n->ngpus + 1, sizeof *n->gpus, 4);
}

/* Past NODE_CORES_FULL_MAX cores, every core goes lean. One that cannot
 * (OOM) stays full and is tried again with the next new core. */
static void cores_make_lean(model_node *n)
{
    for (size_t i = 0; n->cores.n > NODE_CORES_FULL_MAX && i < n->cores.n; i++)
        series_make_lean(n->cores.v[i]);
}

static void role_register(model_node *n, ser_ent *e, enum role r)
{
    series *s = e->s;
    int found;
    size_t i;
    switch (r) {
    case R_CORE:
        e->core = 1;
        model_ptrvec_insert(&n->cores, sorted_pos(&n->cores, s, 0), s);
        cores_make_lean(n);
        break;
    case R_GPU_UTIL:
    case R_GPU_MEM:
        i = gpu_pos(n, series_name(s), &found);
        if (!found) {
            memmove(n->gpus + i + 1, n->gpus + i, (n->ngpus - i) * sizeof *n->gpus);
            n->gpus[i] = (gpu_ent){series_name(s), NULL, NULL};
            n->ngpus++;
        }
        *(r == R_GPU_UTIL ? &n->gpus[i].util : &n->gpus[i].mem) = s;
        break;
    case R_MEM:
        if (!n->host_mem || (strcmp(series_name(s), "MemoryUsedPercent") == 0 &&
                             strcmp(series_name(n->host_mem), "MemoryUsedPercent") != 0))
            n->host_mem = s;
        break;
    case R_IO:
        model_ptrvec_insert(&n->io, sorted_pos(&n->io, s, 0), s);
        break;
    case R_NET:
        model_ptrvec_insert(&n->net, sorted_pos(&n->net, s, 0), s);
        break;
    default:
        break;
    }
}

static int reserve_all(model_node *n, enum role r, size_t nser)
{
    ptrvec *rv = r == R_CORE ? &n->cores : r == R_IO ? &n->io : r == R_NET ? &n->net : NULL;
    if (model_ptrvec_reserve(&n->series, nser) || idmap_reserve(&n->series_map, nser))
        return -1;
    if (rv && model_ptrvec_reserve(rv, 1))
        return -1;
    if ((r == R_GPU_UTIL || r == R_GPU_MEM) && gpus_reserve(n))
        return -1;
    return 0;
}

/* Creates, fills and registers the series of a sample seen for the first
 * time. 0, 1 when ignored, MNODE_CAPPED, -1 on OOM (node unchanged). */
static int create_series(model_node *n, const sm_sample *s, size_t room, ser_ent **out)
{
    enum role r = role_of(s);
    if (r == R_CLASH)
        return 1;
    int need_total = r == R_CORE && !n->cpu_total;
    size_t want = need_total ? 2 : 1;
    if (n->series.n + want > MODEL_NODE_SERIES_MAX || want > room)
        return MNODE_CAPPED;
    ser_ent *e = ent_new(s->type.ptr, s->type.len, s->dimension.ptr, s->dimension.len,
                         s->name.ptr, s->name.len);
    ser_ent *tot = NULL;
    if (need_total)
        tot = ent_new("cpu", 3, "CPUUtilization", 14, "total", 5);
    if (e && r == R_CORE)   /* device usage per core needs no history */
        series_count_bands(e->s, SAMPLING_BAND_LOW, SAMPLING_BAND_HIGH);
    if (!e || (need_total && !tot) || reserve_all(n, r, 2) != 0 ||
        series_add(e->s, s->ts_us, s->value) != 0) {
        ent_free(e);
        ent_free(tot);
        return -1;
    }
    if (tot) {
        ent_register(n, tot);
        n->cpu_total = tot->s;
    }
    ent_register(n, e);
    role_register(n, e, r);
    *out = e;
    return 0;
}

/* What every sample of series e does once it has its series. */
static int add_found(const model_node *n, ser_ent *e, const sm_sample *s)
{
    if (e->s == n->cpu_total)
        return 1;   /* data must not write into the derived total */
    if (series_add(e->s, s->ts_us, s->value) != 0)
        return -1;
    return 0;
}

static void note_added(model_node *n, ser_ent *e, const sm_sample *s, uint64_t stream, int cpu)
{
    if (cpu && e->core)
        model_node_cpu_note(n, stream, s->ts_us, s->value);
    if (s->extra.len)
        model_node_note_extra(n, s->extra.ptr, s->extra.len);
    n->gen++;
}

int model_node_add_sample_ent(model_node *n, const sm_sample *s, uint64_t stream, size_t room,
                              void **ent, int cpu)
{
    ser_ent *prev = n->last_hit, *e = prev ? prev->next : NULL;
    if (!e || !ent_eq(e, s)) {
        e = prev;
        if (!e || !ent_eq(e, s)) {
            sm_str parts[3] = {s->type, s->dimension, s->name};
            e = idmap_find(&n->series_map, idmap_hash(parts, 3), ent_eq, s);
        }
    }
    if (e) {
        int rc = add_found(n, e, s);
        if (rc != 0)
            return rc;
    } else {
        int rc = create_series(n, s, room, &e);
        if (rc != 0)
            return rc;
    }
    if (prev)
        prev->next = e;
    n->last_hit = e;
    note_added(n, e, s, stream, cpu);
    if (ent)
        *ent = e;
    return 0;
}

int model_node_add_sample(model_node *n, const sm_sample *s, uint64_t stream, size_t room)
{
    return model_node_add_sample_ent(n, s, stream, room, NULL, 1);
}

int model_node_add_to(model_node *n, void *ent, const sm_sample *s, uint64_t stream, int cpu)
{
    int rc = add_found(n, ent, s);
    if (rc == 0)
        note_added(n, ent, s, stream, cpu);
    return rc;
}

size_t model_node_add_run(model_node *n, void *ent, const sm_sample *proto, const int64_t *ts,
                          const double *v, size_t count, unsigned char *taken)
{
    ser_ent *e = ent;
    memset(taken, 0, count);
    if (e->s == n->cpu_total)
        return 0;   /* add_found's rule, for every sample of the run */
    size_t added = 0;
    for (size_t i = 0; i < count;) {
        size_t k = series_add_block(e->s, ts + i, v + i, count - i);
        memset(taken + i, 1, k);
        added += k;
        i += k + 1;   /* the one refused, if any, stays out */
    }
    /* note_added's, per sample: the extra keys are the run's (one line's
     * names, remembered once), and no core goes to the total here */
    if (added && proto->extra.len)
        model_node_note_extra(n, proto->extra.ptr, proto->extra.len);
    n->gen += added;
    return added;
}

void model_node_note_core(model_node *n, const void *ent, const sm_sample *s, uint64_t stream)
{
    if (((const ser_ent *)ent)->core)
        model_node_cpu_note(n, stream, s->ts_us, s->value);
}
