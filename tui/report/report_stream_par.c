/* report_stream_par: see report_stream_par.h. A ring of AHEAD slots per
 * thread: part i is built into slot i % nslots only while i is less than
 * nslots past the next part to write, so memory stays a few parts per
 * thread whatever the node count. */
#include "tui/report/report_stream_par.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define AHEAD 4
#define PAR_THREADS_MAX 16

int report_text_add(report_text *t, const char *s, size_t len)
{
    if (t->len + len > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + len)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p)
            return -1;
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, len);
    t->len += len;
    return 0;
}

typedef struct par_slot {
    report_text text;
    size_t *ends;            /* each element's end in text */
    size_t nitems, capitems;
    size_t part;             /* the part built here, when ready */
    int ready, rc;
} par_slot;

typedef struct par_run {
    report_part_fn fn;
    const void *ctx;
    size_t n, flags, depth;
    par_slot *slots;
    size_t nslots;
    pthread_mutex_t mu;
    pthread_cond_t cv;       /* a slot ready, a part written, or stop */
    size_t claim, wr;        /* next part to build, to write */
    int stop;
} par_run;

/* Builds part i into its slot (the slot is this thread's until ready). */
static void build_part(par_run *r, size_t i)
{
    par_slot *s = &r->slots[i % r->nslots];
    s->text.len = 0;
    s->nitems = 0;
    s->part = i;
    json_t *chunk = json_array();
    int rc = chunk ? r->fn(r->ctx, i, chunk) : -1;
    for (size_t k = 0; rc == 0 && k < json_array_size(chunk); k++) {
        if (s->nitems == s->capitems) {
            size_t cap = s->capitems ? 2 * s->capitems : 16;
            size_t *e = realloc(s->ends, cap * sizeof *e);
            if (!e) {
                rc = -1;
                break;
            }
            s->ends = e;
            s->capitems = cap;
        }
        rc = report_text_dump(&s->text, json_array_get(chunk, k), r->flags, r->depth);
        s->ends[s->nitems++] = s->text.len;
    }
    json_decref(chunk);
    pthread_mutex_lock(&r->mu);
    s->rc = rc;
    s->ready = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

/* With the lock held: the next part this thread may build, or n. */
static size_t take_part(par_run *r)
{
    if (r->stop || r->claim >= r->n || r->claim >= r->wr + r->nslots)
        return r->n;
    return r->claim++;
}

static void *helper_main(void *arg)
{
    par_run *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        size_t i = take_part(r);
        if (i < r->n) {
            pthread_mutex_unlock(&r->mu);
            build_part(r, i);
            pthread_mutex_lock(&r->mu);
        } else if (r->stop || r->claim >= r->n) {
            break;
        } else {
            pthread_cond_wait(&r->cv, &r->mu);
        }
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* Hands the ready slot of part r->wr to put; 0, or -1. */
static int write_part(par_run *r, par_slot *s, report_item_fn put, void *ud, size_t *done)
{
    int rc = s->rc;
    for (size_t k = 0, at = 0; rc == 0 && k < s->nitems; at = s->ends[k++], ++*done)
        rc = put(ud, s->text.p + at, s->ends[k] - at, r->depth, *done);
    return rc;
}

/* This thread: writes parts in order, building one itself while the
 * next to write is not ready. */
static int run_writer(par_run *r, report_item_fn put, void *ud, size_t *done)
{
    int rc = 0;
    pthread_mutex_lock(&r->mu);
    while (rc == 0 && r->wr < r->n) {
        par_slot *s = &r->slots[r->wr % r->nslots];
        if (s->ready && s->part == r->wr) {
            pthread_mutex_unlock(&r->mu);
            rc = write_part(r, s, put, ud, done);
            pthread_mutex_lock(&r->mu);
            s->ready = 0;
            r->wr++;
            pthread_cond_broadcast(&r->cv);
            continue;
        }
        size_t i = take_part(r);
        if (i < r->n) {
            pthread_mutex_unlock(&r->mu);
            build_part(r, i);
            pthread_mutex_lock(&r->mu);
        } else {
            pthread_cond_wait(&r->cv, &r->mu);
        }
    }
    r->stop = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return rc;
}

int report_parts_par(report_part_fn fn, const void *ctx, size_t n, size_t threads,
                     size_t flags, size_t depth, report_item_fn put, void *ud, size_t *done)
{
    if (threads > PAR_THREADS_MAX)
        threads = PAR_THREADS_MAX;
    par_run r = {.fn = fn, .ctx = ctx, .n = n, .flags = flags, .depth = depth,
                 .nslots = AHEAD * threads};
    if (!(r.slots = calloc(r.nslots, sizeof *r.slots)))
        return -1;
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    pthread_t th[PAR_THREADS_MAX];
    size_t started = 0;
    while (started + 1 < threads && pthread_create(&th[started], NULL, helper_main, &r) == 0)
        started++;
    int rc = run_writer(&r, put, ud, done);
    for (size_t k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (size_t k = 0; k < r.nslots; k++) {
        free(r.slots[k].text.p);
        free(r.slots[k].ends);
    }
    free(r.slots);
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    return rc;
}
