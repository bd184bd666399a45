/* list_cache: cached S3 listing; see list_cache.h. */
#include "io/source/list_cache.h"
#include "model/util/vec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_MAGIC "SMLIST1\n"
#define LIST_VERSION "listing-v1"

typedef struct lc_item {
    char *key, *etag;
    int64_t size, mtime_us;
} lc_item;

typedef struct lc_vec {
    lc_item *v;
    size_t n, cap;
} lc_vec;

struct list_cache {
    cache *c;
    char *id;          /* the cache entry's "bucket": endpoint and bucket */
    char *root;
    lc_vec have;       /* sorted by key, byte order */
    lc_vec fresh;      /* the real listing in progress */
    int serving, dirty;
};

static void item_free(lc_item *it)
{
    free(it->key);
    free(it->etag);
}

static void items_clear(lc_vec *v)
{
    for (size_t i = 0; i < v->n; i++)
        item_free(&v->v[i]);
    v->n = 0;
}

static int items_push(lc_vec *v, const char *key, const char *etag, int64_t size,
                      int64_t mtime_us)
{
    if (vec_grow(&v->v, &v->cap, v->n + 1, sizeof *v->v, 256) != 0)
        return -1;
    lc_item it = {strdup(key), strdup(etag ? etag : ""), size, mtime_us};
    if (!it.key || !it.etag) {
        item_free(&it);
        return -1;
    }
    v->v[v->n++] = it;
    return 0;
}

/* Parses the stored form: magic, then key\0etag\0size\0mtime\0 per entry
 * in key order. Anything malformed leaves the listing empty (a miss). */
static void lc_parse(list_cache *lc, const char *buf, size_t n)
{
    const char *p = buf + 8, *end = buf + n;
    if (n < 8 || memcmp(buf, LIST_MAGIC, 8))
        return;
    while (p < end) {
        const char *f[4];
        for (int k = 0; k < 4; k++) {
            const char *z = memchr(p, '\0', (size_t)(end - p));
            if (!z) {
                items_clear(&lc->have);
                return;
            }
            f[k] = p;
            p = z + 1;
        }
        if ((lc->have.n && strcmp(lc->have.v[lc->have.n - 1].key, f[0]) >= 0) ||
            items_push(&lc->have, f[0], f[1], strtoll(f[2], NULL, 10),
                       strtoll(f[3], NULL, 10)) != 0) {
            items_clear(&lc->have);
            return;
        }
    }
}

list_cache *list_cache_open(cache *c, const char *endpoint, const char *bucket,
                            const char *root, int serve)
{
    list_cache *lc = calloc(1, sizeof *lc);
    char *id = NULL;
    void *data = NULL;
    size_t len = 0;
    if (!lc || asprintf(&id, "\001listing %s %s", endpoint, bucket) < 0 ||
        !(lc->root = strdup(root))) {
        free(lc);
        return NULL;
    }
    lc->id = id;
    lc->c = c;
    if (c && cache_get(c, lc->id, root, LIST_VERSION, &data, &len) == 1) {
        lc_parse(lc, data, len);
        lc->serving = serve && lc->have.n > 0;
    }
    free(data);
    return lc;
}

void list_cache_free(list_cache *lc)
{
    if (!lc)
        return;
    items_clear(&lc->have);
    items_clear(&lc->fresh);
    free(lc->have.v);
    free(lc->fresh.v);
    free(lc->id);
    free(lc->root);
    free(lc);
}

int list_cache_serving(const list_cache *lc) { return lc && lc->serving; }

/* First index whose key sorts after `after` (or at/after prefix). */
static size_t lc_lower(const lc_vec *v, const char *prefix, const char *after)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *k = v->v[mid].key;
        int before = (after && *after) ? strcmp(k, after) <= 0 : 0;
        if (!before && prefix && strcmp(k, prefix) < 0)
            before = 1;
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int has_prefix(const char *k, const char *prefix)
{
    return !prefix || !strncmp(k, prefix, strlen(prefix));
}

