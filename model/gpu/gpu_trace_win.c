/* gpu_trace_win: a trace's analysed windows (HACKING §3, gpu_impl.h):
 * which window an event belongs to, and what the end's passes over the
 * GPU rows hand each window (its rows, the GPU's busy time in it). The
 * windows' analysis: gpu_trace_wrun.c.
 *
 * A window's graph takes the events HTA's clipping takes (its start to its
 * end, both included: a boundary event is in two); its tables and idle
 * causes take the events it owns, those that start in [its start, the next
 * window's start), the last window's to the cutoff, so that a sum over
 * windows counts each event once. */
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"
#include "model/util/fnv.h"
#include "model/util/vec.h"

int gpu_trace_wins_make(gpu_trace *t, int64_t cutoff)
{
    size_t n = 0;
    while (n < t->n_ksteps && t->ksteps[n].ts < cutoff)
        n++;
    int whole = t->n_ksteps == 0 && t->first_ts_us != INT64_MAX;
    size_t m = whole ? 1 : n;
    gpu_acc *a = &t->res;
    a->wins = calloc(m ? m : 1, sizeof *a->wins);
    t->ws = calloc(m ? m : 1, sizeof *t->ws);
    if (!a->wins || !t->ws)
        return -1;
    a->n_wins = a->cap_wins = m;
    for (size_t i = 0; i < m; i++) {
        gpu_win *w = &a->wins[i];
        w->start_us = whole ? t->first_ts_us : t->ksteps[i].ts;
        w->end_us = whole ? (t->last_end_us > t->first_ts_us ? t->last_end_us : t->first_ts_us)
                          : t->ksteps[i].end;
        w->step = whole ? -1 : t->ksteps[i].n;
    }
    return 0;
}

void gpu_trace_wins_free(gpu_trace *t)
{
    free(t->glast);
    t->glast = NULL;
    t->n_glast = t->cap_glast = 0;
    idmap_free(&t->glast_map);
    for (size_t i = 0; t->ws && i < t->res.n_wins; i++) {
        varbuf_free(&t->ws[i].rows);
    }
    free(t->ws);
    t->ws = NULL;
}

int64_t gpu_trace_win_own(const gpu_trace *t, int64_t ts)
{
    const gpu_win *w = t->res.wins;
    size_t lo = 0, hi = t->res.n_wins;
    while (lo < hi) {   /* the first window starting after ts */
        size_t mid = lo + (hi - lo) / 2;
        if (w[mid].start_us <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int64_t)lo - 1;
}

static int put_row(gpu_trace *t, size_t w, const gpu_row *r, unsigned flags)
{
    gpu_wstate *s = &t->ws[w];
    if (varbuf_reserve(&s->rows, 70) != 0)
        return -1;
    uint8_t q = t->qbits ? t->qbits[r->idx] : 0;
    (void)varbuf_put(&s->rows, flags | (unsigned)q << 3);
    (void)varbuf_put_signed(&s->rows, r->ts - t->res.wins[w].start_us);
    (void)varbuf_put(&s->rows, (uint64_t)(r->end - r->ts));
    (void)varbuf_put(&s->rows, r->name);
    (void)varbuf_put_signed(&s->rows, r->stream);
    (void)varbuf_put_signed(&s->rows, varbuf_diff(r->corr, s->last_corr));
    (void)varbuf_put_signed(&s->rows, varbuf_diff(r->seq, s->last_seq));
    s->last_corr = r->corr;
    s->last_seq = r->seq;
    return 0;
}

typedef struct glast_key {
    const gpu_row *rows;
    int64_t corr;
} glast_key;

static int glast_eq(const void *item, const void *key)
{
    const glast_key *k = key;
    return k->rows[(uintptr_t)item - 1].corr == k->corr;
}

/* A row of a graph launch: HTA links a call to one row, the last of its
 * correlation in the file (trace.py transform_correlation_to_index: each
 * match overwrites the call's index_correlation), and clips the others
 * out of every window's graph; the last one is kept until the rows end. */
static int graph_row(gpu_trace *t, const gpu_row *r)
{
    uint64_t h = fnv_add(FNV_SEED, &r->corr, sizeof r->corr);
    glast_key k = {t->glast, r->corr};
    void *it = idmap_find(&t->glast_map, h, glast_eq, &k);
    if (it) {
        t->glast[(uintptr_t)it - 1] = *r;
        return 0;
    }
    if (vec_grow(&t->glast, &t->cap_glast, t->n_glast + 1, sizeof *t->glast, 16) != 0 ||
        idmap_put(&t->glast_map, h, (void *)(uintptr_t)(t->n_glast + 1)) != 0)
        return -1;
    t->glast[t->n_glast++] = *r;
    return 0;
}

/* r into the graphs of the windows that hold its call's start (HTA clips
 * by the launch: calls that start in [start, end] and last more than 0);
 * own: r's own window, whose entry is the same. *own_done: it was. */
static int graph_windows(gpu_trace *t, const gpu_row *r, const gpu_call *c, int64_t own,
                         int *own_done)
{
    for (int64_t j = gpu_trace_win_own(t, c->ts); j >= 0; j--) {
        if (t->res.wins[j].end_us < c->ts)
            break;
        unsigned f = GPU_WR_GRAPH | (j == own ? GPU_WR_OWN : 0);
        *own_done |= j == own;
        if (put_row(t, (size_t)j, r, f) != 0)
            return -1;
    }
    return 0;
}

int gpu_trace_win_rows_end(gpu_trace *t)
{
    int rc = 0, done = 0;
    for (size_t i = 0; rc == 0 && i < t->n_glast; i++) {
        const gpu_row *r = &t->glast[i];
        const gpu_call *c = gpu_trace_find_call(t, r->corr);
        if (c && c->end > c->ts)
            rc = graph_windows(t, r, c, -1, &done);
    }
    free(t->glast);
    t->glast = NULL;
    t->n_glast = t->cap_glast = 0;
    idmap_free(&t->glast_map);
    idmap_init(&t->glast_map);
    return rc;
}

int gpu_trace_win_row(gpu_trace *t, const gpu_row *r, const gpu_call *c)
{
    int64_t own = gpu_trace_win_own(t, r->ts);
    int own_done = 0;
    if (c && c->kind == GPU_CALL_GRAPH) {
        if (graph_row(t, r) != 0)
            return -1;
    } else if (c && c->end > c->ts && graph_windows(t, r, c, own, &own_done) != 0) {
        return -1;
    }
    if (own < 0 && t->res.n_wins && r->end > t->res.wins[0].start_us)
        return put_row(t, 0, r, GPU_WR_BUSY);   /* its time in the first window is busy */
    return own >= 0 && !own_done ? put_row(t, (size_t)own, r, GPU_WR_OWN) : 0;
}
