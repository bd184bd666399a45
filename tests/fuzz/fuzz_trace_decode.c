/* Fuzz target: the input's lines are fed, in order, to a decoder using the
 * hand-written reader and to one using only the jansson reference. Both
 * must give the same verdict per line, the same events and the same state
 * (base, open B count); a corrupt line must leave the state unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/trace_decode.h"

typedef struct digest {
    uint64_t h;
    size_t n;
} digest;

static void mix(digest *d, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++)
        d->h = (d->h ^ b[i]) * 1099511628211ull;
}

static void sink(void *ud, const sm_event *e)
{
    digest *d = ud;
    if (e->dur_us < 0)
        abort();
    mix(d, e->phase.ptr, e->phase.len);
    mix(d, "|", 1);
    mix(d, e->name.ptr, e->name.len);
    mix(d, "|", 1);
    mix(d, e->node.ptr, e->node.len);
    int64_t nums[5] = {e->start_us, e->dur_us, e->step, e->pid, e->tid};
    mix(d, nums, sizeof nums);
    d->n++;
}

static void feed(trace_dec *f, trace_dec *r, const char *line, size_t len)
{
    digest df = {14695981039346656037ull, 0}, dr = df;
    int64_t base = tracedec_base_us(f);
    size_t open = tracedec_open_count(f);
    int rf = tracedec_line(f, line, len, sink, &df);
    int rr = tracedec_line(r, line, len, sink, &dr);
    if (rf != rr || df.h != dr.h || df.n != dr.n || df.n > 1 ||
        tracedec_base_us(f) != tracedec_base_us(r) ||
        tracedec_open_count(f) != tracedec_open_count(r))
        abort();
    if (rf != 0 && (tracedec_base_us(f) != base || tracedec_open_count(f) != open || df.n))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace_dec *f = tracedec_new("algo-1"), *r = tracedec_new("algo-1");
    if (!f || !r) {
        tracedec_free(f);
        tracedec_free(r);
        return 0;
    }
    tracedec_set_reference(r, 1);
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line = malloc(len ? len : 1);
        if (!line)
            break;
        memcpy(line, p, len);
        feed(f, r, line, len);
        free(line);
        p += len + (nl ? 1 : 0);
    }
    tracedec_free(f);
    tracedec_free(r);
    return 0;
}
