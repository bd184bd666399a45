/* job_probe: a row's figures from the job's own files; see job_probe.h. */
#include "io/jobs/job_probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/keyname.h"
#include "io/decode/sys_decode.h"
#include "io/jobs/job_probe_internal.h"
#include "model/util/fnv.h"
#include "model/util/idmap.h"
#include "model/util/vec.h"

#define PO "profiler-output/"
#define REPROBE_S 60.0     /* Debugger writes a file a minute */
#define FETCH_BATCH 32

struct job_probe {
    idmap map;
    probe_job **jobs;
    size_t n, cap;
};

job_probe *job_probe_new(void)
{
    job_probe *p = calloc(1, sizeof *p);
    if (p)
        idmap_init(&p->map);
    return p;
}

void job_probe_free(job_probe *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        jobfig_sys_free(p->jobs[i]->sys);
        jobfig_steps_free(p->jobs[i]->steps);
        free(p->jobs[i]->name);
        free(p->jobs[i]);
    }
    free(p->jobs);
    idmap_free(&p->map);
    free(p);
}

static int job_eq(const void *item, const void *key)
{
    return !strcmp(((const probe_job *)item)->name, key);
}

static uint64_t name_hash(const char *name)
{
    return fnv_add_str(FNV_SEED, name);
}

static probe_job *job_find(const job_probe *p, const char *name)
{
    return idmap_find(&p->map, name_hash(name), job_eq, name);
}

static probe_job *job_get(job_probe *p, const char *name)
{
    probe_job *j = job_find(p, name);
    if (j)
        return j;
    if (vec_grow(&p->jobs, &p->cap, p->n + 1, sizeof *p->jobs, 16) < 0 ||
        idmap_reserve(&p->map, 1) < 0 || !(j = calloc(1, sizeof *j)))
        return NULL;
    j->name = strdup(name);
    j->sys = jobfig_sys_new();
    j->steps = jobfig_steps_new();
    j->kineto_p50_ms = NAN;
    if (!j->name || !j->sys || !j->steps) {
        jobfig_sys_free(j->sys);
        jobfig_steps_free(j->steps);
        free(j->name);
        free(j);
        return NULL;
    }
    idmap_put(&p->map, name_hash(name), j);
    p->jobs[p->n++] = j;
    return j;
}

int job_probe_due(job_probe *p, const jobrow *r, double now_s)
{
    const probe_job *j = job_find(p, r->name);
    if (!j || j->probed_s <= 0)
        return 1;
    if (j->final && strcmp(r->status, "InProgress"))
        return 0;
    return now_s - j->probed_s >= REPROBE_S || !j->sys_caught_up;
}

/* ---- listing and reading ------------------------------------------- */

static int keys_cb(void *ud, const source_entry *e)
{
    probe_keys *k = ud;
    if (e->error)
        return 0;
    if (k->stop && strcmp(e->key, k->stop) >= 0)
        return 1;
    key_info ki;
    keyname_parse(strlen(e->key) > k->rel ? e->key + k->rel : e->key, &ki);
    if ((int)ki.kind != k->want)
        return 0;
    if (k->max && k->n >= k->max) {
        k->cut = 1;
        return 1;
    }
    if (vec_grow(&k->v, &k->cap, k->n + 1, sizeof *k->v, 64) < 0)
        return 1;
    probe_key *pk = &k->v[k->n];
    if (!(pk->key = strdup(e->key)))
        return 1;
    pk->size = e->size;
    pk->mtime_us = e->mtime_us;
    pk->time_us = ki.time_us;
    k->n++;
    return 0;
}

int job_probe_list(source *src, const char *prefix, const char *after, probe_keys *k,
               sm_err *err)
{
    return source_list(src, prefix, after && *after ? after : NULL, keys_cb, k, err) < 0 ? -1
                                                                                       : 0;
}

void job_probe_keys_free(probe_keys *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->v[i].key);
    free(k->v);
    k->v = NULL;
    k->n = k->cap = 0;
}

typedef struct read_ctx {
    char *data[FETCH_BATCH];   /* each request's bytes, copied: S3 answers */
    size_t len[FETCH_BATCH];   /* in completion order, lines go in key order */
    const probe_key *first;
    sm_err *err;
    int failed;
} read_ctx;

static void read_cb(void *ud, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *e)
{
    read_ctx *c = ud;
    size_t i = (size_t)((const probe_key *)req->user - c->first);
    (void)etag;
    if (data && (c->data[i] = malloc(len ? len : 1))) {
        memcpy(c->data[i], data, len);
        c->len[i] = len;
        return;
    }
    if (!c->failed && e)
        *c->err = *e;
    else if (!c->failed)
        sm_err_set(c->err, SM_ERR_NOMEM, "out of memory");
    c->failed = 1;
}

static void split_lines(const probe_key *k, const char *p, size_t len, probe_line_fn fn,
                        void *ud)
{
    const char *end = p + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        fn(ud, k, p, (size_t)(le - p));
        p = nl ? nl + 1 : end;
    }
}

