#include "model/pystats/pystats_pool.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t key_hash(pmap_key k)
{
    uint64_t h = mix64(((uint64_t)k.a << 32) | k.b);
    h = mix64(h ^ k.c ^ ((uint64_t)k.line * 0x9e3779b97f4a7c15ULL));
    return h;
}

static int key_eq(pmap_key x, pmap_key y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c && x.line == y.line;
}

void pystats_map_free(pmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t pystats_map_slot(const pmap *m, pmap_key k)
{
    size_t mask = m->cap - 1, i = (size_t)key_hash(k) & mask;
    while (m->vals[i] != PMAP_NONE && !key_eq(m->keys[i], k))
        i = (i + 1) & mask;
    return i;
}

static int pystats_map_grow(pmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    pmap nm = {malloc(ncap * sizeof *nm.keys), malloc(ncap * sizeof *nm.vals), ncap, m->n};
    if (!nm.keys || !nm.vals) {
        free(nm.keys);
        free(nm.vals);
        return -1;
    }
    memset(nm.vals, 0xff, ncap * sizeof *nm.vals);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == PMAP_NONE)
            continue;
        size_t j = pystats_map_slot(&nm, m->keys[i]);
        nm.keys[j] = m->keys[i];
        nm.vals[j] = m->vals[i];
    }
    pystats_map_free(m);
    *m = nm;
    return 0;
}

int pystats_map_put(pmap *m, pmap_key k, uint32_t v, uint32_t *out, int *added)
{
    /* Load factor <= 1/2 keeps linear probing short. */
    if ((m->n + 1) * 2 > m->cap && pystats_map_grow(m) < 0)
        return -1;
    size_t i = pystats_map_slot(m, k);
    *added = m->vals[i] == PMAP_NONE;
    if (*added) {
        m->keys[i] = k;
        m->vals[i] = v;
        m->n++;
    }
    *out = m->vals[i];
    return 0;
}

/* ---- string pool ---- */

/* The maps hold ids as tokens: id + 1, so that no item is NULL. */
static void *id_token(size_t id)
{
    return (void *)(uintptr_t)(id + 1);
}

static uint32_t token_id(const void *item)
{
    return (uint32_t)((uintptr_t)item - 1);
}

static uint64_t str_hash(const char *s, size_t len)
{
    sm_str part = {s, len};
    return idmap_hash(&part, 1);
}

void pystats_pool_free(pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->str[i]);
    free(p->str);
    free(p->len);
    idmap_free(&p->ids);
    memset(p, 0, sizeof *p);
}

typedef struct pool_key {
    const pool *p;
    const char *s;
    size_t len;
} pool_key;

static int pystats_pool_eq(const void *item, const void *key)
{
    const pool_key *k = key;
    uint32_t id = token_id(item);
    return k->p->len[id] == k->len && (k->len == 0 || memcmp(k->p->str[id], k->s, k->len) == 0);
}

static int pystats_pool_reserve(pool *p)
{
    if (idmap_reserve(&p->ids, 1) < 0)
        return -1;
    if (p->n < p->cap)
        return 0;
    size_t nc = p->cap ? p->cap * 2 : 64;
    char **s = realloc(p->str, nc * sizeof *s);
    if (!s)
        return -1;
    p->str = s;
    size_t *l = realloc(p->len, nc * sizeof *l);
    if (!l)
        return -1;
    p->len = l;
    p->cap = nc;
    return 0;
}

int pystats_pool_intern(pool *p, const char *s, size_t len, uint32_t *id)
{
    if (p->n >= PMAP_NONE - 1 || pystats_pool_reserve(p) < 0)
        return -1;
    uint64_t h = str_hash(s, len);
    pool_key k = {p, s, len};
    const void *found = idmap_find(&p->ids, h, pystats_pool_eq, &k);
    if (found) {
        *id = token_id(found);
        return 0;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    if (len)
        memcpy(copy, s, len);
    copy[len] = '\0';
    p->str[p->n] = copy;
    p->len[p->n] = len;
    idmap_put(&p->ids, h, id_token(p->n));   /* reserved above: cannot fail */
    *id = (uint32_t)p->n++;
    return 0;
}

/* ---- function keys ---- */

void pystats_keys_free(pkeys *k)
{
    free(k->file);
    free(k->name);
    free(k->line);
    idmap_free(&k->ids);
    memset(k, 0, sizeof *k);
}

static uint64_t fkey_hash(sm_str file, int64_t line, sm_str name)
{
    sm_str parts[2] = {file, name};
    return mix64(idmap_hash(parts, 2) ^ (uint64_t)line);
}

typedef struct fkey {
    const pkeys *k;
    const pool *p;
    sm_str file, name;
    int64_t line;
} fkey;

static int fkey_eq(const void *item, const void *key)
{
    const fkey *q = key;
    const pkeys *k = q->k;
    const pool *p = q->p;
    uint32_t id = token_id(item), fi = k->file[id], ni = k->name[id];
    return k->line[id] == q->line && p->len[fi] == q->file.len && p->len[ni] == q->name.len &&
           (q->file.len == 0 || memcmp(p->str[fi], q->file.ptr, q->file.len) == 0) &&
           (q->name.len == 0 || memcmp(p->str[ni], q->name.ptr, q->name.len) == 0);
}

static int pystats_keys_reserve(pkeys *k)
{
    if (idmap_reserve(&k->ids, 1) < 0)
        return -1;
    if (k->n < k->cap)
        return 0;
    size_t nc = k->cap ? k->cap * 2 : 256;
    uint32_t *f = realloc(k->file, nc * sizeof *f);
    if (!f)
        return -1;
    k->file = f;
    uint32_t *n = realloc(k->name, nc * sizeof *n);
    if (!n)
        return -1;
    k->name = n;
    int64_t *l = realloc(k->line, nc * sizeof *l);
    if (!l)
        return -1;
    k->line = l;
    k->cap = nc;
    return 0;
}

int pystats_keys_intern(pkeys *k, pool *p, sm_str file, int64_t line, sm_str name, uint32_t *id)
{
    if (k->n >= PMAP_NONE - 1 || pystats_keys_reserve(k) < 0)
        return -1;
    uint64_t h = fkey_hash(file, line, name);
    fkey q = {k, p, file, name, line};
    const void *found = idmap_find(&k->ids, h, fkey_eq, &q);
    if (found) {
        *id = token_id(found);
        return 0;
    }
    uint32_t fi, ni;
    if (pystats_pool_intern(p, file.ptr, file.len, &fi) < 0 || pystats_pool_intern(p, name.ptr, name.len, &ni) < 0)
        return -1;
    k->file[k->n] = fi;
    k->name[k->n] = ni;
    k->line[k->n] = line;
    idmap_put(&k->ids, h, id_token(k->n));   /* reserved above: cannot fail */
    *id = (uint32_t)k->n++;
    return 0;
}
