/* s3_etags: open-addressing hash of key → (ETag, size); see s3_etags.h. */
#include "io/s3/s3_etags.h"

#include <stdlib.h>
#include <string.h>

typedef struct etag_slot {
    char *key;
    char *etag;
    int64_t size;
} etag_slot;

struct s3_etags {
    etag_slot *slots;
    size_t cap, n;     /* cap is a power of two, load kept below 1/2 */
};

static uint64_t etags_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 0x100000001b3ULL;
    }
    return h;
}

s3_etags *s3_etags_new(void)
{
    s3_etags *t = calloc(1, sizeof *t);
    if (t && !(t->slots = calloc(t->cap = 256, sizeof *t->slots))) {
        free(t);
        return NULL;
    }
    return t;
}

void s3_etags_free(s3_etags *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->cap; i++) {
        free(t->slots[i].key);
        free(t->slots[i].etag);
    }
    free(t->slots);
    free(t);
}

static etag_slot *etags_find(etag_slot *slots, size_t cap, const char *key)
{
    size_t i = (size_t)etags_hash(key) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static int etags_grow(s3_etags *t)
{
    size_t cap = t->cap * 2;
    etag_slot *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key)
            *etags_find(s, cap, t->slots[i].key) = t->slots[i];
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    return 0;
}

int s3_etags_put(s3_etags *t, const char *key, const char *etag, int64_t size)
{
    if (t->n * 2 >= t->cap && etags_grow(t) < 0)
        return -1;
    etag_slot *s = etags_find(t->slots, t->cap, key);
    char *e = strdup(etag);
    if (!e)
        return -1;
    if (!s->key) {
        if (!(s->key = strdup(key))) {
            free(e);
            return -1;
        }
        t->n++;
    }
    free(s->etag);
    s->etag = e;
    s->size = size;
    return 0;
}

const char *s3_etags_get(const s3_etags *t, const char *key, int64_t *size)
{
    etag_slot *s = etags_find(t->slots, t->cap, key);
    if (!s->key)
        return NULL;
    if (size)
        *size = s->size;
    return s->etag;
}
