#include "model/pystats_pool.h"

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

void pmap_free(pmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t pmap_slot(const pmap *m, pmap_key k)
{
    size_t mask = m->cap - 1, i = (size_t)key_hash(k) & mask;
    while (m->vals[i] != PMAP_NONE && !key_eq(m->keys[i], k))
        i = (i + 1) & mask;
    return i;
}

static int pmap_grow(pmap *m)
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
        size_t j = pmap_slot(&nm, m->keys[i]);
        nm.keys[j] = m->keys[i];
        nm.vals[j] = m->vals[i];
    }
    pmap_free(m);
    *m = nm;
    return 0;
}

int pmap_put(pmap *m, pmap_key k, uint32_t v, uint32_t *out, int *added)
{
    /* Load factor <= 1/2 keeps linear probing short. */
    if ((m->n + 1) * 2 > m->cap && pmap_grow(m) < 0)
        return -1;
    size_t i = pmap_slot(m, k);
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

static uint64_t str_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return mix64(h ^ len);
}

void pool_free(pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->str[i]);
    free(p->str);
    free(p->len);
    free(p->slots);
    memset(p, 0, sizeof *p);
}

static size_t pool_slot(const pool *p, const char *s, size_t len, uint64_t h)
{
    size_t mask = p->nslots - 1, i = (size_t)h & mask;
    for (;;) {
        uint32_t id = p->slots[i];
        if (id == PMAP_NONE ||
            (p->len[id] == len && (len == 0 || memcmp(p->str[id], s, len) == 0)))
            return i;
        i = (i + 1) & mask;
    }
}

static int pool_rehash(pool *p)
{
    size_t n = p->nslots ? p->nslots * 2 : 256;
    uint32_t *slots = malloc(n * sizeof *slots);
    if (!slots)
        return -1;
    memset(slots, 0xff, n * sizeof *slots);
    free(p->slots);
    p->slots = slots;
    p->nslots = n;
    for (size_t id = 0; id < p->n; id++) {
        size_t i = pool_slot(p, p->str[id], p->len[id], str_hash(p->str[id], p->len[id]));
        p->slots[i] = (uint32_t)id;
    }
    return 0;
}

static int pool_reserve(pool *p)
{
    if ((p->n + 1) * 2 > p->nslots && pool_rehash(p) < 0)
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

int pool_intern(pool *p, const char *s, size_t len, uint32_t *id)
{
    if (p->n >= PMAP_NONE - 1 || pool_reserve(p) < 0)
        return -1;
    uint64_t h = str_hash(s, len);
    size_t i = pool_slot(p, s, len, h);
    if (p->slots[i] != PMAP_NONE) {
        *id = p->slots[i];
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
    p->slots[i] = (uint32_t)p->n;
    *id = (uint32_t)p->n++;
    return 0;
}

/* ---- function keys ---- */

void pkeys_free(pkeys *k)
{
    free(k->file);
    free(k->name);
    free(k->line);
    free(k->slots);
    memset(k, 0, sizeof *k);
}

static uint64_t fkey_hash(const char *f, size_t fl, int64_t line, const char *n, size_t nl)
{
    return mix64(str_hash(f, fl) ^ (str_hash(n, nl) * 31) ^ (uint64_t)line);
}

static size_t pkeys_slot(const pkeys *k, const pool *p, sm_str file, int64_t line, sm_str name,
                         uint64_t h)
{
    size_t mask = k->nslots - 1, i = (size_t)h & mask;
    for (;;) {
        uint32_t id = k->slots[i];
        if (id == PMAP_NONE)
            return i;
        uint32_t fi = k->file[id], ni = k->name[id];
        if (k->line[id] == line && p->len[fi] == file.len && p->len[ni] == name.len &&
            (file.len == 0 || memcmp(p->str[fi], file.ptr, file.len) == 0) &&
            (name.len == 0 || memcmp(p->str[ni], name.ptr, name.len) == 0))
            return i;
        i = (i + 1) & mask;
    }
}

static int pkeys_reserve(pkeys *k, const pool *p)
{
    if ((k->n + 1) * 2 > k->nslots) {
        size_t ns = k->nslots ? k->nslots * 2 : 256;
        uint32_t *slots = malloc(ns * sizeof *slots);
        if (!slots)
            return -1;
        memset(slots, 0xff, ns * sizeof *slots);
        free(k->slots);
        k->slots = slots;
        k->nslots = ns;
        for (size_t id = 0; id < k->n; id++) {
            sm_str f = {p->str[k->file[id]], p->len[k->file[id]]};
            sm_str n = {p->str[k->name[id]], p->len[k->name[id]]};
            uint64_t h = fkey_hash(f.ptr, f.len, k->line[id], n.ptr, n.len);
            k->slots[pkeys_slot(k, p, f, k->line[id], n, h)] = (uint32_t)id;
        }
    }
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

int pkeys_intern(pkeys *k, pool *p, sm_str file, int64_t line, sm_str name, uint32_t *id)
{
    if (k->n >= PMAP_NONE - 1 || pkeys_reserve(k, p) < 0)
        return -1;
    uint64_t h = fkey_hash(file.ptr, file.len, line, name.ptr, name.len);
    size_t i = pkeys_slot(k, p, file, line, name, h);
    if (k->slots[i] != PMAP_NONE) {
        *id = k->slots[i];
        return 0;
    }
    uint32_t fi, ni;
    if (pool_intern(p, file.ptr, file.len, &fi) < 0 || pool_intern(p, name.ptr, name.len, &ni) < 0)
        return -1;
    k->file[k->n] = fi;
    k->name[k->n] = ni;
    k->line[k->n] = line;
    k->slots[i] = (uint32_t)k->n;
    *id = (uint32_t)k->n++;
    return 0;
}
