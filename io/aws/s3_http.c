/* s3_http: parallel signed GETs with retries; see s3_http.h. */
#include "io/aws/s3_http.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "io/aws/s3_header.h"
#include "io/aws/s3_retry.h"
#include "io/aws/s3_xml.h"
#include "model/util/vec.h"

typedef struct xfer {
    int state;               /* 0 waiting, 1 running, 2 reported */
    int attempt;             /* attempts started so far */
    int64_t ready_ms;        /* earliest start (backoff) */
    CURL *easy;
    struct curl_slist *hdrs;
    char *body;
    size_t len, cap;
    char etag[256];
    int64_t total;
    char errbuf[CURL_ERROR_SIZE];
} xfer;

struct s3_http {
    s3_http_cfg cfg;
    char region[64];
    char peer[256];
    char service[32];         /* SigV4 service */
    char what[32];            /* "S3", "SageMaker": for status lines */
    int contacted;            /* the endpoint has answered once; guarded by mu */
    char ca[4096];
    aws_creds *creds;
    CURLM *multi;
    uint32_t rng;
    pthread_mutex_t mu;       /* guards status and counters */
    char status[256];
    int64_t bytes, requests, retries;
    atomic_int cancelled;     /* s3_http_cancel, from any thread */
};

typedef struct run_ctx {
    s3_http *h;
    const s3_http_req *reqs;
    xfer *x;
    size_t n;
    aws_cred_set cs;
    char sigv4[160];
    int64_t first_deadline_ms; /* first contact: no attempt starts after this */
} run_ctx;

static int64_t http_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

s3_http *s3_http_new(const s3_http_cfg *cfg, aws_creds *creds, sm_err *err)
{
    s3_http *h = calloc(1, sizeof *h);
    if (!h || !(h->multi = curl_multi_init())) {
        free(h);
        sm_err_set(err, SM_ERR_NOMEM, "cannot initialise libcurl");
        return NULL;
    }
    h->cfg = *cfg;
    if (h->cfg.parallel < 1)
        h->cfg.parallel = 1;
    if (h->cfg.max_attempts < 1)
        h->cfg.max_attempts = 1;
    if (h->cfg.connect_attempts < 1)
        h->cfg.connect_attempts = 5;
    if (h->cfg.connect_attempts > h->cfg.max_attempts)
        h->cfg.connect_attempts = h->cfg.max_attempts;
    if (h->cfg.connect_budget_ms < 1)
        h->cfg.connect_budget_ms = 7000;
    snprintf(h->peer, sizeof h->peer, "%s", cfg->peer && *cfg->peer ? cfg->peer : "S3");
    h->cfg.peer = h->peer;   /* the caller's string need not outlive this call */
    snprintf(h->region, sizeof h->region, "%s", cfg->region ? cfg->region : "us-east-1");
    snprintf(h->service, sizeof h->service, "%s", cfg->service ? cfg->service : "s3");
    snprintf(h->what, sizeof h->what, "%s", cfg->what ? cfg->what : "S3");
    snprintf(h->ca, sizeof h->ca, "%s", cfg->ca_bundle ? cfg->ca_bundle : "");
    h->creds = creds;
    h->rng = (uint32_t)time(NULL) ^ (uint32_t)(uintptr_t)h ^ 0x9e3779b9u;
    if (!h->rng)
        h->rng = 1;
    pthread_mutex_init(&h->mu, NULL);
    curl_multi_setopt(h->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)h->cfg.parallel);
    curl_multi_setopt(h->multi, CURLMOPT_MAXCONNECTS, (long)h->cfg.parallel);
    return h;
}

