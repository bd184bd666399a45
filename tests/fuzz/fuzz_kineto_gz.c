/* Fuzz target for the Kineto decoder's inflate path (io/decode/gunzip.c,
 * ISA-L): the input is a trace's JSON; the target gzips it in-process
 * (zlib, a level and 1-3 members split where the input's first bytes
 * say) and decodes it both plain and gzip'd, the .gz in pieces of a size
 * taken from the input. The events (in order) and the metadata must be
 * the same, and the verdicts must agree: plain JSON that ends early is
 * "incomplete", its complete .gz is bad JSON; anything else is the same
 * verdict. Then the .gz cut short must be incomplete with a prefix of
 * the events. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/decode/kineto_decode.h"

typedef struct run {
    int64_t n;
    uint64_t h;
    uint64_t at[64];   /* the hash after each of the first 64 events */
} run;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void on_event(void *ud, const sm_kevent *e)
{
    run *r = ud;
    r->h = mix(r->h, &e->ph, 1);
    r->h = mix(r->h, &e->cat, 1);
    r->h = mix(r->h, &e->ts_ns, 8);
    r->h = mix(r->h, &e->dur_ns, 8);
    r->h = mix(r->h, &e->correlation, 8);
    r->h = mix(r->h, e->name.ptr, e->name.len);
    if (r->n < 64)
        r->at[r->n] = r->h;
    r->n++;
}

static int decode(const uint8_t *p, size_t n, size_t piece, run *r, sm_kmeta *m, sm_err *err)
{
    kineto_dec *d = kineto_dec_new(NULL);
    if (!d)
        abort();
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < n; i += piece)
        if (kineto_dec_feed(d, p + i, n - i < piece ? n - i : piece, on_event, r) != 0)
            break;
    int rc = kineto_dec_finish(d, m, err);
    m->backend.ptr = m->host_name.ptr = NULL;
    kineto_dec_free(d);
    return rc;
}

/* Appends one gzip member of p[0..n) at level to out (grown). */
static size_t gz_member(const uint8_t *p, size_t n, int level, uint8_t **out, size_t len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        abort();
    size_t cap = len + deflateBound(&zs, (uLong)n);
    uint8_t *b = realloc(*out, cap ? cap : 1);
    if (!b)
        abort();
    *out = b;
    zs.next_in = (Bytef *)p;
    zs.avail_in = (uInt)n;
    zs.next_out = b + len;
    zs.avail_out = (uInt)(cap - len);
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
        abort();
    len += zs.total_out;
    deflateEnd(&zs);
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3 || size > (1u << 20))
        return 0;
    int level = data[0] % 10;
    size_t piece = 1 + (size_t)data[1] * 31, members = 1 + data[2] % 3;
    const uint8_t *json = data + 3;
    size_t jn = size - 3, gn = 0, at = 0;
    if (jn < 2 || (json[0] == 0x1f && json[1] == 0x8b))
        return 0;   /* the plain reading must be plain */
    uint8_t *gz = NULL;
    for (size_t k = 0; k < members; k++) {
        size_t to = k + 1 == members ? jn : jn * (k + 1) / members;
        gn = gz_member(json + at, to - at, level, &gz, gn);
        at = to;
    }
    run pr, gr, cr;
    sm_kmeta pm, gm, cm;
    sm_err pe = {0}, ge = {0}, ce = {0};
    int prc = decode(json, jn, jn, &pr, &pm, &pe);
    int grc = decode(gz, gn, piece, &gr, &gm, &ge);
    if (pr.n != gr.n || pr.h != gr.h || pm.events != gm.events ||
        pm.bad_events != gm.bad_events || pm.rank != gm.rank || pm.n_devices != gm.n_devices ||
        pm.has_base != gm.has_base || pm.ts_epoch != gm.ts_epoch)
        abort();
    if (prc == KINETO_INCOMPLETE ? grc != -1 : grc != prc)
        abort();
    /* cut inside the last member: incomplete, a prefix of the events */
    size_t cut = gn - 1 - (size_t)data[1] % (gn < 18 ? 1 : 18);
    int crc = decode(gz, cut, piece, &cr, &cm, &ce);
    if (grc == 0 && crc != KINETO_INCOMPLETE && crc != -1)
        abort();
    if (cr.n > gr.n || (cr.n > 0 && cr.n <= 64 && cr.h != gr.at[cr.n - 1]))
        abort();
    free(gz);
    return 0;
}
