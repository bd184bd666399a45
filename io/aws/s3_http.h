/* s3_http: signed AWS requests over one libcurl multi handle: S3 GETs,
 * and the POSTs of the JSON and query APIs (SageMaker, CloudWatch; see
 * aws_api.h), which share the credentials, signing and retries.
 *
 * Runs a batch of requests with up to `parallel` transfers at once over
 * reused connections, signs each with CURLOPT_AWS_SIGV4 (plus the
 * x-amz-content-sha256 and x-amz-security-token headers curl does not
 * add), retries transient failures with exponential backoff and jitter,
 * and reports each request once, in completion order, with its complete
 * body (a transfer that broke mid-body is thrown away and retried whole,
 * so no partial body is ever delivered). While it backs off, the status
 * line says so; status is safe to read from another thread.
 *
 * First contact: until the endpoint has answered once (any HTTP status),
 * a transport failure (refused, unreachable, DNS, timeout) is retried
 * only connect_attempts times and within connect_budget_ms, each connect
 * and each stall (no byte at all: a hung endpoint that accepted the
 * connection) bounded by what is left of the budget, so a wrong, dead
 * or blackholed endpoint fails in seconds; the status line meanwhile says "connecting to PEER
 * (attempt 2/5)". Once it has answered, a slow or flaky endpoint gets the
 * full max_attempts with backoff. */
#ifndef SMTOP_S3_HTTP_H
#define SMTOP_S3_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"
#include "io/aws/aws_creds.h"

typedef struct s3_http s3_http;

typedef struct s3_http_cfg {
    int parallel;             /* max concurrent transfers (>= 1) */
    long connect_timeout_s;   /* default 10 */
    long stall_timeout_s;     /* below 1 byte/s for this long = stalled */
    int max_attempts;         /* total tries per request, >= 1 */
    int backoff_base_ms;
    int backoff_cap_ms;
    int connect_attempts;     /* first contact: tries (default 5, <= max_attempts) */
    int connect_budget_ms;    /* first contact: no try starts later (default 7000: with the
                                 last connect and start-up, `report` ends within 10 s) */
    const char *peer;         /* "127.0.0.1:9000", "bucket.s3.us-east-1.amazonaws.com":
                                 named in the status line; NULL = "S3" */
    const char *region;       /* signing region */
    const char *ca_bundle;    /* NULL = system store; never disables checks */
    const char *service;      /* SigV4 service name; NULL = "s3" */
    const char *what;         /* the service in status lines; NULL = "S3" */
} s3_http_cfg;

typedef struct s3_http_req {
    const char *url;          /* full, already canonically encoded */
    int64_t range_from;       /* < 0: no Range header */
    int64_t range_to;         /* < 0: open-ended "bytes=N-" */
    const char *body;         /* non-NULL: a POST of body_len bytes, signed
                                 with its SHA-256 (curl hashes it) */
    size_t body_len;
    const char *const *headers; /* extra "Name: value" lines, NULL-ended */
} s3_http_req;

typedef struct s3_http_resp {
    int curl_code;            /* CURLcode of the last attempt */
    const char *curl_msg;     /* curl's error text, "" when none */
    long status;              /* HTTP status, 0 when none */
    const char *body;         /* complete body (NUL-terminated copy) */
    size_t len;
    const char *etag;         /* ETag header, "" when absent */
    int64_t total;            /* object size from Content-Range, else -1 */
    const char *s3code;       /* <Code> of an XML error body, or the
                                 `__type` of a JSON one without its
                                 "namespace#" prefix; "" when none */
    int attempts;
} s3_http_resp;

/* Called once per request, in completion order; resp valid for the call. */
typedef void (*s3_http_done)(void *ud, size_t idx, const s3_http_resp *resp);

/* creds is borrowed (must outlive h). NULL with err on failure. */
s3_http *s3_http_new(const s3_http_cfg *cfg, aws_creds *creds, sm_err *err);
void s3_http_free(s3_http *h);

/* Performs reqs[0..n). Returns 0 when every request got its callback, -1
 * with err when the batch could not start (credentials unavailable). */
int s3_http_run(s3_http *h, const s3_http_req *reqs, size_t n,
                s3_http_done cb, void *ud, sm_err *err);

/* on = 1: a run in progress on another thread ends within milliseconds,
 * its unreported requests reported failed (CURLE_ABORTED_BY_CALLBACK),
 * and every later run fails at once; on = 0 allows runs again. For
 * quitting. Thread-safe. */
void s3_http_cancel(s3_http *h, int on);

/* "connecting to PEER (attempt 2/5)" before the first answer, "S3
 * unreachable, retrying in 8 s" while backing off later, else "". */
void s3_http_status(s3_http *h, char *buf, size_t cap);

/* Bytes of response bodies received (incl. discarded retries), requests
 * sent and retries made, since creation. */
void s3_http_counters(s3_http *h, int64_t *bytes, int64_t *requests,
                      int64_t *retries);

#endif
