/* Fuzz target for the whole-file JSON fallback (json_split → trace_decode):
 * the input is one document, split whole and in pieces of a size taken
 * from its first byte. Both must give the same elements; when jansson
 * reads the document as an array, the elements must be exactly its
 * elements (each parses to an equal value), none dropped, none partial;
 * every element also goes through the trace decoder. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/json_split.h"
#include "io/decode/trace_decode.h"

#define MAX_ELEM 4096
#define MAX_KEEP 256

typedef struct run {
    size_t n, dropped;
    uint64_t h[MAX_KEEP];
    json_t *arr;           /* jansson's reading, or NULL */
    int mismatch;
    trace_dec *d;
} run;

static uint64_t hash(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h ^ n;
}

static void sink(void *ud, const sm_event *e)
{
    (void)ud;
    if (e->dur_us < 0)
        abort();
}

static void on_elem(void *ud, const char *p, size_t n)
{
    run *r = ud;
    if (!p) {
        r->dropped++;
        return;
    }
    if (n == 0 || n > MAX_ELEM)
        abort();
    if (r->n < MAX_KEEP)
        r->h[r->n] = hash(p, n);
    if (r->arr) {
        json_t *v = json_loadb(p, n, JSON_DECODE_ANY, NULL);
        if (!v || !json_equal(v, json_array_get(r->arr, r->n)))
            r->mismatch = 1;
        json_decref(v);
    }
    if (r->d)
        trace_decode_line(r->d, p, n, sink, NULL);
    r->n++;
}

static int split(const uint8_t *data, size_t size, size_t piece, run *r)
{
    jsplit *s = json_split_new(MAX_ELEM);
    if (!s)
        return -1;
    for (size_t i = 0; i < size; i += piece) {
        json_split_feed(s, (const char *)data + i, size - i < piece ? size - i : piece, on_elem, r);
        if (json_split_held(s) > MAX_ELEM)
            abort();
    }
    int partial = json_split_finish(s);
    json_split_free(s);
    return partial;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t piece = size ? 1 + data[0] % 64 : 1;
    run whole = {0}, parts = {0};
    whole.d = trace_decode_new("algo-1");
    json_t *doc = json_loadb((const char *)data, size, 0, NULL);
    parts.arr = json_is_array(doc) ? doc : NULL;
    int pw = split(data, size, size ? size : 1, &whole);
    int pp = split(data, size, piece, &parts);
    if (pw != pp || whole.n != parts.n || whole.dropped != parts.dropped)
        abort();
    for (size_t i = 0; i < whole.n && i < MAX_KEEP; i++)
        if (whole.h[i] != parts.h[i])
            abort();
    /* A valid array whose elements fit: exactly jansson's elements. */
    if (parts.arr && !parts.dropped &&
        (pp || parts.mismatch || parts.n != json_array_size(parts.arr)))
        abort();
    json_decref(doc);
    trace_decode_free(whole.d);
    return 0;
}
