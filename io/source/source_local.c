/* source_local: a directory on disk as a source.
 *
 * Listing walks the tree in global key order (entries of a directory are
 * sorted with a '/' appended to directory names, so "a/" and "a.json" come
 * out in the byte order S3 would list them) and prunes whole directories
 * that sort entirely before start_after or outside the prefix, so a scan
 * with a trailing window touches only the newest hour folders; within a
 * folder it starts at the first name that can sort after start_after, and
 * a folder whose mtime has not changed is not read again (its sorted
 * entries are kept), so an idle pass over a flat layout costs a few stats.
 * Entries are typed by readdir; only listed files are stat'ed. The "ETag"
 * of a local file is its inode number: a file renamed over or recreated at
 * the same path (the trace writer's rotating .tmp) gets a new one, which
 * the scanner treats as a replaced object.
 *
 * Symlinks are followed, each directory (by device and inode) at most once
 * per listing: three `x -> .` links in one folder would otherwise make
 * 3^16 paths. A subdirectory that cannot be listed is reported through an
 * entry with `error` set and skipped; only the root failing fails the
 * listing. Only regular files are opened, without blocking: a FIFO put in
 * a file's place between listing and reading must not hang the loader. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/source/source.h"
#include "model/util/idmap.h"

#define LOCAL_MAX_DEPTH 16

#define LOCAL_SPARE_BUFS 16

/* A read buffer; fetches on several threads each take their own. */
typedef struct rbuf {
    char *p;
    size_t cap;
} rbuf;

typedef struct dir_item dir_item;

/* A folder's sorted entries, kept while its mtime does not change: a
 * listing of a folder nothing was added to or removed from then costs a
 * stat, not a readdir and a sort (a flat job's system folder holds a
 * file per node and minute). Only names are kept, packed: a kept folder
 * had every entry typed by readdir (cacheable), so a name and its '/'
 * say all; a day of 16 nodes keeps 48 hour folders of 960 files, 3.7 MB
 * as dir_items, half that packed (issue 15). */
typedef struct dir_cache {
    char *relkey;        /* NULL: a free slot */
    struct timespec mtime;
    ino_t ino;           /* a folder replaced by another is read again */
    char *names;         /* the names, each NUL-terminated, in order */
    uint32_t *at;        /* where each starts in names */
    size_t n;
    uint64_t used;       /* listing count at the last use, for eviction */
    int busy;            /* being walked (its items are borrowed) */
} dir_cache;

#define LOCAL_DIR_CACHE 64

typedef struct source_local {
    source base;
    char *root;          /* no trailing slash */
    pthread_mutex_t list_mu;        /* one listing at a time: the cache */
    dir_cache dirs[LOCAL_DIR_CACHE];
    uint64_t listings;
    pthread_mutex_t mu;  /* guards spare */
    rbuf spare[LOCAL_SPARE_BUFS];   /* buffers between fetches */
    size_t nspare;
    atomic_int cancelled;  /* local_cancel, from another thread */
    atomic_int pending;    /* opened before the directory existed, not seen since */
} source_local;

struct dir_item {
    char *name;          /* with '/' appended for directories */
    int is_dir;
    int err;             /* errno of a failed stat, else 0 */
    int have_id;         /* dev and ino are known */
    dev_t dev;           /* directories: identity, for loop detection */
    ino_t ino;
};

static int item_cmp(const void *a, const void *b)
{
    return strcmp(((const dir_item *)a)->name, ((const dir_item *)b)->name);
}

/* Returns 1 when no key starting with `dirkey` (ends in '/') can be listed:
 * outside the prefix, or every key below sorts at or before start_after. */
static int dir_pruned(const char *dirkey, const char *prefix, const char *after)
{
    size_t dl = strlen(dirkey), pl = strlen(prefix);
    size_t n = dl < pl ? dl : pl;
    if (strncmp(dirkey, prefix, n) != 0)
        return 1;
    if (after[0] && strncmp(after, dirkey, dl) != 0 && strcmp(dirkey, after) < 0)
        return 1;
    return 0;
}

static int file_wanted(const char *key, const char *prefix, const char *after)
{
    if (strncmp(key, prefix, strlen(prefix)) != 0)
        return 0;
    return !after[0] || strcmp(key, after) > 0;
}

