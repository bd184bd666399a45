/* Fuzz target: the gzip + TF trace path. Inputs starting with the gzip
 * magic go to tf_trace_load as they are (exercising inflate on broken
 * members); anything else is treated as the JSON text and gzip'd first, so
 * mutations reach the trace parser instead of dying in the CRC check.
 * Every emitted event must have dur >= 0 and the node it was given. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/tf_trace.h"

static void sink(void *ud, const sm_event *e)
{
    (void)ud;
    if (e->dur_us < 0 || e->node.len != 6 || memcmp(e->node.ptr, "algo-1", 6) != 0)
        abort();
    volatile size_t touch = e->name.len + e->phase.len;
    (void)touch;
}

static unsigned char *gzip_buf(const uint8_t *d, size_t n, size_t *out_n)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&zs, n) + 32;
    unsigned char *b = malloc(cap);
    zs.next_in = (Bytef *)d;
    zs.avail_in = (uInt)n;
    zs.next_out = b;
    zs.avail_out = (uInt)cap;
    if (!b || deflate(&zs, Z_FINISH) != Z_STREAM_END) {
        free(b);
        b = NULL;
    }
    *out_n = zs.total_out;
    deflateEnd(&zs);
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    sm_err err;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        tf_trace_load(data, size, "algo-1", 7, sink, NULL, &err);
        tf_trace_load_at(data, size, "algo-1", 7, TF_TRACE_NO_BASE, sink, NULL, &err);
        return 0;
    }
    size_t n;
    unsigned char *g = gzip_buf(data, size, &n);
    if (!g)
        return 0;
    tf_trace_load_at(g, n, "algo-1", 7, 1594662614000000, sink, NULL, &err);
    if (n > 20)   /* and the same stream cut short */
        tf_trace_load(g, n - 9, "algo-1", 7, sink, NULL, &err);
    free(g);
    return 0;
}
