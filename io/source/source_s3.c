/* source_s3: S3 source (list, ranged fetch, cache); see source_s3.h. */
#include "io/source/source_s3.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/aws_creds.h"
#include "io/aws/aws_region.h"
#include "io/source/cache.h"
#include "io/source/list_cache.h"
#include "io/aws/s3_etags.h"
#include "io/aws/s3_http.h"
#include "io/aws/s3_list.h"
#include "io/aws/s3_retry.h"
#include "io/aws/s3_url.h"
#include "io/aws/s3_xml.h"

/* Handles at most: more callers than this wait for one. */
#define S3_POOL_MAX 32

typedef struct s3_source {
    source base;
    char bucket[64];
    char root[1024];          /* key prefix of the source, "" or ends in '/' */
    char region[64];
    char endpoint[1024];      /* "" = AWS */
    char desc[1200];
    char cache_note[600];     /* why the cache is off, "" when fine */
    pthread_mutex_t note_mu;  /* status() runs on the UI thread */
    s3_tuning tune;
    aws_creds *creds;
    s3_http *http;            /* the listing's, and pool[0] */
    /* Fetches run at once, one per scanning worker (issue 35): each takes
     * a handle of its own (a handle runs one batch at a time); pool_mu
     * guards the pool, and the counters below. */
    pthread_mutex_t pool_mu;
    pthread_cond_t pool_cv;   /* a handle came back */
    s3_http *pool[S3_POOL_MAX];
    int busy[S3_POOL_MAX];
    size_t npool;
    int cancel_on;
    cache *cache;
    s3_etags *etags;
    list_cache *lc;           /* NULL without the cache */
    int64_t bytes_cache, cache_hits, cache_puts;
} s3_source;

static int env_int(const char *name, int def)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : def;
}

void source_s3_tuning_defaults(s3_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->max_keys = env_int("SMTOP_S3_MAX_KEYS", 0);
    t->max_attempts = env_int("AWS_MAX_ATTEMPTS", 8);
    t->backoff_base_ms = env_int("SMTOP_S3_BACKOFF_MS", 500);
    t->backoff_cap_ms = 16000;
    t->stall_timeout_s = env_int("SMTOP_S3_STALL_TIMEOUT", 20);
    t->connect_timeout_s = env_int("SMTOP_S3_CONNECT_TIMEOUT", 10);
    t->connect_attempts = 5;
    t->connect_budget_ms = 7000;
}

void source_s3_tuning_fail_fast(s3_tuning *t)
{
    t->connect_attempts = 1;
    t->connect_budget_ms = 2000;
    t->max_attempts = t->max_attempts < 3 ? t->max_attempts : 3;
}

static void s3_fail_context(const s3_source *s, const char *key, s3_fail_ctx *c)
{
    c->bucket = s->bucket;
    c->key = key;
    c->cred_origin = aws_creds_origin(s->creds);
    c->cred_where = aws_creds_where(s->creds);
    c->region = s->region;
    c->endpoint = s->endpoint[0] ? s->endpoint : NULL;
    c->bucket_region = NULL;
}

static void s3_explain(const s3_source *s, const char *key,
                       const s3_http_resp *r, sm_err *err)
{
    s3_fail_ctx c;
    s3_fail_context(s, key, &c);
    char region[64] = "";
    if (r->body && s3_xml_find(r->body, r->len, "Region", region, sizeof region) == 0)
        c.bucket_region = region;
    s3_retry_explain(r->curl_code, r->curl_msg, r->status, r->s3code, &c, err);
}

/* A handle no other caller uses until http_give; NULL with err when none
 * can be made. */
