/* sys_decode: the fast scanner and the jansson reference for one system
 * metrics line. The fast path accepts only what it understands completely
 * (see jscan.h) and gives every other line to the reference, so both
 * produce the identical record for any line the fast path accepts. */
#include "io/decode/sys_decode.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/jscan.h"
#include "model/util/vec.h"

enum {
    F_TYPE = 1, F_NAME = 2, F_DIM = 4, F_VALUE = 8, F_NODE = 16, F_TS = 32,
    F_REQUIRED = F_TYPE | F_DIM | F_VALUE | F_NODE | F_TS
};

#define MAX_EXTRA 8

static int key_is(sm_str k, const char *lit, size_t n)
{
    return k.len == n && memcmp(k.ptr, lit, n) == 0;
}

static int known_field(sm_str k)
{
    switch (k.len) {
    case 4:
        return key_is(k, "Type", 4) ? F_TYPE : key_is(k, "Name", 4) ? F_NAME : 0;
    case 5:
        return key_is(k, "Value", 5) ? F_VALUE : 0;
    case 6:
        return key_is(k, "NodeId", 6) ? F_NODE : 0;
    case 9:
        return key_is(k, "Dimension", 9) ? F_DIM : key_is(k, "Timestamp", 9) ? F_TS : 0;
    default:
        return 0;
    }
}

void sys_decode_scratch_free(sysdec_scratch *s)
{
    if (!s)
        return;
    free(s->buf);
    json_decref(s->jroot);
    memset(s, 0, sizeof *s);
}

static int scratch_reserve(sysdec_scratch *s, size_t need)
{
    return vec_grow(&s->buf, &s->cap, need, 1, 256);
}

/* ---- fast path ---------------------------------------------------------- */

typedef struct fast_ctx {
    sm_sample *out;
    sysdec_scratch *sc;
    unsigned seen;
    sm_str ekey[MAX_EXTRA], eval[MAX_EXTRA];
    int nextra;
    size_t next;        /* index in writer_order of the expected member */
    const char *line;
    sys_spans *sp;      /* where Value and Timestamp were, or NULL */
} fast_ctx;

/* A value the fast path can carry verbatim as jansson would dump it:
 * a plain string, a canonical integer, or a literal. */
static int fast_extra(jscan *s, fast_ctx *c, sm_str key)
{
    if (c->nextra == MAX_EXTRA)
        return -1;
    for (int k = 0; k < c->nextra; k++)
        if (c->ekey[k].len == key.len && memcmp(c->ekey[k].ptr, key.ptr, key.len) == 0)
            return -1;   /* duplicate: the reference rejects the line */
    const char *start = s->p;
    sm_str str;
    jnum n;
    int which;
    if (s->p < s->end && *s->p == '"') {
        if (jscan_string(s, &str) != 0)
            return -1;
    } else if (jscan_number(s, &n) == 0) {
        if (!n.is_int || (n.neg && n.i == 0))
            return -1;   /* reals and -0 re-serialise differently */
    } else if (jscan_literal(s, &which) != 0) {
        return -1;
    }
    c->ekey[c->nextra] = key;
    c->eval[c->nextra] = (sm_str){start, (size_t)(s->p - start)};
    c->nextra++;
    return 0;
}

/* Could c continue a number token (so a scan would not stop before it)? */
static int number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* jscan_seconds with the scratch's one-entry cache: the same bytes, ended
 * by a byte the scan stops at anyway, scan to the same value. */
static int fast_seconds(jscan *s, sysdec_scratch *sc, int64_t *out)
{
    size_t n = sc->ts_len;
    if (n && (size_t)(s->end - s->p) > n && !number_char(s->p[n]) &&
        memcmp(s->p, sc->ts_text, n) == 0) {
        *out = sc->ts_us;
        s->p += n;
        return 0;
    }
    const char *start = s->p;
    if (jscan_seconds(s, out) != 0)
        return -1;
    n = (size_t)(s->p - start);
    if (n <= sizeof sc->ts_text) {
        memcpy(sc->ts_text, start, n);
        sc->ts_len = n;
        sc->ts_us = *out;
    }
    return 0;
}

