/* s3_retry: which AWS failures are worth retrying, and how long to wait
 * (S3, and the SageMaker and CloudWatch APIs that share its transport).
 *
 * Transient: HTTP 5xx (incl. 503 SlowDown), 408, 429, 400 RequestTimeout,
 * the throttling codes of the JSON and query APIs (ThrottlingException,
 * Throttling, ... as the SDKs' standard retry mode lists them), and
 * transport failures (refused/reset connections, timeouts, stalls,
 * truncated bodies, DNS). Everything else is final and explained once by
 * s3_retry_explain. */
#ifndef SMTOP_S3_RETRY_H
#define SMTOP_S3_RETRY_H

#include <stdint.h>

#include "model/util/sm_err.h"

typedef enum s3_verdict {
    S3_DONE = 0,   /* usable answer: 200, 206, 416 (nothing new) */
    S3_RETRY,      /* transient: back off and try again */
    S3_FATAL       /* retrying cannot help: tell the user what to check */
} s3_verdict;

/* curl_code is a CURLcode (0 = transfer completed, http is then valid);
 * s3code is the <Code> of an error body ("" when none). */
s3_verdict s3_retry_classify(int curl_code, long http, const char *s3code);

/* Delay before attempt number `attempt` (1 = first retry): exponential
 * from base_ms, capped at cap_ms, with "equal jitter" (half fixed, half
 * random) so that parallel clients spread out. *rng is a caller-held
 * xorshift state (any non-zero seed). */
int64_t s3_retry_delay_ms(int attempt, int base_ms, int cap_ms, uint32_t *rng);

/* Context for explaining a final failure. No field may hold a secret. */
typedef struct s3_fail_ctx {
    const char *bucket;
    const char *key;          /* object key, or NULL for a listing */
    const char *cred_origin;  /* "profile 'dev'", "environment variables" */
    const char *cred_where;   /* what to check: "~/.aws/credentials" */
    const char *region;
    const char *endpoint;     /* NULL on AWS */
    const char *bucket_region; /* the region an error answer names (<Region>),
                                  NULL or "" when none */
} s3_fail_ctx;

/* Fills err with one line saying what happened and what to check.
 * curl_msg is curl's error text for transport failures (may be NULL). */
void s3_retry_explain(int curl_code, const char *curl_msg, long http,
                      const char *s3code, const s3_fail_ctx *c, sm_err *err);

#endif
