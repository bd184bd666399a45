/* jobs_feed: the job list's refresh thread; see jobs_feed.h. */
#include "io/jobs/jobs_feed.h"

#include "io/jobs/jobs_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RELIST_EVERY 6
#define LATE_S 3600.0   /* a refresh lists from the newest known job minus this */

struct jobs_feed {
    jobs_api *api;            /* the SageMaker API, or */
    source *src;              /* a directory or S3 prefix (jobs_scan) */
    job_probe *probe;         /* a folder's rows' figures (job_probe), or NULL */
    jobs_files *files;        /* API rows' figures from S3 profiler data, or NULL */
    char spec[1024];
    joblist *list;
    pthread_mutex_t mu;      /* the list */
    pthread_mutex_t wmu;     /* wants, status, stop; with cv */
    pthread_cond_t cv;
    pthread_t thread;
    int started;
    int stop, want_changed, listed;
    size_t nwant_at_pick;     /* the first names of feed_targets are wanted rows */
    char **want;
    size_t nwant;
    char error[512];
    double interval_s;
    atomic_ullong gen;
    int pipe_rd, pipe_wr;
};

static void feed_changed(void *ud)
{
    jobs_feed *f = ud;
    atomic_fetch_add(&f->gen, 1);
    char b = 1;
    ssize_t w = write(f->pipe_wr, &b, 1);   /* a full pipe already says it */
    (void)w;
}

static void feed_set_error(jobs_feed *f, const sm_err *e)
{
    pthread_mutex_lock(&f->wmu);
    snprintf(f->error, sizeof f->error, "%s", e ? e->msg : "");
    pthread_mutex_unlock(&f->wmu);
    feed_changed(f);
}

static int feed_stopping(jobs_feed *f)
{
    pthread_mutex_lock(&f->wmu);
    int s = f->stop;
    pthread_mutex_unlock(&f->wmu);
    return s;
}

static int feed_in(char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], name))
            return 1;
    return 0;
}

/* The names to describe now: the wanted rows, then, when all is set,
 * every job still in progress (jobs_api_describe skips those described
 * after they ended). */
static char **feed_targets(jobs_feed *f, int all, size_t *n)
{
    pthread_mutex_lock(&f->wmu);
    pthread_mutex_lock(&f->mu);
    size_t cap = f->nwant + joblist_count(f->list), m = 0;
    char **out = calloc(cap ? cap : 1, sizeof *out);
    for (size_t i = 0; out && i < f->nwant; i++)
        out[m++] = strdup(f->want[i]);
    size_t wanted = m;
    f->nwant_at_pick = m;
    for (size_t i = 0; out && all && i < joblist_count(f->list); i++) {
        const jobrow *r = joblist_at(f->list, i);
        if (!jobrow_ended(r) && !feed_in(out, wanted, r->name))
            out[m++] = strdup(r->name);
    }
    f->want_changed = 0;
    pthread_mutex_unlock(&f->mu);
    pthread_mutex_unlock(&f->wmu);
    *n = m;
    return out;
}

/* Folders: the figures of the rows on screen (and, with all, of every
 * job in progress), each when due (job_probe_due). */
static void feed_figures(jobs_feed *f, char **names, size_t n)
{
    sm_err err = {0};
    if (!f->probe)
        return;
    if (jobs_scan_figures(f->probe, f->list, &f->mu, (const char *const *)names, n,
                          (double)time(NULL), feed_changed, f, &err) < 0 || err.msg[0])
        feed_set_error(f, &err);
}

/* all = 0: the rows on screen only (each interval); 1: every running job
 * too (the first pass, then with every listing: a running job off
 * screen is asked once a minute, not every interval). */
