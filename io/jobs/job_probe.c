/* job_probe: a row's figures from the job itself; see job_probe.h. */
#include "io/jobs/job_probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/source/source_union.h"
#include "model/core/model_gpu.h"
#include "model/util/fnv.h"
#include "model/util/idmap.h"
#include "model/util/vec.h"
#include "model/view/jobsum.h"

#define REPROBE_S 60.0   /* Debugger writes a file a minute */

typedef struct probe_job {
    char *name;
    struct job *j;     /* open while in progress; NULL otherwise */
    rules *r;          /* with j: kept, so that rules re-run incrementally */
    double probed_s;   /* 0 never */
    int final;         /* ended and read to its end: never again */
} probe_job;

struct job_probe {
    job_probe_opts o;
    idmap map;
    probe_job **jobs;
    size_t n, cap;
    pthread_mutex_t mu;   /* cancelled and the open jobs, against cancel */
    int cancelled;
};

job_probe *job_probe_new(const job_probe_opts *o)
{
    job_probe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->o = *o;
    idmap_init(&p->map);
    pthread_mutex_init(&p->mu, NULL);
    return p;
}

static void job_shut(job_probe *p, probe_job *pj)
{
    pthread_mutex_lock(&p->mu);
    struct job *j = pj->j;
    pj->j = NULL;
    pthread_mutex_unlock(&p->mu);
    if (j)
        p->o.ops->close(j);
    rules_free(pj->r);
    pj->r = NULL;
}

void job_probe_free(job_probe *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        job_shut(p, p->jobs[i]);
        free(p->jobs[i]->name);
        free(p->jobs[i]);
    }
    free(p->jobs);
    idmap_free(&p->map);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

void job_probe_cancel(job_probe *p)
{
    pthread_mutex_lock(&p->mu);
    p->cancelled = 1;
    for (size_t i = 0; i < p->n; i++)
        if (p->jobs[i]->j)
            p->o.ops->cancel(p->jobs[i]->j, 1);
    pthread_mutex_unlock(&p->mu);
}

static int job_eq(const void *item, const void *key)
{
    return !strcmp(((const probe_job *)item)->name, key);
}

static probe_job *job_find(const job_probe *p, const char *name)
{
    return idmap_find(&p->map, fnv_add_str(FNV_SEED, name), job_eq, name);
}

static probe_job *job_get(job_probe *p, const char *name)
{
    probe_job *pj = job_find(p, name);
    if (pj)
        return pj;
    if (vec_grow(&p->jobs, &p->cap, p->n + 1, sizeof *p->jobs, 16) < 0 ||
        idmap_reserve(&p->map, 1) < 0 || !(pj = calloc(1, sizeof *pj)))
        return NULL;
    if (!(pj->name = strdup(name))) {
        free(pj);
        return NULL;
    }
    idmap_put(&p->map, fnv_add_str(FNV_SEED, name), pj);
    pthread_mutex_lock(&p->mu);
    p->jobs[p->n++] = pj;
    pthread_mutex_unlock(&p->mu);
    return pj;
}

int job_probe_due(job_probe *p, const jobrow *r, double now_s)
{
    const probe_job *pj = job_find(p, r->name);
    if (!pj || pj->probed_s <= 0)
        return 1;
    if (pj->final)
        return 0;
    return now_s - pj->probed_s >= REPROBE_S;
}

/* Past PROBE_OPEN_MAX open jobs, the one probed longest ago is closed. */
static void keep_open_bounded(job_probe *p, const probe_job *keep)
{
    size_t open = 0;
    probe_job *oldest = NULL;
    for (size_t i = 0; i < p->n; i++) {
        probe_job *pj = p->jobs[i];
        if (!pj->j)
            continue;
        open++;
        if (pj != keep && (!oldest || pj->probed_s < oldest->probed_s))
            oldest = pj;
    }
    if (open > PROBE_OPEN_MAX && oldest)
        job_shut(p, oldest);
}

/* Opens r's job (and its rule set) at url when it is not open. */
static int job_start(job_probe *p, probe_job *pj, const jobrow *r, const char *url, sm_err *err)
{
    if (pj->j)
        return 0;
    pj->r = p->o.new_rules ? p->o.new_rules(p->o.rules_ud, err) : rules_new();
    if (!pj->r)
        return err->msg[0] ? -1 : sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    struct job *j = p->o.open ? p->o.open(p->o.open_ud, r, url, err)
                              : p->o.ops->open(url, p->o.so, err);
    pthread_mutex_lock(&p->mu);
    pj->j = j;
    if (j && p->cancelled)
        p->o.ops->cancel(j, 1);
    pthread_mutex_unlock(&p->mu);
    if (!j) {
        rules_free(pj->r);
        pj->r = NULL;
        return -1;
    }
    keep_open_bounded(p, pj);
    return 0;
}

/* What the job's model says, judged as the report judges it; *kineto:
 * its steps are the PyTorch profiler's; *own_sys: its system metrics
 * are Debugger's files (not CloudWatch's, which the list reads itself). */
