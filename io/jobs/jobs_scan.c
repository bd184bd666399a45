/* jobs_scan: job folders under a directory or S3 prefix; see jobs_scan.h. */
#include "io/jobs/jobs_scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/decode/keyname.h"
#include "io/jobs/jobs_rows.h"
#include "io/jobs/trace_cadence.h"
#include "model/view/freshness.h"

#define PO "profiler-output/"
#define TB "tensorboard-output/"
#define AFTER_ALL "\xf4\x8f\xbf\xbf"   /* U+10FFFF: after every valid key below */
#define FRESH_S (FRESHNESS_ENDED_US / 1e6)   /* in progress while data is younger */
#define LIVE_S 120.0                          /* ... and Training, not Stale */
#define END_MARKER "training_job_end.ts"

typedef struct find_ctx {
    char job[1024];      /* the job's folder below the root, "" = the root */
    int found;
    int kineto;          /* found by a PyTorch profiler trace, no profiler-output/ */
} find_ctx;

/* Where folder `dir` starts in key as a whole path part, or NULL. */
static const char *part_at(const char *k, const char *dir)
{
    const char *p = strstr(k, dir);
    while (p && p != k && p[-1] != '/')
        p = strstr(p + 1, dir);
    return p;
}

/* A PyTorch profiler trace's job: the folder around its
 * tensorboard-output/, else the folder that holds it (where
 * tensorboard_trace_handler writes every rank's traces). */
static const char *kineto_job_end(const char *k)
{
    key_info ki;
    keyname_parse(k, &ki);
    if (ki.kind != KEY_KINETO || strstr(k, "debug-output/"))
        return NULL;
    const char *tb = part_at(k, TB);
    if (tb)
        return tb;
    const char *slash = strrchr(k, '/');
    return slash ? slash + 1 : k;
}

/* The first key that lies in a profiler-output/ folder, or is a PyTorch
 * profiler trace: its job. */
static int find_cb(void *ud, const source_entry *e)
{
    find_ctx *f = ud;
    if (e->error)
        return 0;
    const char *k = e->key, *p = part_at(k, PO);
    f->kineto = !p;
    if (!p)
        p = kineto_job_end(k);
    if (!p)
        return 0;
    size_t n = (size_t)(p - k);
    if (n >= sizeof f->job)
        return 0;
    memcpy(f->job, k, n);
    f->job[n ? n - 1 : 0] = '\0';   /* without its trailing '/' */
    f->found = 1;
    return 1;
}

typedef struct probe_ctx {
    double first_s, newest_s;
    int any;
} probe_ctx;

static int first_cb(void *ud, const source_entry *e)
{
    probe_ctx *p = ud;
    if (e->error)
        return 0;
    p->first_s = e->mtime_us / 1e6;
    p->any = 1;
    return 1;
}

static int newest_cb(void *ud, const source_entry *e)
{
    probe_ctx *p = ud;
    if (!e->error && e->mtime_us / 1e6 > p->newest_s)
        p->newest_s = e->mtime_us / 1e6;
    return 0;
}

/* The key "JOB/" + rest, or just rest for the root's own job. */
static void job_key(char *out, size_t cap, const char *job, const char *rest)
{
    snprintf(out, cap, "%s%s%s", job, *job ? "/" : "", rest);
}

/* "YYYYMMDDHH" of t, as smdebug names its hour folders (UTC). */
static void hour_name(double t, char *out, size_t cap)
{
    time_t s = (time_t)t;
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(out, cap, "%Y%m%d%H", &tm);
}

/* Whether an end marker exists; *at its time. */
static int probe_marker(source *src, const char *job, double *at, sm_err *err)
{
    static const char *const markers[] = {PO "system/training_job_end.ts",
                                          PO "framework/training_job_end.ts"};
    for (size_t i = 0; i < 2; i++) {
        char key[1200];
        probe_ctx p = {0};
        job_key(key, sizeof key, job, markers[i]);
        if (source_list(src, key, NULL, first_cb, &p, err) < 0)
            return -1;
        if (p.any) {
            *at = p.first_s;
            return 1;
        }
    }
    return 0;
}

static int probe_job(source *src, const char *job, double now, jobrow *r, sm_err *err)
{
    char inc[1200], after[1300], hour[16];
    double marker_s = 0;
    int marker = probe_marker(src, job, &marker_s, err);
    if (marker < 0)
        return -1;
    job_key(inc, sizeof inc, job, PO "system/incremental/");
    probe_ctx first = {0}, recent = {0};
    if (source_list(src, inc, NULL, first_cb, &first, err) < 0)
        return -1;
    hour_name(now - 2 * 3600.0, hour, sizeof hour);
    snprintf(after, sizeof after, "%s%s", inc, hour);
    if (first.any && source_list(src, inc, after, newest_cb, &recent, err) < 0)
        return -1;
    /* no time from a file's: the data's range comes with the figures
     * (job_probe), so TRAIN is what the dashboard shows */
    r->metrics_source = first.any ? JOBROW_METRICS_DEBUGGER : JOBROW_METRICS_NONE;
    jobs_scan_status(r, marker, marker_s, recent.newest_s, now);
    return 0;
}

