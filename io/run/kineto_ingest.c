/* kineto_ingest: see kineto_ingest.h.
 *
 * A finished trace (the kineto decoder's sm_trace_done) is placed: its
 * analysis merges into its rank (model_gpu) and its kept events, placed
 * on the job clock, go into the model under the rank's node and process,
 * as an smdebug writer's do:
 *   ProfilerStep#N                    → Step:ModeKeys.TRAIN, step N
 *   enumerate(DataLoader)#…           → DataIterator
 *   other user annotations            → a phase named as the annotation
 *   cpu ops                           → phase cpu_op
 * A trace whose base is unknown (no baseTimeNanoseconds, ts not epoch µs)
 * adds its analysis, counted as unplaced, and no events. Both that and a
 * trace far off the job's clock are said once the pass is over
 * (kineto_ingest_name_clocks), when the job's clock is known whole. */
#include "io/run/kineto_ingest.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/decoder.h"
#include "io/decode/kineto_keep.h"
#include "model/gpu/gpu_clock.h"
#include "model/gpu/gpu_trace.h"
#include "model/core/model_gpu.h"
#include "model/util/vec.h"

/* A placed trace's span on the job clock, by the rank (node, process) it
 * gave its figures to. */
typedef struct kspan {
    char *who;              /* "node\0process\0key" in one block */
    int64_t t0_ns, t1_ns;
    uint8_t unplaced;       /* no time base: no span, named as unplaced */
    uint8_t named;          /* kineto_ingest_name_clocks said why already */
} kspan;

struct kineto_ingest {
    model *m;
    /* Atomic: the dashboard's status line counts it while a pass holds
     * the model lock, possibly for as long as a stalled S3 GET. */
    _Atomic int64_t traces;
    int64_t bytes;
    kspan *sp;
    size_t nsp, csp;
    size_t checked_n;       /* nsp and the system span at the last check */
    gpu_span checked_sys;
};

/* The model's phase of a kept event, by its KINETO_KEEP_* kind. */
static const char *const kind_phase[] = {"Step:ModeKeys.TRAIN", "DataIterator",
                                         "user_annotation", "cpu_op"};

kineto_ingest *kineto_ingest_new(model *m)
{
    kineto_ingest *k = calloc(1, sizeof *k);
    if (k)
        k->m = m;
    return k;
}

void kineto_ingest_free(kineto_ingest *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->nsp; i++)
        free(k->sp[i].who);
    free(k->sp);
    free(k);
}

/* The span of a trace's CPU-side events on the job clock; 0 when it has none. */
static int read_span(const sm_trace_done *r, int64_t base_ns, int64_t *t0, int64_t *t1)
{
    if (!kineto_keep_span(r->keep, t0, t1))
        return 0;
    *t0 += base_ns;
    *t1 += base_ns;
    return 1;
}

/* A trace that gives its figures to a rank another trace already gave
 * them to, over an overlapping span, records the same rank twice (a
 * copied file, two jobs writing one folder): counting both would double
 * its steps and GPU time. The earlier one stands; this one is named. */
/* Part i (0 node, 1 process, 2 key) of a span's "node\0process\0key". */
static const char *who_part(const char *who, int i)
{
    for (; i > 0; i--)
        who += strlen(who) + 1;
    return who;
}

static const kspan *span_clash(const kineto_ingest *k, const char *node, const char *proc,
                               int64_t t0, int64_t t1)
{
    for (size_t i = 0; i < k->nsp; i++) {
        const kspan *s = &k->sp[i];
        if (!s->unplaced && t0 < s->t1_ns && s->t0_ns < t1 && !strcmp(s->who, node) &&
            !strcmp(who_part(s->who, 1), proc))
            return s;
    }
    return NULL;
}

static int span_keep(kineto_ingest *k, const char *node, const char *proc, const char *key,
                     int64_t t0, int64_t t1)
{
    if (vec_grow(&k->sp, &k->csp, k->nsp + 1, sizeof *k->sp, 16) != 0)
        return -1;
    size_t a = strlen(node) + 1, b = strlen(proc) + 1, c = strlen(key) + 1;
    char *who = malloc(a + b + c);
    if (!who)
        return -1;
    memcpy(who, node, a);
    memcpy(who + a, proc, b);
    memcpy(who + a + b, key, c);
    k->sp[k->nsp++] = (kspan){who, t0, t1, 0, 0};
    return 0;
}

static const char *base_name(const char *key)
{
    const char *s = strrchr(key, '/');
    return s ? s + 1 : key;
}

