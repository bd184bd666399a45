/* gz_index: access points into a gzip stream; see gz_index.h. The
 * technique is zlib's examples/zran.c (Mark Adler): inflate with
 * Z_BLOCK to stop at deflate block boundaries, and restart at one with
 * inflatePrime (the bits of its first byte) and inflateSetDictionary (the
 * 32 KiB before it). */
#include "io/source/gz_index.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model/util/vec.h"

#define WIN 32768

enum { RUN_STREAM, RUN_TRAILER, RUN_NEXT, RUN_DONE };

typedef struct gz_point {
    int64_t in, out;        /* compressed offset of the block's first whole byte; output */
    int bits;               /* bits of the byte before in that belong to the block */
    unsigned char *win;     /* the WIN bytes of output before out */
} gz_point;

/* An inflater over the stream from some place on, its output through a
 * WIN-byte ring (whose last WIN bytes are the next point's dictionary). */
typedef struct gz_run {
    z_stream s;
    int init, mode, raw;
    int skip;               /* trailer bytes still to pass (raw start) */
    int64_t in, out;        /* next compressed byte; next output byte */
    int64_t limit;          /* no output past this; -1 none */
    unsigned char ring[WIN];
    size_t ring_pos;
    int fresh_member;       /* nothing inflated yet in this member */
} gz_run;

struct gz_index {
    gz_run r;
    int64_t span, last;
    gz_point *p;
    size_t n, cap;
    int failed;
};

struct gz_reader {
    gz_run r;
    int64_t from;           /* output before this is inflated, not given */
};

/* ---- the inflater ----------------------------------------------------- */

static int run_start(gz_run *r, int raw, sm_err *err)
{
    int rc = r->init ? inflateReset2(&r->s, raw ? -15 : 15 + 16)
                     : inflateInit2(&r->s, raw ? -15 : 15 + 16);
    if (rc != Z_OK)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory (zlib)");
    r->init = 1;
    r->raw = raw;
    r->mode = RUN_STREAM;
    r->fresh_member = 1;
    return 0;
}

typedef int (*point_fn)(void *ud, gz_run *r);

/* Inflates p[0..n) from where r stands: output to out (but what lies
 * before `from`), an access point offered to pt at each block boundary.
 * 0 more wanted, 1 done (stream end, limit, out stopped), -1 with err. */
static int run_feed(gz_run *r, const unsigned char *p, size_t n, int64_t from, gz_out_fn out,
                    void *ud, point_fn pt, void *pud, sm_err *err)
{
    while (n > 0 && r->mode != RUN_DONE) {
        if (r->mode == RUN_TRAILER) {
            size_t k = (size_t)r->skip < n ? (size_t)r->skip : n;
            r->skip -= (int)k, p += k, n -= k, r->in += (int64_t)k;
            if (!r->skip)
                r->mode = RUN_NEXT;
            continue;
        }
        if (r->mode == RUN_NEXT) {
            if (p[0] != 0x1f) {        /* padding after the last member */
                r->mode = RUN_DONE;
                return 1;
            }
            if (run_start(r, 0, err) < 0)
                return -1;
        }
        if (r->limit >= 0 && r->out >= r->limit)
            return 1;
        size_t room = WIN - r->ring_pos;
        if (r->limit >= 0 && (int64_t)room > r->limit - r->out)
            room = (size_t)(r->limit - r->out);
        r->s.next_in = (unsigned char *)p;
        r->s.avail_in = (uInt)(n > (1u << 30) ? 1u << 30 : n);
        r->s.next_out = r->ring + r->ring_pos;
        r->s.avail_out = (uInt)room;
        uInt in0 = r->s.avail_in;
        int zr = inflate(&r->s, Z_BLOCK);
        size_t used = in0 - r->s.avail_in, made = room - r->s.avail_out;
        if (zr == Z_DATA_ERROR && r->fresh_member && !made && r->out > 0 && !r->raw) {
            r->mode = RUN_DONE;       /* not another member: trailing bytes */
            return 1;
        }
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
            return sm_err_set(err, SM_ERR_FORMAT, "gzip stream corrupt at byte %lld (%s)",
                              (long long)r->in, r->s.msg ? r->s.msg : "inflate failed");
        p += used, n -= used, r->in += (int64_t)used;
        if (made || used)
            r->fresh_member = 0;
        const unsigned char *o = r->ring + r->ring_pos;
        int64_t o_at = r->out;
        r->out += (int64_t)made;
        r->ring_pos = (r->ring_pos + made) % WIN;
        if (made && out && r->out > from) {
            size_t skip = o_at < from ? (size_t)(from - o_at) : 0;
            if (out(ud, o + skip, made - skip))
                return 1;
        }
        if (zr == Z_STREAM_END) {
            r->mode = r->raw ? RUN_TRAILER : RUN_NEXT;
            r->skip = 8;
        } else if (pt && (r->s.data_type & 128) && !(r->s.data_type & 64) && pt(pud, r) < 0) {
            return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        } else if (zr == Z_BUF_ERROR && !used && !made) {
            return 0;   /* needs more input than this */
        }
    }
    return r->mode == RUN_DONE || (r->limit >= 0 && r->out >= r->limit) ? 1 : 0;
}