int job_probe_read_lines(source *src, const probe_key *keys, size_t n, probe_line_fn fn, void *ud,
                     sm_err *err)
{
    int rc = 0;
    for (size_t at = 0; at < n && rc == 0; at += FETCH_BATCH) {
        source_req reqs[FETCH_BATCH];
        read_ctx c = {.first = keys + at, .err = err};
        size_t m = n - at < FETCH_BATCH ? n - at : FETCH_BATCH;
        for (size_t i = 0; i < m; i++)
            reqs[i] = (source_req){.key = keys[at + i].key, .offset = 0, .len = -1,
                                   .user = (void *)&keys[at + i]};
        rc = source_fetch(src, reqs, m, read_cb, &c, err) < 0 || c.failed ? -1 : 0;
        for (size_t i = 0; i < m; i++) {
            if (rc == 0)
                split_lines(&keys[at + i], c.data[i], c.len[i], fn, ud);
            free(c.data[i]);
        }
    }
    return rc;
}

/* ---- system metrics --------------------------------------------------- */

typedef struct sys_ctx {
    jobfig_sys *sys;
    sysdec_scratch sc;
    int oom;
} sys_ctx;

static void sys_line(void *ud, const probe_key *k, const char *line, size_t len)
{
    sys_ctx *c = ud;
    sm_sample s;
    (void)k;
    if (len && sys_decode_line(line, len, &s, &c->sc) == 0 && jobfig_sys_add(c->sys, &s) < 0)
        c->oom = 1;
}

#define SETTLE_NODES 512

/* How many of the listed keys may be read: a local node's newest file
 * changed within settle_s may still be written (smdebug starts a new
 * one each minute), and so may every file after it. Keys come in time
 * order, so each node's newest is found walking back from the end. */
static size_t settled(const probe_keys *k, double now_s, double settle_s)
{
    char (*seen)[128] = settle_s > 0 ? malloc(SETTLE_NODES * sizeof *seen) : NULL;
    size_t n = k->n, nseen = 0;
    for (size_t i = k->n; seen && i-- > 0 && nseen < SETTLE_NODES;) {
        key_info ki;
        keyname_parse(k->v[i].key + k->rel, &ki);
        size_t j = 0;
        while (j < nseen && strncmp(seen[j], ki.node, sizeof seen[j] - 1))
            j++;
        if (j < nseen)
            continue;   /* not its node's newest */
        snprintf(seen[nseen++], sizeof seen[0], "%s", ki.node);
        if (k->v[i].mtime_us > 0 && k->v[i].mtime_us / 1e6 > now_s - settle_s)
            n = i;
    }
    free(seen);
    return n;
}

static int sys_update(source *src, const char *job, probe_job *pj, double now_s,
                      double settle_s, sm_err *err)
{
    char prefix[PROBE_KEY_MAX];
    snprintf(prefix, sizeof prefix, "%s" PO "system/incremental/", job);
    int local = !strcmp(src->vt->kind, "local");
    probe_keys k = {.max = local ? PROBE_FILES_MAX : PROBE_FILES_MAX_S3,
                    .rel = strlen(job) + strlen(PO),
                    .want = KEY_SYSTEM};
    if (job_probe_list(src, prefix, pj->sys_cursor, &k, err) < 0) {
        job_probe_keys_free(&k);
        return -1;
    }
    size_t n = settled(&k, now_s, settle_s);
    sys_ctx c = {.sys = pj->sys};
    int rc = job_probe_read_lines(src, k.v, n, sys_line, &c, err);
    sys_decode_scratch_free(&c.sc);
    if (rc == 0 && c.oom)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (rc == 0) {
        if (n)
            snprintf(pj->sys_cursor, sizeof pj->sys_cursor, "%s", k.v[n - 1].key);
        pj->sys_caught_up = !k.cut;
    }
    job_probe_keys_free(&k);
    return rc;
}

/* Copies what pj knows onto r; 1 when a figure changed. */
static int row_apply(const probe_job *pj, jobrow *r)
{
    jobrow before = *r;
    if (pj->sys_caught_up && jobfig_sys_newest_us(pj->sys) > 0) {
        jobfig_sys_means(pj->sys, &r->gpu_pct, &r->cpu_pct, &r->mem_pct);
        r->raw_metrics = 0;
        r->metrics_source = JOBROW_METRICS_DEBUGGER;
        double idle = jobfig_sys_idle_hours(pj->sys);
        if (!isnan(idle)) {
            r->idle_gpu_h = idle;
            r->idle_source = JOBROW_METRICS_DEBUGGER;
        }
    }
    double p50 = jobfig_steps_p50_ms(pj->steps, JOBFIG_WINDOW_US, 0);
    if (!isnan(p50)) {
        r->step_p50_ms = p50;
        r->step_source = JOBROW_STEPS_SMDEBUG;
    } else if (!isnan(pj->kineto_p50_ms)) {
        r->step_p50_ms = pj->kineto_p50_ms;
        r->step_source = JOBROW_STEPS_KINETO;
    }
    return memcmp(&before, r, sizeof before) != 0;
}

int job_probe_update(job_probe *p, source *src, const char *job, jobrow *r, double now_s,
                     double settle_s, sm_err *err)
{
    probe_job *pj = job_get(p, r->name);
    if (!pj)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    pj->probed_s = now_s;
    if (sys_update(src, job, pj, now_s, settle_s, err) < 0)
        return -1;
    if (job_probe_steps_update(src, job, pj, jobfig_sys_newest_us(pj->sys), err) < 0)
        return -1;
    /* ended, or (a folder's) no longer written: what was read is all */
    pj->final = pj->sys_caught_up && (jobrow_ended(r) || !r->status[0]);
    return row_apply(pj, r);
}
