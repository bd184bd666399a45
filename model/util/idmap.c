/* idmap: linear probing, load factor <= 1/2, never shrinks (the model
 * never removes series, nodes or phases). */
#include "model/util/idmap.h"

#include <stdlib.h>
#include <string.h>
#include "model/util/fnv.h"

void idmap_init(idmap *m)
{
    memset(m, 0, sizeof *m);
}

void idmap_free(idmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Loads the last n (< 8) bytes without a per-byte loop. */
static uint64_t load_tail(const unsigned char *p, size_t n)
{
    uint64_t w = 0;
    uint32_t a;
    uint16_t b;
    size_t i = 0;
    if (n & 4) {
        memcpy(&a, p, 4);
        w = a;
        i = 4;
    }
    if (n & 2) {
        memcpy(&b, p + i, 2);
        w |= (uint64_t)b << (i * 8);
        i += 2;
    }
    if (n & 1)
        w |= (uint64_t)p[i] << (i * 8);
    return w;
}

uint64_t idmap_hash(const sm_str *parts, size_t nparts)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t k = 0; k < nparts; k++) {
        const unsigned char *p = (const unsigned char *)parts[k].ptr;
        size_t n = parts[k].len, i = 0;
        h = fnv_add_u64(h, n);
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
            h ^= h >> 29;
        }
        h = (h ^ load_tail(p + i, n - i)) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return mix(h);
}

void *idmap_find(const idmap *m, uint64_t hash, idmap_eq_fn eq, const void *key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const idmap_slot *s = &m->slots[i];
        if (!s->item)
            return NULL;
        if (s->hash == hash && eq(s->item, key))
            return s->item;
    }
}

static void place(idmap_slot *slots, size_t cap, uint64_t hash, void *item)
{
    size_t i = hash & (cap - 1);
    while (slots[i].item)
        i = (i + 1) & (cap - 1);
    slots[i].hash = hash;
    slots[i].item = item;
}

int idmap_reserve(idmap *m, size_t extra)
{
    size_t need = (m->len + extra) * 2, cap = m->cap ? m->cap : 16;
    while (cap < need)
        cap *= 2;
    if (cap == m->cap)
        return 0;
    idmap_slot *ns = calloc(cap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].item)
            place(ns, cap, m->slots[i].hash, m->slots[i].item);
    free(m->slots);
    m->slots = ns;
    m->cap = cap;
    return 0;
}

int idmap_put(idmap *m, uint64_t hash, void *item)
{
    if (idmap_reserve(m, 1) != 0)
        return -1;
    place(m->slots, m->cap, hash, item);
    m->len++;
    return 0;
}
