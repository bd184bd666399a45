/* gpu_trace_calls: a trace's launch calls, found by correlation id at the
 * end of the file (definitions in gpu_trace.h).
 *
 * The calls are logged as varints in blocks of GPU_CALL_BLOCK (each
 * block's first call written whole, the others as deltas to the one
 * before), with the first correlation id of each block in an index: about
 * 5 to 7 bytes a call instead of 32. A lookup is a binary search over the
 * blocks and a scan of one (the block decoded last is kept, as rows ask
 * for their calls roughly in order). That needs the log sorted by id
 * (then file order, so a duplicate id finds its first call). PyTorch
 * numbers the calls as it makes them, but writes them thread after
 * thread in places: the log is a few sorted runs, merged at the end into
 * a sorted log. Past GPU_CALL_RUNS runs the calls are decoded into an
 * array and sorted in place instead. */
#include <stdint.h>
#include <stdlib.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/heap_sort.h"
#include "model/util/lbound.h"
#include "model/util/vec.h"

#define GPU_CALL_RUNS 1024

/* By correlation id, then file order (seq): what a stable sort gives,
 * in place. */
HEAP_SORT_DEFINE(sort_calls, gpu_call, A.corr < B.corr || (A.corr == B.corr && A.seq < B.seq))

static int call_after(const gpu_call *a, const gpu_call *b)
{
    return a->corr > b->corr || (a->corr == b->corr && a->seq > b->seq);
}

/* Appends c (its seq as given) to k's log. 0 or -1 on OOM (nothing
 * logged). */
static int put(gpu_calls *k, const gpu_call *c)
{
    if (k->n >= UINT32_MAX || varbuf_reserve(&k->log, 40) != 0)
        return -1;
    if (k->n % GPU_CALL_BLOCK == 0) {
        if (vec_grow(&k->index, &k->cap_index, k->n_index + 1, sizeof *k->index, 64) != 0)
            return -1;
        k->index[k->n_index++] = (gpu_call_block){c->corr, k->log.n};
    }
    if (k->n == 0 || call_after(&k->last, c)) {
        if (k->n_runs >= GPU_CALL_RUNS)
            k->too_many = 1;
        else if (vec_grow(&k->runs, &k->cap_runs, k->n_runs + 1, sizeof *k->runs, 4) != 0)
            return -1;
        else
            k->runs[k->n_runs++] = k->n;
    }
    gpu_call base = k->n % GPU_CALL_BLOCK ? k->last : (gpu_call){0};
    (void)varbuf_put_signed(&k->log, varbuf_diff(c->corr, base.corr));
    (void)varbuf_put_signed(&k->log, (int64_t)c->seq - (int64_t)base.seq);
    (void)varbuf_put_signed(&k->log, varbuf_diff(c->ts, base.ts));
    (void)varbuf_put(&k->log, (uint64_t)(c->end - c->ts) << 2 | c->kind);
    k->last = *c;
    k->n++;
    return 0;
}

int gpu_trace_call_put(gpu_trace *t, const gpu_call *c)
{
    return put(&t->calls, c);
}

/* Call i of the log, at *pos, into *c, which holds call i - 1 (unless i
 * starts a block). */
static void read_call(const gpu_calls *k, size_t i, size_t *pos, gpu_call *c)
{
    if (i % GPU_CALL_BLOCK == 0)
        *c = (gpu_call){0};
    c->corr = varbuf_add(c->corr, varbuf_get_signed(&k->log, pos));
    c->seq = (uint32_t)((int64_t)c->seq + varbuf_get_signed(&k->log, pos));
    c->ts = varbuf_add(c->ts, varbuf_get_signed(&k->log, pos));
    uint64_t v = varbuf_get(&k->log, pos);
    c->end = c->ts + (int64_t)(v >> 2);
    c->kind = (uint32_t)(v & 3);
}

/* A sorted run being merged: its next call cur (number i, the run ends
 * before end), and where the one after it starts in the log. */
typedef struct run_cursor {
    size_t i, end, pos;
    gpu_call cur;
} run_cursor;

static void cursor_seek(const gpu_calls *k, run_cursor *r, size_t i, size_t end)
{
    size_t first = i / GPU_CALL_BLOCK * GPU_CALL_BLOCK;
    r->i = i;
    r->end = end;
    r->pos = k->index[first / GPU_CALL_BLOCK].pos;
    for (size_t j = first; j <= i; j++)
        read_call(k, j, &r->pos, &r->cur);
}

/* The heap of cursors, the smallest call on top. */
static void sift_down(run_cursor **h, size_t n, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && call_after(&h[m]->cur, &h[l]->cur))
            m = l;
        if (r < n && call_after(&h[m]->cur, &h[r]->cur))
            m = r;
        if (m == i)
            return;
        run_cursor *x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

