/* kineto_decode: see kineto_decode.h. A byte-driven machine over the
 * trace object's own structure (its keys, the traceEvents and
 * deviceProperties arrays, the distributedInfo object); each event is
 * parsed in place when it lies whole in the piece at hand (nearly all of
 * them), and gathered in one bounded buffer when it straddles two. */
#include "io/decode/kineto_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/decode/kineto_parse.h"

#define ZBUF_SIZE (256u << 10)

enum { ST_BEGIN, ST_KEY_OR_END, ST_KEY, ST_COLON, ST_VALUE, ST_NEXT, ST_ELEM,
       ST_ELEM_NEXT, ST_COLLECT, ST_DONE };
enum { IN_UNDECIDED, IN_PLAIN, IN_GZIP };
enum { E_NONE, E_CORRUPT, E_NOMEM };
/* What a gathered value is for. */
enum { W_SKIP, W_EVENT, W_DEVICE, W_SCHEMA, W_BASE, W_HOST, W_RANK, W_WORLD, W_BACKEND };
/* Keys the machine acts on. */
enum { K_OTHER, K_EVENTS, K_DEVICES, K_DIST, K_SCHEMA, K_BASE, K_HOST, K_RANK,
       K_WORLD, K_BACKEND };

/* The value being gathered across pieces. */
typedef struct coll {
    int what, kind;         /* kind: 's' string, 'n' number/literal, 'c' container */
    int depth, in_str, esc, drop;
    uint64_t bits;          /* bracket kinds of the first 64 levels, 1 = '[' */
    uint64_t start;         /* JSON offset of its first byte */
    char *buf;
    size_t len, cap;
} coll;

struct kineto_dec {
    kineto_dec_opts o;
    sm_kmeta meta;
    char backend[64], host[256];
    int64_t max_ts;
    /* input */
    int in;
    unsigned char head[2];
    size_t nhead;
    z_stream zs;
    int zinit, zend;
    char *zbuf;
    uint64_t fed;
    /* JSON */
    int st, in_dist, in_devs, first, done;
    char key[32];
    size_t klen;
    int klong, kesc, key_esc, key_id;
    coll c;
    uint64_t off;           /* JSON bytes before the piece at hand */
    int err;
    char msg[200];
    sm_kevent ev;
    kineto_ev_cb cb;
    void *ud;
};

kineto_dec *kineto_dec_new(const kineto_dec_opts *o)
{
    kineto_dec *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (o)
        d->o = *o;
    if (!d->o.max_event)
        d->o.max_event = KINETO_MAX_EVENT_DEFAULT;
    d->meta.rank = d->meta.world_size = -1;
    d->max_ts = INT64_MIN;
    return d;
}

void kineto_dec_free(kineto_dec *d)
{
    if (!d)
        return;
    if (d->zinit)
        inflateEnd(&d->zs);
    free(d->zbuf);
    free(d->c.buf);
    free(d);
}

static void fail(kineto_dec *d, uint64_t at, const char *what)
{
    if (d->err)
        return;
    d->err = E_CORRUPT;
    snprintf(d->msg, sizeof d->msg, "%s at byte %llu of the %sJSON, after %lld events",
             what, (unsigned long long)at, d->in == IN_GZIP ? "inflated " : "",
             (long long)d->meta.events);
}

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int key_id(const kineto_dec *d, const char *k, size_t n)
{
    static const struct {
        const char *s;
        int id, dist;
    } keys[] = {
        {"traceEvents", K_EVENTS, 0}, {"deviceProperties", K_DEVICES, 0},
        {"distributedInfo", K_DIST, 0}, {"schemaVersion", K_SCHEMA, 0},
        {"baseTimeNanoseconds", K_BASE, 0}, {"host_name", K_HOST, 0},
        {"rank", K_RANK, 1}, {"world_size", K_WORLD, 1}, {"backend", K_BACKEND, 1},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].dist == d->in_dist && strlen(keys[i].s) == n && memcmp(keys[i].s, k, n) == 0)
            return keys[i].id;
    return K_OTHER;
}

/* The key's closing quote was read. */
static void key_done(kineto_dec *d)
{
    char b[32];
    const char *k = d->key;
    size_t n = d->klen;
    if (d->key_esc) {
        n = kineto_parse_unescape_small(d->key, d->klen, b, sizeof b);
        k = b;
    }
    d->key_id = d->klong || n == (size_t)-1 ? K_OTHER : key_id(d, k, n);
}