int list_cache_list(const list_cache *lc, const char *prefix, const char *start_after,
                    int (*put)(void *pud, const source_entry *e), void *pud,
                    source_list_cb cb, void *ud)
{
    for (size_t i = lc_lower(&lc->have, prefix, start_after); i < lc->have.n; i++) {
        const lc_item *it = &lc->have.v[i];
        if (!has_prefix(it->key, prefix))
            break;
        source_entry e = {it->key, it->size, it->mtime_us, it->etag, NULL};
        if (put(pud, &e) != 0)
            return -1;
        if (cb(ud, &e))
            break;
    }
    return 0;
}

int list_cache_note(list_cache *lc, const source_entry *e)
{
    return items_push(&lc->fresh, e->key, e->etag, e->size, e->mtime_us);
}

static int item_same(const lc_item *a, const lc_item *b)
{
    return !strcmp(a->key, b->key) && !strcmp(a->etag, b->etag) && a->size == b->size;
}

/* Replaces have[lo, hi) by the fresh listing (both in key order). */
static int lc_splice(list_cache *lc, size_t lo, size_t hi)
{
    lc_vec *h = &lc->have, *f = &lc->fresh;
    int same = hi - lo == f->n;
    for (size_t i = 0; same && i < f->n; i++)
        same = item_same(&h->v[lo + i], &f->v[i]);
    if (same) {
        items_clear(f);
        return 0;
    }
    size_t n = h->n - (hi - lo) + f->n;
    lc_item *nv = malloc((n ? n : 1) * sizeof *nv);
    if (!nv)
        return -1;
    for (size_t i = lo; i < hi; i++)
        item_free(&h->v[i]);
    /* either vector may still be empty (NULL): memcpy must not see it */
    if (lo)
        memcpy(nv, h->v, lo * sizeof *nv);
    if (f->n)
        memcpy(nv + lo, f->v, f->n * sizeof *nv);
    if (h->n > hi)
        memcpy(nv + lo + f->n, h->v + hi, (h->n - hi) * sizeof *nv);
    free(h->v);
    h->v = nv;
    h->n = h->cap = n;
    f->n = 0; /* the strings moved into have */
    lc->dirty = 1;
    return 0;
}

int list_cache_settle(list_cache *lc, const char *prefix, const char *start_after,
                      int complete)
{
    lc_vec *h = &lc->have;
    if (complete < 0) {
        items_clear(&lc->fresh);
        return 0;
    }
    size_t lo = lc_lower(h, prefix, start_after), hi = lo;
    const char *last = lc->fresh.n ? lc->fresh.v[lc->fresh.n - 1].key : NULL;
    while (hi < h->n && has_prefix(h->v[hi].key, prefix) &&
           (complete || (last && strcmp(h->v[hi].key, last) <= 0)))
        hi++;
    if (!complete && !last)
        return 0;
    return lc_splice(lc, lo, hi);
}

static char *lc_serialize(const list_cache *lc, size_t *len)
{
    size_t cap = 8;
    for (size_t i = 0; i < lc->have.n; i++)
        cap += strlen(lc->have.v[i].key) + strlen(lc->have.v[i].etag) + 2 + 44;
    char *buf = malloc(cap), *p = buf;
    if (!buf)
        return NULL;
    memcpy(p, LIST_MAGIC, 8);
    p += 8;
    for (size_t i = 0; i < lc->have.n; i++) {
        const lc_item *it = &lc->have.v[i];
        p += sprintf(p, "%s", it->key) + 1;
        p += sprintf(p, "%s", it->etag) + 1;
        p += sprintf(p, "%" PRId64, it->size) + 1;
        p += sprintf(p, "%" PRId64, it->mtime_us) + 1;
    }
    *len = (size_t)(p - buf);
    return buf;
}

int list_cache_pass_end(list_cache *lc, sm_err *err)
{
    int served = lc->serving;
    lc->serving = 0;
    if (!lc->dirty || !lc->c)
        return served;
    size_t len;
    char *buf = lc_serialize(lc, &len);
    if (!buf)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = cache_put(lc->c, lc->id, lc->root, LIST_VERSION, buf, len, err);
    free(buf);
    if (rc != 0)
        return -1;
    lc->dirty = 0;
    return served;
}
