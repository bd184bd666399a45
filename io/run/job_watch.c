/* job_watch: the API's view of a dashboard's job; see job_watch.h. */
#include "io/run/job_watch.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/aws/cw_host.h"
#include "io/jobs/sm_parse.h"
#include "io/aws/aws_api.h"
#include "io/aws/sagemaker.h"
#include "io/scan/scanner.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

#define DESCRIBE_EVERY_S 60.0
#define RETRY_FAILED_S 600.0
#define CW_EVERY_S 60.0
#define CW_LATE_S 300.0          /* points CloudWatch may still add behind the newest */
#define DEBUGGER_GRACE_S 300.0  /* training time before its files may be missed */
#define CW_STREAM 0xC10D3A7C40ULL /* model_set_stream: not a file's */

typedef struct cw_point {
    int64_t ts;
    int host, metric;
    double v;
} cw_point;

struct job_watch {
    char name[256];
    aws_creds *creds;
    aws_api *sm, *cw;
    pthread_mutex_t mu;          /* row, described, err, cw_on */
    jobrow row;
    int described;
    char err[512];
    /* the poller's own (one thread) */
    double describe_s, failed_s; /* last describe; last failure (0 none) */
    int decided, cw_on;          /* CloudWatch chosen (under mu for readers) */
    double cw_s, cw_end_s;       /* last fetch; the job's end it covered */
    double cw_done_s;            /* last fetch that worked (under mu) */
    int cw_failed;               /* the last fetch failed */
    int64_t *last_us;            /* newest point added, per host x metric */
    int hosts;
    cw_point *pts;
    size_t npts, pts_cap;
    atomic_long describes, metric_calls;
    /* the thread (job_watch_start) */
    pthread_t thread;
    int started, stop;           /* stop under mu, signalled on cv */
    pthread_cond_t cv;
    model *m;
    pthread_mutex_t *lock;
    scanner *sc;
    void (*on_change)(void *ud); /* under mu */
    void *change_ud;
};

job_watch *job_watch_new(const char *name, const jobrow *row, const job_watch_opts *o,
                         sm_err *err)
{
    job_watch *w = calloc(1, sizeof *w);
    if (!w)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    snprintf(w->name, sizeof w->name, "%s", name);
    jobrow_init(&w->row, name);
    if (row) {
        w->row = *row;
        w->described = row->described;
    }
    /* a dashboard without API access must not wait long to learn it */
    aws_api_opts ao = {.region = o ? o->region : NULL, .profile = o ? o->profile : NULL,
                       .parallel = 1, .max_attempts = 3, .connect_budget_ms = 3000};
    if (!(w->creds = aws_creds_new(o ? o->profile : NULL, err)) ||
        !(w->sm = aws_api_new(AWS_SAGEMAKER, &ao, w->creds, err)) ||
        !(w->cw = aws_api_new(AWS_CLOUDWATCH, &ao, w->creds, err))) {
        job_watch_free(w);
        return NULL;
    }
    return w;
}

void job_watch_free(job_watch *w)
{
    if (!w)
        return;
    if (w->started) {
        pthread_mutex_lock(&w->mu);
        w->stop = 1;
        pthread_cond_signal(&w->cv);
        pthread_mutex_unlock(&w->mu);
        job_watch_cancel(w, 1);
        pthread_join(w->thread, NULL);
    }
    pthread_cond_destroy(&w->cv);
    aws_api_free(w->sm);
    aws_api_free(w->cw);
    aws_creds_free(w->creds);
    pthread_mutex_destroy(&w->mu);
    free(w->last_us);
    free(w->pts);
    free(w);
}

static void set_error(job_watch *w, const char *what, const sm_err *e)
{
    pthread_mutex_lock(&w->mu);
    snprintf(w->err, sizeof w->err, "%.20s: %.480s", what, e->msg);
    pthread_mutex_unlock(&w->mu);
}

/* A describe when due: 1 when the row changed. */
static int describe_due(job_watch *w, double now_s)
{
    if (w->failed_s > 0 && now_s - w->failed_s < RETRY_FAILED_S)
        return 0;
    if (!w->described)
        return 1;
    return !jobrow_ended(&w->row) && now_s - w->describe_s >= DESCRIBE_EVERY_S;
}

static int describe(job_watch *w, double now_s)
{
    sm_err e = {0};
    json_t *ans = sagemaker_describe_training_job(w->sm, w->name, &e);
    atomic_fetch_add(&w->describes, 1);
    w->describe_s = now_s;
    if (!ans) {
        w->failed_s = now_s;
        set_error(w, "SageMaker", &e);
        return 0;
    }
    w->failed_s = 0;
    pthread_mutex_lock(&w->mu);
    sm_parse_describe(ans, &w->row);
    w->row.updated_s = now_s;
    w->described = 1;
    w->err[0] = '\0';
    pthread_mutex_unlock(&w->mu);
    json_decref(ans);
    return 1;
}

