/* kineto_ingest: see kineto_ingest.h.
 *
 * One file: its bytes go through the streaming decoder (kineto_decode)
 * into the rank's analysis (gpu_trace) and, for the model's step views, a
 * list of its steps, user annotations and CPU ops on the trace's clock
 * (the clock's base may come after traceEvents). Only once the decoder
 * says the trace is complete is anything kept: the analysis merges into
 * its rank (model_gpu) and the events, placed on the job clock, go into
 * the model under the rank's node and process, as an smdebug writer's do:
 *   ProfilerStep#N                    → Step:ModeKeys.TRAIN, step N
 *   enumerate(DataLoader)#…           → DataIterator
 *   other user annotations, cpu ops   → phases user_annotation, cpu_op
 * A trace whose base is unknown (no baseTimeNanoseconds, ts not epoch µs)
 * adds its analysis, counted as unplaced, and no events. Both that and a
 * trace far off the job's clock are said once the pass is over
 * (kineto_ingest_name_clocks), when the job's clock is known whole. */
#include "io/run/kineto_ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "io/run/kineto_keep.h"
#include "model/gpu/gpu_clock.h"
#include "model/gpu/gpu_trace.h"
#include "model/core/model_gpu.h"
#include "model/util/vec.h"

#define CHUNK ((size_t)1 << 20)
#define NAME_MAX_BYTES 256              /* an event name kept for the model */
#define MODEL_EVENTS_MAX ((size_t)1 << 20)  /* per file: bounds the list */
#define SNIFF_BYTES ((size_t)64 << 10)

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
    int64_t traces, bytes;
    kspan *sp;
    size_t nsp, csp;
    size_t checked_n;       /* nsp and the system span at the last check */
    gpu_span checked_sys;
};

enum { K_STEP, K_LOADER, K_USER, K_CPU };

static const char *const kind_phase[] = {"Step:ModeKeys.TRAIN", "DataIterator",
                                         "user_annotation", "cpu_op"};

/* One file's read in progress: its decoder, its analysis so far and the
 * CPU-side events kept for the model until the trace is complete. */
struct kineto_read {
    key_info ki;
    char *key;
    kineto_dec *d;
    gpu_trace *tr;
    kineto_keep *keep;            /* CPU ops and annotations for the model */
    int64_t dropped;        /* events past MODEL_EVENTS_MAX */
    int oom;
    int fed;                /* bytes came (the head was judged) */
    int not_kineto;         /* a KEY_KINETO_MAYBE whose head says it is not one */
    int stopped;            /* the decoder refused more (corrupt, OOM) */
};
typedef struct kineto_read kread;

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

