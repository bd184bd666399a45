#include "io/scan/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/fnv.h"
#include "model/util/idmap.h"

#define MIN_CAP 256

struct catalog {
    cat_entry **slots;
    size_t cap, count;
    uint64_t next_id;
    idmap names;        /* interned node and process names (char *) */
    char **name_v;      /* the same, to free */
    size_t nnames, capnames;
};

static uint64_t hash_key(const char *s)
{
    return fnv_add(FNV_SEED, s, strlen(s));
}

catalog *catalog_new(void)
{
    catalog *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->cap = MIN_CAP;
    c->slots = calloc(c->cap, sizeof *c->slots);
    if (!c->slots) {
        free(c);
        return NULL;
    }
    idmap_init(&c->names);
    return c;
}

/* Where the ETag the entry was added with sits in its block. */
static char *etag_room(cat_entry *e)
{
    return e->key + strlen(e->key) + 1;
}

static void etag_free(cat_entry *e)
{
    if (e->etag && e->etag != etag_room(e))
        free(e->etag);
    e->etag = NULL;
}

static void entry_free(cat_entry *e)
{
    etag_free(e);
    decoder_lines_free(e->rd);
    free(e);
}

void catalog_free(catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i])
            entry_free(c->slots[i]);
    free(c->slots);
    for (size_t i = 0; i < c->nnames; i++)
        free(c->name_v[i]);
    free(c->name_v);
    idmap_free(&c->names);
    free(c);
}

static int same_name(const void *item, const void *key)
{
    return !strcmp(item, key);
}

/* s's copy in c's table of names; NULL on OOM. */
static const char *intern(catalog *c, const char *s)
{
    if (!s[0])
        return "";
    sm_str part = {s, strlen(s)};
    uint64_t h = idmap_hash(&part, 1);
    const char *at = idmap_find(&c->names, h, same_name, s);
    if (at)
        return at;
    if (c->nnames == c->capnames) {
        size_t cap = c->capnames ? c->capnames * 2 : 16;
        char **v = realloc(c->name_v, cap * sizeof *v);
        if (!v)
            return NULL;
        c->name_v = v;
        c->capnames = cap;
    }
    char *copy = strdup(s);
    if (!copy || idmap_put(&c->names, h, copy) != 0) {
        free(copy);
        return NULL;
    }
    c->name_v[c->nnames++] = copy;
    return copy;
}

int catalog_set_info(catalog *c, cat_entry *e, const key_info *ki)
{
    const char *node = intern(c, ki->node), *process = node ? intern(c, ki->process) : NULL;
    if (!process)
        return -1;
    e->ki = (cat_key){ki->kind, ki->tkind, ki->time_us, node, process};
    return 0;
}

void catalog_entry_info(const cat_entry *e, key_info *out)
{
    memset(out, 0, sizeof *out);
    out->kind = e->ki.kind;
    out->tkind = e->ki.tkind;
    out->time_us = e->ki.time_us;
    snprintf(out->node, sizeof out->node, "%s", e->ki.node);
    snprintf(out->process, sizeof out->process, "%s", e->ki.process);
}

int catalog_set_etag(cat_entry *e, const char *etag)
{
    char *room = etag_room(e), *copy = NULL;
    if (e->etag == room && etag && strlen(etag) <= strlen(room) && etag[0]) {
        memmove(room, etag, strlen(etag) + 1);   /* fits where the first one was */
        return 0;
    }
    if (etag && etag[0] && !(copy = strdup(etag)))
        return -1;
    etag_free(e);
    e->etag = copy;
    return 0;
}

static size_t find_slot(cat_entry **slots, size_t cap, const char *key)
{
    size_t i = hash_key(key) & (cap - 1);
    while (slots[i] && strcmp(slots[i]->key, key) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

cat_entry *catalog_get(catalog *c, const char *key)
{
    return c->slots[find_slot(c->slots, c->cap, key)];
}

/* Rehashes the table into ncap slots (a power of two over twice the
 * count); -1 on OOM (the table is unchanged). */
static int resize(catalog *c, size_t ncap)
{
    cat_entry **ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i])
            ns[find_slot(ns, ncap, c->slots[i]->key)] = c->slots[i];
    free(c->slots);
    c->slots = ns;
    c->cap = ncap;
    return 0;
}