int job_watch_describe(job_watch *w, sm_err *err)
{
    if (describe(w, (double)time(NULL)))
        return 0;
    pthread_mutex_lock(&w->mu);
    sm_err_set(err, SM_ERR_IO, "%s", w->err);
    pthread_mutex_unlock(&w->mu);
    return -1;
}

static void collect(void *ud, int host, int metric, int64_t ts_us, double v)
{
    job_watch *w = ud;
    if (host > w->hosts || vec_grow(&w->pts, &w->pts_cap, w->npts + 1, sizeof *w->pts, 256))
        return;
    w->pts[w->npts++] = (cw_point){ts_us, host, metric, v};
}

STABLE_SORT_DEFINE(sort_points, cw_point, A.ts < B.ts)

/* The points collected, oldest first, into m: those newer than what
 * their (host, metric) has. Returns how many were added. */
static long add_points(job_watch *w, const cw_host_job *j, model *m, pthread_mutex_t *lock)
{
    cw_point *tmp = malloc((w->npts ? w->npts : 1) * sizeof *tmp);
    if (!tmp)
        return 0;
    sort_points(w->pts, tmp, w->npts);
    free(tmp);
    long added = 0;
    if (lock)
        pthread_mutex_lock(lock);
    model_set_stream(m, CW_STREAM);
    for (size_t i = 0; i < w->npts; i++) {
        const cw_point *p = &w->pts[i];
        int64_t *last = &w->last_us[(p->host - 1) * CW_HOST_METRICS + p->metric];
        char node[32];
        sm_sample s;
        if (p->ts <= *last || cw_host_sample(j, p->host, p->metric, p->ts, p->v, node,
                                             sizeof node, &s) != 0)
            continue;
        *last = p->ts;
        added += model_add_sample(m, &s) == 0;
    }
    /* each host's CPU is one core: its total needs no later sample */
    model_flush(m, 1);
    if (lock)
        pthread_mutex_unlock(lock);
    return added;
}

/* Whether CloudWatch is (or becomes) the source; decided once, after a
 * pass, by whether the files gave the model any system sample. */
static int cloudwatch_on(job_watch *w, model *m, pthread_mutex_t *lock, long passes,
                         double now_s)
{
    const jobrow *r = &w->row;
    /* without a profiler path no file can come: no pass to wait for */
    if (w->decided || !w->described || (passes <= 0 && r->profiler_url[0]))
        return w->cw_on;
    /* Debugger writes from the start of training: a job with a profiler
     * path that has trained less than that may still get its files */
    if (r->profiler_url[0] && !jobrow_ended(r) &&
        (r->start_s <= 0 || now_s - r->start_s < DEBUGGER_GRACE_S))
        return 0;
    if (lock)
        pthread_mutex_lock(lock);
    int none = model_last_sample_us(m) == 0;
    if (none)
        model_set_system_source(m, "CloudWatch", 60 * 1000000LL);
    if (lock)
        pthread_mutex_unlock(lock);
    pthread_mutex_lock(&w->mu);
    w->decided = 1;
    w->cw_on = none;
    pthread_mutex_unlock(&w->mu);
    return none;
}

/* The window to ask for at now_s, 0 when nothing is due. */
static int cloudwatch_due(const job_watch *w, double now_s, double *t0, double *t1)
{
    const jobrow *r = &w->row;
    int ended = jobrow_ended(r);
    if (r->start_s <= 0 || r->instance_count <= 0 || (ended && r->end_s <= 0))
        return 0;
    if (ended && w->cw_s > 0 && w->cw_end_s == r->end_s)
        return 0;   /* its whole span is in */
    /* running: once a minute; a failed call (no permission, throttled
     * past the retries) is not tried again sooner either */
    if ((!ended || w->cw_failed) && w->cw_s > 0 && now_s - w->cw_s < CW_EVERY_S)
        return 0;
    int64_t newest = 0;
    for (int i = 0; w->last_us && i < w->hosts * CW_HOST_METRICS; i++)
        newest = w->last_us[i] > newest ? w->last_us[i] : newest;
    *t0 = newest > 0 ? (double)newest / 1e6 - CW_LATE_S : r->start_s;
    if (*t0 < r->start_s)
        *t0 = r->start_s;
    *t1 = ended ? r->end_s + 60 : now_s;
    return *t1 > *t0;
}

