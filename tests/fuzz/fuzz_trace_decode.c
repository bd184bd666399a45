/* Fuzz target: the input's lines are fed, in order, to a decoder using the
 * hand-written reader and to one using only the jansson reference. Both
 * must give the same verdict per line, the same events and the same state
 * (base, open B count); a corrupt line must leave the state unchanged. A
 * line "#rotate" ends the file: both hand their open B's to their own
 * trace carry (B/E pairs across a writer's files) and the next lines are
 * the writer's next file; the carries must stay equal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/trace_carry.h"
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
    int64_t base = trace_decode_base_us(f);
    size_t open = trace_decode_open_count(f);
    int rf = trace_decode_line(f, line, len, sink, &df);
    int rr = trace_decode_line(r, line, len, sink, &dr);
    if (rf != rr || df.h != dr.h || df.n != dr.n || df.n > 1 ||
        trace_decode_base_us(f) != trace_decode_base_us(r) ||
        trace_decode_open_count(f) != trace_decode_open_count(r))
        abort();
    if (rf != 0 && (trace_decode_base_us(f) != base || trace_decode_open_count(f) != open || df.n))
        abort();
}

/* A new file of writer 3-algo-1 for each decoder; 0, or -1 on OOM. */
static int open_files(trace_dec **f, trace_dec **r, trace_carry *cf, trace_carry *cr)
{
    *f = trace_decode_new("algo-1");
    *r = trace_decode_new("algo-1");
    if (!*f || !*r || trace_decode_set_writer(*f, "3-algo-1", cf, 2) != 0 ||
        trace_decode_set_writer(*r, "3-algo-1", cr, 2) != 0) {
        trace_decode_free(*f);
        trace_decode_free(*r);
        return -1;
    }
    trace_decode_set_reference(*r, 1);
    return 0;
}

static void close_files(trace_dec *f, trace_dec *r, const trace_carry *cf,
                        const trace_carry *cr)
{
    digest df = {14695981039346656037ull, 0}, dr = df;
    trace_decode_close_file(f, sink, &df);
    trace_decode_close_file(r, sink, &dr);
    if (df.h != dr.h || df.n != dr.n || trace_decode_open_count(f) != 0 ||
        trace_carry_waiting_b(cf) != trace_carry_waiting_b(cr) ||
        trace_carry_waiting_e(cf) != trace_carry_waiting_e(cr))
        abort();
    trace_decode_free(f);
    trace_decode_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace_carry *cf = trace_carry_new(), *cr = trace_carry_new();
    trace_dec *f = NULL, *r = NULL;
    if (!cf || !cr || open_files(&f, &r, cf, cr) != 0) {
        trace_carry_free(cf);
        trace_carry_free(cr);
        return 0;
    }
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *ln = p, *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        p += len + (nl ? 1 : 0);
        if (len == 7 && !memcmp(ln, "#rotate", 7)) {
            close_files(f, r, cf, cr);
            if (open_files(&f, &r, cf, cr) != 0) {
                f = r = NULL;
                break;
            }
            continue;
        }
        char *line = malloc(len ? len : 1);   /* exactly the line: ASan sees overreads */
        if (!line)
            break;
        memcpy(line, ln, len);
        feed(f, r, line, len);
        free(line);
    }
    if (f)
        close_files(f, r, cf, cr);
    trace_carry_free(cf);
    trace_carry_free(cr);
    return 0;
}