void s3_http_free(s3_http *h)
{
    if (!h)
        return;
    curl_multi_cleanup(h->multi);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

static size_t http_on_body(char *p, size_t sz, size_t nm, void *ud)
{
    xfer *x = ud;
    size_t n = sz * nm;
    if (vec_grow(&x->body, &x->cap, x->len + n + 1, 1, 16384) != 0)
        return 0; /* aborts the transfer: CURLE_WRITE_ERROR */
    memcpy(x->body + x->len, p, n);
    x->len += n;
    x->body[x->len] = '\0';
    return n;
}

static size_t http_on_header(char *p, size_t sz, size_t nm, void *ud)
{
    xfer *x = ud;
    s3_header_parse(p, sz * nm, x->etag, sizeof x->etag, &x->total);
    return sz * nm;
}

static void http_set_status(s3_http *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void http_set_status(s3_http *h, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&h->mu);
    va_start(ap, fmt);
    vsnprintf(h->status, sizeof h->status, fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&h->mu);
}

static int http_contacted(s3_http *h)
{
    pthread_mutex_lock(&h->mu);
    int c = h->contacted;
    pthread_mutex_unlock(&h->mu);
    return c;
}

/* The connect timeout of the next attempt in ms: before the first
 * answer, no more than what is left of the first-contact budget (which
 * starts with the batch's first attempt), and the status says which
 * attempt this is. */
static long http_connect_ms(run_ctx *r, const xfer *x)
{
    s3_http *h = r->h;
    long ms = h->cfg.connect_timeout_s * 1000;
    if (http_contacted(h))
        return ms;
    int64_t now = http_now_ms();
    if (!r->first_deadline_ms)
        r->first_deadline_ms = now + h->cfg.connect_budget_ms;
    int64_t left = r->first_deadline_ms - now;
    if (left < ms)
        ms = left < 1000 ? 1000 : (long)left;
    http_set_status(h, "connecting to %s (attempt %d/%d)", h->peer, x->attempt + 1,
                    h->cfg.connect_attempts);
    return ms;
}

/* Aborts a transfer in flight once cancelled (CURLE_ABORTED_BY_CALLBACK):
 * the cover for a transfer busy inside curl_multi_perform when the run
 * loop itself cannot look. */
static int http_on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut,
                            curl_off_t un)
{
    (void)dt, (void)dn, (void)ut, (void)un;
    return atomic_load(&((s3_http *)ud)->cancelled) != 0;
}

/* The stall limit of an attempt in s: before the first answer, no more
 * than what is left of the first-contact budget, so an endpoint that
 * accepts the connection and then never says a byte (a hung proxy or
 * load balancer) fails as soon as one that drops it. Call after
 * http_connect_ms, which starts the budget. */
static long http_stall_s(const run_ctx *r)
{
    long s = r->h->cfg.stall_timeout_s;
    if (http_contacted(r->h))
        return s;
    int64_t left_s = (r->first_deadline_ms - http_now_ms() + 999) / 1000;
    if (left_s < 1)
        left_s = 1;
    return left_s < s ? (long)left_s : s;
}

static int http_start(run_ctx *r, size_t i)
{
    xfer *x = &r->x[i];
    const s3_http_req *q = &r->reqs[i];
    char hdr[4200];
    CURL *e = curl_easy_init();
    if (!e)
        return -1;
    x->len = 0;
    x->etag[0] = '\0';
    x->total = -1;
    x->errbuf[0] = '\0';
    /* S3 takes an unsigned payload; the other services want the body's
     * hash in the signature, which curl computes from the POST fields */
    x->hdrs = NULL;
    if (!strcmp(r->h->service, "s3"))
        x->hdrs = curl_slist_append(NULL, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
    for (size_t k = 0; q->headers && q->headers[k]; k++)
        x->hdrs = curl_slist_append(x->hdrs, q->headers[k]);
    if (r->cs.token[0]) {
        snprintf(hdr, sizeof hdr, "x-amz-security-token: %s", r->cs.token);
        x->hdrs = curl_slist_append(x->hdrs, hdr);
    }
    if (q->range_from >= 0) {
        if (q->range_to >= 0)
            snprintf(hdr, sizeof hdr, "Range: bytes=%lld-%lld",
                     (long long)q->range_from, (long long)q->range_to);
        else
            snprintf(hdr, sizeof hdr, "Range: bytes=%lld-", (long long)q->range_from);
        x->hdrs = curl_slist_append(x->hdrs, hdr);
    }
    memset(hdr, 0, sizeof hdr);
    curl_easy_setopt(e, CURLOPT_URL, q->url);
    if (q->body) {
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)q->body_len);
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, q->body);
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, x->hdrs);
    curl_easy_setopt(e, CURLOPT_AWS_SIGV4, r->sigv4);
    curl_easy_setopt(e, CURLOPT_USERNAME, r->cs.akid);
    curl_easy_setopt(e, CURLOPT_PASSWORD, r->cs.secret);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "smtop/" SMTOP_VERSION);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    if (r->h->ca[0])
        curl_easy_setopt(e, CURLOPT_CAINFO, r->h->ca);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, http_connect_ms(r, x));
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, http_stall_s(r));
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, http_on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, http_on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(e, CURLOPT_PRIVATE, (void *)x);
    curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, http_on_progress);
    curl_easy_setopt(e, CURLOPT_XFERINFODATA, r->h);
    curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
    x->easy = e;
    x->state = 1;
    x->attempt++;
    pthread_mutex_lock(&r->h->mu);
    r->h->requests++;
    pthread_mutex_unlock(&r->h->mu);
    if (curl_multi_add_handle(r->h->multi, e) == CURLM_OK)
        return 0;
    curl_easy_cleanup(e);
    curl_slist_free_all(x->hdrs);
    x->easy = NULL;
    x->hdrs = NULL;
    x->state = 0;
    x->attempt--;
    return -1;
}