typedef struct kin_probe {
    double newest_s, marker_s;
    int marker, oom;
    trace_cadence *cad;
} kin_probe;

static int kin_cb(void *ud, const source_entry *e)
{
    kin_probe *k = ud;
    key_info ki;
    if (e->error || e->mtime_us <= 0)
        return 0;
    double t = e->mtime_us / 1e6;
    const char *slash = strrchr(e->key, '/');
    const char *base = slash ? slash + 1 : e->key;
    if (!strcmp(base, END_MARKER)) {   /* wherever the job put it */
        k->marker_s = k->marker ? fmin(k->marker_s, t) : t;
        k->marker = 1;
        return 0;
    }
    keyname_parse(e->key, &ki);
    if (ki.kind != KEY_KINETO)
        return 0;
    /* the name's time, where tensorboard_trace_handler wrote one: a
     * batched upload or a copy moves mtimes only, and a copied job of
     * 2022 read as Training here while its dashboard said ENDED (which
     * judges the data's newest time) */
    double named = ki.time_us > 0 ? ki.time_us / 1e6 : t;
    k->newest_s = named > k->newest_s ? named : k->newest_s;
    char writer[1400];   /* the folder and the worker: one process's traces */
    snprintf(writer, sizeof writer, "%.*s%s", (int)(base - e->key), e->key, ki.process);
    if (trace_cadence_add(k->cad, writer, named) < 0)
        k->oom = 1;
    return 0;
}

/* A job of PyTorch profiler traces only: its times are its traces',
 * its status their cadence's (jobs_scan_trace_status). */
