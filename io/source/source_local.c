/* source_local: a directory on disk as a source.
 *
 * Listing walks the tree in global key order (entries of a directory are
 * sorted with a '/' appended to directory names, so "a/" and "a.json" come
 * out in the byte order S3 would list them) and prunes whole directories
 * that sort entirely before start_after or outside the prefix, so a scan
 * with a trailing window touches only the newest hour folders. The "ETag"
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
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/source/source.h"
#include "model/idmap.h"

#define LOCAL_MAX_DEPTH 16

typedef struct source_local {
    source base;
    char *root;          /* no trailing slash */
    char *buf;           /* read buffer reused across fetches */
    size_t cap;
    atomic_int cancelled;  /* local_cancel, from another thread */
} source_local;

typedef struct dir_item {
    char *name;          /* with '/' appended for directories */
    int is_dir;
    int err;             /* errno of a failed stat, else 0 */
    dev_t dev;           /* directories: identity, for loop detection */
    ino_t ino;
} dir_item;

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

static int read_sorted_dir(const char *path, dir_item **out, size_t *n)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    dir_item *items = NULL;
    size_t cnt = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char full[4096];
        struct stat st = {0};
        int err = 0;
        if ((size_t)snprintf(full, sizeof full, "%s/%s", path, de->d_name) >= sizeof full)
            continue;   /* deeper than any real profiler-output tree */
        if (stat(full, &st) != 0) {
            err = errno;
            struct stat lst;
            /* vanished between readdir and stat; but a symbolic link to
             * nothing is a name in the tree that cannot be read: said */
            if (err == ENOENT && (lstat(full, &lst) != 0 || !S_ISLNK(lst.st_mode)))
                continue;
        } else if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
            continue;
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
        items[cnt] = (dir_item){name, is_dir, err, st.st_dev, st.st_ino};
        cnt++;
    }
    closedir(d);
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
    int seen = seen_before(w, item->dev, item->ino);
    if (seen < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory while listing %s", key);
    return seen ? 0 : walk_dir(w, key, depth + 1, err);
}

static int walk_dir(walk *w, const char *relkey, int depth, sm_err *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", w->sl->root, relkey) >= sizeof path)
        return 0;   /* deeper than any real profiler-output tree */
    dir_item *items;
    size_t n;
    if (read_sorted_dir(path, &items, &n) != 0) {
        if (errno == ENOENT && depth == 0)
            return 0;
        if (depth == 0 || errno == ENOMEM)
            return sm_err_set(err, errno == ENOMEM ? SM_ERR_NOMEM : SM_ERR_IO,
                              "cannot list %s: %s", path, strerror(errno));
        if (errno != ENOENT)   /* a folder that vanished held nothing to read */
            report_unlisted(w, relkey, errno);
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !w->stopped && rc == 0; i++) {
        char key[4096];
        if (atomic_load(&w->sl->cancelled)) {
            rc = sm_err_set(err, SM_ERR_IO, "listing %s cancelled", w->sl->root);
            break;
        }
        if ((size_t)snprintf(key, sizeof key, "%s%s", relkey, items[i].name) >= sizeof key)
            continue;
        if (items[i].is_dir) {
            rc = walk_sub(w, &items[i], key, depth, err);
            continue;
        }
        if (items[i].err) {   /* a file or a folder: said unless out of range */
            if (!dir_pruned(key, w->prefix, w->after))
                report_unlisted(w, key, items[i].err);
            continue;
        }
        if (!file_wanted(key, w->prefix, w->after))
            continue;
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", w->sl->root, key) >= sizeof path
            || stat(path, &st) != 0)
            continue;
        char etag[32];
        snprintf(etag, sizeof etag, "%" PRIx64, (uint64_t)st.st_ino);
        source_entry e = {key, (int64_t)st.st_size,
                          (int64_t)st.st_mtim.tv_sec * 1000000 + st.st_mtim.tv_nsec / 1000,
                          etag, NULL};
        if (w->cb(w->ud, &e))
            w->stopped = 1;
    }
    free_items(items, n);
    return rc;
}

static int local_list(source *s, const char *prefix, const char *start_after,
                      source_list_cb cb, void *ud, sm_err *err)
{
    walk w = {(source_local *)s, prefix ? prefix : "", start_after ? start_after : "",
              cb, ud, 0, {0}};
    idmap_init(&w.seen);
    struct stat st;
    int rc = 0;
    if (stat(w.sl->root, &st) == 0 && seen_before(&w, st.st_dev, st.st_ino) < 0)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory while listing %s", w.sl->root);
    if (rc == 0)
        rc = walk_dir(&w, "", 0, err);
    seen_free(&w);
    return rc;
}

static int ensure_cap(source_local *sl, size_t need)
{
    if (need <= sl->cap)
        return 0;
    size_t ncap = sl->cap ? sl->cap : 1 << 20;
    while (ncap < need)
        ncap *= 2;
    char *nb = realloc(sl->buf, ncap);
    if (!nb)
        return -1;
    sl->buf = nb;
    sl->cap = ncap;
    return 0;
}

/* Reads [offset, offset+len) (len < 0: to EOF) into sl->buf. */
static int64_t read_range(source_local *sl, int fd, int64_t offset, int64_t len,
                          int64_t size)
{
    int64_t want = len >= 0 ? len : size - offset;
    if (want <= 0)
        return 0;
    if (ensure_cap(sl, (size_t)want) != 0) {
        errno = ENOMEM;
        return -1;
    }
    int64_t got = 0;
    while (got < want) {
        ssize_t r = pread(fd, sl->buf + got, (size_t)(want - got), offset + got);
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

static void fetch_one(source_local *sl, const source_req *r, source_fetch_cb cb,
                      void *ud)
{
    char path[4096];
    sm_err e = {0};
    int fd = -1;
    if (atomic_load(&sl->cancelled)) {
        sm_err_set(&e, SM_ERR_IO, "reading %s cancelled", r->key);
        cb(ud, r, NULL, 0, NULL, &e);
        return;
    }
    /* O_NONBLOCK: opening a FIFO put in the file's place would otherwise
     * wait for a writer forever; it is refused below. Regular files
     * ignore the flag. */
    if ((size_t)snprintf(path, sizeof path, "%s/%s", sl->root, r->key) < sizeof path)
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    else
        errno = ENAMETOOLONG;
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
    int64_t got = read_range(sl, fd, r->offset, r->len, (int64_t)st.st_size);
    close(fd);
    if (got < 0) {
        sm_err_set(&e, SM_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        cb(ud, r, NULL, 0, etag, &e);
        return;
    }
    cb(ud, r, sl->buf, (size_t)got, etag, NULL);
}

static int local_fetch(source *s, const source_req *reqs, size_t n,
                       source_fetch_cb cb, void *ud, sm_err *err)
{
    (void)err;
    for (size_t i = 0; i < n; i++)
        fetch_one((source_local *)s, &reqs[i], cb, ud);
    return 0;
}

static const char *local_describe(const source *s)
{
    return ((const source_local *)s)->root;
}

static void local_free(source *s)
{
    source_local *sl = (source_local *)s;
    free(sl->root);
    free(sl->buf);
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
    .list = local_list,
    .fetch = local_fetch,
    .describe = local_describe,
    .status = NULL,
    .cancel = local_cancel,
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
    return local_new(dir, err);
}
