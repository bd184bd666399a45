/* aws_api: SageMaker (awsJson1_1) and CloudWatch (query) calls; see aws_api.h. */
#include "io/aws/aws_api.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/aws_region.h"
#include "io/aws/s3_http.h"
#include "io/aws/s3_xml.h"

typedef struct svc_desc {
    const char *what;         /* in messages */
    const char *env;          /* service-specific endpoint variable */
    const char *host;         /* host prefix before .REGION.amazonaws.com */
    const char *signing;      /* SigV4 service */
    const char *iam;          /* IAM action prefix */
    const char *target;       /* X-Amz-Target prefix (JSON protocol) */
    const char *ctype;
} svc_desc;

static const svc_desc services[] = {
    [AWS_SAGEMAKER] = {"SageMaker", "AWS_ENDPOINT_URL_SAGEMAKER", "api.sagemaker",
                       "sagemaker", "sagemaker", "SageMaker",
                       "application/x-amz-json-1.1"},
    [AWS_CLOUDWATCH] = {"CloudWatch", "AWS_ENDPOINT_URL_CLOUDWATCH", "monitoring",
                        "monitoring", "cloudwatch", NULL,
                        "application/x-www-form-urlencoded; charset=utf-8"},
};

struct aws_api {
    const svc_desc *svc;
    char url[1024];
    char region[64];
    char peer[256];
    aws_creds *creds;
    s3_http *http;
};

void aws_api_endpoint(aws_service svc, const char *explicit_url, const char *region,
                      char *out, size_t cap)
{
    const char *ep = explicit_url;
    if (!ep || !*ep)
        ep = getenv(services[svc].env);
    if (!ep || !*ep)
        ep = getenv("AWS_ENDPOINT_URL");
    if (ep && *ep) {
        snprintf(out, cap, "%s", ep);
        size_t n = strlen(out);
        while (n > 8 && out[n - 1] == '/')
            out[--n] = '\0';
        return;
    }
    int china = !strncmp(region, "cn-", 3);
    snprintf(out, cap, "https://%s.%s.amazonaws.com%s", services[svc].host, region,
             china ? ".cn" : "");
}

