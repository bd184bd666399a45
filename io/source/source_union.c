/* source_union: a job's places as one folder; see source_union.h. */
#include "io/source/source_union.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/source/source_place.h"
#include "model/jobs/jobplace.h"

#define UNION_MAX 8

typedef struct mount {
    source *src;               /* NULL: it could not be opened (st.error) */
    union_place st;            /* under mu */
    atomic_llong seen;         /* keys this pass (the lister's) */
    char failed[512];          /* why src could not be opened */
} mount;

typedef struct union_src {
    source base;
    mount m[UNION_MAX];        /* in key order of their folders */
    size_t n;
    pthread_mutex_t mu;
    char name[256];            /* the job's */
    int passes;                /* passes ended */
    char desc[2048];           /* rebuilt at each pass's end, on the lister's thread */
} union_src;

/* ---- listing -------------------------------------------------------- */

typedef struct tap {
    mount *m;
    source_list_cb cb;
    void *ud;
    int stopped;
} tap;

static int tap_cb(void *ud, const source_entry *e)
{
    tap *t = ud;
    char key[4096];
    snprintf(key, sizeof key, "%s%s", t->m->st.at, e->key);
    source_entry f = *e;
    f.key = key;
    if (!e->error)
        t->m->seen++;
    return (t->stopped = t->cb(t->ud, &f) != 0);
}

/* What of [prefix, after) lies in mount m: its own prefix and start-after
 * into *cp, *ca; 0 when nothing does. */
static int overlap(const mount *m, const char *prefix, const char *after, const char **cp,
                   const char **ca)
{
    const char *at = m->st.at;
    size_t al = strlen(at), pl = strlen(prefix);
    if (!strncmp(prefix, at, al))
        *cp = prefix + al;
    else if (!strncmp(at, prefix, pl))
        *cp = "";
    else
        return 0;
    *ca = NULL;
    if (!after || !*after || strcmp(after, at) < 0)
        return 1;
    if (!strncmp(after, at, al)) {
        *ca = after + al;
        return 1;
    }
    return 0;   /* the whole mount sorts before after */
}

/* A place that cannot be read until someone changes a policy, a bucket
 * or the region: said, and the rest read. */
static int lasting(const sm_err *e)
{
    return e->code == SM_ERR_DENIED || e->code == SM_ERR_NOTFOUND || e->code == SM_ERR_USAGE;
}

static void set_error(union_src *u, mount *m, const char *msg)
{
    pthread_mutex_lock(&u->mu);
    snprintf(m->st.error, sizeof m->st.error, "%s", msg);
    if (!msg[0])
        m->st.listed++;
    const char *url = m->src ? source_place_url(m->src) : NULL;
    if (url)
        snprintf(m->st.url, sizeof m->st.url, "%s", url);
    pthread_mutex_unlock(&u->mu);
}

static int union_list(source *s, const char *prefix, const char *after, source_list_cb cb,
                      void *ud, sm_err *err)
{
    union_src *u = (union_src *)s;
    prefix = prefix ? prefix : "";
    int ok = 0, passing = 0;
    sm_err first = {0};
    for (size_t i = 0; i < u->n; i++) {
        mount *m = &u->m[i];
        const char *cp, *ca;
        if (!overlap(m, prefix, after, &cp, &ca))
            continue;
        tap t = {m, cb, ud, 0};
        sm_err e = {0};
        if (!m->src)
            sm_err_set(&e, SM_ERR_USAGE, "%s", m->failed);
        if (m->src && source_list(m->src, cp, ca, tap_cb, &t, &e) == 0) {
            set_error(u, m, "");
            ok++;
        } else if (lasting(&e)) {
            char why[1500];
            snprintf(why, sizeof why, "%.1000s (%s) cannot be read: %.380s", m->st.url,
                     jobplace_label(m->st.kind), e.msg);
            set_error(u, m, e.msg);
            source_entry f = {.key = m->st.at, .etag = "", .error = why};
            t.stopped = cb(ud, &f) != 0;
            ok++;
        } else {
            /* may pass: this pass goes without it (its files stay known),
             * and only when nothing could be listed does the listing fail */
            char why[1500];
            snprintf(why, sizeof why, "%.1000s (%s): %.380s", m->st.url,
                     jobplace_label(m->st.kind), e.msg);
            set_error(u, m, e.msg);
            if (!passing++)
                sm_err_set(&first, e.code, "%s", why);
        }
        if (t.stopped)
            break;
    }
    if (passing && !ok) {
        if (err)
            *err = first;
        return -1;
    }
    return 0;
}

