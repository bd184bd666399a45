/* cw_query: the form parameters of CloudWatch's GetMetricData (query
 * protocol), shared by the job list's figures (io/jobs) and a job's
 * per-host system samples (io/aws/cw_host): one copy of the member
 * numbering, the namespace and the time format. */
#ifndef SMTOP_CW_QUERY_H
#define SMTOP_CW_QUERY_H

#include <stddef.h>

#include "io/aws/aws_api.h"

/* Form parameters per query that cw_query_add_metric appends. */
#define CW_QUERY_FIELDS 8

/* ISO 8601 UTC of epoch second t ("2026-11-27T21:00:00Z"). */
void cw_query_iso(double t, char *out, size_t cap);

/* Frees the n parameters at p (names and values copied) and p itself. */
void cw_query_free(s3_param *p, long n);

/* Appends name=value (both copied) at p[*n] (the caller sized p).
 * 0, or -1 on OOM (the slot is counted, so cw_query_free frees it). */
int cw_query_put(s3_param *p, long *n, const char *name, const char *value);

/* Appends query number k (1-based): Average of /aws/sagemaker/
 * TrainingJobs `metric` for Host = host every period_s, with id, as
 * CW_QUERY_FIELDS parameters at p[*n..]. 0, or -1 on OOM. */
int cw_query_add_metric(s3_param *p, long *n, int k, const char *id, const char *metric,
                        const char *host, int period_s);

#endif
