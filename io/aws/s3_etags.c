/* s3_etags: key → (ETag, size) in the shared hash map (model/util/idmap.h),
 * keyed by the FNV-1a hash of the key; see s3_etags.h. */
#include "io/aws/s3_etags.h"

#include <stdlib.h>
#include <string.h>

#include "model/util/fnv.h"
#include "model/util/idmap.h"

typedef struct etag_ent {
    char *key;
    char *etag;
    int64_t size;
} etag_ent;

struct s3_etags {
    idmap map;         /* items: etag_ent (owned) */
};

static int ent_eq(const void *item, const void *key)
{
    return strcmp(((const etag_ent *)item)->key, key) == 0;
}

s3_etags *s3_etags_new(void)
{
    s3_etags *t = calloc(1, sizeof *t);
    if (t)
        idmap_init(&t->map);
    return t;
}

void s3_etags_free(s3_etags *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->map.cap; i++) {
        etag_ent *e = t->map.slots[i].item;
        if (e) {
            free(e->key);
            free(e->etag);
            free(e);
        }
    }
    idmap_free(&t->map);
    free(t);
}

int s3_etags_put(s3_etags *t, const char *key, const char *etag, int64_t size)
{
    uint64_t h = fnv_add_str(FNV_SEED, key);
    etag_ent *e = idmap_find(&t->map, h, ent_eq, key);
    char *copy = strdup(etag);
    if (!copy)
        return -1;
    if (!e) {
        if (idmap_reserve(&t->map, 1) != 0 || !(e = calloc(1, sizeof *e)) ||
            !(e->key = strdup(key))) {
            free(e);
            free(copy);
            return -1;
        }
        idmap_put(&t->map, h, e);   /* cannot fail after the reserve */
    }
    free(e->etag);
    e->etag = copy;
    e->size = size;
    return 0;
}

const char *s3_etags_get(const s3_etags *t, const char *key, int64_t *size)
{
    const etag_ent *e = idmap_find(&t->map, fnv_add_str(FNV_SEED, key), ent_eq, key);
    if (!e)
        return NULL;
    if (size)
        *size = e->size;
    return e->etag;
}
