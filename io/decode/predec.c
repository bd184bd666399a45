/* predec: see predec.h. */
#include "io/decode/predec.h"

#include <stdlib.h>
#include <string.h>

#include "io/decode/sys_decode.h"
#include "io/decode/trace_decode.h"

/* Room for record n and beyond: the rest of the bytes (`left` of them)
 * are guessed to hold lines as long as those so far (`done` bytes), a
 * little more, so a slot's records fit its file rather than the next
 * power of two (issue 15: several files' records are held at once). */
static int recs_reserve(predec_buf *b, size_t n, size_t done, size_t left)
{
    size_t guess = done ? (size_t)((double)left / (double)done * (double)n) : 0;
    if (guess > left / 2)
        guess = left / 2;   /* a line takes 2 bytes at least */
    size_t cap = n + 1 + guess + guess / 16 + 64;
    if (cap > b->cap) {
        predec_rec *r = realloc(b->v, cap * sizeof *r);
        if (!r)
            return -1;
        b->v = r;
        uint8_t *m = realloc(b->mark, cap);
        if (!m)
            return -1;   /* b->v grown, cap not: still consistent */
        b->mark = m;
        b->cap = cap;
    }
    if (b->kind == PREDEC_TRACE && cap > b->capev) {
        tl_event *ev = realloc(b->ev, cap * sizeof *ev);
        if (!ev)
            return -1;
        b->ev = ev;
        b->capev = cap;
    }
    return 0;
}

/* Keys numbered per read: enough for every series of a node's file
 * (about 60); a file with more leaves the rest to the consumer. */
#define KEYS_MAX 4096

static int same_key(const sm_sample *a, const sm_sample *b)
{
    return sm_str_same(a->name, b->name) && sm_str_same(a->dimension, b->dimension) &&
           sm_str_same(a->type, b->type) && sm_str_same(a->node, b->node);
}

static int key_is(const predec_buf *b, uint32_t k, const sm_sample *s)
{
    return k < b->nkeys && same_key(&b->proto[k], s);
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
    rec_ref *r = realloc(b->refs, cap * sizeof *r);
    if (!r)
        return -1;
    b->refs = r;
    sm_sample *p = realloc(b->proto, cap * sizeof *p);
    if (!p)
        return -1;
    b->proto = p;
    predec_like *t = realloc(b->like, cap * sizeof *t);
    if (!t)
        return -1;
    b->like = t;
    b->capkeys = cap;
    return 0;
}

/* Chains record `at` to key k's records. */
static uint32_t key_link(predec_buf *b, size_t at, uint32_t k)
{
    b->v[b->last[k]].next_same = (uint32_t)at;
    b->last[k] = (uint32_t)at;
    b->last_key = k;
    return k;
}

/* Numbers record `at`'s sample key: the one after the previous line's
 * (smdebug writes a timestamp's series in the same order every time),
 * else a search of the keys so far, else a new key, whose sample s
 * becomes its strings and its line (when `like`) the model of its next
 * lines (sys_decode_numbers_like). */
static uint32_t key_of(predec_buf *b, size_t at, const sm_sample *s, int like,
                       const sys_spans *sp)
{
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
            b->proto[b->nkeys] = *s;
            b->like[b->nkeys] = (predec_like){.ok = 0};
            b->nkeys++;
            b->last_key = k;
            if (like)
                b->like[k] = (predec_like){b->v[at].off, b->v[at].len, *sp, 1};
            return k;
        }
    }
    if (like)   /* the newest layout of the key's lines */
        b->like[k] = (predec_like){b->v[at].off, b->v[at].len, *sp, 1};
    return key_link(b, at, k);
}

/* The key whose lines record r's line repeats but for its numbers (the
 * one after the previous line's, or the first after the last): its time
 * and value in r, or PREDEC_NO_KEY. */
static uint32_t key_like(predec_buf *b, sysdec_scratch *sc, predec_rec *r)
{
    if (b->last_key == PREDEC_NO_KEY || !b->nkeys)
        return PREDEC_NO_KEY;
    uint32_t k = b->last_key + 1 < b->nkeys ? b->last_key + 1 : 0;
    const predec_like *t = &b->like[k];
    if (!t->ok || sys_decode_numbers_like(b->base + r->off, r->len, b->base + t->off, t->len,
                                          &t->sp, sc, &r->ts_us, &r->value) != 0)
        return PREDEC_NO_KEY;
    return k;
}

/* Decodes record r's line (ok = 0 when the fast path cannot give a
 * self-contained record, or a sample has no key). */
static void decode_rec(predec_buf *b, sysdec_scratch *sc, predec_rec *r)
{
    const char *line = b->base + r->off;
    size_t at = (size_t)(r - b->v);
    if (b->kind == PREDEC_TRACE) {
        r->ok = trace_decode_parse(line, r->len, &b->ev[at]) == 1;
        return;
    }
    uint32_t k = key_like(b, sc, r);
    if (k != PREDEC_NO_KEY) {
        r->ok = 1;
        r->key = key_link(b, at, k);
        return;
    }
    sm_sample s;
    sys_spans sp;
    int rc = sys_decode_line_spans(line, r->len, &s, sc, &sp);
    r->ok = rc >= 0 && s.extra.len == 0 && (r->key = key_of(b, at, &s, rc == 0, &sp)) != PREDEC_NO_KEY;
    if (r->ok) {
        r->ts_us = s.ts_us;
        r->value = s.value;
    }
}

/* Splits and trims exactly as decoder_lines does (predec_trim); a line the fast path
 * cannot give a self-contained record for is left to the consumer (ok =
 * 0). On OOM the records so far stay valid (the rest is simply not
 * decoded ahead); so are bytes past 4 GB (records hold 32-bit offsets). */
void predec_decode(predec_buf *b, sysdec_scratch *sc, const char *data, size_t len,
                   int kind)
{
    const char *q = data, *end = data + (len > UINT32_MAX ? UINT32_MAX : len);
    b->base = data;
    b->kind = kind;
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
        n = predec_trim(line, n);
        if (n == 0)
            continue;
        if ((b->n == b->cap || (kind == PREDEC_TRACE && b->n == b->capev)) &&
            recs_reserve(b, b->n, (size_t)(line - data), (size_t)(end - line)) != 0)
            break;
        predec_rec *r = &b->v[b->n++];
        r->off = (uint32_t)(line - data);
        r->len = (uint32_t)n;
        r->nl_off = (uint32_t)(nl - line);
        r->key = r->next_same = PREDEC_NO_KEY;
        decode_rec(b, sc, r);
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
    return (predec){.base = b->base, .v = b->v, .proto = b->proto, .ev = b->ev,
                    .kind = b->kind, .n = b->n, .refs = b->refs, .cur = b->cur,
                    .mark = b->mark, .nkeys = b->nkeys};
}

void predec_buf_free(predec_buf *b)
{
    free(b->v);
    free(b->ev);
    free(b->proto);
    free(b->like);
    free(b->first);
    free(b->last);
    free(b->cur);
    free(b->refs);
    free(b->mark);
    memset(b, 0, sizeof *b);
}
