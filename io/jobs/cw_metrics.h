/* cw_metrics: the list's GPU/CPU/memory columns from CloudWatch, for jobs
 * without Debugger system metrics.
 *
 * GetMetricData over /aws/sagemaker/TrainingJobs, dimension Host =
 * JOB/algo-N, Period 60 (SageMaker publishes once a minute), Average of
 * GPUUtilization, CPUUtilization and MemoryUtilization for each host,
 * over the job's last 5 minutes (up to now while it runs, up to its end
 * once it ended), up to 500 queries a call. Each figure is the mean of
 * its host means, normalised by jobrow_set_cloudwatch. One call per job:
 * the window is the call's, and a job asks at most 48 queries. */
#ifndef SMTOP_CW_METRICS_H
#define SMTOP_CW_METRICS_H

#include <stddef.h>

#include "io/aws/aws_api.h"
#include "model/jobs/jobrow.h"

#define CW_METRICS_MAX_HOSTS 16   /* hosts asked per job: the columns are means */
#define CW_METRICS_MAX_POINTS 1440  /* values read per result */

/* The form parameters of r's queries at now_s ("MetricDataQueries.
 * member.K.Id" = "mH_M": host H, metric M, ...) into *params (caller
 * frees with cloudwatch_params_free); returns how many, 0 when the job
 * has no window yet (not started, or ended at an unknown time), -1 on
 * OOM. start and end (ISO 8601, UTC) bound the window. */
long cw_metrics_params(const jobrow *r, double now_s, s3_param **params, char *start,
                       char *end, size_t tcap);

/* Reads a GetMetricData answer into r (jobrow_set_cloudwatch, fetched at
 * now_s). 1 when any host had points, else 0 (r untouched). */
int cw_metrics_read(const char *xml, jobrow *r, double now_s);

/* The values of the result whose <Id> is id in a GetMetricData answer
 * (NUL-terminated), at most cap into out. Returns how many. */
size_t cw_metrics_values(const char *xml, const char *id, double *out, size_t cap);

/* Both, over cw. 1 with figures, 0 without points, -1 with err. */
int cw_metrics_fetch(aws_api *cw, jobrow *r, double now_s, sm_err *err);

#endif
