/* list_cache: the last listing of an S3 job, kept in the zstd cache
 * (io/source/cache.h) under endpoint + bucket + prefix, so that a reopened
 * dashboard draws its first frame from the cached listing and cached
 * objects, without waiting for ListObjects.
 *
 * A cached listing can be stale (objects added or replaced since), so it
 * answers only the first pass; the source then lists for real again and
 * tells the scanner that a revalidating pass must follow at once. Every
 * real listing is folded back in (what a range lists replaces what the
 * cache held for that range, so deleted keys go too) and saved at the end
 * of the pass. The cache directory's owner and mode checks (cache_open)
 * cover this entry as they cover objects: a planted listing could only
 * name keys, whose bytes are still fetched by ETag. */
#ifndef SMTOP_LIST_CACHE_H
#define SMTOP_LIST_CACHE_H

#include "io/source/cache.h"
#include "io/source/source.h"

typedef struct list_cache list_cache;

/* Loads what the cache holds for endpoint ("" = AWS), bucket and root
 * (the source's key prefix); it answers the first pass only when serve is
 * set (a dashboard, whose next pass revalidates; not a one-pass report).
 * NULL only when out of memory; an absent or unreadable entry gives an
 * empty list_cache that serves nothing but still records real listings. */
list_cache *list_cache_open(cache *c, const char *endpoint, const char *bucket,
                            const char *root, int serve);
void list_cache_free(list_cache *lc);

/* 1 while the loaded listing answers lists (before the first pass ends). */
int list_cache_serving(const list_cache *lc);

/* Lists as source_vtbl.list does, from the loaded listing; keys are
 * relative to root. Each entry's ETag and size go through put(pud, ...)
 * first (the source's ETag table). 0, or -1 when put failed (OOM). */
int list_cache_list(const list_cache *lc, const char *prefix, const char *start_after,
                    int (*put)(void *pud, const source_entry *e), void *pud,
                    source_list_cb cb, void *ud);

/* Records one entry of a real listing of (prefix, start_after). */
int list_cache_note(list_cache *lc, const source_entry *e);
/* The real listing of (prefix, start_after) ended: complete, or stopped
 * by its callback after the last noted key (0), or failed (-1: what was
 * noted is forgotten). Entries the cache held in the listed range but the
 * listing did not name are dropped. */
int list_cache_settle(list_cache *lc, const char *prefix, const char *start_after,
                      int complete);

/* A pass ended: saves the listing when it changed, and stops serving.
 * Returns 1 when this pass was served from the cache (a real pass should
 * follow at once), else 0. A failed save is described in err (-1). */
int list_cache_pass_end(list_cache *lc, sm_err *err);

#endif