/* Reads the open folder d (at path), sorted. */
static int read_sorted_dir(DIR *d, const char *path, dir_item **out, size_t *n)
{
    dir_item *items = NULL;
    size_t cnt = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        struct stat st = {0};
        int err = 0, have_id = 0;
        if (strlen(path) + strlen(de->d_name) + 2 > 4096)
            continue;   /* deeper than any real profiler-output tree */
        /* The type readdir gives saves a stat per entry: a flat job's
         * folder holds a file per node and minute, and most of them sort
         * before the window. Links and filesystems without d_type are
         * stat'ed (following the link). */
        if (de->d_type == DT_DIR) {
            st.st_mode = S_IFDIR;
        } else if (de->d_type == DT_REG) {
            st.st_mode = S_IFREG;
        } else if (fstatat(dirfd(d), de->d_name, &st, 0) != 0) {
            err = errno;
            struct stat lst;
            /* vanished between readdir and stat; but a symbolic link to
             * nothing is a name in the tree that cannot be read: said */
            if (err == ENOENT && (fstatat(dirfd(d), de->d_name, &lst, AT_SYMLINK_NOFOLLOW) != 0 ||
                                   !S_ISLNK(lst.st_mode)))
                continue;
        } else if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
            continue;
        } else {
            have_id = 1;
        }
        if (cnt == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            dir_item *ni = realloc(items, ncap * sizeof *ni);
            if (!ni) { rc = -1; break; }
            items = ni;
            cap = ncap;
        }
        size_t len = strlen(de->d_name);
        char *name = malloc(len + 2);
        if (!name) { rc = -1; break; }
        memcpy(name, de->d_name, len);
        int is_dir = !err && S_ISDIR(st.st_mode);
        name[len] = is_dir ? '/' : '\0';
        name[len + 1] = '\0';
        items[cnt] = (dir_item){name, is_dir, err, have_id, st.st_dev, st.st_ino};
        cnt++;
    }
    if (cnt)   /* qsort(NULL, 0, ...) is UB */
        qsort(items, cnt, sizeof *items, item_cmp);
    *out = items;
    *n = cnt;
    return rc;
}

static void free_items(dir_item *items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i].name);
    free(items);
}

static void cache_drop(dir_cache *c)
{
    free(c->relkey);
    free(c->names);
    free(c->at);
    c->relkey = NULL;
}

/* A folder's entries as walk_dir sees them: read now (items), or kept in
 * the cache (names only). */
typedef struct dir_view {
    const dir_item *items;
    const dir_cache *c;
    size_t n;
} dir_view;

static const char *view_name(const dir_view *v, size_t i)
{
    return v->items ? v->items[i].name : v->c->names + v->c->at[i];
}

static dir_item view_item(const dir_view *v, size_t i)
{
    if (v->items)
        return v->items[i];
    const char *name = view_name(v, i);
    size_t len = strlen(name);
    return (dir_item){(char *)name, len && name[len - 1] == '/', 0, 0, 0, 0};
}

static dir_cache *cache_find(source_local *sl, const char *relkey, const struct stat *st)
{
    const struct timespec *mt = &st->st_mtim;
    for (size_t i = 0; i < LOCAL_DIR_CACHE; i++) {
        dir_cache *c = &sl->dirs[i];
        if (c->relkey && !strcmp(c->relkey, relkey)) {
            if (c->mtime.tv_sec == mt->tv_sec && c->mtime.tv_nsec == mt->tv_nsec &&
                c->ino == st->st_ino)
                return c;
            if (c->busy)
                return NULL;   /* a symlink back into a folder being walked */
            cache_drop(c);
            return NULL;
        }
    }
    return NULL;
}

/* Whether items may be kept: every entry typed by readdir (a stat'ed
 * link or a failed stat must be looked at again), and the folder's mtime
 * at least 2 s old, so a change within the same timestamp tick after
 * this read cannot go unseen. */
static int cacheable(const dir_item *items, size_t n, const struct timespec *mt)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (now.tv_sec - mt->tv_sec < 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (items[i].have_id || items[i].err)
            return 0;
    return 1;
}

/* Keeps the names of items for relkey in the least recently used free
 * slot; NULL when every slot is busy or on OOM. items stay the caller's. */