cat_entry *catalog_add(catalog *c, const char *key)
{
    return catalog_add_with_etag(c, key, NULL);
}

cat_entry *catalog_add_with_etag(catalog *c, const char *key, const char *etag)
{
    if ((c->count + 1) * 2 > c->cap && resize(c, c->cap * 2) != 0)
        return NULL;
    size_t len = strlen(key), tlen = etag && etag[0] ? strlen(etag) + 1 : 0;
    cat_entry *e = calloc(1, sizeof *e + len + 1 + tlen);
    if (!e)
        return NULL;
    memcpy(e->key, key, len + 1);
    if (tlen)
        e->etag = memcpy(e->key + len + 1, etag, tlen);
    e->whole_size = -1;
    e->ki.node = e->ki.process = "";
    e->id = ++c->next_id;
    c->slots[find_slot(c->slots, c->cap, key)] = e;
    c->count++;
    return e;
}

/* Linear probing: the entries after the freed slot that would no longer
 * be found (their home slot lies cyclically outside (hole, here]) move
 * back into the hole, so lookups need no tombstones. */
void catalog_remove(catalog *c, cat_entry *e)
{
    size_t mask = c->cap - 1, hole = find_slot(c->slots, c->cap, e->key);
    if (c->slots[hole] != e)
        return;
    entry_free(e);
    c->slots[hole] = NULL;
    c->count--;
    for (size_t i = (hole + 1) & mask; c->slots[i]; i = (i + 1) & mask) {
        size_t home = hash_key(c->slots[i]->key) & mask;
        int stays = hole <= i ? hole < home && home <= i : hole < home || home <= i;
        if (stays)
            continue;
        c->slots[hole] = c->slots[i];
        c->slots[i] = NULL;
        hole = i;
    }
    /* A pass over a long history fills the table with every file listed
     * and then forgets most of them (scanner.c): it halves as they go, so
     * it does not stay sized to the whole history (on OOM it stays). */
    if (c->cap > MIN_CAP && c->count * 8 < c->cap)
        (void)resize(c, c->cap / 2);
}

int catalog_retain(catalog *c, int (*keep)(const cat_entry *e, void *ud), void *ud)
{
    size_t kept = 0;
    for (size_t i = 0; i < c->cap; i++)
        kept += c->slots[i] && keep(c->slots[i], ud);
    size_t cap = MIN_CAP;
    while (cap < 2 * kept)
        cap *= 2;
    cat_entry **slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < c->cap; i++) {
        cat_entry *e = c->slots[i];
        if (e && keep(e, ud))
            slots[find_slot(slots, cap, e->key)] = e;
        else if (e)
            entry_free(e);
    }
    free(c->slots);
    c->slots = slots;
    c->cap = cap;
    c->count = kept;
    return 0;
}

size_t catalog_count(const catalog *c)
{
    return c->count;
}

size_t catalog_bytes(const catalog *c)
{
    size_t n = sizeof *c + c->cap * sizeof *c->slots + c->capnames * sizeof *c->name_v;
    for (size_t i = 0; i < c->nnames; i++)
        n += strlen(c->name_v[i]) + 1;
    for (size_t i = 0; i < c->cap; i++) {
        const cat_entry *e = c->slots[i];
        if (e)
            n += sizeof *e + strlen(e->key) + 1 + (e->etag ? strlen(e->etag) + 1 : 0) +
                 decoder_lines_bytes(e->rd);
    }
    return n;
}

cat_entry *catalog_next(catalog *c, size_t *iter)
{
    while (*iter < c->cap) {
        cat_entry *e = c->slots[(*iter)++];
        if (e)
            return e;
    }
    return NULL;
}

void catalog_entry_reset(cat_entry *e)
{
    e->consumed = 0;
    decoder_lines_free(e->rd);
    e->rd = NULL;
    e->whole_size = -1;
}
