/* source_place: a job's data place listed once a refresh; see source_place.h. */
#include "io/source/source_place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/vec.h"

#define TB_DIR "/tensorboard-output/"

typedef struct place_key {
    char *key;          /* relative to the place */
    char *etag;
    char *error;        /* a part the inner source could not list; NULL none */
    int64_t size, mtime_us;
} place_key;

typedef struct place_src {
    source base;
    source *inner;
    char sub[JOBPLACE_URL];    /* the place's prefix in inner; "" its root */
    int alt_ok;                /* inner's root is the TensorBoard fallback */
    int on_alt;                /* ... and it holds the data (decided) */
    int on_sub;                /* sub holds the data (decided) */
    char desc[JOBPLACE_URL * 2];
    char url[JOBPLACE_URL * 2];
    place_key *k;
    size_t n, cap;
    int fresh;                 /* k is this pass's listing (or failed) */
    sm_err failed;             /* how this pass's walk failed; code 0 none */
    place_state st;
} place_src;

/* ---- the walk ------------------------------------------------------- */

typedef struct walk {
    place_src *p;
    size_t skip;               /* bytes of the prefix before the place's key */
    size_t max;
    int alt;                   /* walking the fallback: other jobs' syncs left out */
    int oom;
} walk;

static void keys_clear(place_src *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->k[i].key);
        free(p->k[i].etag);
        free(p->k[i].error);
    }
    p->n = 0;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static int walk_cb(void *ud, const source_entry *e)
{
    walk *w = ud;
    place_src *p = w->p;
    const char *rel = strlen(e->key) >= w->skip ? e->key + w->skip : e->key;
    if (w->alt && strstr(rel, TB_DIR))
        return 0;   /* another job's sync beside this job's */
    if (p->n >= w->max) {
        p->st.cut = 1;
        return 1;
    }
    if (vec_grow(&p->k, &p->cap, p->n + 1, sizeof *p->k, 64) < 0)
        return (w->oom = 1);
    place_key *k = &p->k[p->n];
    *k = (place_key){.key = strdup(rel), .etag = dup_or_null(e->etag),
                     .error = dup_or_null(e->error), .size = e->size, .mtime_us = e->mtime_us};
    if (!k->key || (e->etag && !k->etag) || (e->error && !k->error)) {
        free(k->key);
        free(k->etag);
        free(k->error);
        return (w->oom = 1);
    }
    p->n++;
    return 0;
}

static int walk_one(place_src *p, const char *prefix, int alt, size_t max, sm_err *err)
{
    walk w = {p, strlen(prefix), max, alt, 0};
    int rc = source_list(p->inner, prefix, NULL, walk_cb, &w, err);
    if (rc == 0 && w.oom)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return rc;
}

/* This pass's listing: the place's prefix, and while undecided the
 * fallback after an empty one. */
static int walk_place(place_src *p, sm_err *err)
{
    keys_clear(p);
    p->st.cut = 0;
    p->st.listed++;
    int rc = 0;
    sm_err e = {0};
    if (!p->on_alt) {
        rc = walk_one(p, p->sub, 0, PLACE_KEYS_MAX, &e);
        if (rc == 0 && p->n)
            p->on_sub = 1;
    }
    if (rc == 0 && p->alt_ok && !p->on_sub && !p->n) {
        rc = walk_one(p, "", 1, PLACE_ALT_KEYS_MAX, &e);
        if (rc == 0 && p->n) {
            p->on_alt = 1;
            snprintf(p->url, sizeof p->url, "%s", source_describe(p->inner));
        }
    }
    if (rc < 0) {
        keys_clear(p);
        p->failed = e;   /* the pass's other listings say the same, unasked */
        if (!p->failed.code)
            p->failed.code = SM_ERR_IO;
        p->fresh = 1;
        if (err)
            *err = e;
        return -1;
    }
    p->failed.code = 0;
    p->st.keys = p->n;
    p->st.on_alt = p->on_alt;
    p->fresh = 1;
    return 0;
}

/* ---- the vtable ----------------------------------------------------- */

/* The first kept key >= from. */
static size_t first_at(const place_src *p, const char *from)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(p->k[mid].key, from) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int place_list(source *s, const char *prefix, const char *after, source_list_cb cb,
                      void *ud, sm_err *err)
{
    place_src *p = (place_src *)s;
    if (!p->fresh && walk_place(p, err) < 0)
        return -1;
    if (p->failed.code) {
        if (err)
            *err = p->failed;
        return -1;
    }
    prefix = prefix ? prefix : "";
    size_t pl = strlen(prefix);
    int after_first = after && *after && strcmp(after, prefix) >= 0;
    size_t i = first_at(p, after_first ? after : prefix);
    for (; i < p->n; i++) {
        const place_key *k = &p->k[i];
        if (strncmp(k->key, prefix, pl))
            break;
        if (after_first && !strcmp(k->key, after))
            continue;
        source_entry e = {.key = k->key, .size = k->size, .mtime_us = k->mtime_us,
                          .etag = k->etag ? k->etag : "", .error = k->error};
        if (cb(ud, &e))
            break;
    }
    if (p->st.cut && !strncmp("", prefix, pl) && i >= p->n) {
        /* said where the walk stopped, so its rest is not read in silence */
        char why[160];
        snprintf(why, sizeof why, "not listed: the place holds more than %d keys; "
                 "the first %zu were read", p->on_alt ? PLACE_ALT_KEYS_MAX : PLACE_KEYS_MAX, p->n);
        source_entry e = {.key = "", .etag = "", .error = why};
        cb(ud, &e);
    }
    return 0;
}

