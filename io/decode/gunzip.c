/* gunzip: see gunzip.h.
 *
 * Why ISA-L's igzip and not zlib or libdeflate (issue 35, measured by
 * tests/bench/bench_inflate.c, one thread, CPU time, medians of 5; figures
 * in BENCHMARKS.md, "Inflate"):
 *
 *   MB/s of JSON                      zlib 1.2.13  ISA-L 2.30  libdeflate 1.14
 *   the samples' 15 .gz (152 MB)          1164        3660         2653
 *   40 synth --kineto .gz (764 MB)        1060        3220         2441
 *
 * ISA-L is the fastest, and it streams: the decoder holds its window and
 * one 256 KiB buffer, as with zlib. libdeflate inflates whole buffers only,
 * so a 1 GB trace would be held whole (and it is slower anyway). zlib
 * stays where it is used for other things (writing .gz, tf traces); no
 * fallback is built, as Debian ships libisal-dev (scripts/install-deps.sh). */
#include "io/decode/gunzip.h"

#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>

/* Compressed bytes go to the inflater in chunks at fixed offsets of the
 * file (0, CHUNK, 2 CHUNK, ...), whatever the pieces they come in: how
 * much output isal_inflate gives before it notices damage depends on the
 * input it was handed, so only a fixed cut makes a corrupt file's events
 * and message the same for every read size (the fuzz target checks it).
 * A piece that covers a whole chunk is inflated in place; only the ends
 * are staged. 64 KiB chunks inflate as fast as 1 MiB ones. */
#define CHUNK ((size_t)64 << 10)

struct gunzip {
    struct inflate_state st;
    char *out;
    size_t cap;
    uint64_t fed;       /* compressed bytes fed so far */
    int err;            /* an isal_inflate failure code, 0 before one */
    int stopped;        /* out said stop: later bytes are ignored */
    size_t nstage;
    uint8_t stage[CHUNK];
};

gunzip *gunzip_new(size_t out_cap)
{
    gunzip *z = malloc(sizeof *z);
    if (!z)
        return NULL;
    if (!out_cap || out_cap > UINT32_MAX || !(z->out = malloc(out_cap))) {
        free(z);
        return NULL;
    }
    z->cap = out_cap;
    z->fed = 0;
    z->err = 0;
    z->stopped = 0;
    z->nstage = 0;
    isal_inflate_init(&z->st);
    z->st.crc_flag = ISAL_GZIP;
    return z;
}

void gunzip_free(gunzip *z)
{
    if (!z)
        return;
    free(z->out);
    free(z);
}

/* The member ended and more bytes follow: they start the next member. */
static void next_member(gunzip *z)
{
    uint8_t *in = z->st.next_in;
    uint32_t n = z->st.avail_in;
    isal_inflate_reset(&z->st);
    z->st.crc_flag = ISAL_GZIP;
    z->st.next_in = in;
    z->st.avail_in = n;
}

/* Inflates what st holds as input: 0 all taken, 1 out said stop, -1
 * corrupt. */
static int inflate_in(gunzip *z, gunzip_out out, void *ud)
{
    for (;;) {
        if (z->st.block_state == ISAL_BLOCK_FINISH) {
            if (z->st.avail_in == 0)
                return 0;
            next_member(z);
        }
        uint32_t in_before = z->st.avail_in;
        z->st.next_out = (uint8_t *)z->out;
        z->st.avail_out = (uint32_t)z->cap;
        int rc = isal_inflate(&z->st);
        size_t got = z->cap - z->st.avail_out;
        if (got && out(ud, z->out, got) != 0)
            return 1;
        if (rc != ISAL_DECOMP_OK) {
            z->err = rc;
            return -1;
        }
        if (z->st.block_state == ISAL_BLOCK_FINISH)
            continue;
        if (z->st.avail_in == 0 && got < z->cap)
            return 0;    /* needs more input */
        if (got == 0 && z->st.avail_in == in_before)
            return 0;    /* no progress either way: wait for more */
    }
}

/* Inflates one chunk (or the staged tail): 0, or -1 corrupt. */
static int inflate_chunk(gunzip *z, const uint8_t *p, size_t n, gunzip_out out, void *ud)
{
    z->st.next_in = (uint8_t *)p;
    z->st.avail_in = (uint32_t)n;
    z->fed += n;
    int rc = inflate_in(z, out, ud);
    z->stopped = rc > 0;
    return rc < 0 ? -1 : 0;
}

int gunzip_feed(gunzip *z, const void *p, size_t n, gunzip_out out, void *ud)
{
    const uint8_t *b = p;
    if (z->err)
        return -1;
    while (n > 0 && !z->stopped) {
        if (z->nstage == 0 && n >= CHUNK) {
            if (inflate_chunk(z, b, CHUNK, out, ud) != 0)
                return -1;
            b += CHUNK;
            n -= CHUNK;
            continue;
        }
        size_t k = CHUNK - z->nstage < n ? CHUNK - z->nstage : n;
        memcpy(z->stage + z->nstage, b, k);
        z->nstage += k;
        b += k;
        n -= k;
        if (z->nstage == CHUNK) {
            z->nstage = 0;
            if (inflate_chunk(z, z->stage, CHUNK, out, ud) != 0)
                return -1;
        }
    }
    return 0;
}

int gunzip_flush(gunzip *z, gunzip_out out, void *ud)
{
    if (z->err)
        return -1;
    size_t n = z->nstage;
    z->nstage = 0;
    return n && !z->stopped ? inflate_chunk(z, z->stage, n, out, ud) : 0;
}

int gunzip_complete(const gunzip *z)
{
    return !z->err && z->fed > 0 && z->nstage == 0 && z->st.block_state == ISAL_BLOCK_FINISH;
}

const char *gunzip_why(const gunzip *z)
{
    switch (z->err) {
    case 0:
        return "";
    case ISAL_INVALID_BLOCK:
        return "invalid block";
    case ISAL_INVALID_SYMBOL:
        return "invalid code";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance";
    case ISAL_INVALID_WRAPPER:
        return "not a gzip header";
    case ISAL_UNSUPPORTED_METHOD:
        return "unsupported compression method";
    case ISAL_INCORRECT_CHECKSUM:
        return "CRC or length check failed";
    default:
        return "inflate failed";
    }
}
