/* source: where profiler-output bytes come from (a local directory or S3).
 *
 * One small vtable, two implementations (io/source/source_local.c, io/source_s3.c).
 * Keys are '/'-separated and relative to the source's root (the directory,
 * or the bucket+prefix given on the command line), never starting with '/'.
 * The scanner only ever lists and fetches through this interface, so it
 * cannot tell a directory from a bucket. */
#ifndef SMTOP_SOURCE_H
#define SMTOP_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

typedef struct source source;

typedef struct source_entry {
    const char *key;   /* valid only during the callback */
    int64_t size;      /* bytes */
    int64_t mtime_us;  /* 0 when unknown */
    const char *etag;  /* "" for local files */
    /* NULL for an object. Non-NULL for a part of the tree that could not
     * be listed (key: the directory, ending in '/', or the entry that
     * could not be examined): why, in words. What lies below it is missing
     * from this listing, which goes on; size, mtime and etag are 0/"". */
    const char *error;
} source_entry;

/* Return 0 to continue listing, non-zero to stop early. */
typedef int (*source_list_cb)(void *ud, const source_entry *e);

/* One ranged read request. `len` < 0 means "to the end of the object". */
typedef struct source_req {
    const char *key;
    int64_t offset;
    int64_t len;
    void *user;        /* caller's cookie, handed back in the callback */
    /* Optional (NULL: unused): the caller's malloc'd buffer, *buf of *cap
     * bytes, which a source that reads into memory of its own (local) may
     * read into instead, growing it with realloc and updating *buf and
     * *cap before the callback, whose data is then *buf. The caller keeps
     * the bytes without copying them (issue 15: the pool's copy of every
     * file was 4 % of a report's CPU). Others ignore it. */
    char **buf;
    size_t *cap;
} source_req;

/* Called once per request, in completion order (not submission order).
 * On success data/len hold the bytes (owned by the source, valid only during
 * the call; len may be shorter than asked, 0 means nothing new) and err is
 * NULL. On failure data is NULL and err says why. `etag` is the object's
 * current ETag ("" when unknown), so a replaced object can be detected. */
typedef void (*source_fetch_cb)(void *ud, const source_req *req,
                                const void *data, size_t len,
                                const char *etag, const sm_err *err);

typedef struct source_vtbl {
    const char *kind; /* "local", "s3" */
    /* 1 when the ETag names the file rather than its content (local: the
     * inode), so a changed ETag always means a different file; 0 when it
     * is a content hash (S3), where an object re-uploaded with more bytes
     * gets a new ETag but keeps its prefix. */
    int etag_is_identity;
    /* 1 when fetch may run on several threads at once (each call with
     * its own requests and callback), so a scan can decode files in
     * parallel; 0 when calls must not overlap. */
    int fetch_reentrant;
    /* How many reads one caller should ask in one fetch: 0 or 1 where a
     * read is quick (a local disk), more where each waits on the network
     * (S3: they run at once, so a scanning worker keeps several in flight). */
    int fetch_batch;
    /* Lists every object whose key starts with `prefix` and sorts strictly
     * after `start_after` (byte order; NULL or "" = from the start), in
     * ascending key order. Returns 0, or -1 with err set (listing stops). */
    int (*list)(source *s, const char *prefix, const char *start_after,
                source_list_cb cb, void *ud, sm_err *err);
    /* Performs n reads, possibly in parallel, calling cb once for each.
     * Returns 0 when every request got its callback (some may have failed),
     * -1 with err set only when the whole batch could not be attempted. */
    int (*fetch)(source *s, const source_req *reqs, size_t n,
                 source_fetch_cb cb, void *ud, sm_err *err);
    /* Human-readable location, e.g. "./profiler-output" or
     * "s3://bucket/job/profiler-output". Never contains secrets. */
    const char *(*describe)(const source *s);
    /* Copies a short status line about the transport ("S3 unreachable,
     * retrying in 8 s") into buf, or "" when all is well. May be NULL. */
    void (*status)(const source *s, char *buf, size_t len);
    /* Asks a list or fetch running on another thread to end within
     * milliseconds, whatever the network does (the caller is quitting):
     * a list then fails, a fetch reports its unread requests failed, and
     * every later call fails at once — until cancel(s, 0) allows them
     * again. Thread-safe. May be NULL (nothing to cancel). */
    void (*cancel)(source *s, int on);
    /* The scanner ended a pass. Returns 1 when that pass's listings came
     * from a cache that may be stale (S3: the listing kept from the last
     * run, see list_cache.h), so a real pass should follow at once; else
     * 0. May be NULL. */
    int (*pass_end)(source *s);
    /* Tells the source that req will be fetched soon, so that it can start
     * bringing the bytes in (local: the kernel's readahead) while earlier
     * fetches are decoded. A hint: no callback, no error, nothing to undo.
     * Thread-safe. May be NULL. */
    void (*prefetch)(source *s, const source_req *req);
    void (*free)(source *s);
} source_vtbl;

/* Every implementation's struct starts with this header. */
struct source {
    const source_vtbl *vt;
};

static inline int source_list(source *s, const char *prefix,
                              const char *start_after, source_list_cb cb,
                              void *ud, sm_err *err)
{
    return s->vt->list(s, prefix, start_after, cb, ud, err);
}

static inline int source_fetch(source *s, const source_req *reqs, size_t n,
                               source_fetch_cb cb, void *ud, sm_err *err)
{
    return s->vt->fetch(s, reqs, n, cb, ud, err);
}

static inline const char *source_describe(const source *s)
{
    return s->vt->describe(s);
}

static inline void source_status(const source *s, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (s->vt->status)
        s->vt->status(s, buf, len);
}

static inline void source_cancel(source *s, int on)
{
    if (s && s->vt->cancel)
        s->vt->cancel(s, on);
}

static inline int source_pass_end(source *s)
{
    return s->vt->pass_end ? s->vt->pass_end(s) : 0;
}

static inline void source_prefetch(source *s, const source_req *req)
{
    if (s->vt->prefetch)
        s->vt->prefetch(s, req);
}

static inline void source_free(source *s)
{
    if (s)
        s->vt->free(s);
}

/* Opens a local directory as a source. Returns NULL with err set when the
 * path is not a readable directory. The caller owns the result. */
source *source_local_open(const char *dir, sm_err *err);
/* The same, except that a directory that does not exist yet opens (and
 * lists nothing until it appears) when its parent directory exists: a job
 * that is still starting. */
source *source_local_open_pending(const char *dir, sm_err *err);

#endif
