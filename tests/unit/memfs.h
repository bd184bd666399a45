/* memfs: an in-memory tree of files that is both a lw_fs (live_writer.h
 * writes into it) and a source (the scanner reads it), for fuzz targets
 * that must run thousands of schedules a second. It behaves as the local
 * source does where the scanner can tell: keys listed in byte order after
 * start_after, ranged reads to the end, an ETag that names the file (a
 * number given at creation and kept across renames, like an inode), a
 * missing key read as SM_ERR_NOTFOUND. A hook may run writer actions
 * between a listing and the reads that follow it. Header-only, test code. */
#ifndef SMTOP_TEST_MEMFS_H
#define SMTOP_TEST_MEMFS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/source/source.h"
#include "live_writer.h"

typedef struct mf_file {
    char *key;
    lw_buf data;
    uint64_t id;
} mf_file;

typedef struct memfs {
    source base;
    mf_file *f;              /* sorted by key */
    size_t n, cap;
    uint64_t next_id;
    void (*before_fetch)(void *ud);   /* may be NULL */
    void *hook_ud;
} memfs;

static inline size_t mf_find(const memfs *m, const char *key, int *found)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->f[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < m->n && strcmp(m->f[lo].key, key) == 0;
    return lo;
}

static inline mf_file *mf_get(memfs *m, const char *key, int create)
{
    int found;
    size_t i = mf_find(m, key, &found);
    if (found)
        return &m->f[i];
    if (!create)
        return NULL;
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 32;
        m->f = realloc(m->f, m->cap * sizeof *m->f);
        if (!m->f)
            abort();
    }
    memmove(m->f + i + 1, m->f + i, (m->n - i) * sizeof *m->f);
    m->f[i] = (mf_file){strdup(key), {0}, ++m->next_id};
    m->n++;
    return &m->f[i];
}

static inline int mf_append(void *ud, const char *rel, const char *data, size_t n)
{
    lw_buf_add(&mf_get(ud, rel, 1)->data, data, n);
    return 0;
}

static inline int mf_truncate(void *ud, const char *rel, int64_t size)
{
    mf_file *f = mf_get(ud, rel, 0);
    if (!f || size < 0 || (size_t)size > f->data.len)
        return -1;
    f->data.len = (size_t)size;
    return 0;
}

static inline int mf_rename(void *ud, const char *from, const char *to)
{
    memfs *m = ud;
    int found;
    size_t i = mf_find(m, from, &found);
    if (!found)
        return -1;
    mf_file moved = m->f[i];
    memmove(m->f + i, m->f + i + 1, (m->n - i - 1) * sizeof *m->f);
    m->n--;
    mf_file *dst = mf_get(m, to, 1);   /* replaces a file of that name */
    free(dst->key);
    free(dst->data.p);
    *dst = moved;
    free(dst->key);
    dst->key = strdup(to);
    return 0;
}

static inline lw_fs mf_fs(memfs *m)
{
    return (lw_fs){mf_append, mf_truncate, mf_rename, m};
}

static inline int mf_list(source *s, const char *prefix, const char *after,
                          source_list_cb cb, void *ud, sm_err *err)
{
    memfs *m = (memfs *)s;
    (void)err;
    size_t pl = prefix ? strlen(prefix) : 0;
    for (size_t i = 0; i < m->n; i++) {
        const mf_file *f = &m->f[i];
        if (strncmp(f->key, prefix ? prefix : "", pl) != 0 ||
            (after && after[0] && strcmp(f->key, after) <= 0))
            continue;
        char etag[24];
        snprintf(etag, sizeof etag, "%" PRIx64, f->id);
        source_entry e = {f->key, (int64_t)f->data.len, 0, etag, NULL};
        if (cb(ud, &e))
            break;
    }
    return 0;
}

static inline int mf_fetch(source *s, const source_req *reqs, size_t n,
                           source_fetch_cb cb, void *ud, sm_err *err)
{
    memfs *m = (memfs *)s;
    (void)err;
    if (m->before_fetch)
        m->before_fetch(m->hook_ud);
    for (size_t i = 0; i < n; i++) {
        const source_req *q = &reqs[i];
        mf_file *f = mf_get(m, q->key, 0);
        if (!f) {
            sm_err e = {SM_ERR_NOTFOUND, ""};
            snprintf(e.msg, sizeof e.msg, "cannot read %s: No such file", q->key);
            cb(ud, q, NULL, 0, NULL, &e);
            continue;
        }
        size_t off = q->offset > 0 ? (size_t)q->offset : 0;
        size_t len = off < f->data.len ? f->data.len - off : 0;
        if (q->len >= 0 && (size_t)q->len < len)
            len = (size_t)q->len;
        char etag[24];
        snprintf(etag, sizeof etag, "%" PRIx64, f->id);
        cb(ud, q, len ? f->data.p + off : "", len, etag, NULL);
    }
    return 0;
}

static inline const char *mf_describe(const source *s)
{
    (void)s;
    return "memfs";
}

static inline void mf_free_all(source *s)
{
    memfs *m = (memfs *)s;
    for (size_t i = 0; i < m->n; i++) {
        free(m->f[i].key);
        free(m->f[i].data.p);
    }
    free(m->f);
    m->f = NULL;
    m->n = m->cap = 0;
}

static const source_vtbl memfs_vtbl = {
    .kind = "memfs", .etag_is_identity = 1, .list = mf_list, .fetch = mf_fetch,
    .describe = mf_describe, .free = mf_free_all,
};

static inline void memfs_init(memfs *m)
{
    memset(m, 0, sizeof *m);
    m->base.vt = &memfs_vtbl;
}

#endif
