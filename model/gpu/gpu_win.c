/* gpu_win: a window's variable parts (gpu_impl.h, gpu_win_rows) as varints
 * in its acc's wlog: about 3 bytes a top event, 6 an idle cause, 5 a
 * table row. Written once when the window is analysed or merged, read
 * when a summary or a time window sums windows. */
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/vec.h"

/* The figures, in one fixed order (most are small or 0: a byte each). */
#define FIG_FIELDS(F, f)                                                            \
    F(f.compute_us) F(f.comm_us) F(f.memory_us) F(f.idle_us) F(f.ktype_us[1])      \
    F(f.ktype_us[2]) F(f.ktype_us[3]) F(f.ktype_us[4]) F(f.ktype_us[5])            \
    F(f.ktype_us[6]) F(f.ktype_us[7]) F(f.comm_comp_us) F(f.host_wait_us)           \
    F(f.kernel_wait_us) F(f.other_us) F(f.launches) F(f.short_kernels)             \
    F(f.outliers) F(f.delay_sum_us) F(f.path_us) F(f.bound_us[0]) F(f.bound_us[1]) \
    F(f.bound_us[2]) F(f.bound_us[3]) F(f.bound_us[4]) F(f.bound_us[5])             \
    F(f.gap_us) F(f.idle_other_us) F(f.host_comm_us) F(f.host_comm_idle_us)         \
    F(f.cp_status)

static void put_rows(varbuf *b, const gpu_win_rows *r)
{
#define PUT(x) (void)varbuf_put_signed(b, (x));
    FIG_FIELDS(PUT, r->fig)
#undef PUT
    (void)varbuf_put(b, r->n_top);
    for (size_t i = 0; i < r->n_top; i++) {
        const gpu_cpath_top *t = &r->top[i];
        (void)varbuf_put(b, t->table);
        (void)varbuf_put(b, t->name);
        (void)varbuf_put_signed(b, t->us);
    }
    (void)varbuf_put(b, r->n_idle);
    for (size_t i = 0; i < r->n_idle; i++) {
        const gpu_idle_row *x = &r->idle[i];
        (void)varbuf_put(b, (uint64_t)x->table << 4 | x->kind);
        (void)varbuf_put(b, x->name);
        (void)varbuf_put_signed(b, x->tid);
        (void)varbuf_put(b, (uint64_t)x->overlap_us);
    }
    (void)varbuf_put(b, r->n_threads);
    for (size_t i = 0; i < r->n_threads; i++) {
        (void)varbuf_put_signed(b, r->threads[i].tid);
        (void)varbuf_put(b, (uint64_t)r->threads[i].busy_us);
    }
    /* table rows: a name's delta to the row before's (signed: a merge's
     * renaming may change their order), count, sum, sum - self (0 for a
     * leaf; kernels have none), max */
    for (int t = 0; t < GPU_NT_N; t++) {
        (void)varbuf_put(b, r->n_rows[t]);
        int64_t prev = 0;
        for (size_t i = 0; i < r->n_rows[t]; i++) {
            const gpu_wrow *w = &r->rows[t][i];
            int64_t name = w->name;
            (void)varbuf_put_signed(b, name - prev);
            prev = name;
            (void)varbuf_put(b, (uint64_t)w->count);
            (void)varbuf_put(b, (uint64_t)w->sum_us);
            if (t != GPU_NT_KERNEL)
                (void)varbuf_put(b, (uint64_t)(w->sum_us - w->self_us));
            (void)varbuf_put(b, (uint64_t)w->max_us);
        }
    }
}

/* The trace's own segment, made on first use. */
static gpu_wblob *own_blob(gpu_acc *a)
{
    if (a->n_segs)
        return a->segs[0].blob;
    gpu_wblob *b = calloc(1, sizeof *b);
    a->segs = calloc(1, sizeof *a->segs);
    if (!b || !a->segs) {
        free(b);
        free(a->segs);
        a->segs = NULL;
        return NULL;
    }
    b->refs = 1;
    a->segs[0].blob = b;
    a->n_segs = a->cap_segs = 1;
    return b;
}

#define CHUNK (64 << 10)

size_t gpu_wblob_bytes(const gpu_wblob *b)
{
    size_t n = b->cap_chunks * sizeof *b->chunks;
    for (size_t i = 0; i < b->n_chunks; i++)
        n += b->chunks[i].cap;
    return n;
}

void gpu_wblob_free(gpu_wblob *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n_chunks; i++)
        varbuf_free(&b->chunks[i]);
    free(b->chunks);
    free(b);
}

/* The chunk a record of at most most bytes goes to: the last, or a new one
 * (as large as the record when it is larger than a chunk); NULL on OOM.
 * The last chunk's slack is given back first. */