static int fast_known(jscan *s, fast_ctx *c, int f)
{
    sm_sample *o = c->out;
    switch (f) {
    case F_TYPE:
        return jscan_string(s, &o->type);
    case F_DIM:
        return jscan_string(s, &o->dimension);
    case F_NODE:
        return jscan_string(s, &o->node);
    case F_NAME:
        return jscan_string(s, &o->name);
    case F_VALUE:
        if (c->sp)
            c->sp->value_at = (uint32_t)(s->p - c->line);
        if (jscan_value(s, &o->value) != 0)
            return -1;
        if (c->sp)
            c->sp->value_end = (uint32_t)(s->p - c->line);
        return 0;
    default:   /* F_TS: its double is never needed (and costs a strtod) */
        if (c->sp)
            c->sp->ts_at = (uint32_t)(s->p - c->line);
        if (fast_seconds(s, c->sc, &o->ts_us) != 0)
            return -1;
        if (c->sp)
            c->sp->ts_end = (uint32_t)(s->p - c->line);
        return 0;
    }
}

/* The members in the order smdebug writes them, as the exact bytes up to
 * the value: a line that follows it skips the key scan and known_field. */
static const struct {
    const char *text;
    size_t len;
    int field;
} writer_order[] = {
    {"\"Type\":", 7, F_TYPE},           {"\"Name\":", 7, F_NAME},
    {"\"Dimension\":", 12, F_DIM},      {"\"Value\":", 8, F_VALUE},
    {"\"NodeId\":", 9, F_NODE},         {"\"Timestamp\":", 12, F_TS},
};
#define WRITER_ORDER_N (sizeof writer_order / sizeof *writer_order)

/* p[0..len) == lit[0..len) for 7 <= len <= 12 with at least 8 bytes at
 * p: two word compares instead of a memcmp call (the literal's NUL makes
 * 8 bytes of it readable). */
static int key_prefix_eq(const char *p, const char *lit, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, lit, 8);
    uint64_t x = a ^ b;
    if (len < 8)
        x &= (1ULL << (8 * len)) - 1;
    if (x)
        return 0;
    if (len <= 8)
        return 1;
    uint32_t u, v;
    memcpy(&u, p + len - 4, 4);
    memcpy(&v, lit + len - 4, 4);
    return u == v;
#else
    return memcmp(p, lit, len) == 0;
#endif
}

static int fast_member(jscan *s, fast_ctx *c)
{
    int f = 0;
    if (c->next < WRITER_ORDER_N && (size_t)(s->end - s->p) > writer_order[c->next].len &&
        key_prefix_eq(s->p, writer_order[c->next].text, writer_order[c->next].len)) {
        /* Same bytes the general path below would accept as this key. */
        s->p += writer_order[c->next].len;
        f = writer_order[c->next++].field;
    } else {
        sm_str key;
        if (jscan_string(s, &key) != 0)
            return -1;
        jscan_ws(s);
        if (s->p >= s->end || *s->p != ':')
            return -1;
        s->p++;
        f = known_field(key);
        if (!f) {
            jscan_ws(s);
            return fast_extra(s, c, key);
        }
        /* Expect whatever follows this member in the writer's order (a
         * line without Name goes on from Dimension). */
        for (size_t k = 0; k < WRITER_ORDER_N; k++)
            if (writer_order[k].field == f)
                c->next = k + 1;
    }
    jscan_ws(s);
    if (c->seen & (unsigned)f)
        return -1;
    c->seen |= (unsigned)f;
    return fast_known(s, c, f);
}

static int join_extra(const fast_ctx *c, sysdec_scratch *sc, sm_str *extra)
{
    size_t need = 0;
    for (int k = 0; k < c->nextra; k++)
        need += c->ekey[k].len + c->eval[k].len + 4;
    if (scratch_reserve(sc, need) != 0)
        return -1;
    size_t at = 0;
    for (int k = 0; k < c->nextra; k++) {
        if (k)
            sc->buf[at++] = ',';
        sc->buf[at++] = '"';
        memcpy(sc->buf + at, c->ekey[k].ptr, c->ekey[k].len);
        at += c->ekey[k].len;
        sc->buf[at++] = '"';
        sc->buf[at++] = ':';
        memcpy(sc->buf + at, c->eval[k].ptr, c->eval[k].len);
        at += c->eval[k].len;
    }
    *extra = (sm_str){sc->buf, at};
    return 0;
}