/* Schedules a retry d ms from now and says so in the status line. */
static void http_backoff(run_ctx *r, xfer *x, int64_t d, int cc, long status,
                         const char *code)
{
    s3_http *h = r->h;
    x->state = 0;
    x->ready_ms = http_now_ms() + d;
    pthread_mutex_lock(&h->mu);
    h->retries++;
    int contacted = h->contacted;
    pthread_mutex_unlock(&h->mu);
    long long secs = (long long)((d + 999) / 1000);
    if (!contacted)
        http_set_status(h, "connecting to %s (attempt %d/%d in %lld s)", h->peer,
                        x->attempt + 1, h->cfg.connect_attempts, secs);
    else if (cc != CURLE_OK)
        http_set_status(h, "%s unreachable, retrying in %lld s", h->what, secs);
    else
        http_set_status(h, "%s busy (HTTP %ld%s%s), retrying in %lld s", h->what, status,
                        *code ? " " : "", code, secs);
}

/* Whether a transient failure gets another attempt, and after how long
 * (*d ms): the full max_attempts once the endpoint has answered, before
 * that only the first-contact attempts that start within its budget. */
static int http_may_retry(run_ctx *r, const xfer *x, int cc, int64_t *d)
{
    s3_http *h = r->h;
    pthread_mutex_lock(&h->mu);
    if (cc == CURLE_OK)
        h->contacted = 1;
    int contacted = h->contacted;
    *d = s3_retry_delay_ms(x->attempt, h->cfg.backoff_base_ms, h->cfg.backoff_cap_ms,
                           &h->rng);
    pthread_mutex_unlock(&h->mu);
    if (contacted)
        return x->attempt < h->cfg.max_attempts;
    return x->attempt < h->cfg.connect_attempts &&
           http_now_ms() + *d < r->first_deadline_ms;
}

/* The error's code: <Code> of an XML body (S3, the query APIs) or the
 * `__type` of a JSON one ("com.amazon.coral#ThrottlingException" or plain
 * "ThrottlingException"), without its namespace. */
static void http_error_code(const char *body, size_t len, char *out, size_t cap)
{
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r'))
        i++;
    if (i >= len || body[i] != '{') {
        s3_xml_find(body, len, "Code", out, cap);
        return;
    }
    json_t *j = json_loadb(body, len, 0, NULL);
    const char *t = json_string_value(json_object_get(j, "__type"));
    if (!t)
        t = json_string_value(json_object_get(j, "code"));
    if (t) {
        const char *hash = strrchr(t, '#');
        snprintf(out, cap, "%s", hash ? hash + 1 : t);
    }
    json_decref(j);
}

static void http_finish(run_ctx *r, CURL *e, int cc, s3_http_done cb, void *ud,
                        size_t *done)
{
    xfer *x = NULL;
    long status = 0;
    char code[64] = "";
    curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&x);
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    curl_multi_remove_handle(r->h->multi, e);
    curl_easy_cleanup(e);
    curl_slist_free_all(x->hdrs);
    x->easy = NULL;
    x->hdrs = NULL;
    pthread_mutex_lock(&r->h->mu);
    r->h->bytes += (int64_t)x->len;
    pthread_mutex_unlock(&r->h->mu);
    if (cc == CURLE_OK && status >= 300 && x->len)
        http_error_code(x->body, x->len, code, sizeof code);
    s3_verdict v = s3_retry_classify(cc, status, code);
    if (getenv("SMTOP_S3_TRACE"))
        fprintf(stderr, "[%lld] attempt %d cc=%d http=%ld code=%s len=%zu\n",
                (long long)http_now_ms(), x->attempt, cc, status, code, x->len);
    int64_t delay;
    if (http_may_retry(r, x, cc, &delay) && v == S3_RETRY) {
        http_backoff(r, x, delay, cc, status, code);
        return;
    }
    http_set_status(r->h, "%s", "");   /* final: the answer or the error says it */
    s3_http_resp resp = {
        .curl_code = cc, .curl_msg = x->errbuf[0] ? x->errbuf : curl_easy_strerror(cc),
        .status = cc == CURLE_OK ? status : 0, .body = x->body ? x->body : "",
        .len = x->len, .etag = x->etag, .total = x->total, .s3code = code,
        .attempts = x->attempt};
    if (cc == CURLE_OK)
        resp.curl_msg = "";
    x->state = 2;
    (*done)++;
    cb(ud, (size_t)(x - r->x), &resp);
    free(x->body);
    x->body = NULL;
    x->len = x->cap = 0;
}