/* ---- the index -------------------------------------------------------- */

gz_index *gz_index_new(int64_t span)
{
    gz_index *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->span = span > 0 ? span : GZ_INDEX_SPAN;
    x->r.limit = -1;
    sm_err e = {0};
    if (run_start(&x->r, 0, &e) < 0) {
        free(x);
        return NULL;
    }
    return x;
}

void gz_index_free(gz_index *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->n; i++)
        free(x->p[i].win);
    free(x->p);
    inflateEnd(&x->r.s);
    free(x);
}

/* A point here when a span has passed since the last. */
static int add_point(void *ud, gz_run *r)
{
    gz_index *x = ud;
    if (r->out - x->last < x->span)
        return 0;
    if (vec_grow(&x->p, &x->cap, x->n + 1, sizeof *x->p, 16) < 0)
        return -1;
    gz_point *pt = &x->p[x->n];
    if (!(pt->win = malloc(WIN)))
        return -1;
    /* the ring from its write position on is the oldest output */
    memcpy(pt->win, r->ring + r->ring_pos, WIN - r->ring_pos);
    memcpy(pt->win + (WIN - r->ring_pos), r->ring, r->ring_pos);
    pt->in = r->in;
    pt->out = r->out;
    pt->bits = r->s.data_type & 7;
    x->last = r->out;
    x->n++;
    return 0;
}

int gz_index_feed(gz_index *x, const void *p, size_t n, gz_out_fn out, void *ud, sm_err *err)
{
    if (x->failed)
        return sm_err_set(err, SM_ERR_FORMAT, "gzip stream already found corrupt");
    int rc = run_feed(&x->r, p, n, 0, out, ud, add_point, x, err);
    if (rc < 0)
        x->failed = 1;
    return rc;
}

int gz_index_done(const gz_index *x)
{
    return x->r.mode == RUN_DONE || x->r.mode == RUN_NEXT;
}

int64_t gz_index_out(const gz_index *x)
{
    return x->r.out;
}

int64_t gz_index_in(const gz_index *x)
{
    return x->r.in;
}

size_t gz_index_points(const gz_index *x)
{
    return x->n;
}

/* ---- readers ---------------------------------------------------------- */

gz_reader *gz_reader_new(const gz_index *x, int64_t off, int64_t *comp_off, sm_err *err)
{
    if (off < 0 || off > x->r.out)
        return sm_err_set(err, SM_ERR_IO, "offset %lld past the archive's %lld bytes",
                          (long long)off, (long long)x->r.out), NULL;
    gz_reader *g = calloc(1, sizeof *g);
    if (!g)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    g->r.limit = -1;
    g->from = off;
    size_t lo = 0, hi = x->n;   /* the last point at or before off */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->p[mid].out <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    const gz_point *pt = lo ? &x->p[lo - 1] : NULL;
    if (run_start(&g->r, pt != NULL, err) < 0) {
        free(g);
        return NULL;
    }
    if (pt) {
        g->r.in = pt->in - (pt->bits ? 1 : 0);
        g->r.out = pt->out;
        g->r.skip = pt->bits;   /* the first byte's bits are primed at the first feed */
        g->r.mode = RUN_STREAM;
        inflateSetDictionary(&g->r.s, pt->win, WIN);
        g->r.fresh_member = 0;
    }
    *comp_off = g->r.in;
    return g;
}

void gz_reader_free(gz_reader *g)
{
    if (!g)
        return;
    inflateEnd(&g->r.s);
    free(g);
}

int gz_reader_feed(gz_reader *g, const void *p, size_t n, gz_out_fn out, void *ud, sm_err *err)
{
    const unsigned char *b = p;
    if (g->r.raw && g->r.skip && g->r.mode == RUN_STREAM && n) {
        /* a point inside a byte: its high bits start the block */
        int bits = g->r.skip;
        if (inflatePrime(&g->r.s, bits, b[0] >> (8 - bits)) != Z_OK)
            return sm_err_set(err, SM_ERR_FORMAT, "gzip access point unusable");
        g->r.skip = 0, b++, n--, g->r.in++;
    }
    return run_feed(&g->r, b, n, g->from, out, ud, NULL, NULL, err);
}

void gz_reader_limit(gz_reader *g, int64_t upto)
{
    g->r.limit = upto;
}

int64_t gz_reader_out(const gz_reader *g)
{
    return g->r.out > g->from ? g->r.out : g->from;
}

int64_t gz_reader_in(const gz_reader *g)
{
    return g->r.in;
}
