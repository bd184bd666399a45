/* jobs_files: API rows' figures from their data places on S3; see jobs_files.h. */
#include "io/jobs/jobs_files.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/jobs/job_probe.h"
#include "io/jobs/jobs_rows.h"
#include "io/aws/s3_url.h"
#include "io/source/source_job.h"
#include "io/source/source_s3.h"
#include "model/util/vec.h"

#define PO "profiler-output/"
#define BUCKET_RETRY_S 600.0

typedef struct bucket_src {
    char name[64];
    source *src;           /* NULL while failed */
    double failed_s;       /* when it last failed; 0 never */
} bucket_src;

struct jobs_files {
    source_opts so;
    job_probe *probe;
    bucket_src *b;
    size_t nb, cap;
    pthread_mutex_t mu;    /* b[].src against cancel */
    atomic_int cancelled;
};

jobs_files *jobs_files_new(const job_probe_opts *o)
{
    jobs_files *jf = calloc(1, sizeof *jf);
    job_probe_opts po = *o;
    po.api_times = 1;   /* an API row's times are the API's */
    if (!jf || !(jf->probe = job_probe_new(&po))) {
        free(jf);
        return NULL;
    }
    jf->so = *o->so;
    jf->so.no_cache = 1;
    jf->so.fail_fast = 1;
    pthread_mutex_init(&jf->mu, NULL);
    return jf;
}

void jobs_files_free(jobs_files *jf)
{
    if (!jf)
        return;
    for (size_t i = 0; i < jf->nb; i++)
        if (jf->b[i].src)
            source_free(jf->b[i].src);
    free(jf->b);
    job_probe_free(jf->probe);
    pthread_mutex_destroy(&jf->mu);
    free(jf);
}

void jobs_files_cancel(jobs_files *jf)
{
    atomic_store(&jf->cancelled, 1);
    pthread_mutex_lock(&jf->mu);
    for (size_t i = 0; i < jf->nb; i++)
        source_cancel(jf->b[i].src, 1);
    pthread_mutex_unlock(&jf->mu);
    job_probe_cancel(jf->probe);
}

/* The bucket's entry, made on first use. NULL on OOM. */
static bucket_src *bucket_get(jobs_files *jf, const char *name)
{
    for (size_t i = 0; i < jf->nb; i++)
        if (!strcmp(jf->b[i].name, name))
            return &jf->b[i];
    pthread_mutex_lock(&jf->mu);
    int rc = vec_grow(&jf->b, &jf->cap, jf->nb + 1, sizeof *jf->b, 4);
    bucket_src *b = rc < 0 ? NULL : &jf->b[jf->nb++];
    if (b)
        *b = (bucket_src){.src = NULL};
    pthread_mutex_unlock(&jf->mu);
    if (b)
        snprintf(b->name, sizeof b->name, "%s", name);
    return b;
}

/* The open source of the bucket, or NULL (failed lately, or now: err). */
static source *bucket_source(jobs_files *jf, bucket_src *b, double now_s, sm_err *err)
{
    if (b->src || (b->failed_s > 0 && now_s - b->failed_s < BUCKET_RETRY_S))
        return b->src;
    char spec[96];
    snprintf(spec, sizeof spec, "s3://%s/", b->name);
    source *s = source_s3_open(spec, &jf->so, NULL, err);   /* jf->so fails fast */
    pthread_mutex_lock(&jf->mu);
    b->src = s;
    if (s && atomic_load(&jf->cancelled))
        source_cancel(s, 1);
    pthread_mutex_unlock(&jf->mu);
    if (!s)
        b->failed_s = now_s;
    return s;
}

/* Splits the row's URL into its bucket and the job folder's key ("a/JOB/"). */
static int split_url(const jobrow *r, char *bucket, size_t bcap, char *job, size_t jcap)
{
    sm_err e = {0};
    size_t n = strlen(r->profiler_url);
    if (strncmp(r->profiler_url, "s3://", 5) || n < strlen(PO) ||
        strcmp(r->profiler_url + n - strlen(PO), PO) ||
        s3_url_parse_spec(r->profiler_url, bucket, bcap, job, jcap, &e) < 0)
        return -1;
    job[strlen(job) - strlen(PO)] = '\0';
    return 0;
}

/* The bucket entries of r's places, each once, into out (cap); how many.
 * A URL that does not parse is left out (the union names it). */
