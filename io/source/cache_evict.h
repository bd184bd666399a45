/* cache_evict: size accounting and LRU eviction for the cache directory
 * (only "*.zst" entries and stale ".tmp-*" files are ever touched). */
#ifndef SMTOP_CACHE_EVICT_H
#define SMTOP_CACHE_EVICT_H

#include <stdint.h>

/* Total bytes of entries in dir (0 when unreadable). */
int64_t cache_evict_dir_size(const char *dir);

/* Deletes least recently used entries (oldest mtime first) until the total
 * is at most target. Stores the new total in *total; returns the number of
 * entries deleted. */
int64_t cache_evict_lru(const char *dir, int64_t target, int64_t *total);

#endif
