/* source_tar: output.tar.gz read in place; see source_tar.h. */
#include "io/source/source_tar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/source/gz_index.h"
#include "io/source/tar_walk.h"
#include "model/util/vec.h"

typedef struct tar_file {
    char *name;
    int64_t off, size, mtime_us;
} tar_file;

typedef struct tar_src {
    source base;
    source *inner;
    char key[1024];            /* the archive in inner */
    char desc[1200];
    int indexed;               /* read whole once: the members are known */
    int64_t max;               /* a bigger archive is not read; 0 no bound */
    char etag[128];            /* the archive's */
    int64_t size;
    char damage[600];          /* why reading stopped short; "" none */
    gz_index *gx;
    tar_file *f;               /* by name */
    size_t n, cap;
    /* the last read, continued by the next that starts where it stopped */
    gz_reader *cur;
    unsigned char *cbuf;       /* compressed bytes [coff, coff + clen) */
    int64_t coff;
    size_t clen;
} tar_src;

/* ---- reading compressed bytes ---------------------------------------- */

typedef struct chunk_ctx {
    tar_src *t;
    int ok;
    sm_err *err;
} chunk_ctx;

static void chunk_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *e)
{
    chunk_ctx *c = ud;
    (void)req, (void)etag;
    if (!data) {
        if (e)
            *c->err = *e;
        return;
    }
    memcpy(c->t->cbuf, data, len < SOURCE_TAR_CHUNK ? len : (size_t)SOURCE_TAR_CHUNK);
    c->t->clen = len < SOURCE_TAR_CHUNK ? len : (size_t)SOURCE_TAR_CHUNK;
    c->ok = 1;
}

/* The compressed bytes at off into cbuf (a chunk, fewer at the end). */
static int chunk_at(tar_src *t, int64_t off, sm_err *err)
{
    if (off >= t->coff && off < t->coff + (int64_t)t->clen)
        return 0;
    if (off >= t->size)
        return sm_err_set(err, SM_ERR_FORMAT, "%s ends at byte %lld, cut short", t->desc,
                          (long long)t->size);
    int64_t len = t->size - off < SOURCE_TAR_CHUNK ? t->size - off : SOURCE_TAR_CHUNK;
    source_req q = {.key = t->key, .offset = off, .len = len};
    chunk_ctx c = {t, 0, err};
    t->clen = 0;
    if (source_fetch(t->inner, &q, 1, chunk_cb, &c, err) < 0 || !c.ok)
        return -1;
    t->coff = off;
    return t->clen ? 0 : sm_err_set(err, SM_ERR_IO, "%s: no bytes at %lld", t->desc, (long long)off);
}

/* ---- the index: one pass over the archive ------------------------------ */

static int on_member(void *ud, const tar_member *m)
{
    tar_src *t = ud;
    if (vec_grow(&t->f, &t->cap, t->n + 1, sizeof *t->f, 64) < 0)
        return 1;
    tar_file *f = &t->f[t->n];
    if (!(f->name = strdup(m->name)))
        return 1;
    f->off = m->off, f->size = m->size, f->mtime_us = m->mtime_s * 1000000;
    t->n++;
    return 0;
}

typedef struct walk_ctx {
    tar_walk *w;
    sm_err *err;
    int rc;                    /* tar_walk_feed's last */
} walk_ctx;

static int to_walk(void *ud, const void *p, size_t n)
{
    walk_ctx *c = ud;
    c->rc = tar_walk_feed(c->w, p, n, c->err);
    return c->rc != 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const tar_file *)a)->name, ((const tar_file *)b)->name);
}

/* Inflates the whole archive once into the member list; damage is kept
 * (the members before it stay), a failed read is returned. */
static int read_index(tar_src *t, sm_err *err)
{
    sm_err e = {0};
    tar_walk *w = tar_walk_new(on_member, NULL, t);
    if (!w || !(t->gx = gz_index_new(0)))
        return tar_walk_free(w), sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    walk_ctx c = {w, &e, 0};
    int gz = 0;
    int64_t at = 0;
    while (gz == 0 && at < t->size) {
        if (chunk_at(t, at, err) < 0) {
            tar_walk_free(w);
            return -1;   /* a read failed: the next listing tries again */
        }
        size_t k = (size_t)(t->coff + (int64_t)t->clen - at);
        gz = gz_index_feed(t->gx, t->cbuf + (at - t->coff), k, to_walk, &c, &e);
        at = gz_index_in(t->gx);
        if (gz == 0 && at < t->coff + (int64_t)t->clen)
            break;   /* took less than it was given without ending: cannot be */
    }
    if (gz < 0 || c.rc < 0)
        snprintf(t->damage, sizeof t->damage, "%s", e.msg);
    else if (c.rc == 1)
        ;   /* the tar's end blocks: what follows is padding */
    else if (!gz_index_done(t->gx))
        snprintf(t->damage, sizeof t->damage, "the gzip stream is cut short at byte %lld",
                 (long long)at);
    else if (c.rc == 0 && tar_walk_end(w, &e) < 0)
        snprintf(t->damage, sizeof t->damage, "%s", e.msg);
    tar_walk_free(w);
    qsort(t->f, t->n, sizeof *t->f, by_name);
    t->indexed = 1;
    return 0;
}