static s3_http *http_take(s3_source *s, sm_err *err)
{
    s3_http *h = NULL;
    pthread_mutex_lock(&s->pool_mu);
    for (;;) {
        for (size_t i = 0; i < s->npool && !h; i++)
            if (!s->busy[i]) {
                s->busy[i] = 1;
                h = s->pool[i];
            }
        if (h || s->npool < S3_POOL_MAX)
            break;
        pthread_cond_wait(&s->pool_cv, &s->pool_mu);
    }
    if (!h && (h = s3_http_clone(s->http, err))) {
        s3_http_cancel(h, s->cancel_on);
        s->busy[s->npool] = 1;
        s->pool[s->npool++] = h;
    }
    pthread_mutex_unlock(&s->pool_mu);
    return h;
}

static void http_give(s3_source *s, s3_http *h)
{
    pthread_mutex_lock(&s->pool_mu);
    for (size_t i = 0; i < s->npool; i++)
        if (s->pool[i] == h)
            s->busy[i] = 0;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_mu);
}

/* Adds to one of s's counters (fetches count from several threads). */
static void count(s3_source *s, int64_t *field, int64_t by)
{
    pthread_mutex_lock(&s->pool_mu);
    *field += by;
    pthread_mutex_unlock(&s->pool_mu);
}

static int etag_put(void *pud, const source_entry *e)
{
    return s3_etags_put(pud, e->key, e->etag, e->size);
}

/* A real listing passes through here, so the listing cache learns it. */
typedef struct list_tap {
    list_cache *lc;
    source_list_cb cb;
    void *ud;
    int stopped, oom;
} list_tap;

static int list_tap_cb(void *ud, const source_entry *e)
{
    list_tap *t = ud;
    if (list_cache_note(t->lc, e) != 0)
        t->oom = 1;
    return (t->stopped = t->cb(t->ud, e) != 0);
}

/* The S3 client's objects as the source's entries. */
typedef struct list_fwd {
    source_list_cb cb;
    void *ud;
} list_fwd;

static int list_fwd_cb(void *ud, const char *key, int64_t size, int64_t mtime_us,
                       const char *etag)
{
    const list_fwd *f = ud;
    source_entry e = {key, size, mtime_us, etag, NULL};
    return f->cb(f->ud, &e);
}

static int s3_list(source *src, const char *prefix, const char *start_after,
                   source_list_cb cb, void *ud, sm_err *err)
{
    s3_source *s = (s3_source *)src;
    if (list_cache_serving(s->lc))
        return list_cache_list(s->lc, prefix, start_after, etag_put, s->etags, cb, ud) == 0
                   ? 0 : sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    s3_fail_ctx fc;
    s3_fail_context(s, NULL, &fc);
    s3_http *h = http_take(s, err);
    if (!h)
        return -1;
    s3_list_ctx c = {.http = h, .endpoint = s->endpoint[0] ? s->endpoint : NULL,
                     .region = s->region, .bucket = s->bucket, .root = s->root,
                     .max_keys = s->tune.max_keys, .etags = s->etags, .fail = &fc};
    list_fwd f = {cb, ud};
    int rc;
    if (!s->lc) {
        rc = s3_list_objects(&c, prefix, start_after, list_fwd_cb, &f, err);
    } else {
        list_tap t = {s->lc, cb, ud, 0, 0};
        f = (list_fwd){list_tap_cb, &t};
        rc = s3_list_objects(&c, prefix, start_after, list_fwd_cb, &f, err);
        list_cache_settle(s->lc, prefix, start_after, rc < 0 || t.oom ? -1 : !t.stopped);
    }
    http_give(s, h);
    return rc;
}


static void source_s3_note(s3_source *s, const char *what, const char *msg)
{
    pthread_mutex_lock(&s->note_mu);
    snprintf(s->cache_note, sizeof s->cache_note, "%s%s", what, msg);
    pthread_mutex_unlock(&s->note_mu);
}

/* The first pass may have come from the cached listing: say so, so that a
 * real one follows at once; and keep what the real ones listed. */