/* The span of a read's CPU-side events on the job clock; 0 when it has none. */
static int read_span(const kread *r, int64_t base_ns, int64_t *t0, int64_t *t1)
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
static int check_overlap(kineto_ingest *k, const kread *r, int64_t base_ns, const char *node,
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

static int name_has(sm_str s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s.len >= n && !memcmp(s.ptr, prefix, n);
}

/* Keeps a CPU-side X event for the model. */
static void keep_event(kread *r, const sm_kevent *ev)
{
    if (kineto_keep_count(r->keep) >= (int64_t)MODEL_EVENTS_MAX) {
        r->dropped++;
        return;
    }
    char name[NAME_MAX_BYTES];
    size_t len = kineto_str_sanitize(ev->name, name, sizeof name);
    kineto_keep_ev k = {ev->ts_ns, ev->dur_ns > 0 ? ev->dur_ns : 0, ev->pid, ev->tid, ev->step,
                  0, 0, K_CPU};
    if (ev->cat == KCAT_USER_ANNOTATION)
        k.kind = ev->step >= 0 && name_has(ev->name, "ProfilerStep#") ? K_STEP
                 : name_has(ev->name, "enumerate(DataLoader)")          ? K_LOADER
                                                                         : K_USER;
    if (kineto_keep_add(r->keep, &k, name, len) != 0)
        r->oom = 1;
}

static void on_event(void *ud, const sm_kevent *ev)
{
    kread *r = ud;
    if (gpu_trace_add(r->tr, ev) != 0)
        r->oom = 1;
    if (ev->ph == 'X' && ev->ts_ns != SM_KEV_NONE &&
        (ev->cat == KCAT_CPU_OP || ev->cat == KCAT_USER_ANNOTATION))
        keep_event(r, ev);
}

/* The file's name without its folders and extensions: a worker of its own. */
static void key_stem(const char *key, char *out, size_t cap)
{
    const char *b = base_name(key);
    size_t n = strcspn(b, ".");
    snprintf(out, cap, "%.*s", (int)(n ? n : strlen(b)), b);
}

void kineto_ingest_place(const key_info *ki, const char *key, const sm_kmeta *meta,
                         int node_has_metrics, char *node, char *proc, size_t cap)
{
    char stem[128];
    key_stem(key, stem, sizeof stem);
    if (ki->node[0] && node_has_metrics)
        snprintf(node, cap, "%s", ki->node);   /* system metrics name it */
    else if (meta->host_name.len)
        kineto_str_sanitize(meta->host_name, node, cap);
    else
        snprintf(node, cap, "%s", ki->node[0] ? ki->node : stem);
    if (meta->rank >= 0)
        snprintf(proc, cap, "rank %lld", (long long)meta->rank);
    else
        snprintf(proc, cap, "%s", ki->process[0] ? ki->process : stem);
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
    sm_event e = {
        .node = sm_str_c(c->node), .phase = sm_str_c(kind_phase[k->kind]),
        .name = {name, k->name_len},
        .start_us = (c->base_ns + k->ts_ns) / 1000, .dur_us = k->dur_ns / 1000,
        .step = k->kind == K_STEP ? k->step : -1,
        .pid = k->pid == SM_KEV_NONE ? -1 : k->pid,
        .tid = k->tid == SM_KEV_NONE ? -1 : k->tid, .process = sm_str_c(c->proc),
    };
    model_add_event(c->m, &e);
}

/* The kept events into the model, on the job clock (base_ns + ts). 0, or
 * -1 with err (the events spilled to a file could not be read back). */
static int add_events(model *m, kread *r, int64_t base_ns, const char *node, const char *proc,
                      sm_err *err)
{
    add_ctx c = {m, base_ns, node, proc};
    return kineto_keep_each(r->keep, add_event, &c, err);
}

/* A file that may be a trace by its head alone: not one if its head says so. */
static int not_kineto(const void *data, size_t len)
{
    return kineto_sniff(data, len < SNIFF_BYTES ? len : SNIFF_BYTES) == KINETO_SNIFF_NO;
}

static int not_kineto_err(sm_err *err)
{
    return sm_err_set(err, SM_ERR_FORMAT, "not a PyTorch profiler trace (no traceEvents with "
                      "schemaVersion, deviceProperties or distributedInfo)");
}

void kineto_read_drop(kineto_read *r)
{
    if (!r)
        return;
    kineto_dec_free(r->d);
    gpu_trace_free(r->tr);
    kineto_keep_free(r->keep);
    free(r->key);
    free(r);
}

kineto_read *kineto_read_begin(const key_info *ki, const char *key)
{
    kineto_read *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    kineto_dec_opts o = {.keep_python = 1};
    r->ki = *ki;
    r->key = strdup(key);
    r->d = kineto_dec_new(&o);
    r->tr = gpu_trace_new(NULL);
    r->keep = kineto_keep_new();
    if (!r->key || !r->d || !r->tr || !r->keep) {
        kineto_read_drop(r);
        return NULL;
    }
    return r;
}

int kineto_read_feed(kineto_read *r, const void *data, size_t len)
{
    if (r->not_kineto || r->stopped)
        return 1;
    /* A file's first bytes come in one piece (the whole file, or a piece
     * of at least SNIFF_BYTES): its head is judged as a whole read would. */
    if (!r->fed && r->ki.kind == KEY_KINETO_MAYBE && not_kineto(data, len)) {
        r->not_kineto = 1;
        return 1;
    }
    r->fed = 1;
    const char *p = data;
    for (size_t at = 0; at < len; at += CHUNK)
        if (kineto_dec_feed(r->d, p + at, len - at < CHUNK ? len - at : CHUNK, on_event, r) != 0) {
            r->stopped = 1;
            return 1;
        }
    return 0;
}

/* The end of r's bytes: its metadata in *meta. 0 complete; -1 with err
 * (one still being written says it is read again once it changes). */
static int read_finish(kread *r, sm_kmeta *meta, sm_err *err)
{
    if (r->not_kineto || (!r->fed && r->ki.kind == KEY_KINETO_MAYBE && not_kineto("", 0)))
        return not_kineto_err(err);
    int rc = kineto_dec_finish(r->d, meta, err);
    if (rc == KINETO_INCOMPLETE) {
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        return sm_err_set(err, SM_ERR_FORMAT, "%.400s; read again once it changes", why);
    }
    if (rc != 0)
        return -1;
    if (r->oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory reading the trace");
    if (r->ki.kind == KEY_KINETO_MAYBE && !kineto_meta_is_kineto(meta))
        return not_kineto_err(err);
    if (gpu_trace_end(r->tr, meta) != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory analysing the trace");
    return 0;
}

int kineto_ingest_end(kineto_ingest *k, kineto_read *r, int64_t len, sm_err *err)
{
    sm_kmeta meta;
    int rc = -1;
    if (read_finish(r, &meta, err) == 0) {
        key_info kp = r->ki;
        const key_info *ki = &kp;
        char node[128], proc[128];
        kineto_ingest_node_of(r->ki.node, model_node_has_metrics, k->m, kp.node, sizeof kp.node);
        kineto_ingest_place(ki, r->key, &meta, model_node_has_metrics(k->m, ki->node), node, proc,
                            sizeof node);
        int placed = meta.has_base || meta.ts_epoch;
        int64_t base_ns = meta.has_base ? meta.base_ns : 0;
        if (!placed || check_overlap(k, r, base_ns, node, proc, r->key, err) == 0) {
            int lost = placed && add_events(k->m, r, base_ns, node, proc, err) != 0;
            if (!placed && span_keep(k, node, proc, r->key, 0, 0) == 0)
                k->sp[k->nsp - 1].unplaced = 1;   /* named by kineto_ingest_name_clocks */
            rc = model_gpu_merge(k->m, node, proc, meta.rank, r->tr, placed);
            if (rc != 0)
                sm_err_set(err, SM_ERR_NOMEM, "out of memory keeping the trace's figures");
            rc = rc || lost ? -1 : 0;
            k->traces++;
            k->bytes += len;
        }
    }
    kineto_read_drop(r);
    return rc;
}

int kineto_ingest_file(kineto_ingest *k, const key_info *ki, const char *key, const void *data,
                       size_t len, sm_err *err)
{
    kineto_read *r = kineto_read_begin(ki, key);
    if (!r)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    kineto_read_feed(r, data, len);
    return kineto_ingest_end(k, r, (int64_t)len, err);
}

int64_t kineto_ingest_traces(const kineto_ingest *k)
{
    return k->traces;
}

int64_t kineto_ingest_bytes(const kineto_ingest *k)
{
    return k->bytes;
}
