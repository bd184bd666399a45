/* scan_pipe: two job slots used in turn; the worker decodes them in
 * submission order, the scanner's thread consumes them in the same order.
 * See scan_pipe.h for why results cannot change. */
#include "scan_pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sys_decode.h"

#define NSLOTS 2

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_DONE };

typedef struct slot {
    enum slot_state state;
    void *tag;
    char *data;
    size_t len, cap;
    int skip_first;
    predec_buf recs;
} slot;

struct scan_pipe {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* any state change */
    int stop;
    slot slots[NSLOTS];
    size_t head;                /* oldest pending slot */
    size_t npending;
    sysdec_scratch scratch;     /* the worker's own */
};

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
                   int skip_first)
{
    const char *q = data, *end = data + len;
    b->n = 0;
    if (skip_first) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        q = nl ? nl + 1 : end;
    }
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
        r->ok = sysdec_line_fast(line, n, &r->s, sc) == 0 && r->s.extra.len == 0;
    }
}

void predec_buf_free(predec_buf *b)
{
    free(b->v);
    memset(b, 0, sizeof *b);
}

static void decode_slot(scan_pipe *p, slot *s)
{
    predec_decode(&s->recs, &p->scratch, s->data, s->len, s->skip_first);
}

static void *worker_main(void *arg)
{
    scan_pipe *p = arg;
    size_t next = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->slots[next].state != SLOT_QUEUED)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop)
            break;
        slot *s = &p->slots[next];
        pthread_mutex_unlock(&p->mu);
        decode_slot(p, s);
        pthread_mutex_lock(&p->mu);
        s->state = SLOT_DONE;
        pthread_cond_broadcast(&p->cv);
        next = (next + 1) % NSLOTS;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

scan_pipe *scan_pipe_new(void)
{
    scan_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, worker_main, p) != 0) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

void scan_pipe_free(scan_pipe *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    for (size_t i = 0; i < NSLOTS; i++) {
        free(p->slots[i].data);
        predec_buf_free(&p->slots[i].recs);
    }
    sysdec_scratch_free(&p->scratch);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

size_t scan_pipe_pending(const scan_pipe *p)
{
    return p->npending;   /* only the scanner's thread changes it */
}

int scan_pipe_submit(scan_pipe *p, void *tag, const char *data, size_t len,
                     int skip_first)
{
    if (p->npending == NSLOTS || len == 0 || len > SCAN_PIPE_FILE_MAX)
        return -1;
    /* A free slot is not touched by the worker: no lock needed to fill it. */
    slot *s = &p->slots[(p->head + p->npending) % NSLOTS];
    if (len > s->cap) {
        char *nd = malloc(len);
        if (!nd)
            return -1;
        free(s->data);
        s->data = nd;
        s->cap = len;
    }
    memcpy(s->data, data, len);
    s->len = len;
    s->tag = tag;
    s->skip_first = skip_first;
    pthread_mutex_lock(&p->mu);
    s->state = SLOT_QUEUED;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    p->npending++;
    return 0;
}

int scan_pipe_oldest(scan_pipe *p, void **tag, const char **data, size_t *len,
                     predec *pre)
{
    if (p->npending == 0)
        return -1;
    slot *s = &p->slots[p->head];
    pthread_mutex_lock(&p->mu);
    while (s->state != SLOT_DONE)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    *tag = s->tag;
    *data = s->data;
    *len = s->len;
    *pre = (predec){s->recs.v, s->recs.n, 0};
    return 0;
}

void scan_pipe_release(scan_pipe *p)
{
    if (p->npending == 0)
        return;
    pthread_mutex_lock(&p->mu);
    p->slots[p->head].state = SLOT_FREE;
    pthread_mutex_unlock(&p->mu);
    p->head = (p->head + 1) % NSLOTS;
    p->npending--;
}