/* Reads key bytes from p[i..n); the index after them. */
static size_t st_key(kineto_dec *d, const char *p, size_t i, size_t n)
{
    for (; i < n; i++) {
        char c = p[i];
        if (!d->kesc && c == '"') {
            key_done(d);
            d->st = ST_COLON;
            return i + 1;
        }
        d->kesc = !d->kesc && c == '\\';
        d->key_esc |= d->kesc;
        if (d->klen < sizeof d->key)
            d->key[d->klen++] = c;
        else
            d->klong = 1;
    }
    return i;
}

static void close_object(kineto_dec *d)
{
    if (d->in_dist) {
        d->in_dist = 0;
        d->st = ST_NEXT;
    } else {
        d->st = ST_DONE;
        d->done = 1;
    }
}

static int coll_hold(kineto_dec *d, const char *p, size_t n)
{
    coll *c = &d->c;
    if (c->what == W_SKIP || c->drop)
        return 0;
    if (c->len + n + 1 > d->o.max_event) {   /* +1: the closing sentinel */
        c->drop = 1;
        return 0;
    }
    if (c->len + n + 1 > c->cap) {
        size_t nc = c->cap ? c->cap : 4096;
        while (nc < c->len + n + 1)
            nc *= 2;
        char *nb = realloc(c->buf, nc);
        if (!nb) {
            d->err = E_NOMEM;
            snprintf(d->msg, sizeof d->msg, "out of memory holding one trace event");
            return -1;
        }
        c->buf = nb;
        c->cap = nc;
    }
    memcpy(c->buf + c->len, p, n);
    c->len += n;
    return 0;
}

static void coll_start(kineto_dec *d, int what, char first, uint64_t at)
{
    coll *c = &d->c;
    c->what = what;
    c->kind = first == '"' ? 's' : first == '{' || first == '[' ? 'c' : 'n';
    c->depth = c->in_str = c->esc = c->drop = 0;
    c->bits = 0;
    c->len = 0;
    c->start = at;
    d->st = ST_COLLECT;
}

/* One event (kind from kineto_parse_event) counted and given. */
static void event_out(kineto_dec *d, int kind)
{
    d->meta.events++;
    if (kind == KP_BAD) {
        d->meta.bad_events++;
    } else if (kind == KP_EVENT) {
        if (d->ev.ts_ns != SM_KEV_NONE && d->ev.ts_ns > d->max_ts)
            d->max_ts = d->ev.ts_ns;
        d->cb(d->ud, &d->ev);
    }
}

static void meta_string(sm_str raw, char *dst, size_t cap, sm_str *out)
{
    kineto_str_copy(raw, dst, cap);
    out->ptr = raw.ptr ? dst : "";
    out->len = raw.ptr ? strlen(dst) : 0;
}

/* A scalar meta value (held, sentinel-terminated) read by its rule. */
static const char *meta_value(kineto_dec *d, const char *p, const char *end)
{
    sm_kmeta *m = &d->meta;
    int64_t v = SM_KEV_NONE;
    sm_str s = {NULL, 0};
    int esc;
    const char *q;
    if (d->c.what == W_HOST || d->c.what == W_BACKEND) {
        if (*p == '"') {
            if (!(q = kineto_parse_str_end(p, end, &esc)))
                return NULL;
            s.ptr = p + 1;
            s.len = (size_t)(q - p - 1);
            q++;
        } else {
            q = kineto_parse_skip(p, end);
        }
        if (d->c.what == W_HOST)
            meta_string(s, d->host, sizeof d->host, &m->host_name);
        else
            meta_string(s, d->backend, sizeof d->backend, &m->backend);
        return q;
    }
    if (!(q = kineto_parse_int(p, end, KR_VAL, &v)))
        return NULL;
    switch (d->c.what) {
    case W_SCHEMA:
        m->has_schema = v != SM_KEV_NONE;
        m->schema_version = m->has_schema ? v : 0;
        break;
    case W_BASE:
        m->has_base = v != SM_KEV_NONE;
        m->base_ns = m->has_base ? v : 0;
        break;
    case W_RANK:
        m->rank = v == SM_KEV_NONE ? -1 : v;
        break;
    default:
        m->world_size = v == SM_KEV_NONE ? -1 : v;
        break;
    }
    return q;
}

