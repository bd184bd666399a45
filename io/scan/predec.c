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
    b->cap = cap;
    return 0;
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
            return;
        predec_rec *r = &b->v[b->n++];
        r->line = line;
        r->len = n;
        r->nl = nl;
        r->kind = kind;
        if (kind == PREDEC_TRACE)
            r->ok = trace_decode_parse(line, n, &r->t) == 1;
        else
            r->ok = sys_decode_line_fast(line, n, &r->s, sc) == 0 && r->s.extra.len == 0;
    }
}

void predec_buf_free(predec_buf *b)
{
    free(b->v);
    memset(b, 0, sizeof *b);
}
