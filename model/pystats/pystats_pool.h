/* pystats_pool: internals of model/pystats — the string pool, the
 * function-key table, a small open-addressing map from (a, b, c, line) to
 * an index, and the private layout of windows, the store and results.
 * Private to model/pystats*.c. */
#ifndef SMTOP_PYSTATS_POOL_H
#define SMTOP_PYSTATS_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/idmap.h"

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

void pystats_map_free(pmap *m);
/* Looks k up; when absent inserts it with value v. *out receives the stored
 * value, *added 1 when inserted. -1 on OOM (map unchanged). */
int pystats_map_put(pmap *m, pmap_key k, uint32_t v, uint32_t *out, int *added);

/* Interned strings: ids are dense, strings NUL-terminated copies (data may
 * hold NULs: use the length), never moved or removed until
 * pystats_pool_free. */
typedef struct pool {
    char **str;
    size_t *len;
    size_t n, cap;
    idmap ids;          /* string hash -> id token (pystats_pool_intern) */
} pool;

void pystats_pool_free(pool *p);
/* Id of the string, interning a copy when new. -1 on OOM. */
int pystats_pool_intern(pool *p, const char *s, size_t len, uint32_t *id);

/* ---- the store's private layout, shared by pystats.c and pystats_query.c ---- */

#include "model/pystats/pystats.h"

/* Function keys (file, line, name) interned store-wide: windows and
 * merges then work with one dense id per function. */
typedef struct pkeys {
    uint32_t *file, *name;  /* pool ids */
    int64_t *line;
    size_t n, cap;
    idmap ids;              /* key hash -> id token (pystats_keys_intern) */
} pkeys;

typedef struct pw_func {
    pystats_call c;
    uint32_t key;
} pw_func;

typedef struct pw_edge {
    pystats_call c;
    uint32_t callee;        /* index into the window's functions */
    uint32_t key;           /* the caller */
} pw_edge;

struct pystats_win {
    pystats_store *owner;
    pystats_window info;
    char *key;              /* set by pystats_store_put */
    int failed;
    /* Fixed-size chunks, so that growing never copies what is stored. */
    pw_func **fch;
    size_t nf, nfch;
    pw_edge **ech;
    size_t ne, nech;
};

#define PW_CHUNK 2048
#define PW_F(w, j) (&(w)->fch[(j) / PW_CHUNK][(j) % PW_CHUNK])
#define PW_E(w, j) (&(w)->ech[(j) / PW_CHUNK][(j) % PW_CHUNK])

struct pystats_store {
    pool strs;
    pkeys keys;
    pystats_win **w;        /* sorted by (start_us, node, key) */
    size_t n, cap;
    uint64_t gen;
    pystats_win *building;  /* the window pystats_store_take is given */
};

typedef struct m_edge {
    pystats_call c;
    uint32_t callee;        /* merged index */
    uint32_t key;           /* the caller */
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

/* Id of the key (file, line, name), interning it (and its strings) when
 * new. -1 on OOM. */
int pystats_keys_intern(pkeys *k, pool *p, sm_str file, int64_t line, sm_str name, uint32_t *id);
void pystats_keys_free(pkeys *k);

/* a + b clamped to the int64 range (pstats sums Python ints exactly;
 * beyond 2^63 calls clamping is the honest answer). */
int64_t pystats_sat_add(int64_t a, int64_t b);
void pystats_call_add(pystats_call *dst, const pystats_call *src);

#endif