static dir_cache *cache_put(source_local *sl, const char *relkey, const struct stat *st,
                            const dir_item *items, size_t n)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += strlen(items[i].name) + 1;
    if (bytes > UINT32_MAX)
        return NULL;
    dir_cache *best = NULL;
    for (size_t i = 0; i < LOCAL_DIR_CACHE; i++) {
        dir_cache *c = &sl->dirs[i];
        if (!c->busy && (!best || !c->relkey || (best->relkey && c->used < best->used)))
            best = c;
        if (best && !best->relkey)
            break;
    }
    char *k = best ? strdup(relkey) : NULL, *names = k ? malloc(bytes ? bytes : 1) : NULL;
    uint32_t *at = names ? malloc((n ? n : 1) * sizeof *at) : NULL;
    if (!at) {
        free(k);
        free(names);
        return NULL;
    }
    for (size_t i = 0, off = 0; i < n; i++) {
        size_t len = strlen(items[i].name) + 1;
        memcpy(names + off, items[i].name, len);
        at[i] = (uint32_t)off;
        off += len;
    }
    if (best->relkey)
        cache_drop(best);
    *best = (dir_cache){k, st->st_mtim, st->st_ino, names, at, n, sl->listings, 0};
    return best;
}

/* The index of the first item that can hold a key after `after`: names
 * before the first component of after's part below relkey cannot. */
