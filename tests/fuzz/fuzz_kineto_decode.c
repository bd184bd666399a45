/* Fuzz target for the Kineto decoder: the input is one trace file (plain
 * or gzip), decoded whole and in pieces of a size taken from its first
 * byte, with a small event bound. Both readings must agree exactly (the
 * events, in order; the metadata; the verdict and its message), every
 * event must keep the record's invariants, and every name must come out
 * of the sanitizing copy free of control bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"

#define MAX_EVENT 4096

typedef struct run {
    int64_t n;
    uint64_t h;
} run;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void check_text(sm_str s)
{
    char out[64];
    size_t w = kineto_str_sanitize(s, out, sizeof out);
    if (w >= sizeof out || out[w] != '\0')
        abort();
    for (size_t i = 0; i < w; i++)
        if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
            abort();
    size_t full = kineto_str_copy(s, out, sizeof out);
    if (full < sizeof out && strlen(out) > full)
        abort();
}

static void on_event(void *ud, const sm_kevent *e)
{
    run *r = ud;
    if (e->cat >= KCAT_COUNT || e->ph <= 0x20 || e->ph >= 0x7f)
        abort();
    if ((e->ph == 'X') != (e->dur_ns != SM_KEV_NONE) || (e->ph == 'X' && e->dur_ns < 0))
        abort();
    if (e->step < -1 || (e->pid_str.ptr && e->pid != SM_KEV_NONE))
        abort();
    check_text(e->name);
    check_text(e->collective);
    r->n++;
    r->h = mix(r->h, &e->ph, 1);
    r->h = mix(r->h, &e->cat, 1);
    r->h = mix(r->h, &e->ts_ns, 8);
    r->h = mix(r->h, &e->dur_ns, 8);
    r->h = mix(r->h, &e->pid, 8);
    r->h = mix(r->h, &e->correlation, 8);
    r->h = mix(r->h, &e->step, 8);
    r->h = mix(r->h, &e->mem_total_allocated, 8);
    r->h = mix(r->h, e->name.ptr, e->name.len);
    r->h = mix(r->h, e->pid_str.ptr, e->pid_str.len);
}

/* m's strings die with the decoder: its backend is copied to backend. */
static int decode(const uint8_t *data, size_t size, size_t piece, run *r, sm_kmeta *m,
                  sm_err *err, char backend[64])
{
    kineto_dec_opts o = {.keep_python = data[0] & 1, .max_event = MAX_EVENT};
    kineto_dec *d = kineto_dec_new(&o);
    if (!d)
        abort();
    for (size_t i = 0; i < size; i += piece)
        if (kineto_dec_feed(d, data + i, size - i < piece ? size - i : piece, on_event, r) != 0)
            break;
    int rc = kineto_dec_finish(d, m, err);
    if (m->n_devices > SM_KMETA_MAX_DEVICES || m->bad_events > m->events ||
        r->n > m->events || !m->backend.ptr || !m->host_name.ptr)
        abort();
    if (m->backend.len >= 64)
        abort();
    memcpy(backend, m->backend.ptr, m->backend.len);
    backend[m->backend.len] = '\0';
    kineto_dec_free(d);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t piece = 1 + data[0] % 61;
    run whole = {0, 0}, parts = {0, 0};
    sm_kmeta mw, mp;
    sm_err ew = {0}, ep = {0};
    char bw[64], bp[64];
    int rw = decode(data, size, size, &whole, &mw, &ew, bw);
    int rp = decode(data, size, piece, &parts, &mp, &ep, bp);
    if (rw != rp || whole.n != parts.n || whole.h != parts.h || mw.events != mp.events ||
        mw.bad_events != mp.bad_events || mw.rank != mp.rank || mw.n_devices != mp.n_devices ||
        mw.has_base != mp.has_base || mw.ts_epoch != mp.ts_epoch ||
        strcmp(bw, bp) != 0 || strcmp(ew.msg, ep.msg) != 0)
        abort();
    kineto_sniff(data, size);
    return 0;
}