static int sys_decode_fast(const char *line, size_t len, sm_sample *out, sysdec_scratch *sc,
                           sys_spans *sp)
{
    jscan s = {line, line + len};
    /* Not `= {...}`: that would zero the extra arrays on every line (a
     * rep stos that cost more than the rest of the scan); only the first
     * nextra entries are ever read. */
    fast_ctx c;
    c.out = out;
    c.sc = sc;
    c.seen = 0;
    c.nextra = 0;
    c.next = 0;
    c.line = line;
    c.sp = sp;
    /* Every other field is set by its required member, or the line
     * fails (out is then undefined): no memset of the whole record. */
    out->name = (sm_str){"", 0};
    out->extra = (sm_str){"", 0};
    jscan_ws(&s);
    if (s.p >= s.end || *s.p++ != '{')
        return -1;
    jscan_ws(&s);
    for (;;) {
        if (fast_member(&s, &c) != 0)
            return -1;
        jscan_ws(&s);
        if (s.p < s.end && *s.p == ',') {
            s.p++;
            jscan_ws(&s);
            continue;
        }
        if (s.p < s.end && *s.p == '}')
            break;
        return -1;
    }
    s.p++;
    jscan_ws(&s);
    if (s.p != s.end || (c.seen & F_REQUIRED) != F_REQUIRED)
        return -1;
    if (c.nextra && join_extra(&c, sc, &out->extra) != 0)
        return -1;
    return 0;
}

int sys_decode_line_fast(const char *line, size_t len, sm_sample *out,
                         sysdec_scratch *scratch)
{
    return sys_decode_fast(line, len, out, scratch, NULL);
}

int sys_decode_line_spans(const char *line, size_t len, sm_sample *out,
                          sysdec_scratch *scratch, sys_spans *sp)
{
    if (len > UINT32_MAX || sys_decode_fast(line, len, out, scratch, sp) != 0)
        return -1;
    return out->extra.len == 0 && sp->value_at < sp->value_end && sp->value_end <= sp->ts_at &&
                   sp->ts_at < sp->ts_end && sp->ts_end <= len
               ? 0
               : 1;
}

/* The bytes of line from `at` equal like's [from, to) (both long enough). */
static int same_bytes(const char *p, const char *end, const char *like, uint32_t from,
                      uint32_t to)
{
    return (size_t)(end - p) >= to - from && memcmp(p, like + from, to - from) == 0;
}

int sys_decode_numbers_like(const char *line, size_t len, const char *like, size_t like_len,
                            const sys_spans *sp, sysdec_scratch *sc, int64_t *ts_us,
                            double *value)
{
    const char *end = line + len;
    if (!same_bytes(line, end, like, 0, sp->value_at))
        return -1;
    jscan s = {line + sp->value_at, end};
    double v;
    if (jscan_value(&s, &v) != 0 || !same_bytes(s.p, end, like, sp->value_end, sp->ts_at))
        return -1;
    s.p += sp->ts_at - sp->value_end;
    if (fast_seconds(&s, sc, ts_us) != 0 || (size_t)(end - s.p) != like_len - sp->ts_end ||
        memcmp(s.p, like + sp->ts_end, like_len - sp->ts_end) != 0)
        return -1;
    *value = v;
    return 0;
}

int sys_decode_line(const char *line, size_t len, sm_sample *out, sysdec_scratch *scratch)
{
    if (sys_decode_fast(line, len, out, scratch, NULL) == 0)
        return 0;
    return sys_decode_line_jansson(line, len, out, scratch);
}

/* ---- jansson reference -------------------------------------------------- */

