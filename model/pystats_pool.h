/* pystats_pool: internals of model/pystats — a string interning pool and a
 * small open-addressing map from (a, b, c, line) to an index. Private to
 * model/pystats*.c. */
#ifndef SMTOP_PYSTATS_POOL_H
#define SMTOP_PYSTATS_POOL_H

#include <stddef.h>
#include <stdint.h>

#define PMAP_NONE UINT32_MAX

typedef struct pmap_key {
    uint32_t a, b, c;
    int64_t line;
} pmap_key;

typedef struct pmap {
    pmap_key *keys;
    uint32_t *vals;     /* PMAP_NONE = empty slot */
    size_t cap, n;      /* cap is 0 or a power of two */
} pmap;

void pmap_free(pmap *m);
/* Looks k up; when absent inserts it with value v. *out receives the stored
 * value, *added 1 when inserted. -1 on OOM (map unchanged). */
int pmap_put(pmap *m, pmap_key k, uint32_t v, uint32_t *out, int *added);
/* Grows the map so that `extra` more puts cannot fail. -1 on OOM. */
int pmap_reserve(pmap *m, size_t extra);
/* PMAP_NONE when absent. */
uint32_t pmap_get(const pmap *m, pmap_key k);

/* Interned strings: ids are dense, strings NUL-terminated copies (data may
 * hold NULs: use the length), never moved or removed until pool_free. */
typedef struct pool {
    char **str;
    size_t *len;
    size_t n, cap;
    uint32_t *slots;    /* hash table of ids, PMAP_NONE = empty */
    size_t nslots;
} pool;

void pool_free(pool *p);
/* Id of the string, interning a copy when new. -1 on OOM. */
int pool_intern(pool *p, const char *s, size_t len, uint32_t *id);

/* ---- the store's private layout, shared by pystats.c and pystats_query.c ---- */

#include "pystats.h"

typedef struct pw_func {
    uint32_t file, name;
    int64_t line;
    pystats_call c;
} pw_func;

typedef struct pw_edge {
    uint32_t callee;        /* index into the window's functions */
    uint32_t file, name;    /* the caller */
    int64_t line;
    pystats_call c;
} pw_edge;

struct pystats_win {
    pystats_store *owner;
    pystats_window info;
    char *key;              /* set by pystats_store_put */
    int failed;
    pw_func *f;
    size_t nf, capf;
    pw_edge *e;
    size_t ne, cape;
    pmap fmap, emap;        /* lookups while building; freed when stored */
};

struct pystats_store {
    pool strs;
    pystats_win **w;        /* sorted by (start_us, node, key) */
    size_t n, cap;
    uint64_t gen;
};

typedef struct m_edge {
    uint32_t callee;        /* merged index */
    uint32_t file, name;
    int64_t line;
    pystats_call c;
} m_edge;

struct pystats_result {
    pystats_func *f;        /* merged, in first-seen order (as pstats' dict) */
    uint32_t *fid, *nid;    /* interned ids of file and name */
    size_t *flen, *nlen;
    size_t nf;
    size_t *order, *rank;   /* sorted position -> merged index, and back */
    pystats_edge *callers, *callees;
    uint32_t *caller_peer, *callee_peer;  /* merged index of each edge's peer */
    size_t *coff, *eoff;    /* per merged function, nf + 1 offsets */
    pystats_window *wins;
    int *wfailed;
    size_t nw, nfailed;
    pystats_call total;
};

/* Sorts r->order by key and refreshes ranks and edge peer indices. */
void pystats_result_sort(pystats_result *r, pystats_sort key);

/* a + b clamped to the int64 range (pstats sums Python ints exactly;
 * beyond 2^63 calls clamping is the honest answer). */
int64_t pystats_sat_add(int64_t a, int64_t b);
void pystats_call_add(pystats_call *dst, const pystats_call *src);

#endif