/* The gathered value is complete: parse it by what it is for. */
static void coll_done(kineto_dec *d)
{
    coll *c = &d->c;
    d->st = c->what == W_EVENT || c->what == W_DEVICE ? ST_ELEM_NEXT : ST_NEXT;
    if (c->what == W_SKIP)
        return;
    if (c->drop) {
        if (c->what == W_EVENT)
            event_out(d, KP_BAD);
        return;
    }
    c->buf[c->len] = ' ';    /* a number needs a byte after it */
    const char *p = c->buf, *end = c->buf + c->len + 1, *q;
    int kind = 0;
    int64_t mem;
    if (c->what == W_EVENT) {
        q = kineto_parse_event(p, end, d->o.keep_python, &d->ev, &kind);
    } else if (c->what == W_DEVICE) {
        if ((q = kineto_parse_device(p, end, &mem)) && d->meta.n_devices < SM_KMETA_MAX_DEVICES)
            d->meta.total_global_mem[d->meta.n_devices++] = mem == SM_KEV_NONE ? -1 : mem;
    } else {
        q = meta_value(d, p, end);
    }
    if (!q || q < end - 1) {
        fail(d, c->start, c->what == W_EVENT ? "bad JSON in an event" : "bad JSON");
        return;
    }
    if (c->what == W_EVENT)
        event_out(d, kind);
}

/* Scans the gathered value's bytes in p[i..n); the index after them. */
static size_t st_collect(kineto_dec *d, const char *p, size_t i, size_t n)
{
    coll *c = &d->c;
    size_t s = i;
    int ended = 0, incl = 1;
    for (; i < n && !ended; i++) {
        unsigned char ch = (unsigned char)p[i];
        if (c->in_str) {
            if (c->esc)
                c->esc = 0;
            else if (ch == '\\')
                c->esc = 1;
            else if (ch == '"') {
                c->in_str = 0;
                ended = c->depth == 0;   /* a string value's closing quote */
            }
            continue;
        }
        switch (kineto_parse_class[ch]) {
        case KC_QUOTE:
            c->in_str = 1;
            break;
        case KC_OPEN:
            if (c->depth < 64)
                c->bits = c->bits << 1 | (ch == '[');
            c->depth++;
            break;
        case KC_CLOSE:
            if (c->depth == 0) {
                ended = 1;
                incl = 0;
                break;
            }
            c->depth--;
            if (c->depth < 64) {
                if ((c->bits & 1) != (ch == ']')) {
                    fail(d, d->off + i, "mismatched bracket");
                    return n;
                }
                c->bits >>= 1;
            }
            ended = c->depth == 0;
            break;
        case KC_WS:
        case KC_COMMA:
            if (c->depth == 0) {
                ended = 1;
                incl = 0;
            }
            break;
        case KC_COLON:
            if (c->depth > 0)
                break;
            /* fall through */
        case KC_BAD:
            fail(d, d->off + i, "unexpected byte");
            return n;
        default:
            break;
        }
    }
    if (ended && !incl)
        i--;              /* the delimiter belongs to the next state */
    if (coll_hold(d, p + s, i - s) != 0)
        return n;
    if (ended)
        coll_done(d);
    return i;
}

/* At the first byte of a member's value. */
static void value_start(kineto_dec *d, char ch, uint64_t at)
{
    sm_kmeta *m = &d->meta;
    static const int what_of[] = {[K_SCHEMA] = W_SCHEMA, [K_BASE] = W_BASE,
                                  [K_HOST] = W_HOST, [K_RANK] = W_RANK,
                                  [K_WORLD] = W_WORLD, [K_BACKEND] = W_BACKEND};
    int k = d->key_id;
    if (k == K_SCHEMA || k == K_DEVICES || k == K_DIST)
        m->kineto_keys = 1;
    if (k == K_EVENTS || k == K_DEVICES || k == K_DIST) {
        int open = ch == (k == K_DIST ? '{' : '[');
        if (k == K_EVENTS)
            m->has_trace_events = open;
        else if (k == K_DEVICES)
            m->n_devices = 0;
        else {
            m->has_dist = open;
            m->rank = m->world_size = -1;
            m->backend.ptr = "";
            m->backend.len = 0;
        }
        if (open) {
            d->first = 1;
            d->in_devs = k == K_DEVICES;
            d->in_dist = k == K_DIST;
            d->st = k == K_DIST ? ST_KEY_OR_END : ST_ELEM;
            return;
        }
        k = K_OTHER;
    }
    coll_start(d, k == K_OTHER ? W_SKIP : what_of[k], ch, at);
}