/* 0 when the trace may count; -1 with err naming the trace it repeats. */
static int check_overlap(kineto_ingest *k, const sm_trace_done *r, int64_t base_ns, const char *node,
                         const char *proc, const char *key, sm_err *err)
{
    int64_t t0, t1;
    if (!read_span(r, base_ns, &t0, &t1))
        return 0;
    const kspan *s = span_clash(k, node, proc, t0, t1);
    if (s) {
        const char *other = who_part(s->who, 2);
        int64_t lo = t0 > s->t0_ns ? t0 : s->t0_ns, hi = t1 < s->t1_ns ? t1 : s->t1_ns;
        sm_err_set(err, SM_ERR_FORMAT,
                   "claims %s of %s like %.200s over the same %.3f s: the same rank recorded "
                   "twice, not counted again", proc, node, base_name(other), (double)(hi - lo) / 1e9);
        return -1;
    }
    if (span_keep(k, node, proc, key, t0, t1) != 0) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return -1;
    }
    return 0;
}

/* "5.0 days" or "3.2 h": how far a trace's clock lies off the job's. */
static void say_gap(int64_t us, char *out, size_t cap)
{
    double h = (double)us / 3.6e9;
    if (h >= 48)
        snprintf(out, cap, "%.1f days", h / 24);
    else
        snprintf(out, cap, "%.1f h", h);
}

static void name_far(kspan *s, const gpu_span *job, int by_sys, kineto_note_cb cb, void *ud)
{
    int64_t t0 = s->t0_ns / 1000, t1 = s->t1_ns / 1000;
    int before = t1 < job->t0_us;
    char gap[32], why[400];
    say_gap(before ? job->t0_us - t1 : t0 - job->t1_us, gap, sizeof gap);
    snprintf(why, sizeof why, "its clock lies %s %s the job's %s: a trace from another job? "
             "(read and counted under %s of %s; the job's time range reaches it)", gap,
             before ? "before" : "after", by_sys ? "system metrics" : "other traces",
             who_part(s->who, 1), s->who);
    cb(ud, who_part(s->who, 2), why);
    s->named = 1;
}

int kineto_ingest_name_clocks(kineto_ingest *k, const gpu_span *sys, kineto_note_cb cb, void *ud)
{
    gpu_span none = {0, 0};
    const gpu_span *sys_now = sys ? sys : &none;
    if (k->nsp == k->checked_n && sys_now->t0_us == k->checked_sys.t0_us &&
        sys_now->t1_us == k->checked_sys.t1_us)
        return 0;   /* nothing new to judge by */
    gpu_span *sp = calloc(k->nsp ? k->nsp : 1, sizeof *sp);
    uint8_t *far = malloc(k->nsp ? k->nsp : 1);
    size_t *at = malloc((k->nsp ? k->nsp : 1) * sizeof *at);
    size_t n = 0;
    int rc = sp && far && at ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < k->nsp; i++) {
        kspan *s = &k->sp[i];
        if (s->unplaced && !s->named) {
            cb(ud, who_part(s->who, 2), "no time base (no baseTimeNanoseconds, ts not epoch "
               "µs): unplaced, its GPU figures counted, its steps not on the job clock");
            s->named = 1;
        } else if (!s->unplaced) {
            at[n] = i;
            sp[n++] = (gpu_span){s->t0_ns / 1000, s->t1_ns / 1000};
        }
    }
    gpu_span job = {0, 0};
    int nfar = rc == 0 ? gpu_clock_far_off(sp, n, sys, far, &job) : -1;
    for (size_t j = 0; nfar > 0 && j < n; j++)
        if (far[j] && !k->sp[at[j]].named)
            name_far(&k->sp[at[j]], &job, sys != NULL, cb, ud);
    free(sp);
    free(far);
    free(at);
    if (nfar < 0)
        return -1;
    k->checked_n = k->nsp;
    k->checked_sys = *sys_now;
    return 0;
}

/* The file's name without its folders and extensions: a worker of its own. */
static void key_stem(const char *key, char *out, size_t cap)
{
    const char *b = base_name(key);
    size_t n = strcspn(b, ".");
    snprintf(out, cap, "%.*s", (int)(n ? n : strlen(b)), b);
}

