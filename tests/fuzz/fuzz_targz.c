/* Fuzz target for output.tar.gz read in place (gz_index + tar_walk, the
 * two halves of io/source/source_tar): the input's first byte picks the
 * piece size, the rest is the compressed archive. One pass indexes it
 * (access points every 4 KiB of output, so small inputs have several)
 * and walks its members, hashing each member's data as it passes; then
 * every member seen whole is read again through a gz_reader from its
 * start and from its middle, and eight spans across the whole output,
 * in pieces, and must give the same bytes (the output is kept here, up
 * to KEEP_MAX, to compare).
 * Corrupt input may stop either pass, never crash it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/source/gz_index.h"
#include "io/source/tar_walk.h"

#define MAX_MEMBERS 32
#define KEEP_MAX (8 << 20)

typedef struct mem {
    int64_t off, size, seen;
    uint64_t h;            /* FNV of the data seen while indexing */
} mem;

typedef struct run {
    tar_walk *w;
    unsigned char *keep;   /* the output so far, KEEP_MAX at most */
    size_t kept, cap;      /* grown as the output comes: a fixed 8 MiB a run
                              made the ASan replay (a quarantined free each
                              run) run past its timeout */
    mem m[MAX_MEMBERS];
    size_t n;
    int rc;
} run;

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int on_member(void *ud, const tar_member *t)
{
    run *r = ud;
    if (t->size < 0 || t->off < 0 || !t->name[0])
        abort();
    if (r->n < MAX_MEMBERS)
        r->m[r->n++] = (mem){t->off, t->size, 0, 14695981039346656037ull};
    return 0;
}

static void on_data(void *ud, int64_t off, const void *p, size_t n)
{
    run *r = ud;
    for (size_t i = 0; i < r->n; i++) {
        mem *m = &r->m[i];
        if (off >= m->off && off + (int64_t)n <= m->off + m->size && off == m->off + m->seen) {
            m->h = fnv(m->h, p, n);
            m->seen += (int64_t)n;
        }
    }
}

static int to_walk(void *ud, const void *p, size_t n)
{
    run *r = ud;
    size_t k = n < KEEP_MAX - r->kept ? n : KEEP_MAX - r->kept;
    if (r->kept + k > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->kept + k)
            cap *= 2;
        cap = cap < KEEP_MAX ? cap : KEEP_MAX;
        unsigned char *g = realloc(r->keep, cap);
        if (!g)
            abort();
        r->keep = g;
        r->cap = cap;
    }
    if (k)
        memcpy(r->keep + r->kept, p, k);
    r->kept += k;
    sm_err e = {0};
    r->rc = tar_walk_feed(r->w, p, n, &e);
    return r->rc != 0;
}

typedef struct back {
    uint64_t h;
    int64_t got, at;
    const run *r;
} back;

static int to_hash(void *ud, const void *p, size_t n)
{
    back *b = ud;
    if (b->at + b->got + (int64_t)n <= (int64_t)b->r->kept &&
        memcmp(b->r->keep + b->at + b->got, p, n))
        abort();   /* not the bytes the first pass gave */
    b->h = fnv(b->h, p, n);
    b->got += (int64_t)n;
    return 0;
}

/* Reads [from, to) again and returns its hash; aborts on a short read
 * within what the index saw. */
static uint64_t read_back(const run *r, const gz_index *x, const uint8_t *in, size_t len,
                          int64_t from, int64_t to, size_t piece)
{
    sm_err e = {0};
    int64_t comp;
    gz_reader *g = gz_reader_new(x, from, &comp, &e);
    if (!g)
        abort();
    gz_reader_limit(g, to);
    back b = {14695981039346656037ull, 0, from, r};
    int rc = 0;
    while (rc == 0 && gz_reader_in(g) < (int64_t)len) {
        int64_t at = gz_reader_in(g);
        size_t k = len - (size_t)at < piece ? len - (size_t)at : piece;
        rc = gz_reader_feed(g, in + at, k, to_hash, &b, &e);
    }
    if (b.got != to - from || gz_reader_out(g) != to)
        abort();
    gz_reader_free(g);
    return b.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t piece = 1 + data[0] * 37u, len = size - 1;
    const uint8_t *in = data + 1;
    gz_index *x = gz_index_new(4096);
    run r = {0};
    r.w = tar_walk_new(on_member, on_data, &r);
    if (!x || !r.w)
        abort();
    sm_err e = {0};
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < len; at += piece) {
        size_t k = len - at < piece ? len - at : piece;
        rc = gz_index_feed(x, in + at, k, to_walk, &r, &e);
        if (rc == 0 && gz_index_in(x) != (int64_t)(at + k))
            abort();   /* took less than given without ending */
    }
    if (rc >= 0)
        tar_walk_end(r.w, &e);
    for (size_t i = 0; i < r.n; i++) {
        const mem *m = &r.m[i];
        if (m->seen != m->size || m->off + m->size > gz_index_out(x))
            continue;
        if (read_back(&r, x, in, len, m->off, m->off + m->size, piece) != m->h)
            abort();
        read_back(&r, x, in, len, m->off + m->size / 2, m->off + m->size, piece);
    }
    int64_t out = gz_index_out(x);
    for (int k = 0; k < 8 && rc >= 0; k++) {
        int64_t from = out * k / 8, to = from + 5000 < out ? from + 5000 : out;
        read_back(&r, x, in, len, from, to, piece);
    }
    free(r.keep);
    tar_walk_free(r.w);
    gz_index_free(x);
    return 0;
}