static void feed_describe(jobs_feed *f, int all)
{
    size_t n = 0;
    char **names = feed_targets(f, all, &n);
    sm_err err = {0};
    if (!names)
        return;
    size_t m = 0;   /* a name strdup could not copy is left for the next pass */
    for (size_t i = 0; i < n; i++)
        if (names[i])
            names[m++] = names[i];
    if (f->nwant_at_pick > m)
        f->nwant_at_pick = m;
    n = m;
    if (!f->api) {
        feed_figures(f, names, n);
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return;
    }
    long got = jobs_api_describe(f->api, f->list, &f->mu, (const char *const *)names, n,
                                 &err);
    if (got < 0 || err.msg[0])
        feed_set_error(f, &err);
    sm_err cwerr = {0};   /* the figures of the rows on screen: */
    if (jobs_api_metrics(f->api, f->list, &f->mu, (const char *const *)names,
                         n < f->nwant_at_pick ? n : f->nwant_at_pick, (double)time(NULL),
                         &cwerr) < 0)
        feed_set_error(f, &cwerr);
    sm_err ferr = {0};    /* and from their profiler data, after CloudWatch */
    if (f->files &&
        (jobs_files_figures(f->files, f->list, &f->mu, (const char *const *)names,
                            n < f->nwant_at_pick ? n : f->nwant_at_pick, (double)time(NULL),
                            f->interval_s / 2, feed_changed, f, &ferr) < 0 || ferr.msg[0]))
        feed_set_error(f, &ferr);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static double feed_newest(jobs_feed *f)
{
    double newest = 0;
    pthread_mutex_lock(&f->mu);
    for (size_t i = 0; i < joblist_count(f->list); i++) {
        double c = joblist_at(f->list, i)->created_s;
        newest = c > newest ? c : newest;
    }
    pthread_mutex_unlock(&f->mu);
    return newest;
}

static void feed_list(jobs_feed *f, int first)
{
    sm_err err = {0};
    long n;
    if (f->src)
        n = jobs_scan_list(f->src, f->spec, (double)time(NULL), f->list, &f->mu,
                           feed_changed, f, &err);
    else if (first)
        n = jobs_api_list(f->api, f->list, &f->mu, &err);
    else
        n = jobs_api_list_since(f->api, feed_newest(f) - LATE_S, f->list, &f->mu, &err);
    if (n < 0)
        feed_set_error(f, &err);
    else if (first)
        feed_set_error(f, NULL);
    pthread_mutex_lock(&f->wmu);
    f->listed = 1;
    pthread_mutex_unlock(&f->wmu);
    feed_changed(f);
}

/* Sleeps until the interval is over, the wanted rows change or stop.
 * Returns 1 when woken by a want (describe only), 0 at the interval. */
static int feed_wait(jobs_feed *f, double secs)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)secs;
    int woke = 0;
    pthread_mutex_lock(&f->wmu);
    while (!f->stop && !f->want_changed) {
        if (pthread_cond_timedwait(&f->cv, &f->wmu, &ts) == ETIMEDOUT)
            break;
    }
    woke = f->want_changed;
    pthread_mutex_unlock(&f->wmu);
    return woke;
}

static void *feed_main(void *ud)
{
    jobs_feed *f = ud;
    unsigned tick = 1;
    int all = 1;
    feed_list(f, 1);
    while (!feed_stopping(f)) {
        feed_describe(f, all);
        all = 0;
        if (feed_wait(f, f->interval_s) || feed_stopping(f))
            continue;   /* a want: describe it now, the interval goes on */
        if (tick++ % RELIST_EVERY == 0) {
            feed_list(f, 0);
            all = 1;
        } else if (f->src && !strcmp(f->src->vt->kind, "local")) {
            feed_list(f, 0);   /* a directory costs little: freshness moves each interval */
        }
    }
    return NULL;
}

static jobs_feed *feed_new(jobs_api *api, jobs_files *files, source *src, const char *spec,
                           job_probe *probe, double interval_s, sm_err *err)
{
    jobs_feed *f = calloc(1, sizeof *f);
    int p[2];
    if (!f || !(f->list = joblist_new()) || pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) {
        if (f)
            joblist_free(f->list);
        free(f);
        job_probe_free(probe);
        jobs_api_free(api);
        jobs_files_free(files);
        if (src)
            source_free(src);
        sm_err_set(err, SM_ERR_NOMEM, "cannot start the job list");
        return NULL;
    }
    f->pipe_rd = p[0];
    f->pipe_wr = p[1];
    f->api = api;
    f->files = files;
    f->src = src;
    f->probe = probe;
    snprintf(f->spec, sizeof f->spec, "%s", spec ? spec : "");
    f->interval_s = interval_s > 0 ? interval_s : 10;
    pthread_mutex_init(&f->mu, NULL);
    pthread_mutex_init(&f->wmu, NULL);
    pthread_cond_init(&f->cv, NULL);
    if (api)
        jobs_api_on_change(api, feed_changed, f);
    if (pthread_create(&f->thread, NULL, feed_main, f) != 0) {
        jobs_feed_stop(f);
        sm_err_set(err, SM_ERR_NOMEM, "cannot start the job list's thread");
        return NULL;
    }
    f->started = 1;
    return f;
}