/* ---- reading -------------------------------------------------------- */

static mount *mount_of(union_src *u, const char *key)
{
    for (size_t i = 0; i < u->n; i++)
        if (!strncmp(key, u->m[i].st.at, strlen(u->m[i].st.at)))
            return &u->m[i];
    return NULL;
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

/* Each mount's requests in one call of its own, keys without its folder. */
static int union_fetch(source *s, const source_req *reqs, size_t n, source_fetch_cb cb,
                       void *ud, sm_err *err)
{
    union_src *u = (union_src *)s;
    source_req *in = calloc(n ? n : 1, sizeof *in);
    if (!in)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    fetch_ctx c = {reqs, cb, ud};
    int rc = 0;
    for (size_t i = 0; i <= u->n && rc == 0; i++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++) {
            mount *m = mount_of(u, reqs[j].key);
            if (i < u->n ? m != &u->m[i] : m != NULL)
                continue;
            in[k] = reqs[j];
            in[k].key = m ? reqs[j].key + strlen(m->st.at) : reqs[j].key;
            in[k++].user = (void *)&reqs[j];
        }
        if (k && i < u->n && u->m[i].src) {
            rc = source_fetch(u->m[i].src, in, k, fetch_cb, &c, err);
        } else {
            sm_err e = {0};
            sm_err_set(&e, SM_ERR_NOTFOUND, "no place of the job holds this key");
            for (size_t j = 0; j < k; j++)
                cb(ud, in[j].user, NULL, 0, "", &e);
        }
    }
    free(in);
    return rc;
}

/* Appends to u->desc at *w. */
static void put(union_src *u, size_t *w, const char *fmt, const char *a, const char *b)
{
    if (*w >= sizeof u->desc)
        return;
    int k = snprintf(u->desc + *w, sizeof u->desc - *w, fmt, a, b);
    *w += k > 0 ? (size_t)k : 0;
}

/* What the job reads, in the order places are read (jobplace.h): those
 * that held something at the last pass (or could not be read), every
 * place before the first pass; without profiler output the job's name
 * first; the places looked in when none held anything:
 * "s3://b/p/JOB/profiler-output · traces: s3://b/tb/JOB/tensorboard-output/
 * (TensorBoard sync)", "JOB (no profiler output) · traces: ...". */
static void redescribe(union_src *u)
{
    size_t w = 0, shown = 0;
    int traces = 0, profiler = 0;
    u->desc[0] = '\0';
    for (size_t i = 0; i < u->n; i++)
        profiler |= u->m[i].st.kind == JOBPLACE_PROFILER &&
                    (!u->passes || u->m[i].st.keys || u->m[i].st.error[0]);
    for (int kind = 0; kind < JOBPLACE_KINDS; kind++)
        for (size_t i = 0; i < u->n; i++) {
            const union_place *p = &u->m[i].st;
            if (p->kind != kind || (u->passes && !p->keys && !p->error[0]))
                continue;
            if (kind == JOBPLACE_PROFILER) {
                size_t l = strlen(p->url);
                char url[sizeof p->url];
                snprintf(url, sizeof url, "%.*s", (int)(l && p->url[l - 1] == '/' ? l - 1 : l),
                         p->url);
                put(u, &w, "%s%s", url, p->error[0] ? " (cannot be read)" : "");
            } else {
                if (!shown && !profiler)
                    put(u, &w, "%s (no profiler output)%s", u->name, "");
                put(u, &w, "%s%s", traces ? ", " : " \xc2\xb7 traces: ", "");
                put(u, &w, "%s (%s", p->url, jobplace_label(kind));
                put(u, &w, "%s)%s", p->error[0] ? ", cannot be read" : "", "");
                traces = 1;
            }
            shown++;
        }
    if (shown)
        return;
    int has_profiler = 0;
    for (size_t i = 0; i < u->n; i++)
        has_profiler |= u->m[i].st.kind == JOBPLACE_PROFILER;
    put(u, &w, "%s (%snothing in: ", u->name, has_profiler ? "" : "no profiler output; ");
    for (size_t i = 0; i < u->n; i++)
        put(u, &w, "%s%s", i ? ", " : "", jobplace_label(u->m[i].st.kind));
    put(u, &w, ")%s%s", "", "");
}