void kineto_ingest_place(const char *name_node, const char *name_proc, const char *key,
                         const char *host, int64_t rank, int node_has_metrics, char *node,
                         char *proc, size_t cap)
{
    char stem[128];
    key_stem(key, stem, sizeof stem);
    if (name_node[0] && node_has_metrics)
        snprintf(node, cap, "%s", name_node);   /* system metrics name it */
    else if (host[0])
        snprintf(node, cap, "%s", host);
    else
        snprintf(node, cap, "%s", name_node[0] ? name_node : stem);
    if (rank >= 0)
        snprintf(proc, cap, "rank %lld", (long long)rank);
    else
        snprintf(proc, cap, "%s", name_proc[0] ? name_proc : stem);
}

void kineto_ingest_node_of(const char *name, int (*has_metrics)(const void *ud, const char *node),
                           const void *ud, char *out, size_t cap)
{
    char pre[sizeof ((key_info *)0)->node];
    snprintf(out, cap, "%s", name);
    if (!name[0] || has_metrics(ud, name))
        return;
    snprintf(pre, sizeof pre, "%s", name);
    for (char *us = strrchr(pre, '_'); us; us = strrchr(pre, '_')) {
        *us = '\0';
        if (pre[0] && has_metrics(ud, pre)) {
            snprintf(out, cap, "%s", pre);
            return;
        }
    }
}

static int model_node_has_metrics(const void *m, const char *id)
{
    const model_node *n = model_find_node(m, id);
    return n && model_node_series_count(n) > 0;
}

typedef struct add_ctx {
    model *m;
    int64_t base_ns;
    const char *node, *proc;
} add_ctx;

static void add_event(void *ud, const kineto_keep_ev *k, const char *name)
{
    const add_ctx *c = ud;
    /* a user annotation is its own phase (gloo:all_reduce, the user's
     * record_function labels): the model keeps a phase's label, not each
     * event's name, and the Timeline and its `/` show that label */
    sm_str phase = k->kind == KINETO_KEEP_USER && k->name_len ? (sm_str){name, k->name_len}
                                                              : sm_str_c(kind_phase[k->kind]);
    sm_event e = {
        .node = sm_str_c(c->node), .phase = phase,
        .name = {name, k->name_len},
        .start_us = (c->base_ns + k->ts_ns) / 1000, .dur_us = k->dur_ns / 1000,
        .step = k->kind == KINETO_KEEP_STEP ? k->step : -1,
        .pid = k->pid == SM_KEV_NONE ? -1 : k->pid,
        .tid = k->tid == SM_KEV_NONE ? -1 : k->tid, .process = sm_str_c(c->proc),
    };
    model_add_event(c->m, &e);
}

/* The kept events into the model, on the job clock (base_ns + ts). 0, or
 * -1 with err (the events spilled to a file could not be read back). */
static int add_events(model *m, sm_trace_done *r, int64_t base_ns, const char *node,
                      const char *proc, sm_err *err)
{
    add_ctx c = {m, base_ns, node, proc};
    return kineto_keep_each(r->keep, add_event, &c, err);
}

int kineto_ingest_take(void *ud, sm_trace_done *t, sm_err *err)
{
    kineto_ingest *k = ud;
    char node[128], proc[128];
    char name_node[sizeof t->node];
    kineto_ingest_node_of(t->node, model_node_has_metrics, k->m, name_node, sizeof name_node);
    kineto_ingest_place(name_node, t->process, t->key, t->host, t->meta.rank,
                        model_node_has_metrics(k->m, name_node), node, proc, sizeof node);
    int placed = t->meta.has_base || t->meta.ts_epoch;
    int64_t base_ns = t->meta.has_base ? t->meta.base_ns : 0;
    int rc = -1;
    if (!placed || check_overlap(k, t, base_ns, node, proc, t->key, err) == 0) {
        int lost = placed && add_events(k->m, t, base_ns, node, proc, err) != 0;
        if (!placed && span_keep(k, node, proc, t->key, 0, 0) == 0)
            k->sp[k->nsp - 1].unplaced = 1;   /* named by kineto_ingest_name_clocks */
        rc = model_gpu_merge(k->m, node, proc, t->meta.rank, t->tr, placed);
        if (rc != 0)
            sm_err_set(err, SM_ERR_NOMEM, "out of memory keeping the trace's figures");
        rc = rc || lost ? -1 : 0;
        atomic_fetch_add(&k->traces, 1);
        k->bytes += t->len;
    }
    decoder_kineto_free_done(t);
    return rc;
}

int64_t kineto_ingest_traces(const kineto_ingest *k)
{
    return atomic_load(&k->traces);
}

int64_t kineto_ingest_bytes(const kineto_ingest *k)
{
    return k->bytes;
}