jobs_feed *jobs_feed_start(jobs_api *api, jobs_files *files, double interval_s, sm_err *err)
{
    return feed_new(api, files, NULL, NULL, NULL, interval_s, err);
}

jobs_feed *jobs_feed_start_scan(source *src, const char *spec, job_probe *probe,
                                double interval_s, sm_err *err)
{
    return feed_new(NULL, NULL, src, spec, probe, interval_s, err);
}

void jobs_feed_stop(jobs_feed *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&f->wmu);
    f->stop = 1;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->wmu);
    if (f->api)
        jobs_api_cancel(f->api);
    if (f->files)
        jobs_files_cancel(f->files);
    if (f->src && f->src->vt->cancel)
        f->src->vt->cancel(f->src, 1);
    if (f->probe)
        job_probe_cancel(f->probe);
    if (f->started)
        pthread_join(f->thread, NULL);
    jobs_api_free(f->api);
    jobs_files_free(f->files);
    if (f->src)
        source_free(f->src);
    joblist_free(f->list);
    job_probe_free(f->probe);
    for (size_t i = 0; i < f->nwant; i++)
        free(f->want[i]);
    free(f->want);
    close(f->pipe_rd);
    close(f->pipe_wr);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->wmu);
    pthread_mutex_destroy(&f->mu);
    free(f);
}

joblist *jobs_feed_list(jobs_feed *f)
{
    return f->list;
}

pthread_mutex_t *jobs_feed_lock(jobs_feed *f)
{
    return &f->mu;
}

uint64_t jobs_feed_generation(jobs_feed *f)
{
    return atomic_load(&f->gen);
}

int jobs_feed_fd(jobs_feed *f)
{
    return f->pipe_rd;
}

void jobs_feed_drain(jobs_feed *f)
{
    char buf[64];
    while (read(f->pipe_rd, buf, sizeof buf) > 0)
        ;
}

/* Whether names[0..n) differs from the wanted rows. Holding wmu. */
static int want_differs(const jobs_feed *f, const char *const *names, size_t n)
{
    if (n != f->nwant)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], f->want[i]))
            return 1;
    return 0;
}

void jobs_feed_want(jobs_feed *f, const char *const *names, size_t n)
{
    pthread_mutex_lock(&f->wmu);
    if (want_differs(f, names, n)) {
        char **w = calloc(n ? n : 1, sizeof *w);
        size_t m = 0;
        for (size_t i = 0; w && i < n; i++)
            if ((w[m] = strdup(names[i])))
                m++;
        if (w) {
            for (size_t i = 0; i < f->nwant; i++)
                free(f->want[i]);
            free(f->want);
            f->want = w;
            f->nwant = m;
            f->want_changed = 1;
            pthread_cond_signal(&f->cv);
        }
    }
    pthread_mutex_unlock(&f->wmu);
}

void jobs_feed_status(jobs_feed *f, char *buf, size_t cap, int *is_error)
{
    char t[256] = "";
    if (f->api)
        jobs_api_status(f->api, t, sizeof t);
    else if (f->src->vt->status)
        f->src->vt->status(f->src, t, sizeof t);
    *is_error = 0;
    pthread_mutex_lock(&f->wmu);
    if (t[0]) {
        snprintf(buf, cap, "%s", t);
    } else if (f->error[0]) {
        snprintf(buf, cap, "%s", f->error);
        *is_error = 1;
    } else {
        snprintf(buf, cap, "%s", f->listed ? "" : "listing jobs...");
    }
    pthread_mutex_unlock(&f->wmu);
}

int jobs_feed_listed(jobs_feed *f)
{
    pthread_mutex_lock(&f->wmu);
    int l = f->listed;
    pthread_mutex_unlock(&f->wmu);
    return l;
}

void jobs_feed_counters(jobs_feed *f, int64_t *lists, int64_t *describes, int64_t *requests)
{
    *lists = *describes = *requests = 0;
    if (f->api)
        jobs_api_counters(f->api, lists, describes, requests);
}