/* k's runs merged into one sorted log, which replaces k's. 0 or -1. */
static int merge_runs(gpu_calls *k)
{
    size_t nr = k->n_runs;
    run_cursor *cur = malloc(nr * sizeof *cur);
    run_cursor **heap = malloc(nr * sizeof *heap);
    /* the merged log is about as long as the runs' (a few ids and seqs
     * jump further): sized once rather than doubled past it */
    size_t cap = k->log.n + k->log.n / 8 + 64;
    gpu_calls out = {.log = {malloc(cap), 0, cap},
                     .index = malloc((k->n_index ? k->n_index : 1) * sizeof *out.index),
                     .cap_index = k->n_index};
    int rc = cur && heap && out.log.p && out.index ? 0 : -1;
    for (size_t r = 0; r < nr && rc == 0; r++) {
        cursor_seek(k, &cur[r], k->runs[r], r + 1 < nr ? k->runs[r + 1] : k->n);
        heap[r] = &cur[r];
    }
    for (size_t i = nr / 2; rc == 0 && i-- > 0;)
        sift_down(heap, nr, i);
    for (size_t n = nr; rc == 0 && n > 0;) {
        run_cursor *r = heap[0];
        rc = put(&out, &r->cur);
        if (++r->i < r->end)
            read_call(k, r->i, &r->pos, &r->cur);
        else
            heap[0] = heap[--n];
        sift_down(heap, n, 0);
    }
    free(cur);
    free(heap);
    if (rc != 0) {
        varbuf_free(&out.log);
        free(out.index);
        free(out.runs);
        return -1;
    }
    gpu_trace_calls_free(k);
    *k = out;
    return 0;
}

/* Every call decoded into an array (the log freed) and sorted. */
static int sort_array(gpu_calls *k)
{
    gpu_call *a = malloc(k->n * sizeof *a);
    if (!a)
        return -1;
    gpu_call c = {0};
    for (size_t i = 0, pos = 0; i < k->n; i++) {
        read_call(k, i, &pos, &c);
        a[i] = c;
    }
    size_t n = k->n;
    gpu_trace_calls_free(k);
    k->array = a;
    k->n = n;
    sort_calls(a, n);
    return 0;
}

int gpu_trace_calls_ready(gpu_trace *t)
{
    gpu_calls *k = &t->calls;
    if (k->n_runs <= 1 && !k->too_many)
        return 0;
    return k->too_many ? sort_array(k) : merge_runs(k);
}

/* Block b decoded into the cache. */
static void decode_block(gpu_calls *k, size_t b)
{
    if (k->cached == b + 1)
        return;
    size_t pos = k->index[b].pos, first = b * GPU_CALL_BLOCK;
    size_t n = k->n - first < GPU_CALL_BLOCK ? k->n - first : GPU_CALL_BLOCK;
    gpu_call c = {0};
    for (size_t i = 0; i < n; i++) {
        read_call(k, first + i, &pos, &c);
        k->block[i] = c;
    }
    k->n_block = n;
    k->cached = b + 1;
}

static int block_before(const void *ctx, size_t i)
{
    const gpu_calls *k = ctx;
    return k->index[i].corr < k->key;
}

static int call_before(const void *ctx, size_t i)
{
    const gpu_calls *k = ctx;
    return k->array[i].corr < k->key;
}

const gpu_call *gpu_trace_find_call(gpu_trace *t, int64_t corr)
{
    gpu_calls *k = &t->calls;
    if (corr == SM_KEV_NONE || !k->n)
        return NULL;
    k->key = corr;
    if (k->array) {
        size_t i = lbound(k->n, call_before, k);
        return i < k->n && k->array[i].corr == corr ? &k->array[i] : NULL;
    }
    /* the first call at or past corr is in the last block that starts
     * below it, else it is the next block's first */
    size_t j = lbound(k->n_index, block_before, k);
    decode_block(k, j ? j - 1 : 0);
    for (size_t i = 0; i < k->n_block; i++)
        if (k->block[i].corr >= corr)
            return k->block[i].corr == corr ? &k->block[i] : NULL;
    if (j >= k->n_index || k->index[j].corr != corr)
        return NULL;
    decode_block(k, j);
    return &k->block[0];
}

void gpu_trace_calls_free(gpu_calls *k)
{
    varbuf_free(&k->log);
    free(k->index);
    free(k->runs);
    free(k->array);
    *k = (gpu_calls){0};
}

size_t gpu_trace_calls_bytes(const gpu_trace *t)
{
    const gpu_calls *k = &t->calls;
    return k->log.cap + k->cap_index * sizeof *k->index + k->cap_runs * sizeof *k->runs +
           (k->array ? k->n * sizeof *k->array : 0);
}