typedef struct find_ctx {
    const char *key;
    int found;
    int64_t size;
    char etag[128];
} find_ctx;

static int find_cb(void *ud, const source_entry *e)
{
    find_ctx *f = ud;
    if (e->error || strcmp(e->key, f->key))
        return 0;
    f->found = 1;
    f->size = e->size;
    snprintf(f->etag, sizeof f->etag, "%s", e->etag ? e->etag : "");
    return 1;
}

/* The archive once it exists, read into the index: 0 (maybe not yet),
 * -1 with err (the listing or a read failed). */
static int ensure_index(tar_src *t, sm_err *err)
{
    if (t->indexed)
        return 0;
    find_ctx f = {t->key, 0, 0, ""};
    if (source_list(t->inner, t->key, NULL, find_cb, &f, err) < 0)
        return -1;
    if (!f.found)
        return 0;   /* not written (yet): listed again next pass */
    t->size = f.size;
    snprintf(t->etag, sizeof t->etag, "%s", f.etag);
    if (t->max && t->size > t->max) {
        snprintf(t->damage, sizeof t->damage, "not read: %.1f GiB, more than the %.1f GiB read "
                 "in place for a job; give it to --traces to read it whole",
                 (double)t->size / (1 << 30), (double)t->max / (1 << 30));
        t->indexed = 1;
        return 0;
    }
    return read_index(t, err);
}

/* ---- the vtable --------------------------------------------------------- */

static size_t first_at(const tar_src *t, const char *from)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(t->f[mid].name, from) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int tar_list(source *s, const char *prefix, const char *after, source_list_cb cb,
                    void *ud, sm_err *err)
{
    tar_src *t = (tar_src *)s;
    if (ensure_index(t, err) < 0)
        return -1;
    prefix = prefix ? prefix : "";
    size_t pl = strlen(prefix);
    int after_first = after && *after && strcmp(after, prefix) >= 0;
    size_t i = first_at(t, after_first ? after : prefix);
    for (; i < t->n; i++) {
        const tar_file *f = &t->f[i];
        if (strncmp(f->name, prefix, pl))
            break;
        if ((after_first && !strcmp(f->name, after)) || (i && !strcmp(f->name, t->f[i - 1].name)))
            continue;   /* a name stored twice: tar's rule is the later, ours the first */
        char etag[200];
        snprintf(etag, sizeof etag, "%s-%llx", t->etag, (unsigned long long)f->off);
        source_entry e = {.key = f->name, .size = f->size, .mtime_us = f->mtime_us,
                          .etag = etag};
        if (cb(ud, &e))
            return 0;
    }
    if (t->damage[0] && !pl) {
        char why[800];
        snprintf(why, sizeof why, "%.200s: %s%.560s", t->desc,
                 t->n ? "read up to the damage only: " : "", t->damage);
        source_entry e = {.key = "", .etag = "", .error = why};
        cb(ud, &e);
    }
    return 0;
}

static const tar_file *file_of(const tar_src *t, const char *key)
{
    size_t i = first_at(t, key);
    return i < t->n && !strcmp(t->f[i].name, key) ? &t->f[i] : NULL;
}

typedef struct out_buf {
    unsigned char *p;
    size_t n, cap;
} out_buf;

static int to_buf(void *ud, const void *p, size_t n)
{
    out_buf *o = ud;
    size_t k = n < o->cap - o->n ? n : o->cap - o->n;
    memcpy(o->p + o->n, p, k);
    o->n += k;
    return o->n == o->cap;
}