static int s3_pass_end(source *src)
{
    s3_source *s = (s3_source *)src;
    sm_err e;
    if (!s->lc)
        return 0;
    int served = list_cache_pass_end(s->lc, &e);
    if (served < 0) {
        source_s3_note(s, "cache: ", e.msg);
        return 0;
    }
    return served;
}

/* ---- fetch --------------------------------------------------------- */

/* Rounds of GETs for a body shorter than the object (see body_short). */
#define SHORT_ROUNDS 3

typedef struct fetch_ctx {
    s3_source *s;
    s3_http *http;            /* this call's handle */
    const source_req *reqs;
    size_t *map;              /* http index → request index */
    source_fetch_cb cb;
    void *ud;
    size_t *again;            /* http indexes to fetch once more */
    size_t nagain;
    int last_round;
} fetch_ctx;

static int key_is_open_file(const char *key)
{
    size_t l = strlen(key);
    return l >= 4 && !strcmp(key + l - 4, ".tmp");
}

/* Serves req from the cache when the listed ETag is stored. 1 = served. */
static int fetch_from_cache(s3_source *s, const source_req *q,
                            source_fetch_cb cb, void *ud)
{
    const char *etag = s3_etags_get(s->etags, q->key, NULL);
    char *full = NULL;
    void *data = NULL;
    size_t len = 0;
    int hit;
    if (!s->cache || !etag || !*etag || asprintf(&full, "%s%s", s->root, q->key) < 0)
        return 0;
    hit = cache_get(s->cache, s->bucket, full, etag, &data, &len);
    free(full);
    if (!hit)
        return 0;
    size_t off = q->offset < 0 ? 0 : (size_t)q->offset;
    size_t n = off >= len ? 0 : len - off;
    if (q->len >= 0 && (size_t)q->len < n)
        n = (size_t)q->len;
    count(s, &s->bytes_cache, (int64_t)n);
    count(s, &s->cache_hits, 1);
    cb(ud, q, n ? (const char *)data + off : "", n, etag, NULL);
    free(data);
    return 1;
}

static void fetch_store(s3_source *s, const source_req *q, const char *etag,
                        const void *data, size_t len)
{
    char *full = NULL;
    sm_err e;
    if (!s->cache || !*etag || key_is_open_file(q->key) ||
        asprintf(&full, "%s%s", s->root, q->key) < 0)
        return;
    if (cache_put(s->cache, s->bucket, full, etag, data, len, &e) == 0)
        count(s, &s->cache_puts, 1);
    else
        source_s3_note(s, "cache: ", e.msg);
    free(full);
}

/* How many bytes a whole answer to q holds: the object's size (from
 * Content-Range, else the listing when the ETag shows the same object)
 * past the offset, capped by the asked length; -1 when unknown. */
static int64_t body_expected(const s3_http_resp *r, const source_req *q,
                             const char *listed, int64_t listed_size)
{
    int64_t size = r->total >= 0 ? r->total
                   : listed && *r->etag && !strcmp(listed, r->etag) ? listed_size : -1;
    if (size < 0)
        return -1;
    int64_t want = size - (q->offset > 0 ? q->offset : 0);
    if (q->len >= 0 && q->len < want)
        want = q->len;
    return want > 0 ? want : 0;
}

/* A body shorter than the object, which curl cannot see when the
 * Content-Length agrees with it (a proxy or server that cut the object
 * short): fetched again, and refused if it stays short, so the caller
 * keeps its offset and no sample is lost in silence. 1 when handled. */
static int body_short(fetch_ctx *f, size_t idx, const source_req *q, size_t got,
                      int64_t want, const char *etag)
{
    if (want < 0 || (int64_t)got >= want)
        return 0;
    if (!f->last_round) {
        f->again[f->nagain++] = idx;
        return 1;
    }
    sm_err err;
    sm_err_set(&err, SM_ERR_NET,
               "S3 sent %zu of %lld bytes of %s, %d times: the read is retried next scan",
               got, (long long)want, q->key, SHORT_ROUNDS);
    f->cb(f->ud, q, NULL, 0, etag, &err);
    return 1;
}

