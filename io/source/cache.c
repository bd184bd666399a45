/* cache: zstd object cache; see cache.h. */
#include "io/source/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "model/util/fnv.h"

#include "io/source/cache_evict.h"

#define CACHE_MAGIC "SMTOPC1\n"

struct cache {
    char dir[4096];
    int64_t max_bytes;
    unsigned seq;
    cache_stats st;
};

static int cache_mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0700) < 0 && errno != EEXIST) {
            *p = '/';
            return -1;
        }
        *p = '/';
    }
    return (mkdir(path, 0700) < 0 && errno != EEXIST) ? -1 : 0;
}

/* A cache another user can write to could feed us any object under any
 * key (a planted entry is trusted once its header matches), so the
 * directory must be ours and closed to others. */
static int cache_check_owner(const char *dir, sm_err *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return sm_err_set(err, SM_ERR_IO, "cannot use cache directory %s: %s "
                          "(use --no-cache to run without it)", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sm_err_set(err, SM_ERR_IO, "cache directory %s is not a directory: remove "
                          "it, set XDG_CACHE_HOME elsewhere, or use --no-cache", dir);
    if (st.st_uid != geteuid())
        return sm_err_set(err, SM_ERR_DENIED, "cache directory %s belongs to uid %u, not "
                          "to you (uid %u): refusing to use it; remove it, set "
                          "XDG_CACHE_HOME to a directory of yours, or use --no-cache",
                          dir, (unsigned)st.st_uid, (unsigned)geteuid());
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return sm_err_set(err, SM_ERR_DENIED, "cache directory %s is writable by others "
                          "(mode %04o): refusing to use it; `chmod go-w %s` (or 700), "
                          "or use --no-cache", dir, (unsigned)(st.st_mode & 07777), dir);
    return 0;
}

cache *cache_open(const char *dir, int64_t max_bytes, sm_err *err)
{
    cache *c = calloc(1, sizeof *c);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (!c) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (dir)
        snprintf(c->dir, sizeof c->dir, "%s", dir);
    else if (xdg && xdg[0] == '/')
        snprintf(c->dir, sizeof c->dir, "%s/smtop", xdg);
    else if (home && *home)
        snprintf(c->dir, sizeof c->dir, "%s/.cache/smtop", home);
    else
        snprintf(c->dir, sizeof c->dir, "/tmp/smtop-cache-%u", (unsigned)getuid());
    c->max_bytes = max_bytes > 0 ? max_bytes : (1LL << 30);
    if (cache_mkdirs(c->dir) < 0) {
        sm_err_set(err, SM_ERR_IO, "cannot create cache directory %s: %s "
                   "(use --no-cache to run without it)", c->dir, strerror(errno));
        free(c);
        return NULL;
    }
    if (cache_check_owner(c->dir, err) != 0) {
        free(c);
        return NULL;
    }
    c->st.bytes = cache_evict_dir_size(c->dir);
    return c;
}

void cache_free(cache *c) { free(c); }
const char *cache_dir(const cache *c) { return c->dir; }
void cache_get_stats(const cache *c, cache_stats *out) { *out = c->st; }

char *cache_entry_path(const cache *c, const char *bucket, const char *key,
                       char *out, size_t cap)
{
    /* Two independently seeded 64-bit FNV-1a hashes over bucket NUL key:
     * only hex digits reach the file name. */
    uint64_t a = fnv_add(FNV_SEED, bucket, strlen(bucket) + 1);
    uint64_t b = fnv_add(0x84222325cbf29ce4ULL, bucket, strlen(bucket) + 1);
    a = fnv_add(a, key, strlen(key));
    b = fnv_add(b ^ 0x9e3779b97f4a7c15ULL, key, strlen(key));
    snprintf(out, cap, "%s/%016llx%016llx.zst", c->dir, (unsigned long long)a,
             (unsigned long long)b);
    return out;
}

/* Header: magic, u32 id length, "bucket\0key\0etag\0", u64 raw length. */
static char *cache_header(const char *bucket, const char *key,
                          const char *etag, uint64_t len, size_t *hlen)
{
    size_t idlen = strlen(bucket) + strlen(key) + strlen(etag) + 3;
    uint32_t il = (uint32_t)idlen;
    char *h = malloc(8 + 4 + idlen + 8), *p = h;
    if (!h)
        return NULL;
    memcpy(p, CACHE_MAGIC, 8);
    memcpy(p + 8, &il, 4);
    p += 12;
    p += sprintf(p, "%s", bucket) + 1;
    p += sprintf(p, "%s", key) + 1;
    p += sprintf(p, "%s", etag) + 1;
    memcpy(p, &len, 8);
    *hlen = 8 + 4 + idlen + 8;
    return h;
}

static void *cache_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    struct stat sb;
    char *buf = NULL;
    if (!f)
        return NULL;
    if (fstat(fileno(f), &sb) == 0 && sb.st_size > 0 &&
        (buf = malloc((size_t)sb.st_size)) &&
        fread(buf, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
        free(buf);
        buf = NULL;
    }
    *n = buf ? (size_t)sb.st_size : 0;
    fclose(f);
    return buf;
}

/* 1 hit, 0 other version or absent, -1 corrupt. */
static int cache_decode(const char *buf, size_t n, const char *bucket,
                        const char *key, const char *etag, void **data,
                        size_t *len)
{
    uint64_t raw;
    size_t hlen;
    char *want = cache_header(bucket, key, etag, 0, &hlen);
    int rc = -1;
    if (!want)
        return 0;
    if (n < 12 || memcmp(buf, CACHE_MAGIC, 8))
        goto out;
    rc = 0;
    if (n < hlen || memcmp(buf, want, hlen - 8))
        goto out; /* another version of the key, or a hash collision */
    rc = -1;
    memcpy(&raw, buf + hlen - 8, 8);
    unsigned long long fsz = ZSTD_getFrameContentSize(buf + hlen, n - hlen);
    if (fsz != raw || raw > (1ULL << 34))
        goto out;
    *data = malloc(raw ? raw : 1);
    size_t got = *data ? ZSTD_decompress(*data, raw, buf + hlen, n - hlen) : 0;
    if (!*data || ZSTD_isError(got) || got != raw) {
        free(*data);
        *data = NULL;
        goto out;
    }
    *len = raw;
    rc = 1;
out:
    free(want);
    return rc;
}

int cache_get(cache *c, const char *bucket, const char *key, const char *etag,
              void **data, size_t *len)
{
    char path[4200];
    size_t n;
    char *buf;
    int rc;
    *data = NULL;
    *len = 0;
    cache_entry_path(c, bucket, key, path, sizeof path);
    if (!(buf = cache_read_file(path, &n))) {
        c->st.misses++;
        return 0;
    }
    rc = cache_decode(buf, n, bucket, key, etag, data, len);
    free(buf);
    if (rc < 0) {
        unlink(path);
        c->st.corrupt_dropped++;
        c->st.bytes -= (int64_t)n;
    }
    if (rc == 1) {
        utimensat(AT_FDCWD, path, NULL, 0); /* LRU: mark as recently used */
        c->st.hits++;
        return 1;
    }
    c->st.misses++;
    return 0;
}

static int cache_write_tmp(int fd, const char *h, size_t hl, const void *z,
                           size_t zl)
{
    return write(fd, h, hl) == (ssize_t)hl && write(fd, z, zl) == (ssize_t)zl
               ? 0 : -1;
}

int cache_put(cache *c, const char *bucket, const char *key, const char *etag,
              const void *data, size_t len, sm_err *err)
{
    char path[4200], tmp[4300];
    size_t hl, zcap = ZSTD_compressBound(len), zl;
    char *h = cache_header(bucket, key, etag, len, &hl);
    void *z = malloc(zcap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    int fd = -1, rc = -1;
    if (!h || !z || !cc) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto out;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    zl = ZSTD_compress2(cc, z, zcap, data, len);
    cache_entry_path(c, bucket, key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s/.tmp-%d-%u", c->dir, (int)getpid(), c->seq++);
    if (ZSTD_isError(zl) ||
        (fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0 ||
        cache_write_tmp(fd, h, hl, z, zl) < 0 || close(fd) < 0 ||
        (fd = -1, rename(tmp, path) < 0)) {
        sm_err_set(err, SM_ERR_IO, "cache write in %s failed: %s", c->dir,
                   strerror(errno));
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        goto out;
    }
    c->st.puts++;
    c->st.bytes += (int64_t)(hl + zl);
    if (c->st.bytes > c->max_bytes) {
        int64_t ev = cache_evict_lru(c->dir, c->max_bytes * 9 / 10, &c->st.bytes);
        c->st.evicted += ev;
    }
    rc = 0;
out:
    ZSTD_freeCCtx(cc);
    free(z);
    free(h);
    return rc;
}