/* traceEvents / deviceProperties elements from p[i..n): the hot loop. */
static size_t st_elems(kineto_dec *d, const char *p, size_t i, size_t n)
{
    const char *end = p + n;
    while (i < n) {
        char ch = p[i];
        if (is_ws(ch)) {
            i++;
            continue;
        }
        if (d->st == ST_ELEM_NEXT) {
            if (ch == ',') {
                d->st = ST_ELEM;
                d->first = 0;
            } else if (ch == ']') {
                d->st = ST_NEXT;
                return i + 1;
            } else {
                fail(d, d->off + i, "expected ',' or ']' after an element");
                return n;
            }
            i++;
            continue;
        }
        if (ch == ']' && d->first) {
            d->st = ST_NEXT;
            return i + 1;
        }
        int kind;
        const char *q = d->in_devs ? NULL
                      : kineto_parse_event(p + i, end, d->o.keep_python, &d->ev, &kind);
        if (!q) {   /* straddles the piece's end, or bad: gather it whole */
            coll_start(d, d->in_devs ? W_DEVICE : W_EVENT, ch, d->off + i);
            return i;
        }
        /* the bound holds in place too: a piece's size never decides */
        event_out(d, (size_t)(q - p) - i + 1 > d->o.max_event ? KP_BAD : kind);
        i = (size_t)(q - p);
        d->st = ST_ELEM_NEXT;
    }
    return i;
}

/* The structural states outside arrays, one step from p[i]. */
static size_t st_object(kineto_dec *d, const char *p, size_t i, size_t n)
{
    char ch = p[i];
    if (is_ws(ch))
        return i + 1;
    switch (d->st) {
    case ST_BEGIN:
        if (ch != '{')
            return fail(d, d->off + i, "not a JSON object"), n;
        d->st = ST_KEY_OR_END;
        d->first = 1;
        break;
    case ST_KEY_OR_END:
        if (ch == '"') {
            d->klen = 0;
            d->klong = d->kesc = d->key_esc = 0;
            d->st = ST_KEY;
        } else if (ch == '}' && d->first) {
            close_object(d);
        } else {
            return fail(d, d->off + i, "expected a key"), n;
        }
        break;
    case ST_COLON:
        if (ch != ':')
            return fail(d, d->off + i, "expected ':'"), n;
        d->st = ST_VALUE;
        break;
    case ST_VALUE:
        value_start(d, ch, d->off + i);
        return d->st == ST_COLLECT ? i : i + 1;
    case ST_NEXT:
        if (ch == ',') {
            d->st = ST_KEY_OR_END;
            d->first = 0;
        } else if (ch == '}') {
            close_object(d);
        } else {
            return fail(d, d->off + i, "expected ',' or '}'"), n;
        }
        break;
    default:   /* ST_DONE */
        return fail(d, d->off + i, "data after the end of the trace object"), n;
    }
    return i + 1;
}

static void json_feed(kineto_dec *d, const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && !d->err) {
        switch (d->st) {
        case ST_KEY:
            i = st_key(d, p, i, n);
            break;
        case ST_ELEM:
        case ST_ELEM_NEXT:
            i = st_elems(d, p, i, n);
            break;
        case ST_COLLECT:
            i = st_collect(d, p, i, n);
            break;
        default:
            i = st_object(d, p, i, n);
            break;
        }
    }
    d->off += n;
}

static void gz_feed(kineto_dec *d, const unsigned char *p, size_t n)
{
    if (!d->zinit) {
        if (!(d->zbuf = malloc(ZBUF_SIZE)) || inflateInit2(&d->zs, 16 + MAX_WBITS) != Z_OK) {
            d->err = E_NOMEM;
            snprintf(d->msg, sizeof d->msg, "out of memory starting zlib");
            return;
        }
        d->zinit = 1;
    }
    d->zs.next_in = (Bytef *)p;
    d->zs.avail_in = (uInt)n;
    while (!d->err && (d->zs.avail_in > 0 || !d->zend)) {
        if (d->zend) {          /* another gzip member follows */
            inflateReset(&d->zs);
            d->zend = 0;
        }
        d->zs.next_out = (Bytef *)d->zbuf;
        d->zs.avail_out = ZBUF_SIZE;
        int rc = inflate(&d->zs, Z_NO_FLUSH);
        size_t got = ZBUF_SIZE - d->zs.avail_out;
        if (got)
            json_feed(d, d->zbuf, got);
        if (rc == Z_STREAM_END)
            d->zend = 1;
        else if (rc == Z_BUF_ERROR || (rc == Z_OK && d->zs.avail_in == 0 && got < ZBUF_SIZE))
            break;      /* needs more input */
        else if (rc != Z_OK && !d->err) {
            d->err = E_CORRUPT;
            snprintf(d->msg, sizeof d->msg,
                     "corrupt gzip data (%s) at compressed byte %llu, after %lld events",
                     d->zs.msg ? d->zs.msg : "inflate failed",
                     (unsigned long long)(d->fed - d->zs.avail_in), (long long)d->meta.events);
        }
    }
}