/* host[:port] of the endpoint, for "connecting to ..." lines. */
static void api_peer(aws_api *a)
{
    CURLU *u = curl_url();
    char *host = NULL, *port = NULL;
    snprintf(a->peer, sizeof a->peer, "%s", a->svc->what);
    if (u && curl_url_set(u, CURLUPART_URL, a->url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
        if (curl_url_get(u, CURLUPART_PORT, &port, 0) != CURLUE_OK)
            port = NULL;
        snprintf(a->peer, sizeof a->peer, "%s%s%s", host, port ? ":" : "",
                 port ? port : "");
    }
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    int n = v ? atoi(v) : 0;
    return n > 0 ? n : dflt;
}

aws_api *aws_api_new(aws_service svc, const aws_api_opts *o, aws_creds *creds,
                     sm_err *err)
{
    aws_api *a = calloc(1, sizeof *a);
    if (!a) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    a->svc = &services[svc];
    a->creds = creds;
    aws_region_resolve(o ? o->region : NULL, o ? o->profile : NULL, a->region,
                       sizeof a->region, NULL, 0);
    aws_api_endpoint(svc, o ? o->endpoint : NULL, a->region, a->url, sizeof a->url);
    api_peer(a);
    const char *ca = getenv("AWS_CA_BUNDLE");
    s3_http_cfg hc = {
        .parallel = o && o->parallel > 0 ? o->parallel : 4,
        .connect_timeout_s = 10,
        .stall_timeout_s = 20,
        .max_attempts = o && o->max_attempts > 0 ? o->max_attempts
                                                 : env_int("AWS_MAX_ATTEMPTS", 8),
        .backoff_base_ms = o && o->backoff_base_ms > 0 ? o->backoff_base_ms : 500,
        .backoff_cap_ms = 20000,
        .connect_attempts = 5,
        .connect_budget_ms = o && o->connect_budget_ms > 0 ? o->connect_budget_ms : 7000,
        .peer = a->peer,
        .region = a->region,
        .ca_bundle = ca && *ca ? ca : NULL,
        .service = a->svc->signing,
        .what = a->svc->what};
    if (!(a->http = s3_http_new(&hc, creds, err))) {
        free(a);
        return NULL;
    }
    return a;
}

void aws_api_free(aws_api *a)
{
    if (!a)
        return;
    s3_http_free(a->http);
    free(a);
}

/* The service's own words: "Message" (JSON, any case) or <Message>. */
static void api_message(const s3_http_resp *r, char *out, size_t cap)
{
    out[0] = '\0';
    if (r->len && r->body[0] == '{') {
        json_t *j = json_loadb(r->body, r->len, 0, NULL);
        const char *m = json_string_value(json_object_get(j, "message"));
        if (!m)
            m = json_string_value(json_object_get(j, "Message"));
        snprintf(out, cap, "%s", m ? m : "");
        json_decref(j);
    } else if (r->len) {
        s3_xml_find(r->body, r->len, "Message", out, cap);
    }
}

static int api_is_denied(const char *code)
{
    return !strcmp(code, "AccessDeniedException") || !strcmp(code, "AccessDenied") ||
           !strcmp(code, "UnauthorizedOperation");
}

static int api_is_key_problem(const char *code)
{
    return !strcmp(code, "UnrecognizedClientException") ||
           !strcmp(code, "InvalidClientTokenId") ||
           !strcmp(code, "InvalidSignatureException") ||
           !strcmp(code, "SignatureDoesNotMatch") || !strcmp(code, "ExpiredToken") ||
           !strcmp(code, "ExpiredTokenException") || !strcmp(code, "IncompleteSignature");
}

/* One line saying what failed and what to do about it. */
static void api_explain(const aws_api *a, const char *op, const s3_http_resp *r,
                        sm_err *err)
{
    const svc_desc *s = a->svc;
    char msg[256];
    if (r->curl_code == CURLE_ABORTED_BY_CALLBACK) {
        sm_err_set(err, SM_ERR_IO, "cancelled (smtop is quitting)");
        return;
    }
    if (r->curl_code != CURLE_OK) {
        sm_err_set(err, SM_ERR_NET, "%s unreachable at %s (%s) — check the network, "
                   "--region, %s or AWS_ENDPOINT_URL", s->what, a->peer,
                   r->curl_msg && *r->curl_msg ? r->curl_msg : "no answer", s->env);
        return;
    }
    api_message(r, msg, sizeof msg);
    const char *code = r->s3code && *r->s3code ? r->s3code : "error";
    if (api_is_denied(code))
        sm_err_set(err, SM_ERR_DENIED, "%s from %s: %s may not call %s:%s — grant it "
                   "in the IAM policy%s", code, s->what, aws_creds_origin(a->creds),
                   s->iam, op, a->svc == &services[AWS_SAGEMAKER]
                       ? ", or list jobs from their data instead: smtop jobs "
                         "s3://BUCKET/PREFIX or smtop jobs DIR"
                       : "");
    else if (api_is_key_problem(code))
        sm_err_set(err, SM_ERR_DENIED, "%s from %s: the credentials of %s were "
                   "refused (%s) — check %s", code, s->what, aws_creds_origin(a->creds),
                   msg, aws_creds_where(a->creds));
    else
        sm_err_set(err, r->status >= 500 || r->status == 429 ? SM_ERR_NET : SM_ERR_IO,
                   "%s %s: HTTP %ld %s%s%s", s->what, op, r->status, code,
                   *msg ? ": " : "", msg);
}

typedef struct batch_ctx {
    aws_api *a;
    const char *op;
    aws_api_done cb;
    void *ud;
} batch_ctx;

static void api_on_json(void *ud, size_t idx, const s3_http_resp *r)
{
    batch_ctx *b = ud;
    sm_err err = {0};
    json_t *ans = NULL;
    if (r->curl_code == CURLE_OK && r->status == 200) {
        json_error_t je;
        if (!(ans = json_loadb(r->body, r->len, 0, &je)) || !json_is_object(ans))
            sm_err_set(&err, SM_ERR_FORMAT, "%s %s: the answer is not a JSON object "
                       "(%s)", b->a->svc->what, b->op, je.text);
    } else {
        api_explain(b->a, b->op, r, &err);
    }
    b->cb(b->ud, idx, json_is_object(ans) ? ans : NULL, &err);
    json_decref(ans);
}

int aws_api_json_batch(aws_api *a, const char *op, json_t *const *reqs, size_t n,
                       aws_api_done cb, void *ud, sm_err *err)
{
    char target[160], ctype[96];
    snprintf(target, sizeof target, "X-Amz-Target: %s.%s", a->svc->target, op);
    snprintf(ctype, sizeof ctype, "Content-Type: %s", a->svc->ctype);
    const char *const hdrs[] = {target, ctype, NULL};
    s3_http_req *hr = calloc(n ? n : 1, sizeof *hr);
    char **bodies = calloc(n ? n : 1, sizeof *bodies);
    int rc = -1;
    if (!hr || !bodies) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(bodies[i] = json_dumps(reqs[i], JSON_COMPACT))) {
            sm_err_set(err, SM_ERR_NOMEM, "out of memory");
            goto out;
        }
        hr[i] = (s3_http_req){.url = a->url, .range_from = -1, .range_to = -1,
                              .body = bodies[i], .body_len = strlen(bodies[i]),
                              .headers = hdrs};
    }
    batch_ctx b = {a, op, cb, ud};
    rc = s3_http_run(a->http, hr, n, api_on_json, &b, err);