static void fetch_on_done(void *ud, size_t idx, const s3_http_resp *r)
{
    fetch_ctx *f = ud;
    const source_req *q = &f->reqs[f->map[idx]];
    int64_t listed_size = -1;
    const char *listed = s3_etags_get(f->s->etags, q->key, &listed_size);
    const char *etag = *r->etag ? r->etag : listed ? listed : "";
    sm_err err;
    if (r->curl_code == 0 && r->status == 416) {
        f->cb(f->ud, q, "", 0, etag, NULL); /* nothing past offset */
    } else if (r->curl_code == 0 && (r->status == 200 || r->status == 206)) {
        size_t off = 0, n = r->len;
        if (r->status == 200 && q->offset > 0) /* server ignored Range */
            off = (size_t)q->offset < n ? (size_t)q->offset : n;
        n -= off;
        if (q->len >= 0 && (size_t)q->len < n)
            n = (size_t)q->len;
        if (body_short(f, idx, q, n, body_expected(r, q, listed, listed_size), etag))
            return;
        if (r->status == 200 && q->offset <= 0 && q->len < 0)
            fetch_store(f->s, q, etag, r->body, r->len);
        f->cb(f->ud, q, r->body + off, n, etag, NULL);
    } else {
        s3_explain(f->s, q->key, r, &err);
        f->cb(f->ud, q, NULL, 0, etag, &err);
    }
}

static int size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Runs the m requests of hr, then again those whose body came short
 * (f->again), up to SHORT_ROUNDS times. Reorders hr and f->map. */
static void fetch_rounds(s3_http_req *hr, size_t m, fetch_ctx *f, sm_err *err)
{
    for (int round = 0; round < SHORT_ROUNDS && m; round++) {
        f->nagain = 0;
        f->last_round = round == SHORT_ROUNDS - 1;
        if (s3_http_run(f->http, hr, m, fetch_on_done, f, err) < 0) {
            /* credentials could not be refreshed: every request still gets
             * its answer, so the caller's bookkeeping stays simple */
            for (size_t i = 0; i < m; i++)
                f->cb(f->ud, &f->reqs[f->map[i]], NULL, 0, "", err);
            return;
        }
        /* Swap the requests to repeat to the front (in index order, each
         * again[k] >= k), so every URL stays in hr for the caller to free. */
        if (f->nagain)
            qsort(f->again, f->nagain, sizeof *f->again, size_cmp);
        for (size_t k = 0; k < f->nagain; k++) {
            size_t i = f->again[k];
            s3_http_req th = hr[k];
            size_t tm = f->map[k];
            hr[k] = hr[i];
            f->map[k] = f->map[i];
            hr[i] = th;
            f->map[i] = tm;
        }
        m = f->nagain;
    }
}

static int s3_fetch(source *src, const source_req *reqs, size_t n,
                    source_fetch_cb cb, void *ud, sm_err *err)
{
    s3_source *s = (s3_source *)src;
    s3_http_req *hr = calloc(n ? n : 1, sizeof *hr);
    size_t *map = calloc(n ? n : 1, sizeof *map), m = 0;
    size_t *again = calloc(n ? n : 1, sizeof *again);
    fetch_ctx f = {s, NULL, reqs, map, cb, ud, again, 0, 0};
    int rc = 0;
    if (!hr || !map || !again) {
        free(hr);
        free(map);
        free(again);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const source_req *q = &reqs[i];
        if (q->len == 0) {
            cb(ud, q, "", 0, "", NULL);
            continue;
        }
        if (fetch_from_cache(s, q, cb, ud))
            continue;
        char *full = NULL;
        if (asprintf(&full, "%s%s", s->root, q->key) < 0 ||
            !(hr[m].url = s3_url_build(s->endpoint[0] ? s->endpoint : NULL,
                                       s->region, s->bucket, full, NULL))) {
            free(full);
            rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
            break;
        }
        free(full);
        int ranged = q->offset > 0 || q->len >= 0;
        hr[m].range_from = ranged ? (q->offset > 0 ? q->offset : 0) : -1;
        hr[m].range_to = q->len >= 0 ? hr[m].range_from + q->len - 1 : -1;
        map[m++] = i;
    }
    size_t made = m;
    if (rc == 0 && m > 0) {
        if (!(f.http = http_take(s, err))) {
            rc = -1;
        } else {
            fetch_rounds(hr, m, &f, err);
            http_give(s, f.http);
        }
    }
    for (size_t i = 0; i < made; i++)
        free((char *)hr[i].url);
    free(hr);
    free(map);
    free(again);
    return rc;
}