static varbuf *chunk_for(gpu_wblob *b, size_t most)
{
    if (b->n_chunks && b->chunks[b->n_chunks - 1].cap - b->chunks[b->n_chunks - 1].n >= most)
        return &b->chunks[b->n_chunks - 1];
    if (b->n_chunks)
        varbuf_fit(&b->chunks[b->n_chunks - 1]);
    if (b->n_chunks >= UINT32_MAX ||
        vec_grow(&b->chunks, &b->cap_chunks, b->n_chunks + 1, sizeof *b->chunks, 8) != 0)
        return NULL;
    varbuf *c = &b->chunks[b->n_chunks];
    memset(c, 0, sizeof *c);
    if (varbuf_reserve(c, most > CHUNK ? most : CHUNK) != 0)
        return NULL;
    b->n_chunks++;
    return c;
}

int gpu_win_rows_write(gpu_acc *a, gpu_win *w, const gpu_win_rows *r)
{
    gpu_wblob *blob = own_blob(a);
    size_t most = 8 + 40 * 10 + r->n_top * 30 + r->n_idle * 40 + r->n_threads * 20;
    for (int t = 0; t < GPU_NT_N; t++)
        most += 10 + r->n_rows[t] * 50;
    varbuf *c = blob && most <= UINT32_MAX ? chunk_for(blob, most) : NULL;
    if (!c)
        return -1;
    w->log_at = (uint64_t)(blob->n_chunks - 1) << 32 | c->n;
    w->seg = 0;
    size_t at = c->n;
    put_rows(c, r);
    w->log_len = (uint32_t)(c->n - at);
    return 0;
}

/* The names of r as the acc names them. */
static void rows_rename(const gpu_wseg *seg, gpu_win_rows *r)
{
    for (size_t i = 0; i < r->n_top; i++)
        if (seg->map[r->top[i].table])
            r->top[i].name = seg->map[r->top[i].table][r->top[i].name];
    for (size_t i = 0; i < r->n_idle; i++)
        if (seg->map[r->idle[i].table])
            r->idle[i].name = seg->map[r->idle[i].table][r->idle[i].name];
    for (int t = 0; t < GPU_NT_N; t++)
        for (size_t i = 0; seg->map[t] && i < r->n_rows[t]; i++)
            r->rows[t][i].name = seg->map[t][r->rows[t][i].name];
}

void gpu_win_rows_free(gpu_win_rows *r)
{
    for (int t = 0; t < GPU_NT_N; t++) {
        free(r->rows[t]);
        r->rows[t] = NULL;
        r->n_rows[t] = 0;
    }
}

int gpu_win_rows_read(const gpu_acc *a, const gpu_win *w, gpu_win_rows *r)
{
    memset(r, 0, sizeof *r);
    if (w->log_len == 0 || w->seg >= a->n_segs)
        return 0;
    const gpu_wseg *seg = &a->segs[w->seg];
    const varbuf *b = &seg->blob->chunks[w->log_at >> 32];
    size_t pos = (size_t)(w->log_at & UINT32_MAX);
#define GET(x) x = varbuf_get_signed(b, &pos);
    FIG_FIELDS(GET, r->fig)
#undef GET
    r->n_top = (size_t)varbuf_get(b, &pos);
    for (size_t i = 0; i < r->n_top; i++) {
        r->top[i].table = (uint8_t)varbuf_get(b, &pos);
        r->top[i].name = (uint32_t)varbuf_get(b, &pos);
        r->top[i].us = varbuf_get_signed(b, &pos);
    }
    r->n_idle = (size_t)varbuf_get(b, &pos);
    for (size_t i = 0; i < r->n_idle; i++) {
        uint64_t tk = varbuf_get(b, &pos);
        r->idle[i].table = (uint8_t)(tk >> 4);
        r->idle[i].kind = (uint8_t)(tk & 15);
        r->idle[i].name = (uint32_t)varbuf_get(b, &pos);
        r->idle[i].tid = varbuf_get_signed(b, &pos);
        r->idle[i].overlap_us = (int64_t)varbuf_get(b, &pos);
    }
    r->n_threads = (size_t)varbuf_get(b, &pos);
    for (size_t i = 0; i < r->n_threads; i++) {
        r->threads[i].tid = varbuf_get_signed(b, &pos);
        r->threads[i].busy_us = (int64_t)varbuf_get(b, &pos);
    }
    for (int t = 0; t < GPU_NT_N; t++) {
        size_t n = (size_t)varbuf_get(b, &pos);
        r->rows[t] = malloc((n ? n : 1) * sizeof *r->rows[t]);
        if (!r->rows[t]) {
            gpu_win_rows_free(r);
            return -1;
        }
        r->n_rows[t] = n;
        int64_t name = 0;
        for (size_t i = 0; i < n; i++) {
            gpu_wrow *x = &r->rows[t][i];
            name += varbuf_get_signed(b, &pos);
            x->name = (uint32_t)name;
            x->count = (int64_t)varbuf_get(b, &pos);
            x->sum_us = (int64_t)varbuf_get(b, &pos);
            x->self_us = t == GPU_NT_KERNEL ? x->sum_us
                                            : x->sum_us - (int64_t)varbuf_get(b, &pos);
            x->max_us = (int64_t)varbuf_get(b, &pos);
        }
    }
    rows_rename(seg, r);
    return 0;
}