static int job_figures(const job_probe *p, probe_job *pj, jobsum *s, int *kineto,
                       int *own_sys, sm_err *err)
{
    verdict *v = calloc(1, sizeof *v);
    if (!v)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    pthread_mutex_t *mu = p->o.ops->lock(pj->j);
    pthread_mutex_lock(mu);
    model *m = p->o.ops->model(pj->j);
    int rc = rules_evaluate(pj->r, m) < 0 || verdict_build(m, pj->r, v) < 0 ||
             jobsum_build(m, pj->r, v, s) < 0 ? -1 : 0;
    *kineto = model_gpu_count(m) > 0;
    *own_sys = !model_system_source(m, NULL)[0];
    pthread_mutex_unlock(mu);
    free(v);
    return rc < 0 ? sm_err_set(err, SM_ERR_NOMEM, "out of memory judging the job") : 0;
}

/* The utilization of the job's own system metrics (with CloudWatch's,
 * the list's own figures stay: jobs_api_metrics). */
static void row_utilization(const jobsum *s, jobrow *r)
{
    r->gpu_pct = s->gpu_pct;
    r->cpu_pct = s->cpu_pct;
    r->mem_pct = s->mem_pct;
    r->raw_metrics = 0;
    int sys = !isnan(s->gpu_pct) || !isnan(s->cpu_pct) || !isnan(s->mem_pct);
    if (sys || r->metrics_source == JOBROW_METRICS_DEBUGGER)
        r->metrics_source = sys ? JOBROW_METRICS_DEBUGGER : JOBROW_METRICS_NONE;
    if (!isnan(s->idle_gpu_hours)) {
        r->idle_gpu_h = s->idle_gpu_hours;
        r->idle_source = JOBROW_METRICS_DEBUGGER;
    }
}

/* Copies s onto r; 1 when a figure changed. */
static int row_apply(const job_probe *p, const jobsum *s, int kineto, int own_sys, jobrow *r)
{
    jobrow before = *r;
    if (own_sys)
        row_utilization(s, r);
    r->step_p50_ms = s->step_p50_us / 1e3;
    r->step_source = isnan(s->step_p50_us) ? JOBROW_STEPS_NONE
                     : kineto ? JOBROW_STEPS_KINETO : JOBROW_STEPS_SMDEBUG;
    r->alerts = (int)s->alerts;
    r->worst = (int)s->worst;
    r->judged = 1;
    if (!p->o.api_times && s->first_us > 0) {
        r->created_s = r->start_s = s->first_us / 1e6;
        r->end_s = s->last_us / 1e6;
        r->data_times = 1;
    }
    return memcmp(&before, r, sizeof before) != 0;
}

/* What each of the job's places held at its last listing, onto r's seen
 * (by kind), so that jobs --json says what report --json would; a job
 * read as one folder, not a union, leaves them all unknown. 1 when that
 * changed. */
static int row_places(const job_probe *p, probe_job *pj, jobrow *r)
{
    union_place *pl = calloc(JOBPLACE_KINDS, sizeof *pl);
    if (!pl)
        return 0;   /* the statuses stay the last ones: nothing is lost but news */
    size_t n = source_union_places(p->o.ops->source(pj->j), pl, JOBPLACE_KINDS);
    jobplace_seen seen[JOBPLACE_KINDS] = {{0}};
    jobplace at[JOBPLACE_KINDS];
    size_t na = jobplace_list(&r->places, r->name, r->profiler_url, jobrow_ended(r), at,
                              JOBPLACE_KINDS);
    for (size_t i = 0; i < n && i < JOBPLACE_KINDS; i++) {
        int k = pl[i].kind;
        if (k < 0 || k >= JOBPLACE_KINDS)
            continue;
        seen[k].status = source_union_place_status(&pl[i]);
        seen[k].objects = pl[i].keys;
        /* the row keeps the error's head; a precision says so to the
         * compiler, whose truncation warning the sanitizer build raises */
        snprintf(seen[k].error, sizeof seen[k].error, "%.*s", (int)sizeof seen[k].error - 1,
                 pl[i].error);
        for (size_t j = 0; j < na; j++)
            if (at[j].kind == k && at[j].alt[0] && strcmp(at[j].url, pl[i].url))
                seen[k].at_alt = 1;   /* the union names the path it fell back to */
    }
    free(pl);
    int changed = memcmp(seen, r->seen, sizeof seen) != 0;
    memcpy(r->seen, seen, sizeof seen);
    return changed;
}

int job_probe_update(job_probe *p, const char *url, jobrow *r, double now_s, sm_err *err)
{
    probe_job *pj = job_get(p, r->name);
    if (!pj)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    pj->probed_s = now_s;
    if (job_start(p, pj, r, url, err) < 0)
        return -1;
    jobsum s;
    int kineto = 0, own_sys = 1;
    sm_err e = {0};
    int scanned = p->o.ops->scan(pj->j, &e);
    p->o.ops->poll_watch(pj->j);   /* an API row's: CloudWatch, as the report's */
    if (scanned < 0 && e.code == SM_ERR_NOTFOUND) {
        int placed = row_places(p, pj, r);
        job_shut(p, pj);   /* no data (yet): nothing to say, no error */
        pj->final = jobrow_ended(r);
        return placed;
    }
    if (e.msg[0] || job_figures(p, pj, &s, &kineto, &own_sys, &e) < 0) {
        job_shut(p, pj);   /* read again from its start next time */
        if (err)
            *err = e;
        return -1;
    }
    int placed = row_places(p, pj, r);
    /* ended, or (a folder's) no longer written: what was read is all */
    if (jobrow_ended(r) || !r->status[0]) {
        pj->final = 1;
        job_shut(p, pj);
    }
    return row_apply(p, &s, kineto, own_sys, r) | placed;
}
