/* predec: see predec.h. */
#include "io/scan/predec.h"

#include <stdlib.h>
#include <string.h>

#include "io/decode/sys_decode.h"
#include "io/decode/trace_decode.h"

static int recs_reserve(predec_buf *b, size_t n)
{
    if (n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < n)
        cap *= 2;
    predec_rec *r = realloc(b->v, cap * sizeof *r);
    if (!r)
        return -1;
    b->v = r;
    uint8_t *m = realloc(b->mark, cap);
    if (!m)
        return -1;   /* b->v grown, cap not: still consistent */
    b->mark = m;
    b->cap = cap;
    return 0;
}

/* Keys numbered per read: enough for every series of a node's file
 * (about 60); a file with more gives the rest no key (looked up by the
 * model as before). */
#define KEYS_MAX 4096

static int same_key(const sm_sample *a, const sm_sample *b)
{
    return sm_str_same(a->name, b->name) && sm_str_same(a->dimension, b->dimension) &&
           sm_str_same(a->type, b->type) && sm_str_same(a->node, b->node);
}

static int key_is(const predec_buf *b, uint32_t k, const sm_sample *s)
{
    return k < b->nkeys && same_key(&b->v[b->first[k]].s, s);
}

/* Grows the per-key arrays to cap; 0, or -1 on OOM (capkeys unchanged,
 * the arrays grown so far still usable). */
static int grow_keys(predec_buf *b, size_t cap)
{
    uint32_t *f = realloc(b->first, cap * sizeof *f);
    if (!f)
        return -1;
    b->first = f;
    uint32_t *l = realloc(b->last, cap * sizeof *l);
    if (!l)
        return -1;
    b->last = l;
    uint32_t *c = realloc(b->cur, cap * sizeof *c);
    if (!c)
        return -1;
    b->cur = c;
    model_ref *r = realloc(b->refs, cap * sizeof *r);
    if (!r)
        return -1;
    b->refs = r;
    b->capkeys = cap;
    return 0;
}

/* Numbers record `at`'s sample key: the one after the previous line's
 * (smdebug writes a timestamp's series in the same order every time),
 * else a search of the keys so far, else a new key. */
static uint32_t key_of(predec_buf *b, size_t at)
{
    const sm_sample *s = &b->v[at].s;
    uint32_t k = b->last_key + 1;
    if (b->last_key == PREDEC_NO_KEY || !key_is(b, k, s)) {
        for (k = 0; k < b->nkeys && !key_is(b, k, s); k++)
            ;
        if (k == b->nkeys) {
            if (k == b->capkeys) {
                size_t cap = b->capkeys ? 2 * b->capkeys : 64;
                if (cap > KEYS_MAX)
                    return PREDEC_NO_KEY;
                if (grow_keys(b, cap) != 0)
                    return PREDEC_NO_KEY;
            }
            b->first[b->nkeys] = b->last[b->nkeys] = (uint32_t)at;
            b->nkeys++;
            b->last_key = k;
            return k;
        }
    }
    b->v[b->last[k]].next_same = (uint32_t)at;
    b->last[k] = (uint32_t)at;
    b->last_key = k;
    return k;
}

/* Splits and trims exactly as scan_ingest does; a line the fast path
 * cannot give a self-contained record for is left to the consumer (ok =
 * 0). On OOM the records so far stay valid (the rest is simply not
 * decoded ahead). */
void predec_decode(predec_buf *b, sysdec_scratch *sc, const char *data, size_t len,
                   int kind)
{
    const char *q = data, *end = data + len;
    b->n = 0;
    b->nkeys = 0;
    b->last_key = PREDEC_NO_KEY;
    while (q < end) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        if (!nl)
            break;
        const char *line = q;
        size_t n = (size_t)(nl - q);
        q = nl + 1;
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
            n--;
        if (n == 0)
            continue;
        if (b->n == b->cap && recs_reserve(b, b->n + 1) != 0)
            break;
        predec_rec *r = &b->v[b->n++];
        r->line = line;
        r->len = n;
        r->nl = nl;
        r->kind = kind;
        r->key = r->next_same = PREDEC_NO_KEY;
        if (kind == PREDEC_TRACE) {
            r->ok = trace_decode_parse(line, n, &r->t) == 1;
        } else {
            r->ok = sys_decode_line_fast(line, n, &r->s, sc) == 0 && r->s.extra.len == 0;
            if (r->ok)
                r->key = key_of(b, b->n - 1);
        }
    }
    if (b->nkeys) {
        memset(b->refs, 0, b->nkeys * sizeof *b->refs);
        memcpy(b->cur, b->first, b->nkeys * sizeof *b->cur);
    }
    if (b->n)
        memset(b->mark, 0, b->n);
}

predec predec_view(const predec_buf *b)
{
    return (predec){.v = b->v, .n = b->n, .refs = b->refs, .cur = b->cur, .mark = b->mark,
                    .nkeys = b->nkeys};
}

void predec_buf_free(predec_buf *b)
{
    free(b->v);
    free(b->first);
    free(b->last);
    free(b->cur);
    free(b->refs);
    free(b->mark);
    memset(b, 0, sizeof *b);
}
