/* trace_carry: see trace_carry.h. Waiting items sit in two plain arrays
 * in arrival order: they are rare (one per event that spans a rotation)
 * and bounded, so a linear search per lookup costs less than an index
 * would to keep. */
#include "io/decode/trace_carry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "model/util/vec.h"

typedef struct side {
    tcarry_item *v;
    size_t n, cap;
} side;

typedef struct writer_key {
    char *process;
    int kind;
} writer_key;

struct trace_carry {
    side b, e;
    writer_key *w;
    size_t nw, capw;
    size_t dropped;
    /* The scanner's node workers share one carry (each its own writers):
     * every call takes it. */
    pthread_mutex_t mu;
};

trace_carry *trace_carry_new(void)
{
    trace_carry *c = calloc(1, sizeof(trace_carry));
    if (c)
        pthread_mutex_init(&c->mu, NULL);
    return c;
}

void trace_carry_item_clear(tcarry_item *it)
{
    free(it->name);
    free(it->phase);
    it->name = it->phase = NULL;
}

static void side_free(side *s)
{
    for (size_t i = 0; i < s->n; i++)
        trace_carry_item_clear(&s->v[i]);
    free(s->v);
}

void trace_carry_free(trace_carry *c)
{
    if (!c)
        return;
    side_free(&c->b);
    side_free(&c->e);
    for (size_t i = 0; i < c->nw; i++)
        free(c->w[i].process);
    free(c->w);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static int writer_of(trace_carry *c, const char *process, int kind)
{
    for (size_t i = 0; i < c->nw; i++)
        if (c->w[i].kind == kind && !strcmp(c->w[i].process, process))
            return (int)i;
    if (c->nw == TCARRY_WRITERS)
        return -1;
    if (vec_grow(&c->w, &c->capw, c->nw + 1, sizeof *c->w, 16) != 0)
        return -1;
    char *p = strdup(process);
    if (!p)
        return -1;
    c->w[c->nw] = (writer_key){p, kind};
    return (int)c->nw++;
}

static void side_remove(side *s, size_t i, tcarry_item *out)
{
    *out = s->v[i];
    memmove(s->v + i, s->v + i + 1, (s->n - i - 1) * sizeof *s->v);
    s->n--;
}

static int same_stack(const tcarry_item *it, int writer, int64_t pid, int64_t tid)
{
    return it->writer == writer && it->pid == pid && it->tid == tid;
}

static int take_b(trace_carry *c, int writer, int64_t pid, int64_t tid, int64_t end_us,
                  tcarry_item *out)
{
    size_t best = c->b.n;
    for (size_t i = 0; i < c->b.n; i++) {
        const tcarry_item *it = &c->b.v[i];
        if (same_stack(it, writer, pid, tid) && it->t <= end_us &&
            (best == c->b.n || it->t >= c->b.v[best].t))
            best = i;
    }
    if (best == c->b.n)
        return 0;
    side_remove(&c->b, best, out);
    return 1;
}

static int take_e(trace_carry *c, int writer, int64_t pid, int64_t tid, int64_t start_us,
                  tcarry_item *out)
{
    size_t best = c->e.n;
    for (size_t i = 0; i < c->e.n; i++) {
        const tcarry_item *it = &c->e.v[i];
        if (same_stack(it, writer, pid, tid) && it->t >= start_us &&
            (best == c->e.n || it->t < c->e.v[best].t))
            best = i;
    }
    if (best == c->e.n)
        return 0;
    side_remove(&c->e, best, out);
    return 1;
}

static int side_put(trace_carry *c, side *s, tcarry_item *it)
{
    if (s->n == TCARRY_MAX) {   /* the oldest waiter is the least likely to pair */
        tcarry_item old;
        side_remove(s, 0, &old);
        trace_carry_item_clear(&old);
        c->dropped++;
    }
    if (vec_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v, 16) != 0) {
        trace_carry_item_clear(it);
        c->dropped++;
        return -1;
    }
    s->v[s->n++] = *it;
    it->name = it->phase = NULL;
    return 0;
}

int trace_carry_writer(trace_carry *c, const char *process, int kind)
{
    pthread_mutex_lock(&c->mu);
    int w = writer_of(c, process, kind);
    pthread_mutex_unlock(&c->mu);
    return w;
}

int trace_carry_take_b(trace_carry *c, int writer, int64_t pid, int64_t tid, int64_t end_us,
                       tcarry_item *out)
{
    pthread_mutex_lock(&c->mu);
    int r = take_b(c, writer, pid, tid, end_us, out);
    pthread_mutex_unlock(&c->mu);
    return r;
}

int trace_carry_take_e(trace_carry *c, int writer, int64_t pid, int64_t tid, int64_t start_us,
                       tcarry_item *out)
{
    pthread_mutex_lock(&c->mu);
    int r = take_e(c, writer, pid, tid, start_us, out);
    pthread_mutex_unlock(&c->mu);
    return r;
}

static int put_locked(trace_carry *c, side *s, tcarry_item *it)
{
    pthread_mutex_lock(&c->mu);
    int r = side_put(c, s, it);
    pthread_mutex_unlock(&c->mu);
    return r;
}

int trace_carry_put_b(trace_carry *c, tcarry_item *it) { return put_locked(c, &c->b, it); }
int trace_carry_put_e(trace_carry *c, tcarry_item *it) { return put_locked(c, &c->e, it); }

/* The counts are read once the workers are done (scanner_finish). */
size_t trace_carry_waiting_b(const trace_carry *c) { return c->b.n; }
size_t trace_carry_waiting_e(const trace_carry *c) { return c->e.n; }
size_t trace_carry_dropped(const trace_carry *c) { return c->dropped; }