static size_t place_buckets(jobs_files *jf, const jobrow *r, bucket_src **out, size_t cap)
{
    jobplace pl[JOBPLACE_KINDS];
    size_t n = jobplace_list(&r->places, r->name, r->profiler_url, jobrow_ended(r), pl,
                             JOBPLACE_KINDS), m = 0;
    for (size_t i = 0; i < n && m < cap; i++) {
        char bucket[64], key[JOBPLACE_URL];
        sm_err e = {0};
        if (s3_url_parse_spec(pl[i].url, bucket, sizeof bucket, key, sizeof key, &e) < 0)
            continue;
        bucket_src *b = bucket_get(jf, bucket);
        size_t j = 0;
        while (b && j < m && out[j] != b)
            j++;
        if (b && j == m)
            out[m++] = b;
    }
    return m;
}

/* Reads a row whose places are read as their union (a TensorBoard or
 * checkpoint sync, an output.tar.gz: source_job_has_traces), opened as
 * `report --job` opens it. No bucket is contacted first: a place denied
 * or in another region is only named (the union reads the rest), so the
 * row is left alone only while one of its buckets was out of reach
 * lately (the network), as a profiler row is. */
static int places_row(jobs_files *jf, jobrow *r, double now_s, sm_err *err)
{
    bucket_src *bs[JOBPLACE_KINDS];
    size_t nb = place_buckets(jf, r, bs, JOBPLACE_KINDS);
    for (size_t i = 0; i < nb; i++)
        if (bs[i]->failed_s > 0 && now_s - bs[i]->failed_s < BUCKET_RETRY_S)
            return 0;   /* said when it failed */
    int got = job_probe_update(jf->probe, r->open_url[0] ? r->open_url : r->profiler_url, r,
                               now_s, err);
    if (got < 0) {
        for (size_t i = 0; i < nb && err->code == SM_ERR_NET; i++)
            bs[i]->failed_s = now_s;
        sm_err e = *err;
        sm_err_set(err, e.code, "%s's data places cannot be read (%s); its figures come "
                   "from CloudWatch", r->name, e.msg);
    }
    return got;
}

/* Reads one row; 1 changed, 0 not, -1 with err (the bucket failed). */
static int files_row(jobs_files *jf, jobrow *r, double now_s, sm_err *err)
{
    if (source_job_has_traces(r))
        return places_row(jf, r, now_s, err);
    char bucket[64], job[1024];
    if (split_url(r, bucket, sizeof bucket, job, sizeof job) < 0)
        return 0;
    bucket_src *b = bucket_get(jf, bucket);
    if (!b)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (b->failed_s > 0 && now_s - b->failed_s < BUCKET_RETRY_S)
        return 0;   /* said when it failed */
    /* the bucket answers (a short first contact), so the job is opened */
    if (!bucket_source(jf, b, now_s, err))
        return -1;
    int got = job_probe_update(jf->probe, r->open_url[0] ? r->open_url : r->profiler_url, r,
                               now_s, err);
    if (got < 0) {
        b->failed_s = now_s;   /* the next tries wait; the source stays open */
        sm_err e = *err;
        sm_err_set(err, e.code, "%s's profiler data in s3://%s/ cannot be read (%s); "
                   "its figures come from CloudWatch", r->name, bucket, e.msg);
    } else if (got > 0) {
        b->failed_s = 0;
    }
    return got;
}

typedef struct files_ctx {
    jobs_files *jf;
    double now_s;
    double until;   /* monotonic seconds; 0 no bound */
    int begun;      /* jobs begun in this call */
} files_ctx;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int files_due(void *ud, const jobrow *r)
{
    files_ctx *c = ud;
    /* each job is a whole open and scan: the caller's other work (the
     * running jobs' describes) keeps its cadence, and the first job is
     * always begun so that the rows fill however slow the bucket */
    if (c->until > 0 && c->begun && mono_s() > c->until)
        return 0;
    return !atomic_load(&c->jf->cancelled) && r->described &&
           (!strncmp(r->profiler_url, "s3://", 5) || source_job_has_traces(r)) &&
           job_probe_due(c->jf->probe, r, c->now_s);
}

static int files_work(void *ud, jobrow *r, sm_err *err)
{
    files_ctx *c = ud;
    c->begun++;
    return files_row(c->jf, r, c->now_s, err);
}

long jobs_files_figures(jobs_files *jf, joblist *l, pthread_mutex_t *mu,
                        const char *const *names, size_t n, double now_s, double budget_s,
                        void (*changed)(void *ud), void *ud, sm_err *err)
{
    files_ctx c = {jf, now_s, budget_s > 0 ? mono_s() + budget_s : 0, 0};
    jobs_rows_fn fn = {files_due, files_work, &c, changed, ud, 1};
    return jobs_rows_each(l, mu, names, n, &fn, err);
}
