/* s3_retry: retry policy and user-facing failure messages; see s3_retry.h. */
#include "io/aws/s3_retry.h"

#include <curl/curl.h>
#include <string.h>

s3_verdict s3_retry_classify(int curl_code, long http, const char *s3code)
{
    switch (curl_code) {
    case CURLE_OK:
        break;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_OUT_OF_MEMORY:
    case CURLE_LOGIN_DENIED:
        return S3_FATAL;
    default: /* refused, reset, timeouts, stalls, partial bodies, DNS */
        return S3_RETRY;
    }
    if (http == 200 || http == 206 || http == 416)
        return S3_DONE;
    if (http >= 500 || http == 408 || http == 429)
        return S3_RETRY;
    /* S3's, then the JSON and query APIs' (HTTP 400) ways of saying "slow
     * down", as the AWS SDKs' retry handlers list them */
    static const char *const again[] = {
        "RequestTimeout", "SlowDown", "ThrottlingException", "Throttling",
        "ThrottledException", "RequestThrottledException", "TooManyRequestsException",
        "RequestLimitExceeded", "ProvisionedThroughputExceededException",
        "RequestThrottled", "BandwidthLimitExceeded", "LimitExceededException",
        "PriorRequestNotComplete", "EC2ThrottledException"};
    for (size_t i = 0; s3code && i < sizeof again / sizeof again[0]; i++)
        if (!strcmp(s3code, again[i]))
            return S3_RETRY;
    return S3_FATAL;
}

int64_t s3_retry_delay_ms(int attempt, int base_ms, int cap_ms, uint32_t *rng)
{
    int64_t d = base_ms > 0 ? base_ms : 1;
    for (int i = 1; i < attempt && d < cap_ms; i++)
        d *= 2;
    if (d > cap_ms)
        d = cap_ms;
    *rng ^= *rng << 13;
    *rng ^= *rng >> 17;
    *rng ^= *rng << 5;
    return d / 2 + (int64_t)(*rng % (uint32_t)(d / 2 + 1));
}

static void explain_transport(int cc, const char *msg, const s3_fail_ctx *c,
                              sm_err *err)
{
    const char *host = c->endpoint ? c->endpoint : "S3";
    if (cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CACERT_BADFILE)
        sm_err_set(err, SM_ERR_NET,
                   "TLS certificate of %s could not be verified (%s): point "
                   "AWS_CA_BUNDLE at your CA bundle", host, msg ? msg : "");
    else
        sm_err_set(err, SM_ERR_NET, "S3 unreachable (%s): %s — check the "
                   "network%s", host, msg && *msg ? msg : "transfer failed",
                   c->endpoint ? " and --endpoint-url" : "");
}

static void explain_http(long http, const char *code, const s3_fail_ctx *c,
                         sm_err *err)
{
    const char *o = c->cred_origin, *w = c->cred_where;
    if (!strcmp(code, "SignatureDoesNotMatch"))
        sm_err_set(err, SM_ERR_DENIED, "%ld SignatureDoesNotMatch from S3: the "
                   "secret key for %s is wrong — check %s", http, o, w);
    else if (!strcmp(code, "InvalidAccessKeyId"))
        sm_err_set(err, SM_ERR_DENIED, "%ld InvalidAccessKeyId from S3: the "
                   "access key id for %s does not exist — check %s", http, o, w);
    else if (!strcmp(code, "ExpiredToken") || !strcmp(code, "TokenRefreshRequired"))
        sm_err_set(err, SM_ERR_DENIED, "%ld %s from S3: the session token for "
                   "%s has expired — get fresh credentials (e.g. aws sso login "
                   "or a new STS session) and update %s", http, code, o, w);
    else if (!strcmp(code, "InvalidToken"))
        sm_err_set(err, SM_ERR_DENIED, "%ld InvalidToken from S3: the session "
                   "token for %s is missing or invalid — check %s", http, o, w);
    else if (!strcmp(code, "NoSuchBucket"))
        sm_err_set(err, SM_ERR_NOTFOUND, "%ld NoSuchBucket: bucket '%s' does "
                   "not exist — check the s3:// URL%s", http, c->bucket,
                   c->endpoint ? " and --endpoint-url" : " and the region");
    else if (!strcmp(code, "NoSuchKey"))
        sm_err_set(err, SM_ERR_NOTFOUND, "%ld NoSuchKey: s3://%s/%s no longer "
                   "exists (deleted after it was listed?)", http, c->bucket,
                   c->key ? c->key : "");
    else if ((!strcmp(code, "AuthorizationHeaderMalformed") ||
              !strcmp(code, "PermanentRedirect") || http == 301) &&
             c->bucket_region && c->bucket_region[0])
        sm_err_set(err, SM_ERR_USAGE, "%ld %s from S3: bucket '%s' is in region %s, not "
                   "%s — set --region %s or AWS_REGION=%s to read it", http,
                   *code ? code : "redirect", c->bucket, c->bucket_region, c->region,
                   c->bucket_region, c->bucket_region);
    else if (!strcmp(code, "AuthorizationHeaderMalformed") ||
             !strcmp(code, "PermanentRedirect") || http == 301)
        sm_err_set(err, SM_ERR_USAGE, "%ld %s from S3: bucket '%s' is not in "
                   "region %s — set --region or AWS_REGION", http,
                   *code ? code : "redirect", c->bucket, c->region);
    else if (!strcmp(code, "RequestTimeTooSkewed"))
        sm_err_set(err, SM_ERR_DENIED, "%ld RequestTimeTooSkewed from S3: this "
                   "machine's clock is off — fix the system time", http);
    else if (http == 403)
        sm_err_set(err, SM_ERR_DENIED, "403 %s from S3 for s3://%s: %s may not "
                   "read this bucket — check the IAM policy (s3:ListBucket, "
                   "s3:GetObject) or %s", *code ? code : "Forbidden", c->bucket,
                   o, w);
    else
        sm_err_set(err, http >= 500 ? SM_ERR_NET : SM_ERR_IO,
                   "HTTP %ld %s from S3 for s3://%s/%s", http, code, c->bucket,
                   c->key ? c->key : "");
}

void s3_retry_explain(int curl_code, const char *curl_msg, long http,
                      const char *s3code, const s3_fail_ctx *c, sm_err *err)
{
    if (curl_code != CURLE_OK)
        explain_transport(curl_code, curl_msg, c, err);
    else
        explain_http(http, s3code ? s3code : "", c, err);
}
