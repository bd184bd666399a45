/* cloudwatch: the CloudWatch client — GetMetricData over aws_api's query
 * protocol, written here once, and its form parameters, shared by the job
 * list's figures (io/jobs) and a job's per-host system samples
 * (io/aws/cw_host): one copy of the member numbering, the namespace and
 * the time format. Takes form parameters; gives the answer's XML, which
 * its readers decode. */
#ifndef SMTOP_CLOUDWATCH_H
#define SMTOP_CLOUDWATCH_H

#include <stddef.h>

#include "io/aws/aws_api.h"

/* Form parameters per query that cloudwatch_add_metric appends. */
#define CLOUDWATCH_METRIC_FIELDS 8

/* ISO 8601 UTC of epoch second t ("2026-11-27T21:00:00Z"). */
void cloudwatch_iso_time(double t, char *out, size_t cap);

/* Frees the n parameters at p (names and values copied) and p itself. */
void cloudwatch_params_free(s3_param *p, long n);

/* Appends name=value (both copied) at p[*n] (the caller sized p).
 * 0, or -1 on OOM (the slot is counted, so cloudwatch_params_free frees it). */
int cloudwatch_param_put(s3_param *p, long *n, const char *name, const char *value);

/* Appends query number k (1-based): Average of /aws/sagemaker/
 * TrainingJobs `metric` for Host = host every period_s, with id, as
 * CLOUDWATCH_METRIC_FIELDS parameters at p[*n..]. 0, or -1 on OOM. */
int cloudwatch_add_metric(s3_param *p, long *n, int k, const char *id, const char *metric,
                        const char *host, int period_s);

/* One GetMetricData call with the form parameters p[0..n) (unencoded;
 * Action and Version are added). Returns the XML body (caller frees; *len
 * its length), or NULL with err as aws_api_query says it. */
char *cloudwatch_get_metric_data(aws_api *cw, const s3_param *p, size_t n, size_t *len,
                                 sm_err *err);

#endif
