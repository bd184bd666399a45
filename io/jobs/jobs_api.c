/* jobs_api: ListTrainingJobs / DescribeTrainingJob into a joblist; see jobs_api.h. */
#include "io/jobs/jobs_api.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jobs/cw_idle.h"
#include "io/jobs/cw_metrics.h"
#include "io/jobs/jobs_rows.h"
#include "io/jobs/sm_parse.h"
#include "io/aws/aws_api.h"
#include "io/aws/sagemaker.h"

#define PAGE 100

struct jobs_api {
    jobs_api_opts o;
    char status[16], name[256];
    aws_creds *creds;
    aws_api *sm, *cw;
    atomic_llong lists, describes, metrics;
    void (*on_change)(void *ud);
    void *change_ud;
};

void jobs_api_on_change(jobs_api *a, void (*fn)(void *ud), void *ud)
{
    a->on_change = fn;
    a->change_ud = ud;
}

static void api_changed(jobs_api *a)
{
    if (a->on_change)
        a->on_change(a->change_ud);
}

int jobs_api_status_valid(const char *s)
{
    static const char *const ok[] = {"InProgress", "Completed", "Failed", "Stopping",
                                     "Stopped"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(s, ok[i]))
            return 1;
    return 0;
}

jobs_api *jobs_api_new(const jobs_api_opts *o, sm_err *err)
{
    jobs_api *a = calloc(1, sizeof *a);
    if (!a) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    a->o = *o;
    snprintf(a->status, sizeof a->status, "%s", o->status ? o->status : "");
    snprintf(a->name, sizeof a->name, "%s", o->name ? o->name : "");
    aws_api_opts ao = {.region = o->region, .profile = o->profile,
                       .endpoint = o->endpoint, .parallel = o->parallel > 0 ? o->parallel : 4};
    if (!(a->creds = aws_creds_new(o->profile, err)) ||
        !(a->sm = aws_api_new(AWS_SAGEMAKER, &ao, a->creds, err)) ||
        !(a->cw = aws_api_new(AWS_CLOUDWATCH, &ao, a->creds, err))) {
        jobs_api_free(a);
        return NULL;
    }
    return a;
}

void jobs_api_free(jobs_api *a)
{
    if (!a)
        return;
    aws_api_free(a->sm);
    aws_api_free(a->cw);
    aws_creds_free(a->creds);
    free(a);
}

static json_t *list_request(const jobs_api *a, double since_s, const char *token,
                            long listed)
{
    long want = PAGE;   /* a --limit below a page asks for no more than it shows */
    if (a->o.limit && (long)a->o.limit - listed < PAGE)
        want = (long)a->o.limit - listed;
    json_t *q = json_pack("{s:i, s:s, s:s}", "MaxResults", (int)want, "SortBy", "CreationTime",
                          "SortOrder", "Descending");
    if (!q)
        return NULL;
    if (since_s > 0)
        json_object_set_new(q, "CreationTimeAfter", json_real(since_s));
    if (a->status[0])
        json_object_set_new(q, "StatusEquals", json_string(a->status));
    if (a->name[0])
        json_object_set_new(q, "NameContains", json_string(a->name));
    if (token)
        json_object_set_new(q, "NextToken", json_string(token));
    return q;
}

/* Merges one page; returns how many rows it held, -1 on OOM. */
static long list_merge(const json_t *ans, joblist *l, pthread_mutex_t *mu, const char **next)
{
    jobrow *rows = malloc(PAGE * sizeof *rows);
    if (!rows)
        return -1;
    size_t n = sm_parse_list(ans, rows, PAGE, next);
    int rc = 0;
    if (mu)
        pthread_mutex_lock(mu);
    for (size_t i = 0; i < n; i++)
        rc |= joblist_put_summary(l, &rows[i]);
    if (mu)
        pthread_mutex_unlock(mu);
    free(rows);
    return rc ? -1 : (long)n;
}

long jobs_api_list(jobs_api *a, joblist *l, pthread_mutex_t *mu, sm_err *err)
{
    return jobs_api_list_since(a, a->o.since_s, l, mu, err);
}

long jobs_api_list_since(jobs_api *a, double since_s, joblist *l, pthread_mutex_t *mu,
                         sm_err *err)
{
    char *token = NULL;
    long total = 0;
    if (since_s < a->o.since_s)
        since_s = a->o.since_s;
    for (;;) {
        json_t *q = list_request(a, since_s, token, total);
        json_t *ans = q ? sagemaker_list_training_jobs(a->sm, q, err) : NULL;
        json_decref(q);
        free(token);
        token = NULL;
        if (!ans)
            return -1;
        atomic_fetch_add(&a->lists, 1);
        const char *next = NULL;
        long got = list_merge(ans, l, mu, &next);
        if (next)
            token = strdup(next);
        json_decref(ans);
        if (got < 0 || (next && !token)) {
            free(token);
            return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        }
        total += got;
        api_changed(a);
        if (!token || (a->o.limit && (size_t)total >= a->o.limit))
            break;
    }
    free(token);
    return total;
}

