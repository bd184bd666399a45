/* aws_api: the SageMaker and CloudWatch APIs, over S3's transport.
 *
 * One client per service. Requests are POSTs to the service's endpoint,
 * signed with SigV4 by libcurl (s3_http), with the S3 source's
 * credentials chain (aws_creds), region resolution (aws_region) and
 * retries (s3_retry: throttling answers back off with equal jitter, as
 * the SDKs' standard mode does). Two protocols, as the services speak
 * them:
 *   - SageMaker: awsJson1_1 (`X-Amz-Target: SageMaker.<Op>`, a JSON body
 *     both ways);
 *   - CloudWatch: the query protocol (`Action=GetMetricData&Version=
 *     2010-08-01`, form-encoded, XML answers). CloudWatch also speaks
 *     awsJson1_0 since 2023, but only newer SDK models know it; the query
 *     protocol is the one every endpoint and every model (Debian's
 *     botocore 1.29 included) has, and s3_xml already reads XML.
 * Endpoints follow the AWS CLI: an explicit URL, then
 * AWS_ENDPOINT_URL_SAGEMAKER / AWS_ENDPOINT_URL_CLOUDWATCH, then
 * AWS_ENDPOINT_URL, then https://api.sagemaker.REGION.amazonaws.com /
 * https://monitoring.REGION.amazonaws.com (.com.cn in China). */
#ifndef SMTOP_AWS_API_H
#define SMTOP_AWS_API_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "io/aws/aws_creds.h"
#include "io/aws/s3_url.h"
#include "model/util/sm_err.h"

typedef enum aws_service {
    AWS_SAGEMAKER = 0,
    AWS_CLOUDWATCH
} aws_service;

typedef struct aws_api aws_api;

typedef struct aws_api_opts {
    const char *region;       /* --region, or NULL: resolved as the CLI does */
    const char *profile;      /* --profile, or NULL */
    const char *endpoint;     /* explicit endpoint URL, or NULL: env, then AWS */
    int parallel;             /* concurrent requests of a batch (default 4) */
    int max_attempts;         /* default AWS_MAX_ATTEMPTS, else 8 */
    int backoff_base_ms;      /* default 500 */
    int connect_budget_ms;    /* first contact (see s3_http.h); default 7000 */
} aws_api_opts;

/* The endpoint URL for svc (no trailing '/'): explicit when non-empty,
 * else the service's variable, AWS_ENDPOINT_URL, else the AWS one for
 * region. Never fails. */
void aws_api_endpoint(aws_service svc, const char *explicit_url, const char *region,
                      char *out, size_t cap);

/* A client for svc. creds is borrowed and must outlive the client. NULL
 * with err when libcurl cannot start. */
aws_api *aws_api_new(aws_service svc, const aws_api_opts *o, aws_creds *creds,
                     sm_err *err);
void aws_api_free(aws_api *a);

/* One awsJson1_1 call of operation op ("ListTrainingJobs") with the body
 * req (borrowed). Returns the answer (caller decrefs), or NULL with err:
 * one line naming the operation, what the service said and what to do
 * (AccessDeniedException names the IAM permission, "sagemaker:Op"). */
json_t *aws_api_json(aws_api *a, const char *op, const json_t *req, sm_err *err);

/* Called once per request of a batch, in completion order: ans is the
 * answer (borrowed for the call) or NULL with err saying why. */
typedef void (*aws_api_done)(void *ud, size_t idx, json_t *ans, const sm_err *err);

/* n calls of op at most `parallel` at a time. Returns 0 when each got its
 * callback, -1 with err when none could start (no credentials). */
int aws_api_json_batch(aws_api *a, const char *op, json_t *const *reqs, size_t n,
                       aws_api_done cb, void *ud, sm_err *err);

/* One query-protocol call: Action=op, Version=version and params (names
 * and values as the API documents them, unencoded). Returns the XML body
 * (caller frees; *len its length), or NULL with err as aws_api_json. */
char *aws_api_query(aws_api *a, const char *op, const char *version,
                    const s3_param *params, size_t n, size_t *len, sm_err *err);

/* on = 1: a call in flight on another thread ends within milliseconds,
 * and later calls fail at once; 0 allows them again. Thread-safe. */
void aws_api_cancel(aws_api *a, int on);

/* The transport's line while it connects or backs off ("SageMaker busy
 * (HTTP 400 ThrottlingException), retrying in 2 s"), else "". */
void aws_api_status(aws_api *a, char *buf, size_t cap);

/* Requests sent (retries included) and retries, since creation. */
void aws_api_counters(aws_api *a, int64_t *requests, int64_t *retries);

/* The endpoint this client talks to, and the signing region. */
const char *aws_api_url(const aws_api *a);
const char *aws_api_region(const aws_api *a);

#endif