/* The inner key of a place key (prefix put back), into buf. */
static const char *inner_key(const place_src *p, const char *key, char *buf, size_t cap)
{
    if (p->on_alt || !p->sub[0])
        return key;
    snprintf(buf, cap, "%s%s", p->sub, key);
    return buf;
}

typedef struct fetch_ctx {
    const source_req *outer;
    source_fetch_cb cb;
    void *ud;
} fetch_ctx;

static void fetch_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *err)
{
    fetch_ctx *c = ud;
    c->cb(c->ud, (const source_req *)req->user, data, len, etag, err);
}

static int place_fetch(source *s, const source_req *reqs, size_t n, source_fetch_cb cb,
                       void *ud, sm_err *err)
{
    place_src *p = (place_src *)s;
    source_req *in = calloc(n ? n : 1, sizeof *in);
    char (*keys)[JOBPLACE_URL * 2] = calloc(n ? n : 1, sizeof *keys);
    if (!in || !keys) {
        free(in);
        free(keys);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        in[i] = reqs[i];
        in[i].key = inner_key(p, reqs[i].key, keys[i], sizeof keys[i]);
        in[i].user = (void *)&reqs[i];
    }
    fetch_ctx c = {reqs, cb, ud};
    int rc = source_fetch(p->inner, in, n, fetch_cb, &c, err);
    free(in);
    free(keys);
    return rc;
}

static const char *place_describe(const source *s)
{
    return ((const place_src *)s)->desc;
}

static void place_status(const source *s, char *buf, size_t len)
{
    source_status(((const place_src *)s)->inner, buf, len);
}

static void place_cancel(source *s, int on)
{
    source_cancel(((place_src *)s)->inner, on);
}

static int place_pass_end(source *s)
{
    place_src *p = (place_src *)s;
    p->fresh = 0;
    return source_pass_end(p->inner);
}

static void place_prefetch(source *s, const source_req *req)
{
    place_src *p = (place_src *)s;
    char buf[JOBPLACE_URL * 2];
    source_req r = *req;
    r.key = inner_key(p, req->key, buf, sizeof buf);
    source_prefetch(p->inner, &r);
}

static void place_free(source *s)
{
    place_src *p = (place_src *)s;
    keys_clear(p);
    free(p->k);
    source_free(p->inner);
    free(p);
}

static const source_vtbl place_vtbl = {
    .kind = "place",
    .list = place_list,
    .fetch = place_fetch,
    .describe = place_describe,
    .status = place_status,
    .cancel = place_cancel,
    .pass_end = place_pass_end,
    .prefetch = place_prefetch,
    .free = place_free,
};

source *source_place_wrap(source *inner, const char *sub, int alt_ok, const char *desc)
{
    place_src *p = calloc(1, sizeof *p);
    if (!p) {
        source_free(inner);
        return NULL;
    }
    p->base.vt = &place_vtbl;
    p->inner = inner;
    p->alt_ok = alt_ok;
    snprintf(p->sub, sizeof p->sub, "%s", sub);
    snprintf(p->desc, sizeof p->desc, "%s", desc);
    return &p->base;
}

source *source_place_open(const jobplace *pl, const source_opts *o, sm_err *err)
{
    const char *root = pl->alt[0] ? pl->alt : pl->url;
    size_t rl = strlen(root);
    if (strncmp(pl->url, root, rl))
        return sm_err_set(err, SM_ERR_USAGE, "%.600s is not inside %.600s", pl->url, root), NULL;
    /* a place's root may be shared by jobs (a TensorBoard path): its
     * listing is never answered from the last run's cached one */
    source_opts po = *o;
    po.one_pass = 1;
    source *in = source_open(root, &po, err);
    if (!in)
        return NULL;
    source *s = source_place_wrap(in, pl->url + rl, pl->alt[0] != 0, pl->url);
    if (!s)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    return s;
}

int source_place_state(const source *s, place_state *out)
{
    if (s->vt != &place_vtbl)
        return -1;
    *out = ((const place_src *)s)->st;
    return 0;
}

const char *source_place_url(const source *s)
{
    if (s->vt != &place_vtbl)
        return NULL;
    const place_src *p = (const place_src *)s;
    return p->on_alt ? p->url : p->desc;
}