static int j_string(json_t *root, const char *key, sm_str *out, int optional)
{
    json_t *v = json_object_get(root, key);
    if (optional && (!v || json_is_null(v))) {
        *out = (sm_str){"", 0};
        return 0;
    }
    if (!json_is_string(v))
        return -1;
    *out = (sm_str){json_string_value(v), json_string_length(v)};
    return 0;
}

static int key_equals(const char *tok, size_t len, const char *want)
{
    if (!memchr(tok, '\\', len))
        return len == strlen(want) + 2 && memcmp(tok + 1, want, len - 2) == 0;
    json_t *k = json_loadb(tok, len, JSON_DECODE_ANY, NULL);
    int eq = json_is_string(k) && strcmp(json_string_value(k), want) == 0;
    json_decref(k);
    return eq;
}

/* End of the value (or key) starting at p, in text jansson validated. */
static const char *skip_value(const char *p, const char *end)
{
    int depth = 0;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\')
                    p++;
            p = p < end ? p + 1 : end;
            if (depth == 0)
                return p;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return p;
            if (--depth == 0)
                return p + 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' ||
                                  c == '\n' || c == '\r')) {
            return p;
        }
        p++;
    }
    return end;
}

static int expect(jscan *s, char c)
{
    jscan_ws(s);
    if (s->p >= s->end || *s->p != c)
        return -1;
    s->p++;
    jscan_ws(s);
    return 0;
}

/* The raw text of top-level member `want`: jansson gives the timestamp only
 * as a double, which cannot hold its 7th fractional digit, so the reference
 * re-reads the digits from the (already validated) text. */
static int raw_member(const char *line, size_t len, const char *want, jscan *out)
{
    jscan s = {line, line + len};
    if (expect(&s, '{') != 0)
        return -1;
    while (s.p < s.end && *s.p == '"') {
        const char *k = s.p;
        s.p = skip_value(k, s.end);
        size_t klen = (size_t)(s.p - k);
        if (expect(&s, ':') != 0)
            return -1;
        const char *v = s.p;
        s.p = skip_value(v, s.end);
        if (key_equals(k, klen, want)) {
            *out = (jscan){v, s.p};
            return 0;
        }
        if (expect(&s, ',') != 0)
            return -1;
    }
    return -1;
}

static int j_extra(json_t *root, sysdec_scratch *sc, sm_str *extra)
{
    size_t at = 0;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        sm_str k = sm_str_c(key);
        if (known_field(k))
            continue;
        json_t *one = json_object();
        char *txt = NULL;
        if (one && json_object_set(one, key, v) == 0)
            txt = json_dumps(one, JSON_COMPACT);
        json_decref(one);
        size_t n = txt ? strlen(txt) : 0;
        if (n < 2 || scratch_reserve(sc, at + n) != 0) {
            free(txt);
            return -1;
        }
        if (at)
            sc->buf[at++] = ',';
        memcpy(sc->buf + at, txt + 1, n - 2);   /* drop the braces */
        at += n - 2;
        free(txt);
    }
    *extra = (sm_str){at ? sc->buf : "", at};
    return 0;
}

int sys_decode_line_jansson(const char *line, size_t len, sm_sample *out,
                            sysdec_scratch *scratch)
{
    json_decref(scratch->jroot);
    scratch->jroot = NULL;
    memset(out, 0, sizeof *out);
    json_t *root = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
    if (!json_is_object(root)) {
        json_decref(root);
        return -1;
    }
    scratch->jroot = root;
    json_t *val = json_object_get(root, "Value");
    jscan ts;
    jnum n;
    if (j_string(root, "Type", &out->type, 0) || j_string(root, "Dimension", &out->dimension, 0) ||
        j_string(root, "NodeId", &out->node, 0) || j_string(root, "Name", &out->name, 1) ||
        !json_is_number(val) || !json_is_number(json_object_get(root, "Timestamp")))
        return -1;
    out->value = json_number_value(val);
    if (raw_member(line, len, "Timestamp", &ts) != 0 || jscan_number_syntax(&ts, &n) != 0 ||
        ts.p != ts.end || jscan_seconds_to_us(&n, &out->ts_us) != 0)
        return -1;
    return j_extra(root, scratch, &out->extra);
}