/* Starts what may start: requests waiting for a retry whose backoff has
 * expired first, then fresh ones in order (*fresh is the first request
 * never started). Returns ms until the next backoff expires (1000 when
 * nothing waits). */
static long http_fill(run_ctx *r, size_t *running, size_t *fresh,
                      size_t retry_waiting)
{
    int64_t now = http_now_ms(), next = now + 1000;
    size_t par = (size_t)r->h->cfg.parallel;
    for (size_t i = 0; retry_waiting && i < *fresh; i++) {
        xfer *x = &r->x[i];
        if (x->state != 0)
            continue;
        retry_waiting--;
        if (x->ready_ms > now)
            next = x->ready_ms < next ? x->ready_ms : next;
        else if (*running < par && http_start(r, i) == 0)
            (*running)++;
    }
    while (*fresh < r->n && *running < par) {
        if (http_start(r, *fresh) < 0)
            break; /* out of memory: the loop comes back to it */
        (*running)++;
        (*fresh)++;
    }
    return (long)(next > now ? next - now : 0);
}

/* Cancelled: every request not yet reported ends now, running or not,
 * with CURLE_ABORTED_BY_CALLBACK, so the caller's bookkeeping still sees
 * one callback per request. */
static void http_abort_all(run_ctx *r, s3_http_done cb, void *ud, size_t *done)
{
    for (size_t i = 0; i < r->n; i++) {
        xfer *x = &r->x[i];
        if (x->state == 2)
            continue;
        if (x->easy) {
            curl_multi_remove_handle(r->h->multi, x->easy);
            curl_easy_cleanup(x->easy);
            curl_slist_free_all(x->hdrs);
            x->easy = NULL;
            x->hdrs = NULL;
        }
        s3_http_resp resp = {.curl_code = CURLE_ABORTED_BY_CALLBACK,
                             .curl_msg = "cancelled (smtop is quitting)", .body = "",
                             .etag = "", .total = -1, .s3code = "", .attempts = x->attempt};
        x->state = 2;
        (*done)++;
        cb(ud, i, &resp);
        free(x->body);
        x->body = NULL;
        x->len = x->cap = 0;
    }
}

void s3_http_cancel(s3_http *h, int on)
{
    atomic_store(&h->cancelled, on);
    if (on)
        curl_multi_wakeup(h->multi);   /* thread-safe: ends a curl_multi_poll at once */
}

int s3_http_run(s3_http *h, const s3_http_req *reqs, size_t n,
                s3_http_done cb, void *ud, sm_err *err)
{
    run_ctx r = {.h = h, .reqs = reqs, .n = n};
    size_t done = 0, running = 0, fresh = 0;
    if (!n)
        return 0;
    if (atomic_load(&h->cancelled))
        return sm_err_set(err, SM_ERR_IO, "cancelled (smtop is quitting)");
    if (aws_creds_get(h->creds, &r.cs, err) < 0)
        return -1;
    if (!(r.x = calloc(n, sizeof *r.x))) {
        aws_creds_wipe(&r.cs);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    snprintf(r.sigv4, sizeof r.sigv4, "aws:amz:%s:%s", h->region, h->service);
    while (done < n) {
        if (atomic_load(&h->cancelled)) {
            http_abort_all(&r, cb, ud, &done);
            break;
        }
        long wait = http_fill(&r, &running, &fresh, fresh - done - running);
        int still = 0;
        CURLMsg *m;
        curl_multi_perform(h->multi, &still);
        int finished = 0;
        while ((m = curl_multi_info_read(h->multi, &still))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            running--;
            finished++;
            http_finish(&r, m->easy_handle, m->data.result, cb, ud, &done);
        }
        /* a finished transfer frees a slot or schedules a retry: refill
         * at once rather than sleeping on a stale timeout */
        if (done < n && !finished)
            curl_multi_poll(h->multi, NULL, 0, (int)(wait < 1000 ? wait : 1000), NULL);
    }
    free(r.x);
    aws_creds_wipe(&r.cs);
    return 0;
}

void s3_http_status(s3_http *h, char *buf, size_t cap)
{
    pthread_mutex_lock(&h->mu);
    snprintf(buf, cap, "%s", h->status);
    pthread_mutex_unlock(&h->mu);
}

void s3_http_counters(s3_http *h, int64_t *bytes, int64_t *requests,
                      int64_t *retries)
{
    pthread_mutex_lock(&h->mu);
    *bytes = h->bytes;
    *requests = h->requests;
    *retries = h->retries;
    pthread_mutex_unlock(&h->mu);
}