out:
    for (size_t i = 0; bodies && i < n; i++)
        free(bodies[i]);
    free(bodies);
    free(hr);
    return rc;
}

typedef struct one_ctx {
    json_t *ans;
    sm_err err;
} one_ctx;

static void api_on_one(void *ud, size_t idx, json_t *ans, const sm_err *err)
{
    one_ctx *o = ud;
    (void)idx;
    o->ans = json_incref(ans);
    o->err = *err;
}

json_t *aws_api_json(aws_api *a, const char *op, const json_t *req, sm_err *err)
{
    one_ctx o = {0};
    json_t *r = (json_t *)req;
    if (aws_api_json_batch(a, op, &r, 1, api_on_one, &o, err) < 0)
        return NULL;
    if (!o.ans && err)
        *err = o.err;
    return o.ans;
}

typedef struct query_ctx {
    aws_api *a;
    const char *op;
    char *body;
    size_t len;
    sm_err err;
} query_ctx;

static void api_on_query(void *ud, size_t idx, const s3_http_resp *r)
{
    query_ctx *q = ud;
    (void)idx;
    if (r->curl_code != CURLE_OK || r->status != 200) {
        api_explain(q->a, q->op, r, &q->err);
        return;
    }
    if (!(q->body = malloc(r->len + 1))) {
        sm_err_set(&q->err, SM_ERR_NOMEM, "out of memory");
        return;
    }
    memcpy(q->body, r->body, r->len + 1);
    q->len = r->len;
}

char *aws_api_query(aws_api *a, const char *op, const char *version,
                    const s3_param *params, size_t n, size_t *len, sm_err *err)
{
    s3_param *all = calloc(n + 2, sizeof *all);
    if (!all) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    all[0] = (s3_param){"Action", op};
    all[1] = (s3_param){"Version", version};
    memcpy(all + 2, params, n * sizeof *params);
    char *form = s3_url_query(all, n + 2);
    free(all);
    if (!form) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    char ctype[96];
    snprintf(ctype, sizeof ctype, "Content-Type: %s", a->svc->ctype);
    const char *const hdrs[] = {ctype, NULL};
    s3_http_req hr = {.url = a->url, .range_from = -1, .range_to = -1, .body = form,
                      .body_len = strlen(form), .headers = hdrs};
    query_ctx q = {.a = a, .op = op};
    int rc = s3_http_run(a->http, &hr, 1, api_on_query, &q, err);
    free(form);
    if (rc < 0)
        return NULL;
    if (!q.body && err)
        *err = q.err;
    if (q.body && len)
        *len = q.len;
    return q.body;
}

void aws_api_cancel(aws_api *a, int on)
{
    s3_http_cancel(a->http, on);
}

void aws_api_status(aws_api *a, char *buf, size_t cap)
{
    s3_http_status(a->http, buf, cap);
}

void aws_api_counters(aws_api *a, int64_t *requests, int64_t *retries)
{
    int64_t bytes;
    s3_http_counters(a->http, &bytes, requests, retries);
}

const char *aws_api_url(const aws_api *a)
{
    return a->url;
}

const char *aws_api_region(const aws_api *a)
{
    return a->region;
}