/* ---- the rest of the vtable ---------------------------------------- */

static const char *s3_describe(const source *src)
{
    return ((const s3_source *)src)->desc;
}

static void s3_status(const source *src, char *buf, size_t len)
{
    s3_source *s = (s3_source *)src;
    pthread_mutex_lock(&s->pool_mu);
    s3_http_status(s->http, buf, len);
    for (size_t i = 1; i < s->npool && len && !buf[0]; i++)
        s3_http_status(s->pool[i], buf, len);
    pthread_mutex_unlock(&s->pool_mu);
    pthread_mutex_lock((pthread_mutex_t *)&s->note_mu);
    if (len && !buf[0] && s->cache_note[0])
        snprintf(buf, len, "%s", s->cache_note);
    pthread_mutex_unlock((pthread_mutex_t *)&s->note_mu);
}

static void s3_cancel(source *src, int on)
{
    s3_source *s = (s3_source *)src;
    pthread_mutex_lock(&s->pool_mu);
    s->cancel_on = on;
    s3_http_cancel(s->http, on);
    for (size_t i = 1; i < s->npool; i++)
        s3_http_cancel(s->pool[i], on);
    pthread_mutex_unlock(&s->pool_mu);
}

static void s3_free(source *src)
{
    s3_source *s = (s3_source *)src;
    for (size_t i = 1; i < s->npool; i++)
        s3_http_free(s->pool[i]);
    s3_http_free(s->http);
    list_cache_free(s->lc);
    cache_free(s->cache);
    s3_etags_free(s->etags);
    aws_creds_free(s->creds);
    pthread_mutex_destroy(&s->note_mu);
    pthread_mutex_destroy(&s->pool_mu);
    pthread_cond_destroy(&s->pool_cv);
    free(s);
}

static const source_vtbl s3_vtbl = {
    .kind = "s3",
    .fetch_reentrant = 1,
    .fetch_batch = 4,
    .list = s3_list,
    .fetch = s3_fetch,
    .describe = s3_describe,
    .status = s3_status,
    .cancel = s3_cancel,
    .pass_end = s3_pass_end,
    .free = s3_free,
};

int source_s3_get_stats(const source *src, source_s3_stats *out)
{
    const s3_source *s = (const s3_source *)src;
    memset(out, 0, sizeof *out);
    if (!src || src->vt != &s3_vtbl)
        return -1;
    s3_source *m = (s3_source *)src;   /* its mutex: counters move under fetches */
    pthread_mutex_lock(&m->pool_mu);
    for (size_t i = 0; i < s->npool; i++) {
        int64_t b, r, t;
        s3_http_counters(s->pool[i], &b, &r, &t);
        out->bytes_net += b;
        out->requests += r;
        out->retries += t;
    }
    out->bytes_cache = s->bytes_cache;
    out->cache_hits = s->cache_hits;
    out->cache_puts = s->cache_puts;
    pthread_mutex_unlock(&m->pool_mu);
    return 0;
}

