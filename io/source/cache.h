/* cache: zstd-compressed on-disk copies of S3 objects, keyed by bucket,
 * key and ETag, so reopening a finished job costs almost no transfer.
 *
 * Location: $XDG_CACHE_HOME/smtop/ (fallback ~/.cache/smtop/), mode 0700.
 * One entry per bucket+key, named by a 128-bit hash of both (32 hex
 * digits + ".zst"), so no key ("../x", "/etc/passwd", odd bytes) can name
 * a path outside the directory; the entry stores bucket, key and ETag and
 * a lookup only hits when all three match. Writes go to a temp file and
 * are renamed into place (readers never see half an entry). Corruption is
 * detected by the zstd frame checksum plus the stored length; a corrupt
 * entry is deleted and reported as a miss. Size is bounded with LRU
 * eviction by access time (hits touch the entry's mtime). */
#ifndef SMTOP_CACHE_H
#define SMTOP_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

typedef struct cache cache;

typedef struct cache_stats {
    int64_t hits, misses, puts, corrupt_dropped, evicted;
    int64_t bytes;        /* approximate size on disk */
} cache_stats;

/* dir NULL = the default location. max_bytes <= 0 = 1 GiB. Creates the
 * directory. NULL with err (SM_ERR_IO) when it cannot be created, or
 * (SM_ERR_DENIED, saying what to do) when it is not owned by this user or
 * is writable by group or others: entries planted there would be
 * trusted. */
cache *cache_open(const char *dir, int64_t max_bytes, sm_err *err);
void cache_free(cache *c);

/* 1 on a hit: *data (caller frees) / *len hold the object; 0 on a miss
 * (including a corrupt entry, which is removed). */
int cache_get(cache *c, const char *bucket, const char *key, const char *etag,
              void **data, size_t *len);

/* Stores (replacing an older version of the same key). 0, or -1 with err;
 * a failed put leaves no temp file behind. */
int cache_put(cache *c, const char *bucket, const char *key, const char *etag,
              const void *data, size_t len, sm_err *err);

/* The entry path for bucket+key (whether or not it exists). Returns out. */
char *cache_entry_path(const cache *c, const char *bucket, const char *key,
                       char *out, size_t cap);
const char *cache_dir(const cache *c);
void cache_get_stats(const cache *c, cache_stats *out);

#endif
