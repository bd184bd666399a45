/* pstats_marshal: the bounded marshal reader, building a small value tree
 * in an arena. The pstats interpretation and repr are in pstats_read.c. */
#include "io/decode/pstats_marshal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/pstats_mv.h"
#include "model/util/vec.h"

#define FLAG_REF 0x80

static const mv mv_none = {.type = 'N'}, mv_true = {.type = 'T'}, mv_false = {.type = 'F'};

/* ---- arena ---- */

typedef struct arena_blk {
    struct arena_blk *next;
    size_t used, cap;
    max_align_t data[];
} arena_blk;

static void *arena_alloc(mv_reader *rd, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    arena_blk *b = rd->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = rd->arena;
        b->used = 0;
        b->cap = cap;
        rd->arena = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

void pstats_mv_reader_free(mv_reader *rd)
{
    for (arena_blk *b = rd->arena, *nx; b; b = nx) {
        nx = b->next;
        free(b);
    }
    free(rd->refs);
    free(rd->scratch);
    rd->arena = NULL;
    rd->refs = rd->scratch = NULL;
}

/* ---- primitives ---- */

static int fail(mv_reader *rd, size_t at, const char *what)
{
    return sm_err_set(rd->err, SM_ERR_FORMAT, "bad marshal data: %s at byte offset %zu",
                      what, at);
}

static int oom(mv_reader *rd)
{
    return sm_err_set(rd->err, SM_ERR_NOMEM, "out of memory reading marshal data");
}

static int need(mv_reader *rd, size_t n, size_t at)
{
    return rd->len - rd->pos >= n ? 0 : fail(rd, at, "file ends inside a value");
}

static uint32_t rd_u32(mv_reader *rd)
{
    const uint8_t *p = rd->p + rd->pos;
    rd->pos += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A length field: 4 bytes signed (or 1 byte for short forms), at most the
 * bytes left times `per` — checked before anything is allocated. */
static int rd_len(mv_reader *rd, int short_form, size_t per, size_t at, uint32_t *out)
{
    if (need(rd, short_form ? 1 : 4, at) < 0)
        return -1;
    int64_t n = short_form ? rd->p[rd->pos++] : (int32_t)rd_u32(rd);
    if (n < 0 || (uint64_t)n > (rd->len - rd->pos) / per)
        return fail(rd, at, "length larger than the rest of the file");
    *out = (uint32_t)n;
    return 0;
}

static mv *new_val(mv_reader *rd, uint8_t type, size_t at, int flag)
{
    mv *v = arena_alloc(rd, sizeof *v);
    if (!v) {
        oom(rd);
        return NULL;
    }
    memset(v, 0, sizeof *v);
    v->type = type;
    v->off = at;
    if (flag) {
        if (vec_grow(&rd->refs, &rd->caprefs, rd->nrefs + 1, sizeof *rd->refs, 256) != 0) {
            oom(rd);
            return NULL;
        }
        rd->refs[rd->nrefs++] = v;
    }
    return v;
}

/* 15-bit digits, least significant first; sign of the count is the sign. */
static int rd_long(mv_reader *rd, size_t at, int64_t *out)
{
    if (need(rd, 4, at) < 0)
        return -1;
    int32_t n = (int32_t)rd_u32(rd);
    uint32_t nd = n < 0 ? (uint32_t)0 - (uint32_t)n : (uint32_t)n;
    if (nd > (rd->len - rd->pos) / 2)
        return fail(rd, at, "length larger than the rest of the file");
    uint64_t limit = n < 0 ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, v = 0;
    const uint8_t *d = rd->p + rd->pos;
    for (uint32_t i = nd; i-- > 0;) {
        uint32_t dig = (uint32_t)d[2 * i] | (uint32_t)d[2 * i + 1] << 8;
        if (dig >= 1u << 15)
            return fail(rd, at, "digit out of range in long");
        if (i == nd - 1 && dig == 0)
            return fail(rd, at, "unnormalized long");
        if (v > (limit - dig) >> 15)
            return fail(rd, at, "integer exceeds 64 bits");
        v = v << 15 | dig;
    }
    rd->pos += (size_t)nd * 2;
    *out = n < 0 ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

static int rd_str(mv_reader *rd, int short_form, size_t at, int flag, mv **out)
{
    uint32_t n = 0;
    if (rd_len(rd, short_form, 1, at, &n) < 0 || !(*out = new_val(rd, 's', at, flag)))
        return -1;
    (*out)->u.s.p = (const char *)rd->p + rd->pos;
    (*out)->u.s.len = n;
    rd->pos += n;
    return 0;
}

static int rd_scalar(mv_reader *rd, uint8_t code, size_t at, int flag, mv **out)
{
    int64_t iv = 0;
    double d = 0;
    if (code == 'i') {
        if (need(rd, 4, at) < 0)
            return -1;
        iv = (int32_t)rd_u32(rd);
    } else if (code == 'l') {
        if (rd_long(rd, at, &iv) < 0)
            return -1;
    } else {
        if (need(rd, 8, at) < 0)
            return -1;
        uint64_t bits = rd_u32(rd);
        bits |= (uint64_t)rd_u32(rd) << 32;
        memcpy(&d, &bits, sizeof d);
    }
    if (!(*out = new_val(rd, code == 'g' ? 'g' : 'i', at, flag)))
        return -1;
    if (code == 'g')
        (*out)->u.d = d;
    else
        (*out)->u.i = iv;
    return 0;
}

/* ---- containers ---- */

static int rd_tuple(mv_reader *rd, int short_form, size_t at, int flag, int depth, mv **out)
{
    uint32_t n = 0;
    mv *t;
    /* Every element takes at least one byte: bounds n before allocating. */
    if (rd_len(rd, short_form, 1, at, &n) < 0 || !(t = new_val(rd, '(', at, flag)))
        return -1;
    t->busy = 1;
    t->n = n;
    t->u.items = n ? arena_alloc(rd, n * sizeof *t->u.items) : NULL;
    if (n && !t->u.items)
        return oom(rd);
    for (uint32_t i = 0; i < n; i++)
        if (pstats_mv_read(rd, depth + 1, &t->u.items[i]) < 0)
            return -1;
    t->busy = 0;
    *out = t;
    return 0;
}

static int scratch_push(mv_reader *rd, mv *v)
{
    if (vec_grow(&rd->scratch, &rd->capscratch, rd->nscratch + 1, sizeof *rd->scratch, 256) != 0)
        return oom(rd);
    rd->scratch[rd->nscratch++] = v;
    return 0;
}

/* Like marshal.c: pairs until a '0' in key position — or in value
 * position, which ends the dict and drops that key. */
static int rd_dict(mv_reader *rd, size_t at, int flag, int depth, mv **out)
{
    mv *d = new_val(rd, '{', at, flag);
    if (!d)
        return -1;
    d->busy = 1;
    size_t base = rd->nscratch;
    int rc = 0;
    for (int k = 0; rc == 0; k ^= 1) {
        if (need(rd, 1, rd->pos) < 0) {
            rc = -1;
            break;
        }
        if ((rd->p[rd->pos] & 0x7f) == '0') {
            rd->pos++;
            if (k)
                rd->nscratch--;
            break;
        }
        mv *v;
        rc = pstats_mv_read(rd, depth + 1, &v);
        if (rc == 0)
            rc = scratch_push(rd, v);
    }
    size_t n = rd->nscratch - base;
    if (rc == 0 && n && !(d->u.items = arena_alloc(rd, n * sizeof *d->u.items)))
        rc = oom(rd);
    if (rc == 0 && n)
        memcpy(d->u.items, rd->scratch + base, n * sizeof *d->u.items);
    rd->nscratch = base;
    d->n = (uint32_t)(n / 2);
    d->busy = 0;
    *out = d;
    return rc;
}

static int rd_ref(mv_reader *rd, size_t at, mv **out)
{
    if (need(rd, 4, at) < 0)
        return -1;
    uint32_t idx = rd_u32(rd);
    if (idx >= rd->nrefs)
        return fail(rd, at, "reference to an unknown object");
    if (rd->refs[idx]->busy)
        return fail(rd, at, "reference to an object still being read");
    *out = rd->refs[idx];
    return 0;
}

int pstats_mv_read(mv_reader *rd, int depth, mv **out)
{
    size_t at = rd->pos;
    if (depth > PSTATS_MAX_DEPTH)
        return fail(rd, at, "nesting too deep");
    if (need(rd, 1, at) < 0)
        return -1;
    uint8_t b = rd->p[rd->pos++], code = b & 0x7f;
    int flag = (b & FLAG_REF) != 0;
    switch (code) {
    case 'N': *out = (mv *)&mv_none; return 0;
    case 'T': *out = (mv *)&mv_true; return 0;
    case 'F': *out = (mv *)&mv_false; return 0;
    case 'i': case 'l': case 'g': return rd_scalar(rd, code, at, flag, out);
    case 's': case 'u': case 't': case 'a': case 'A': return rd_str(rd, 0, at, flag, out);
    case 'z': case 'Z': return rd_str(rd, 1, at, flag, out);
    case '(': return rd_tuple(rd, 0, at, flag, depth, out);
    case ')': return rd_tuple(rd, 1, at, flag, depth, out);
    case '{': return rd_dict(rd, at, flag, depth, out);
    case 'r': return rd_ref(rd, at, out);
    case '0': return fail(rd, at, "unexpected end-of-dict marker");
    default: break;
    }
    char what[64];
    snprintf(what, sizeof what, "unsupported type code 0x%02x", (unsigned)b);
    return fail(rd, at, what);
}

int pstats_mv_parse(mv_reader *rd, const void *data, size_t len, sm_err *err, mv **out)
{
    memset(rd, 0, sizeof *rd);
    rd->p = data;
    rd->len = len;
    rd->err = err;
    if (len == 0)
        return sm_err_set(err, SM_ERR_FORMAT, "bad marshal data: empty file");
    return pstats_mv_read(rd, 0, out);
}
