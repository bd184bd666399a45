/* jobs_api: the job list from the SageMaker API.
 *
 * ListTrainingJobs newest first (SortBy CreationTime, Descending, 100 a
 * page) over CreationTimeAfter = since, with StatusEquals and
 * NameContains; a filtered page can come back short or even empty with
 * a NextToken, so paging goes on until there is no token (or the limit
 * is reached). DescribeTrainingJob only for the names the caller asks
 * for (the rows on screen, the jobs in progress), at most `parallel` at
 * a time, and never for a job whose row was described after it ended:
 * that answer cannot change. CloudWatch fills the figures and idle
 * GPU-hours of jobs the screen shows (jobs_api_metrics). Calls and retries are counted. The list
 * is shared with the screen: every change is made holding mu. */
#ifndef SMTOP_JOBS_API_H
#define SMTOP_JOBS_API_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "io/aws/aws_creds.h"
#include "model/jobs/joblist.h"
#include "model/util/sm_err.h"

typedef struct jobs_api jobs_api;

typedef struct jobs_api_opts {
    const char *region;     /* --region, or NULL */
    const char *profile;    /* --profile, or NULL */
    const char *endpoint;   /* explicit SageMaker endpoint, or NULL: env, AWS */
    double since_s;         /* jobs created after this epoch second; 0 = all */
    const char *status;     /* StatusEquals, or NULL */
    const char *name;       /* NameContains, or NULL */
    size_t limit;           /* stop listing after this many jobs; 0 = no limit */
    int parallel;           /* describes at a time (default 4) */
} jobs_api_opts;

/* 1 when s is one of ListTrainingJobs' StatusEquals values. */
int jobs_api_status_valid(const char *s);

/* A client; NULL with err when there are no credentials. */
jobs_api *jobs_api_new(const jobs_api_opts *o, sm_err *err);
void jobs_api_free(jobs_api *a);

/* Lists every page into l (joblist_put_summary, under mu). Returns how
 * many jobs were listed, or -1 with err (what was listed stays). */
long jobs_api_list(jobs_api *a, joblist *l, pthread_mutex_t *mu, sm_err *err);

/* The same from since_s (the later of it and the options' since), for
 * the refresh that only looks for new jobs. */
long jobs_api_list_since(jobs_api *a, double since_s, joblist *l, pthread_mutex_t *mu,
                         sm_err *err);

/* Describes those of names[0..n) that need it into l (under mu).
 * Returns how many were described, or -1 with err when none could be
 * asked (a job that failed alone is skipped and its error kept in err). */
long jobs_api_describe(jobs_api *a, joblist *l, pthread_mutex_t *mu,
                       const char *const *names, size_t n, sm_err *err);

/* GPU/CPU/memory % (cw_metrics) and idle GPU-hours (cw_idle) from
 * CloudWatch for those of names[0..n) without Debugger metrics that are
 * due: the figures of a running job once a minute (CloudWatch's
 * resolution), an ended one's once; the idle time of a running job
 * every 5 minutes, an ended one's until its end is counted. One
 * GetMetricData call each. Returns how many calls, -1 with err. */
long jobs_api_metrics(jobs_api *a, joblist *l, pthread_mutex_t *mu,
                      const char *const *names, size_t n, double now_s, sm_err *err);

/* fn(ud) is called after each list page or describe answer is merged
 * (outside mu): the screen's "something changed" signal. */
void jobs_api_on_change(jobs_api *a, void (*fn)(void *ud), void *ud);

/* Cancels calls in flight (for quitting); thread-safe. */
void jobs_api_cancel(jobs_api *a);

/* The transport's line while connecting or backing off, else "". */
void jobs_api_status(jobs_api *a, char *buf, size_t cap);

/* ListTrainingJobs and DescribeTrainingJob calls answered, and HTTP
 * requests sent (retries included). */
void jobs_api_counters(jobs_api *a, int64_t *lists, int64_t *describes,
                       int64_t *requests);

/* GetMetricData calls answered. */
int64_t jobs_api_metric_calls(jobs_api *a);

/* The endpoint and region in use, for messages. */
const char *jobs_api_url(const jobs_api *a);

#endif
