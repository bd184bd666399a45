/* cw_host: a training job's per-host CloudWatch metrics, asked of
 * CloudWatch for a dashboard whose job has no Debugger system metrics.
 *
 * GetMetricData over /aws/sagemaker/TrainingJobs, dimension Host =
 * JOB/algo-N, Average per period, of GPUUtilization,
 * GPUMemoryUtilization, CPUUtilization, MemoryUtilization and
 * DiskUtilization: 5 queries a host, 100 hosts a call (the API's 500),
 * every page of the answer (NextToken). The answers are handed on as
 * they came: the "cloudwatch" decoder reads them into the system samples
 * of the job's nodes on the ingest path (io/decode/cw_answer.h says
 * how). The queries (pure) are separate from the call, for tests. */
#ifndef SMTOP_CW_HOST_H
#define SMTOP_CW_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "io/aws/aws_api.h"

/* The metrics in the order of their Ids' <metric> (GPU, GPU memory, CPU,
 * memory, disk): io/decode/cw_answer reads the answers by the same
 * numbers (CW_ANSWER_METRICS, checked where both meet, io/run). */
#define CW_HOST_METRICS 5
#define CW_HOST_PER_CALL 100   /* 500 queries a call / 5 metrics */
#define CW_HOST_MAX 1024       /* hosts asked at most */

/* What the queries name: the training job and its hosts. */
typedef struct cw_host_job {
    const char *name;      /* the training job's name */
    int hosts;             /* algo-1 .. algo-hosts (at most CW_HOST_MAX) */
} cw_host_job;

/* The period to ask for data that ends end_s, at now_s: 60 s while
 * CloudWatch keeps minutes (15 days), then 300 s (63 days), then 3600. */
int cw_host_period(double end_s, double now_s);

/* The form parameters of the queries of hosts first+1 .. first+n (Ids
 * "h<host>_<metric>"), with StartTime/EndTime t0_s..t1_s and NextToken
 * when not NULL, into *params (free with cloudwatch_params_free); returns
 * how many, -1 on OOM. */
long cw_host_params(const cw_host_job *j, int first, int n, int period_s, double t0_s,
                    double t1_s, const char *next_token, s3_param **params);

/* The NextToken of one answer xml[0..len) into next ("" when none, or
 * when it does not fit in cap bytes). */
void cw_host_next_token(const char *xml, size_t len, char *next, size_t cap);

/* Called with each answer (one page of one batch of hosts) as it came:
 * xml[0..len) NUL-terminated, valid during the call. 0, or -1 on OOM
 * (the fetch stops). */
typedef int (*cw_host_page_fn)(void *ud, const char *xml, size_t len);

/* Fetches hosts' points over [t0_s, t1_s] (every page, every batch of
 * hosts) into fn. Returns the pages, -1 with err (what came before the
 * failure went to fn). */
long cw_host_fetch(aws_api *cw, const cw_host_job *j, int period_s, double t0_s,
                   double t1_s, cw_host_page_fn fn, void *ud, sm_err *err);

#endif