static const char *union_describe(const source *s)
{
    return ((const union_src *)s)->desc;
}

static void union_status(const source *s, char *buf, size_t len)
{
    const union_src *u = (const union_src *)s;
    for (size_t i = 0; i < u->n && len && !buf[0]; i++)
        source_status(u->m[i].src, buf, len);
}

static void union_cancel(source *s, int on)
{
    union_src *u = (union_src *)s;
    for (size_t i = 0; i < u->n; i++)
        source_cancel(u->m[i].src, on);
}

static int union_pass_end(source *s)
{
    union_src *u = (union_src *)s;
    int cached = 0;
    for (size_t i = 0; i < u->n; i++) {
        mount *m = &u->m[i];
        cached |= source_pass_end(m->src);
        pthread_mutex_lock(&u->mu);
        m->st.keys = atomic_exchange(&m->seen, 0);
        pthread_mutex_unlock(&u->mu);
    }
    u->passes++;
    redescribe(u);
    return cached;
}

static void union_prefetch(source *s, const source_req *req)
{
    union_src *u = (union_src *)s;
    mount *m = mount_of(u, req->key);
    if (!m)
        return;
    source_req r = *req;
    r.key = req->key + strlen(m->st.at);
    source_prefetch(m->src, &r);
}

static void union_free(source *s)
{
    union_src *u = (union_src *)s;
    for (size_t i = 0; i < u->n; i++)
        source_free(u->m[i].src);
    pthread_mutex_destroy(&u->mu);
    free(u);
}

static const source_vtbl union_vtbl = {
    .kind = "union",
    .list = union_list,
    .fetch = union_fetch,
    .describe = union_describe,
    .status = union_status,
    .cancel = union_cancel,
    .pass_end = union_pass_end,
    .prefetch = union_prefetch,
    .free = union_free,
};

source *source_union_new(const char *name)
{
    union_src *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->base.vt = &union_vtbl;
    pthread_mutex_init(&u->mu, NULL);
    snprintf(u->name, sizeof u->name, "%s", name);
    return &u->base;
}

int source_union_mount_failed(source *s, const char *at, int kind, const char *url,
                              const char *why)
{
    union_src *u = (union_src *)s;
    if (source_union_mount(s, at, NULL, kind, url) < 0)
        return -1;
    for (size_t i = 0; i < u->n; i++)
        if (!strcmp(u->m[i].st.at, at))
            snprintf(u->m[i].failed, sizeof u->m[i].failed, "%s", why);
    return 0;
}

int source_union_mount(source *s, const char *at, source *src, int kind, const char *url)
{
    union_src *u = (union_src *)s;
    if (u->n >= UNION_MAX || strlen(at) >= sizeof u->m[0].st.at) {
        source_free(src);
        return -1;
    }
    size_t i = u->n;
    while (i > 0 && strcmp(u->m[i - 1].st.at, at) > 0) {
        u->m[i] = u->m[i - 1];
        i--;
    }
    u->m[i].src = src;
    u->m[i].failed[0] = '\0';
    u->m[i].st = (union_place){.kind = kind};
    atomic_init(&u->m[i].seen, 0);
    snprintf(u->m[i].st.at, sizeof u->m[i].st.at, "%s", at);
    snprintf(u->m[i].st.url, sizeof u->m[i].st.url, "%s", url);
    u->n++;
    redescribe(u);
    return 0;
}

size_t source_union_places(source *s, union_place *out, size_t cap)
{
    if (!source_union_is(s))
        return 0;
    union_src *u = (union_src *)s;
    pthread_mutex_lock(&u->mu);
    for (size_t i = 0; i < u->n && i < cap; i++) {
        out[i] = u->m[i].st;
        long long seen = atomic_load(&u->m[i].seen);
        if (!u->m[i].st.keys && seen)   /* no pass ended yet */
            out[i].keys = seen;
    }
    pthread_mutex_unlock(&u->mu);
    return u->n;
}

int source_union_is(const source *s)
{
    return s && s->vt == &union_vtbl;
}

int source_union_place_status(const union_place *p)
{
    return p->error[0] ? JOBPLACE_UNREADABLE
           : !p->listed ? JOBPLACE_NOT_LISTED
           : p->keys    ? JOBPLACE_READ
                        : JOBPLACE_EMPTY;
}