static size_t first_wanted(const dir_view *v, const char *relkey, const char *after)
{
    size_t rl = strlen(relkey);
    if (!after[0] || strncmp(after, relkey, rl) != 0)
        return 0;
    const char *tail = after + rl, *slash = strchr(tail, '/');
    size_t cl = slash ? (size_t)(slash - tail) + 1 : strlen(tail);
    char comp[4096];
    if (cl >= sizeof comp)
        return 0;
    memcpy(comp, tail, cl);
    comp[cl] = '\0';
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(view_name(v, mid), comp) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A directory's identity, for the set of those already walked. */
typedef struct dir_id {
    dev_t dev;
    ino_t ino;
} dir_id;

typedef struct walk {
    source_local *sl;
    const char *prefix, *after;
    source_list_cb cb;
    void *ud;
    int stopped;
    idmap seen;          /* items: dir_id (owned) */
} walk;

static int seen_eq(const void *item, const void *key)
{
    const dir_id *a = item, *b = key;
    return a->dev == b->dev && a->ino == b->ino;
}

/* Marks a directory walked; 1 when it already was (a symlink loop or a
 * second path to it), 0 when new, -1 on OOM. */
static int seen_before(walk *w, dev_t dev, ino_t ino)
{
    dir_id k = {dev, ino};
    sm_str parts[2] = {{(const char *)&k.dev, sizeof k.dev},
                       {(const char *)&k.ino, sizeof k.ino}};
    uint64_t h = idmap_hash(parts, 2);
    if (idmap_find(&w->seen, h, seen_eq, &k))
        return 1;
    dir_id *id = malloc(sizeof *id);
    if (!id || idmap_put(&w->seen, h, id) != 0) {
        free(id);
        return -1;
    }
    *id = k;
    return 0;
}

static void seen_free(walk *w)
{
    for (size_t i = 0; i < w->seen.cap; i++)
        free(w->seen.slots[i].item);
    idmap_free(&w->seen);
}

/* Tells the caller that `key` could not be examined (errno e). */
static void report_unlisted(walk *w, const char *key, int e)
{
    char why[160];
    if (e == ENOENT)   /* stat found nothing where readdir saw a link */
        snprintf(why, sizeof why, "not read: a symbolic link to nothing");
    else
        snprintf(why, sizeof why, "cannot list: %s; what lies below is skipped", strerror(e));
    source_entry se = {key, 0, 0, "", why};
    if (w->cb(w->ud, &se))
        w->stopped = 1;
}

static int walk_dir(walk *w, const char *relkey, int depth, sm_err *err);

/* Walks the subdirectory item (at key) unless pruned or walked before. */
static int walk_sub(walk *w, const dir_item *item, const char *key, int depth, sm_err *err)
{
    if (depth >= LOCAL_MAX_DEPTH || dir_pruned(key, w->prefix, w->after))
        return 0;
    struct stat st = {.st_dev = item->dev, .st_ino = item->ino};
    char path[4096];
    if (!item->have_id) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s", w->sl->root, key) >= sizeof path)
            return 0;   /* deeper than any real profiler-output tree */
        if (stat(path, &st) != 0) {
            if (errno != ENOENT)   /* a folder that vanished held nothing to read */
                report_unlisted(w, key, errno);
            return 0;
        }
    }
    int seen = seen_before(w, st.st_dev, st.st_ino);
    if (seen < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory while listing %s", key);
    return seen ? 0 : walk_dir(w, key, depth + 1, err);
}

static int walk_dir(walk *w, const char *relkey, int depth, sm_err *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", w->sl->root, relkey) >= sizeof path)
        return 0;   /* deeper than any real profiler-output tree */
    dir_item *items = NULL;
    size_t n = 0;
    DIR *dir = opendir(path);
    struct stat dst;
    dir_cache *c = NULL;
    int rd = -1;
    if (dir && fstat(dirfd(dir), &dst) == 0) {
        c = cache_find(w->sl, relkey, &dst);
        rd = c ? 0 : read_sorted_dir(dir, path, &items, &n);
        if (rd == 0 && !c && cacheable(items, n, &dst.st_mtim) &&
            (c = cache_put(w->sl, relkey, &dst, items, n))) {
            free_items(items, n);
            items = NULL;
            n = 0;
        }
    }
    if (rd != 0) {
        int e = errno;
        if (dir)
            closedir(dir);
        free_items(items, n);
        errno = e;
        if (errno == ENOENT && depth == 0)
            return 0;
        if (depth == 0 || errno == ENOMEM)
            return sm_err_set(err, errno == ENOMEM ? SM_ERR_NOMEM : SM_ERR_IO,
                              "cannot list %s: %s", path, strerror(errno));
        if (errno != ENOENT)   /* a folder that vanished held nothing to read */
            report_unlisted(w, relkey, errno);
        return 0;
    }
    dir_view v = {items, c, c ? c->n : n};   /* read now or kept, not both */
    if (c) {
        c->busy = 1;
        c->used = w->sl->listings;
    }
    int rc = 0;
    for (size_t i = first_wanted(&v, relkey, w->after); i < v.n && !w->stopped && rc == 0;
         i++) {
        dir_item item = view_item(&v, i);
        char key[4096];
        if (atomic_load(&w->sl->cancelled)) {
            rc = sm_err_set(err, SM_ERR_IO, "listing %s cancelled", w->sl->root);
            break;
        }
        if ((size_t)snprintf(key, sizeof key, "%s%s", relkey, item.name) >= sizeof key)
            continue;
        if (item.is_dir) {
            rc = walk_sub(w, &item, key, depth, err);
            continue;
        }
        if (item.err) {   /* a file or a folder: said unless out of range */
            if (!dir_pruned(key, w->prefix, w->after))
                report_unlisted(w, key, item.err);
            continue;
        }
        if (!file_wanted(key, w->prefix, w->after))
            continue;
        struct stat st;
        if (fstatat(dirfd(dir), item.name, &st, 0) != 0)
            continue;
        char etag[32];
        snprintf(etag, sizeof etag, "%" PRIx64, (uint64_t)st.st_ino);
        source_entry e = {key, (int64_t)st.st_size,
                          (int64_t)st.st_mtim.tv_sec * 1000000 + st.st_mtim.tv_nsec / 1000,
                          etag, NULL};
        if (w->cb(w->ud, &e))
            w->stopped = 1;
    }
    closedir(dir);
    if (c)
        c->busy = 0;
    free_items(items, n);
    return rc;
}

static int local_list(source *s, const char *prefix, const char *start_after,
                      source_list_cb cb, void *ud, sm_err *err)
{
    walk w = {(source_local *)s, prefix ? prefix : "", start_after ? start_after : "",
              cb, ud, 0, {0}};
    pthread_mutex_lock(&w.sl->list_mu);
    w.sl->listings++;
    idmap_init(&w.seen);
    struct stat st;
    int rc = 0;
    if (stat(w.sl->root, &st) == 0 && seen_before(&w, st.st_dev, st.st_ino) < 0)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory while listing %s", w.sl->root);
    if (rc == 0)
        rc = walk_dir(&w, "", 0, err);
    seen_free(&w);
    pthread_mutex_unlock(&w.sl->list_mu);
    return rc;
}

static rbuf take_buf(source_local *sl)
{
    rbuf b = {NULL, 0};
    pthread_mutex_lock(&sl->mu);
    if (sl->nspare)
        b = sl->spare[--sl->nspare];
    pthread_mutex_unlock(&sl->mu);
    return b;
}

static void give_buf(source_local *sl, rbuf b)
{
    pthread_mutex_lock(&sl->mu);
    if (sl->nspare < LOCAL_SPARE_BUFS) {
        sl->spare[sl->nspare++] = b;
        b.p = NULL;
    }
    pthread_mutex_unlock(&sl->mu);
    free(b.p);
}

/* Room for need bytes, whose old contents nobody wants (read_range
 * overwrites them): rounded up to 64 KB rather than doubled, since a
 * fetch-ahead slot keeps its buffer between files of about one size
 * (issue 15); freed, not realloc'd, so nothing is copied. */
static int ensure_cap(rbuf *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    size_t ncap = (need + 0xffff) & ~(size_t)0xffff;
    if (ncap < need)
        ncap = need;   /* wrapped: need is near SIZE_MAX */
    char *nb = malloc(ncap);
    if (!nb)
        return -1;
    free(b->p);
    b->p = nb;
    b->cap = ncap;
    return 0;
}

/* Reads [offset, offset+len) (len < 0: to EOF) into b. */
static int64_t read_range(rbuf *b, int fd, int64_t offset, int64_t len, int64_t size)
{
    int64_t want = len >= 0 ? len : size - offset;
    if (want <= 0)
        return 0;
    if (ensure_cap(b, (size_t)want) != 0) {
        errno = ENOMEM;
        return -1;
    }
    int64_t got = 0;
    while (got < want) {
        ssize_t r = pread(fd, b->p + got, (size_t)(want - got), offset + got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += r;
    }
    return got;
}

/* Opens key's file for reading, its path in path (4096 bytes); -1 with
 * errno set. O_NONBLOCK: opening a FIFO put in the file's place would
 * otherwise wait for a writer forever; the caller refuses it. Regular
 * files ignore the flag. */
static int open_key(const source_local *sl, const char *key, char *path)
{
    if ((size_t)snprintf(path, 4096, "%s/%s", sl->root, key) < 4096)
        return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    errno = ENAMETOOLONG;
    return -1;
}

/* Starts the kernel's readahead of the requested range, so that a disk
 * slower than the decode reads the next files while the pool's few
 * synchronous preads decode these (issue 15, cold cache). Not for
 * anything but a regular file. */
static void local_prefetch(source *s, const source_req *r)
{
    source_local *sl = (source_local *)s;
    char path[4096];
    if (atomic_load(&sl->cancelled))
        return;
    int fd = open_key(sl, r->key, path);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        (void)posix_fadvise(fd, (off_t)r->offset, r->len > 0 ? (off_t)r->len : 0,
                            POSIX_FADV_WILLNEED);
    close(fd);
}

static void fetch_one(source_local *sl, const source_req *r, source_fetch_cb cb,
                      void *ud)
{
    char path[4096];
    sm_err e = {0};
    if (atomic_load(&sl->cancelled)) {
        sm_err_set(&e, SM_ERR_IO, "reading %s cancelled", r->key);
        cb(ud, r, NULL, 0, NULL, &e);
        return;
    }
    int fd = open_key(sl, r->key, path);
    struct stat st;
    int opened = fd >= 0 && fstat(fd, &st) == 0;
    if (!opened || !S_ISREG(st.st_mode)) {
        if (opened)
            sm_err_set(&e, SM_ERR_IO, "cannot read %s: not a regular file", path);
        else
            sm_err_set(&e, errno == ENOENT ? SM_ERR_NOTFOUND : SM_ERR_IO,
                       "cannot read %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        cb(ud, r, NULL, 0, NULL, &e);
        return;
    }
    char etag[32];
    snprintf(etag, sizeof etag, "%" PRIx64, (uint64_t)st.st_ino);
    rbuf b = r->buf ? (rbuf){*r->buf, *r->cap} : take_buf(sl);
    int64_t got = read_range(&b, fd, r->offset, r->len, (int64_t)st.st_size);
    close(fd);
    if (r->buf) {   /* grown or not, the buffer stays the caller's */
        *r->buf = b.p;
        *r->cap = b.cap;
    }
    if (got < 0) {
        sm_err_set(&e, SM_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        cb(ud, r, NULL, 0, etag, &e);
    } else {
        cb(ud, r, b.p ? b.p : "", (size_t)got, etag, NULL);
    }
    if (!r->buf)
        give_buf(sl, b);
}

static int local_fetch(source *s, const source_req *reqs, size_t n,
                       source_fetch_cb cb, void *ud, sm_err *err)
{
    (void)err;
    for (size_t i = 0; i < n; i++)
        fetch_one((source_local *)s, &reqs[i], cb, ud);
    return 0;
}

/* A directory opened before it existed says so until it appears: a
 * mistyped path then reads as one, not as a job that has not started. */
static void local_status(const source *s, char *buf, size_t len)
{
    source_local *sl = (source_local *)s;
    struct stat st;
    if (!atomic_load(&sl->pending))
        return;
    if (stat(sl->root, &st) == 0) {
        atomic_store(&sl->pending, 0);
        return;
    }
    snprintf(buf, len, "%s does not exist (yet): waiting for it", sl->root);
}

static const char *local_describe(const source *s)
{
    return ((const source_local *)s)->root;
}

static void local_free(source *s)
{
    source_local *sl = (source_local *)s;
    free(sl->root);
    for (size_t i = 0; i < sl->nspare; i++)
        free(sl->spare[i].p);
    for (size_t i = 0; i < LOCAL_DIR_CACHE; i++)
        if (sl->dirs[i].relkey)
            cache_drop(&sl->dirs[i]);
    pthread_mutex_destroy(&sl->mu);
    pthread_mutex_destroy(&sl->list_mu);
    free(sl);
}

/* A deep tree on a slow disk (NFS) lists for long: the walk looks at
 * the flag before each entry, a fetch before each file. */
static void local_cancel(source *s, int on)
{
    atomic_store(&((source_local *)s)->cancelled, on);
}

static const source_vtbl local_vtbl = {
    .kind = "local",
    .etag_is_identity = 1,
    .fetch_reentrant = 1,
    .list = local_list,
    .fetch = local_fetch,
    .describe = local_describe,
    .status = local_status,
    .cancel = local_cancel,
    .prefetch = local_prefetch,
    .free = local_free,
};

static source *local_new(const char *dir, sm_err *err)
{
    source_local *sl = calloc(1, sizeof *sl);
    char *root = strdup(dir);
    if (!sl || !root) {
        free(sl);
        free(root);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    }
    size_t len = strlen(root);
    while (len > 1 && root[len - 1] == '/')
        root[--len] = '\0';
    sl->base.vt = &local_vtbl;
    sl->root = root;
    pthread_mutex_init(&sl->mu, NULL);
    pthread_mutex_init(&sl->list_mu, NULL);
    return &sl->base;
}

source *source_local_open(const char *dir, sm_err *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return sm_err_set(err, SM_ERR_NOTFOUND, "%s: %s", dir, strerror(errno)), NULL;
    if (!S_ISDIR(st.st_mode))
        return sm_err_set(err, SM_ERR_NOTFOUND, "%s is not a directory", dir), NULL;
    if (access(dir, R_OK | X_OK) != 0)
        return sm_err_set(err, SM_ERR_DENIED, "%s: %s", dir, strerror(errno)), NULL;
    return local_new(dir, err);
}

/* The directory holding dir (dir without its last component). */
static void parent_of(const char *dir, char *out, size_t cap)
{
    snprintf(out, cap, "%s", dir);
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/')
        out[--n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == out)
        out[1] = '\0';
    else
        *slash = '\0';
}

source *source_local_open_pending(const char *dir, sm_err *err)
{
    struct stat st;
    if (stat(dir, &st) == 0 || errno != ENOENT)
        return source_local_open(dir, err);
    char parent[4096];
    parent_of(dir, parent, sizeof parent);
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return sm_err_set(err, SM_ERR_NOTFOUND, "%s does not exist, nor does %s: "
                          "check the path", dir, parent), NULL;
    source *s = local_new(dir, err);
    if (s)
        atomic_store(&((source_local *)s)->pending, 1);
    return s;
}