/* Output bytes [from, from + len) of the tar stream into o. */
static int read_span(tar_src *t, int64_t from, int64_t len, out_buf *o, sm_err *err)
{
    if (!t->cur || gz_reader_out(t->cur) != from) {
        gz_reader_free(t->cur);
        int64_t comp;
        if (!(t->cur = gz_reader_new(t->gx, from, &comp, err)))
            return -1;
    }
    gz_reader_limit(t->cur, from + len);
    while (o->n < (size_t)len) {
        int64_t at = gz_reader_in(t->cur);
        if (chunk_at(t, at, err) < 0)
            break;
        int rc = gz_reader_feed(t->cur, t->cbuf + (at - t->coff),
                                (size_t)(t->coff + (int64_t)t->clen - at), to_buf, o, err);
        if (rc < 0 || (rc == 1 && o->n < (size_t)len))
            break;
    }
    if (o->n == (size_t)len)
        return 0;
    gz_reader_free(t->cur);   /* its place is unknown now */
    t->cur = NULL;
    return err->msg[0] ? -1 : sm_err_set(err, SM_ERR_FORMAT, "%s ends inside a member", t->desc);
}

static void fetch_one(tar_src *t, const source_req *q, source_fetch_cb cb, void *ud)
{
    sm_err e = {0};
    const tar_file *f = t->indexed ? file_of(t, q->key) : NULL;
    if (!f) {
        sm_err_set(&e, SM_ERR_NOTFOUND, "%s holds no member %.600s", t->desc, q->key);
        cb(ud, q, NULL, 0, "", &e);
        return;
    }
    int64_t off = q->offset < f->size ? q->offset : f->size;
    int64_t len = q->len < 0 || q->len > f->size - off ? f->size - off : q->len;
    out_buf o = {malloc(len ? (size_t)len : 1), 0, (size_t)len};
    char etag[200];
    snprintf(etag, sizeof etag, "%s-%llx", t->etag, (unsigned long long)f->off);
    if (!o.p)
        sm_err_set(&e, SM_ERR_NOMEM, "out of memory");
    if (o.p && (!len || read_span(t, f->off + off, len, &o, &e) == 0))
        cb(ud, q, o.p, o.n, etag, NULL);
    else
        cb(ud, q, NULL, 0, "", &e);
    free(o.p);
}

static int tar_fetch(source *s, const source_req *reqs, size_t n, source_fetch_cb cb, void *ud,
                     sm_err *err)
{
    (void)err;
    for (size_t i = 0; i < n; i++)
        fetch_one((tar_src *)s, &reqs[i], cb, ud);
    return 0;
}

static const char *tar_describe(const source *s)
{
    return ((const tar_src *)s)->desc;
}

static void tar_status(const source *s, char *buf, size_t len)
{
    source_status(((const tar_src *)s)->inner, buf, len);
}

static void tar_cancel(source *s, int on)
{
    source_cancel(((tar_src *)s)->inner, on);
}

static int tar_pass_end(source *s)
{
    return source_pass_end(((tar_src *)s)->inner);
}

static void tar_free(source *s)
{
    tar_src *t = (tar_src *)s;
    for (size_t i = 0; i < t->n; i++)
        free(t->f[i].name);
    free(t->f);
    gz_reader_free(t->cur);
    gz_index_free(t->gx);
    free(t->cbuf);
    source_free(t->inner);
    free(t);
}

static const source_vtbl tar_vtbl = {
    .kind = "tar",
    .list = tar_list,
    .fetch = tar_fetch,
    .describe = tar_describe,
    .status = tar_status,
    .cancel = tar_cancel,
    .pass_end = tar_pass_end,
    .free = tar_free,
};

source *source_tar_wrap(source *inner, const char *key, const char *desc)
{
    tar_src *t = calloc(1, sizeof *t);
    if (!t || !(t->cbuf = malloc((size_t)SOURCE_TAR_CHUNK))) {
        free(t);
        source_free(inner);
        return NULL;
    }
    t->base.vt = &tar_vtbl;
    t->inner = inner;
    snprintf(t->key, sizeof t->key, "%s", key);
    snprintf(t->desc, sizeof t->desc, "%s", desc);
    return &t->base;
}

void source_tar_limit(source *s, int64_t max)
{
    if (s && s->vt == &tar_vtbl)
        ((tar_src *)s)->max = max;
}

int source_tar_names(const char *spec)
{
    size_t n = strlen(spec);
    return (n > 7 && !strcmp(spec + n - 7, ".tar.gz")) || (n > 4 && !strcmp(spec + n - 4, ".tgz"));
}

source *source_tar_open(const char *spec, const source_opts *o, sm_err *err)
{
    const char *slash = strrchr(spec, '/');
    char parent[2048];
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else
        snprintf(parent, sizeof parent, "%.*s%s", (int)(slash - spec), spec,
                 !strncmp(spec, "s3://", 5) ? "/" : "");
    if (slash == spec)
        snprintf(parent, sizeof parent, "/");
    source *in = source_open(parent, o, err);
    if (!in)
        return NULL;
    source *t = source_tar_wrap(in, slash ? slash + 1 : spec, spec);
    return t ? t : (sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL);
}