static int probe_kineto_job(source *src, const char *job, double now, jobrow *r,
                            sm_err *err)
{
    char prefix[1200];
    kin_probe k = {.cad = trace_cadence_new()};
    if (!k.cad)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    job_key(prefix, sizeof prefix, job, "");
    int rc = source_list(src, prefix, NULL, kin_cb, &k, err);
    double gap = rc < 0 || k.oom ? 0 : trace_cadence_gap(k.cad);
    trace_cadence_free(k.cad);
    if (rc < 0)
        return -1;
    if (k.oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    r->metrics_source = JOBROW_METRICS_NONE;
    jobs_scan_trace_status(r, k.marker, k.marker_s, k.newest_s, gap, now);
    return 0;
}

/* "N s", "N m", "N h", "N d", as the views write an age. */
static void age_text(double s, char *out, size_t cap)
{
    static const struct { double s; const char *unit; } units[] = {
        {86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
    size_t i = 0;
    while (i + 1 < sizeof units / sizeof units[0] && s < units[i].s)
        i++;
    snprintf(out, cap, "%d %s", (int)fmin(floor(fmax(s, 0) / units[i].s), 99999), units[i].unit);
}

void jobs_scan_trace_status(jobrow *r, int marker, double marker_s, double newest_s,
                            double gap_s, double now_s)
{
    if (marker || newest_s <= 0) {
        jobs_scan_status(r, marker, marker_s, newest_s, now_s);
        if (!r->status[0])
            snprintf(r->secondary, sizeof r->secondary, "traces only");
        return;
    }
    /* the dashboard's rule (model/view/freshness.h), so a job's row and
     * its header badge agree */
    int64_t gap_us = llround(gap_s * 1e6), late_us, gone_us;
    freshness_trace_limits(gap_us, &late_us, &gone_us);
    freshness f = freshness_of_traces(llround(now_s * 1e6), llround(newest_s * 1e6), gap_us, 0);
    char ago[16];   /* "N d" of a 32-bit epoch at most */
    age_text(now_s - newest_s, ago, sizeof ago);
    r->updated_s = newest_s;
    /* the faults view's "stale" is this row's: past its cadence, or
     * (cadence unknown) never while it may still run */
    r->stale_after_s = (gap_us > 0 ? late_us : gone_us) / 1e6;
    snprintf(r->status, sizeof r->status, "%s", f != FRESH_ENDED ? "InProgress" : "");
    if (f == FRESH_LIVE)
        snprintf(r->secondary, sizeof r->secondary, "Training");
    else if (f == FRESH_STALE)
        snprintf(r->secondary, sizeof r->secondary, "Stale");
    else
        snprintf(r->secondary, sizeof r->secondary, "trace %s ago", ago);
}

void jobs_scan_status(jobrow *r, int marker, double marker_s, double newest_s, double now_s)
{
    r->updated_s = newest_s > 0 ? newest_s : marker_s;
    if (marker) {
        snprintf(r->status, sizeof r->status, "Completed");
        snprintf(r->secondary, sizeof r->secondary, "end marker");
        r->end_s = marker_s;
    } else if (newest_s > 0 && now_s - newest_s < FRESH_S) {
        snprintf(r->status, sizeof r->status, "InProgress");
        snprintf(r->secondary, sizeof r->secondary, "%s",
                 now_s - newest_s <= LIVE_S ? "Training" : "Stale");
    } else {
        r->status[0] = '\0';
        snprintf(r->secondary, sizeof r->secondary, "no end marker");
    }
}

/* The row's name: the folder below the root, or the root's own name. */
static void job_name(const char *spec, const char *job, char *out, size_t cap)
{
    if (*job) {
        snprintf(out, cap, "%s", job);
        return;
    }
    size_t n = strlen(spec);
    while (n > 1 && spec[n - 1] == '/')
        n--;
    const char *b = spec + n;
    while (b > spec && b[-1] != '/')
        b--;
    snprintf(out, cap, "%.*s", (int)(spec + n - b), b);
}

static int add_job(source *src, const char *spec, const find_ctx *f, double now, joblist *l,
                   pthread_mutex_t *mu, sm_err *err)
{
    jobrow r;
    char name[1024];
    const char *job = f->job;
    job_name(spec, job, name, sizeof name);
    jobrow_init(&r, name);
    if ((f->kineto ? probe_kineto_job : probe_job)(src, job, now, &r, err) < 0)
        return -1;
    size_t n = strlen(spec);
    /* a traces-only job opens at its folder: the dashboard finds them */
    int w = snprintf(r.profiler_url, sizeof r.profiler_url, "%s%s%s%s%s", spec,
                     n && spec[n - 1] == '/' ? "" : "/", job, *job ? "/" : "",
                     f->kineto ? "" : PO);
    if (w < 0 || (size_t)w >= sizeof r.profiler_url)
        r.profiler_url[0] = '\0';   /* too long to open: the row still shows */
    /* Enter and the figures open the job as `smtop JOBDIR` does: its
     * profiler-output and the traces beside it (tensorboard/ ...) */
    w = snprintf(r.open_url, sizeof r.open_url, "%s%s%s", spec,
                 n && spec[n - 1] == '/' ? "" : "/", job);
    if (w < 0 || (size_t)w >= sizeof r.open_url || !r.profiler_url[0])
        r.open_url[0] = '\0';
    r.described = 1;
    if (mu)
        pthread_mutex_lock(mu);
    const jobrow *have = joblist_find(l, r.name);
    if (have)   /* the figures stay until the next probe */
        jobrow_take_figures(&r, have);
    int rc = joblist_put(l, &r);
    if (mu)
        pthread_mutex_unlock(mu);
    return rc < 0 ? sm_err_set(err, SM_ERR_NOMEM, "out of memory") : 0;
}

long jobs_scan_list(source *src, const char *spec, double now_s, joblist *l,
                    pthread_mutex_t *mu, void (*changed)(void *ud), void *ud, sm_err *err)
{
    char after[1100] = "";
    long n = 0;
    for (;;) {
        find_ctx f = {0};
        if (source_list(src, "", after[0] ? after : NULL, find_cb, &f, err) < 0)
            return -1;
        if (!f.found)
            return n;
        if (add_job(src, spec, &f, now_s, l, mu, err) < 0)
            return -1;
        n++;
        if (changed)
            changed(ud);
        if (!f.job[0])
            return n;   /* the root is a job itself: nothing else below it */
        snprintf(after, sizeof after, "%s/" AFTER_ALL, f.job);
    }
}

typedef struct fig_ctx {
    job_probe *p;
    double now_s;
} fig_ctx;

static int fig_due(void *ud, const jobrow *r)
{
    fig_ctx *c = ud;
    return r->open_url[0] && job_probe_due(c->p, r, c->now_s);
}

static int fig_work(void *ud, jobrow *r, sm_err *err)
{
    fig_ctx *c = ud;
    return job_probe_update(c->p, r->open_url, r, c->now_s, err);
}

long jobs_scan_figures(job_probe *p, joblist *l, pthread_mutex_t *mu, const char *const *names,
                       size_t n, double now_s, void (*changed)(void *ud), void *ud, sm_err *err)
{
    fig_ctx c = {p, now_s};
    jobs_rows_fn fn = {fig_due, fig_work, &c, changed, ud, 1};
    return jobs_rows_each(l, mu, names, n, &fn, err);
}