static void s3_pick_endpoint(s3_source *s, const source_opts *o)
{
    const char *ep = o && o->endpoint_url ? o->endpoint_url : NULL;
    if (!ep || !*ep)
        ep = getenv("AWS_ENDPOINT_URL_S3");
    if (!ep || !*ep)
        ep = getenv("AWS_ENDPOINT_URL");
    snprintf(s->endpoint, sizeof s->endpoint, "%s", ep && *ep ? ep : "");
}

/* host[:port] the bucket's requests go to, for "connecting to ..." in the
 * status line; "S3" when the URL cannot be taken apart. */
static void s3_peer(const s3_source *s, char *out, size_t cap)
{
    char *url = s3_url_build(s->endpoint[0] ? s->endpoint : NULL, s->region, s->bucket,
                             NULL, NULL);
    CURLU *u = curl_url();
    char *host = NULL, *port = NULL;
    snprintf(out, cap, "S3");
    if (url && u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
        if (curl_url_get(u, CURLUPART_PORT, &port, 0) != CURLUE_OK)
            port = NULL;   /* none in the URL: the scheme's own */
        snprintf(out, cap, "%s%s%s", host, port ? ":" : "", port ? port : "");
    }
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    free(url);
}

static int s3_setup(s3_source *s, const source_opts *o, sm_err *err)
{
    const char *ca = getenv("AWS_CA_BUNDLE");
    char peer[256];
    s3_peer(s, peer, sizeof peer);
    s3_http_cfg hc = {
        .parallel = o && o->parallel > 0 ? o->parallel : 8,
        .connect_timeout_s = s->tune.connect_timeout_s,
        .stall_timeout_s = s->tune.stall_timeout_s,
        .max_attempts = s->tune.max_attempts,
        .backoff_base_ms = s->tune.backoff_base_ms,
        .backoff_cap_ms = s->tune.backoff_cap_ms,
        .connect_attempts = s->tune.connect_attempts,
        .connect_budget_ms = s->tune.connect_budget_ms,
        .peer = peer,
        .region = s->region,
        .ca_bundle = ca && *ca ? ca : NULL};
    sm_err cerr;
    if (!(s->creds = aws_creds_new(o ? o->profile : NULL, err)) ||
        !(s->http = s3_http_new(&hc, s->creds, err)))
        return -1;
    s->pool[0] = s->http;
    s->npool = 1;
    if (!(s->etags = s3_etags_new()))
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (!(o && o->no_cache) &&
        !(s->cache = cache_open(s->tune.cache_dir, o ? o->cache_size : 0, &cerr)))
        source_s3_note(s, "cache off: ", cerr.msg);
    if (s->cache && !(s->lc = list_cache_open(s->cache, s->endpoint, s->bucket, s->root,
                                              o && o->wait_for_data && !o->one_pass)))
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return 0;
}

source *source_s3_open(const char *spec, const source_opts *o,
                       const s3_tuning *t, sm_err *err)
{
    s3_source *s = calloc(1, sizeof *s);
    if (!s) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->base.vt = &s3_vtbl;
    pthread_mutex_init(&s->note_mu, NULL);
    pthread_mutex_init(&s->pool_mu, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
    if (t) {
        s->tune = *t;
    } else {
        source_s3_tuning_defaults(&s->tune);
        if (o && o->fail_fast)
            source_s3_tuning_fail_fast(&s->tune);
    }
    if (s3_url_parse_spec(spec, s->bucket, sizeof s->bucket, s->root,
                          sizeof s->root, err) < 0)
        goto fail;
    aws_region_resolve(o ? o->region : NULL, o ? o->profile : NULL, s->region,
                       sizeof s->region, NULL, 0);
    s3_pick_endpoint(s, o);
    snprintf(s->desc, sizeof s->desc, "s3://%s/%s", s->bucket, s->root);
    if (s3_setup(s, o, err) < 0)
        goto fail;
    return &s->base;
fail:
    s3_free(&s->base);
    return NULL;
}