static int cloudwatch(job_watch *w, model *m, pthread_mutex_t *lock, double now_s)
{
    double t0, t1;
    if (!cloudwatch_due(w, now_s, &t0, &t1))
        return 0;
    cw_host_job j = {.name = w->name, .hosts = w->row.instance_count};
    if (j.hosts > CW_HOST_MAX)
        j.hosts = CW_HOST_MAX;
    cw_host_job_type(&j, w->row.instance_type, w->row.groups);
    if (!w->last_us || w->hosts != j.hosts) {
        free(w->last_us);
        w->hosts = j.hosts;
        if (!(w->last_us = calloc((size_t)j.hosts * CW_HOST_METRICS, sizeof *w->last_us)))
            return 0;
    }
    if (j.known && j.gpus > 1) {
        if (lock)
            pthread_mutex_lock(lock);
        model_set_gpus_per_series(m, j.gpus);
        if (lock)
            pthread_mutex_unlock(lock);
    }
    int period = cw_host_period(t1, now_s);
    if (period != 60) {
        if (lock)
            pthread_mutex_lock(lock);
        model_set_system_source(m, "CloudWatch", (int64_t)period * 1000000);
        if (lock)
            pthread_mutex_unlock(lock);
    }
    sm_err e = {0};
    w->npts = 0;
    long got = cw_host_fetch(w->cw, &j, period, t0, t1, collect, w, &e);
    atomic_fetch_add(&w->metric_calls, 1);
    w->cw_s = now_s;
    w->cw_failed = got < 0;
    if (got < 0) {
        set_error(w, "CloudWatch", &e);
        return 0;
    }
    w->cw_end_s = jobrow_ended(&w->row) ? w->row.end_s : 0;
    pthread_mutex_lock(&w->mu);
    w->cw_done_s = now_s;
    w->err[0] = '\0';
    pthread_mutex_unlock(&w->mu);
    return add_points(w, &j, m, lock) > 0;
}

int job_watch_poll(job_watch *w, model *m, pthread_mutex_t *lock, long passes, double now_s)
{
    int changed = 0;
    if (describe_due(w, now_s))
        changed |= describe(w, now_s);
    if (cloudwatch_on(w, m, lock, passes, now_s))
        changed |= cloudwatch(w, m, lock, now_s);
    pthread_mutex_lock(&w->mu);
    if (changed && w->on_change)
        w->on_change(w->change_ud);
    pthread_mutex_unlock(&w->mu);
    return changed;
}

void job_watch_on_change(job_watch *w, void (*fn)(void *ud), void *ud)
{
    pthread_mutex_lock(&w->mu);
    w->on_change = fn;
    w->change_ud = ud;
    pthread_mutex_unlock(&w->mu);
}

/* Polls every second (what is due costs nothing until it is), every
 * quarter second until the first pass ended, until stopped. */
static void *watch_main(void *arg)
{
    job_watch *w = arg;
    for (;;) {
        scan_stats st;
        scanner_get_stats(w->sc, &st);
        job_watch_poll(w, w->m, w->lock, (long)st.passes, (double)time(NULL));
        /* quicker before the first pass: it ends soon, and decides */
        long wait_ns = w->decided || st.passes > 0 ? 1000000000L : 250000000L;
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += (dl.tv_nsec + wait_ns) / 1000000000L;
        dl.tv_nsec = (dl.tv_nsec + wait_ns) % 1000000000L;
        pthread_mutex_lock(&w->mu);
        if (!w->stop)
            pthread_cond_timedwait(&w->cv, &w->mu, &dl);
        int stop = w->stop;
        pthread_mutex_unlock(&w->mu);
        if (stop)
            return NULL;
    }
}

int job_watch_start(job_watch *w, model *m, pthread_mutex_t *lock, scanner *sc, sm_err *err)
{
    w->m = m;
    w->lock = lock;
    w->sc = sc;
    int e = pthread_create(&w->thread, NULL, watch_main, w);
    if (e != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "cannot start the API thread: %s", strerror(e));
    w->started = 1;
    return 0;
}

int job_watch_row(job_watch *w, jobrow *out)
{
    pthread_mutex_lock(&w->mu);
    *out = w->row;
    int d = w->described;
    pthread_mutex_unlock(&w->mu);
    return d;
}

int job_watch_cloudwatch(job_watch *w, double *fetched_s)
{
    pthread_mutex_lock(&w->mu);
    int on = w->cw_on;
    if (fetched_s)
        *fetched_s = w->cw_done_s;
    pthread_mutex_unlock(&w->mu);
    return on;
}

void job_watch_error(job_watch *w, char *buf, size_t cap)
{
    pthread_mutex_lock(&w->mu);
    snprintf(buf, cap, "%s", w->err);
    pthread_mutex_unlock(&w->mu);
}

void job_watch_cancel(job_watch *w, int on)
{
    if (!w)
        return;
    aws_api_cancel(w->sm, on);
    aws_api_cancel(w->cw, on);
}

void job_watch_counters(job_watch *w, long *describes, long *metric_calls)
{
    *describes = atomic_load(&w->describes);
    *metric_calls = atomic_load(&w->metric_calls);
}

/* 1 when s[0..n) can be a training job's name. */
static int job_name_ok(const char *s, size_t n)
{
    if (n < 1 || n > 63)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return 0;
    return 1;
}

int job_watch_name_from(const char *spec, char *out, size_t cap)
{
    const char *po = strstr(spec, "/profiler-output");
    size_t end = po ? (size_t)(po - spec) : strlen(spec);
    while (end > 0 && spec[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && spec[start - 1] != '/')
        start--;
    if (!job_name_ok(spec + start, end - start))
        return 0;
    snprintf(out, cap, "%.*s", (int)(end - start), spec + start);
    return 1;
}
