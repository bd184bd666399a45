/* idmap: open-addressing hash map from a caller-computed 64-bit hash to an
 * item pointer, with equality decided by a caller callback.
 *
 * The model keys series by (type, dimension, name) slices straight out of
 * the decoder's buffer: hashing the slices and comparing against the
 * item's stored strings avoids building a key string (no allocation, no
 * strlen) on the 1.3 M lines/s ingest path. Hand-written because no small,
 * well-kept C hash-table library is available here and this is ~80 lines. */
#ifndef SMTOP_IDMAP_H
#define SMTOP_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_str.h"

typedef struct idmap_slot {
    uint64_t hash;
    void *item;         /* NULL = empty */
} idmap_slot;

typedef struct idmap {
    idmap_slot *slots;
    size_t cap, len;    /* cap is 0 or a power of two */
} idmap;

typedef int (*idmap_eq_fn)(const void *item, const void *key);

void idmap_init(idmap *m);
void idmap_free(idmap *m);      /* frees the table, not the items */

/* Hash of a sequence of byte strings (lengths mixed in, so ("ab","c")
 * and ("a","bc") differ). */
uint64_t idmap_hash(const sm_str *parts, size_t nparts);

/* The item with this hash for which eq(item, key) != 0, or NULL. */
void *idmap_find(const idmap *m, uint64_t hash, idmap_eq_fn eq, const void *key);

/* Makes room so that the next `extra` puts cannot fail. 0, or -1 on OOM. */
int idmap_reserve(idmap *m, size_t extra);
/* Adds item (not already present). 0, or -1 on OOM (m unchanged). */
int idmap_put(idmap *m, uint64_t hash, void *item);

#endif