typedef struct desc_ctx {
    jobs_api *a;
    joblist *l;
    pthread_mutex_t *mu;
    const char **names;
    long done;
    sm_err *err;
} desc_ctx;

static void desc_done(void *ud, size_t idx, json_t *ans, const sm_err *e)
{
    desc_ctx *c = ud;
    if (!ans) {
        if (c->err)
            *c->err = *e;
        return;
    }
    atomic_fetch_add(&c->a->describes, 1);
    if (c->mu)
        pthread_mutex_lock(c->mu);
    const jobrow *have = joblist_find(c->l, c->names[idx]);
    jobrow r;
    if (have)
        r = *have;
    else
        jobrow_init(&r, c->names[idx]);
    sm_parse_describe(ans, &r);
    joblist_put(c->l, &r);
    if (c->mu)
        pthread_mutex_unlock(c->mu);
    c->done++;
    api_changed(c->a);
}

/* The names worth a call: not described yet, or described while running. */
static size_t desc_pick(joblist *l, pthread_mutex_t *mu, const char *const *names,
                        size_t n, const char **out)
{
    size_t m = 0;
    if (mu)
        pthread_mutex_lock(mu);
    for (size_t i = 0; i < n; i++) {
        const jobrow *r = joblist_find(l, names[i]);
        if (!r || !r->described || !jobrow_ended(r))
            out[m++] = names[i];
    }
    if (mu)
        pthread_mutex_unlock(mu);
    return m;
}

long jobs_api_describe(jobs_api *a, joblist *l, pthread_mutex_t *mu,
                       const char *const *names, size_t n, sm_err *err)
{
    const char **pick = calloc(n ? n : 1, sizeof *pick);
    if (!pick)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    size_t m = desc_pick(l, mu, names, n, pick);
    desc_ctx c = {a, l, mu, pick, 0, err};
    long rc = sagemaker_describe_training_jobs(a->sm, pick, m, desc_done, &c, err) == 0
                  ? c.done : -1;
    free(pick);
    return rc;
}

void jobs_api_cancel(jobs_api *a)
{
    aws_api_cancel(a->sm, 1);
    aws_api_cancel(a->cw, 1);
}

/* Whether row r is due a CloudWatch fetch at now. */
static int metrics_due(const jobrow *r, double now)
{
    if (!r->described || r->metrics_source == JOBROW_METRICS_DEBUGGER ||
        r->instance_count <= 0 || r->start_s <= 0)
        return 0;
    return jobrow_ended(r) ? r->metrics_s <= 0 : now - r->metrics_s >= 60;
}

/* The calls row r is due: bit 1 the figures, bit 2 the idle time. */
static int metrics_wanted(const jobrow *r, double now)
{
    return (metrics_due(r, now) ? 1 : 0) | (cw_idle_due(r, now) ? 2 : 0);
}

/* Makes the calls due into r; how many were answered, -1 with err. */
static int metrics_calls(jobs_api *a, jobrow *r, int due, double now_s, sm_err *err)
{
    int calls = 0;
    if (due & 1) {
        if (cw_metrics_fetch(a->cw, r, now_s, err) < 0)
            return -1;
        r->metrics_s = now_s;   /* no points: not asked again before it is due */
        calls++;
    }
    if (due & 2) {
        if (cw_idle_fetch(a->cw, r, now_s, err) < 0)
            return -1;
        calls++;
    }
    atomic_fetch_add(&a->metrics, calls);
    return calls;
}

typedef struct metrics_ctx {
    jobs_api *a;
    double now_s;
    long calls;
} metrics_ctx;

static int metrics_row_due(void *ud, const jobrow *r)
{
    return metrics_wanted(r, ((metrics_ctx *)ud)->now_s) != 0;
}

static int metrics_row(void *ud, jobrow *r, sm_err *err)
{
    metrics_ctx *c = ud;
    int got = metrics_calls(c->a, r, metrics_wanted(r, c->now_s), c->now_s, err);
    if (got < 0)
        return -1;
    c->calls += got;
    return 1;
}

static void metrics_changed(void *ud)
{
    api_changed(ud);
}

long jobs_api_metrics(jobs_api *a, joblist *l, pthread_mutex_t *mu,
                      const char *const *names, size_t n, double now_s, sm_err *err)
{
    metrics_ctx c = {a, now_s, 0};
    jobs_rows_fn fn = {metrics_row_due, metrics_row, &c, metrics_changed, a, 0};
    return jobs_rows_each(l, mu, names, n, &fn, err) < 0 ? -1 : c.calls;
}

int64_t jobs_api_metric_calls(jobs_api *a)
{
    return atomic_load(&a->metrics);
}

void jobs_api_status(jobs_api *a, char *buf, size_t cap)
{
    aws_api_status(a->sm, buf, cap);
}

void jobs_api_counters(jobs_api *a, int64_t *lists, int64_t *describes, int64_t *requests)
{
    int64_t retries;
    *lists = atomic_load(&a->lists);
    *describes = atomic_load(&a->describes);
    aws_api_counters(a->sm, requests, &retries);
}

const char *jobs_api_url(const jobs_api *a)
{
    return aws_api_url(a->sm);
}