static void input(kineto_dec *d, const void *p, size_t n)
{
    const unsigned char *b = p;
    if (d->in != IN_GZIP) {
        json_feed(d, p, n);
        return;
    }
    for (size_t at = 0, step = (size_t)1 << 30; at < n && !d->err; at += step)
        gz_feed(d, b + at, n - at < step ? n - at : step);   /* zlib counts in uInt */
}

int kineto_dec_feed(kineto_dec *d, const void *p, size_t n, kineto_ev_cb cb, void *ud)
{
    const unsigned char *b = p;
    if (d->err)
        return -1;
    d->cb = cb;
    d->ud = ud;
    while (d->in == IN_UNDECIDED && n > 0) {   /* the gzip magic decides */
        d->head[d->nhead++] = *b++;
        n--;
        d->fed++;
        if (d->nhead == 2) {
            d->in = d->head[0] == 0x1f && d->head[1] == 0x8b ? IN_GZIP : IN_PLAIN;
            input(d, d->head, 2);
        }
    }
    if (n > 0 && !d->err) {
        d->fed += n;
        input(d, b, n);
    }
    return d->err ? -1 : 0;
}

int kineto_meta_is_kineto(const sm_kmeta *m)
{
    return m->has_trace_events && m->kineto_keys;
}

int kineto_dec_finish(kineto_dec *d, sm_kmeta *out, sm_err *err)
{
    if (d->in == IN_UNDECIDED && d->nhead == 1 && !d->err) {
        d->in = IN_PLAIN;
        json_feed(d, (const char *)d->head, 1);
    }
    sm_kmeta *m = &d->meta;
    m->ts_epoch = !m->has_base && d->max_ts > 1000000000000000000LL;
    if (!m->backend.ptr)
        m->backend.ptr = "";
    if (!m->host_name.ptr)
        m->host_name.ptr = "";
    *out = *m;
    if (d->err)
        return sm_err_set(err, d->err == E_NOMEM ? SM_ERR_NOMEM : SM_ERR_FORMAT, "%s", d->msg);
    if (d->fed == 0) {
        sm_err_set(err, SM_ERR_FORMAT, "empty file: still being written?");
        return KINETO_INCOMPLETE;
    }
    if (d->in == IN_GZIP && !d->zend) {
        sm_err_set(err, SM_ERR_FORMAT,
                   "gzip stream ends early (%llu bytes, %lld events so far): still being written?",
                   (unsigned long long)d->fed, (long long)m->events);
        return KINETO_INCOMPLETE;
    }
    if (!d->done) {
        if (d->in == IN_GZIP)
            return sm_err_set(err, SM_ERR_FORMAT,
                              "the JSON inside a complete gzip stream ends early, at byte %llu "
                              "(after %lld events)", (unsigned long long)d->off,
                              (long long)m->events);
        sm_err_set(err, SM_ERR_FORMAT,
                   "the JSON ends early, at byte %llu (after %lld events): still being written?",
                   (unsigned long long)d->off, (long long)m->events);
        return KINETO_INCOMPLETE;
    }
    return 0;
}

static void sniff_sink(void *ud, const sm_kevent *ev)
{
    (void)ud;
    (void)ev;
}

kineto_sniff_verdict kineto_sniff(const void *head, size_t n)
{
    kineto_dec_opts o = {0, 64u << 10};
    kineto_dec *d = kineto_dec_new(&o);
    if (!d)
        return KINETO_SNIFF_MAYBE;
    kineto_dec_feed(d, head, n, sniff_sink, NULL);
    kineto_sniff_verdict v = KINETO_SNIFF_MAYBE;
    if (d->meta.has_trace_events && d->meta.kineto_keys)
        v = KINETO_SNIFF_YES;
    else if (d->done || d->err == E_CORRUPT)
        v = KINETO_SNIFF_NO;
    kineto_dec_free(d);
    return v;
}
