/* scan_fetch: a ring of NSLOTS items between the fetch thread (the
 * producer) and the scanner's or export's thread (the consumer); see
 * scan_fetch.h. `tail` counts items put or being put, `head` items
 * released: slot k % NSLOTS belongs to item k while head <= k < tail,
 * only the producer touches it until it is put (`filled` = k + 1). */
#include "io/scan/scan_fetch.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/sys_decode.h"

/* Larger fetches are lent rather than copied (bounds the copies' memory). */
#define COPY_MAX ((size_t)64 << 20)
/* The producer's item in hand, the consumer's and one decoded ahead: the
 * consumer is the slower side, and more slots only held more files'
 * bytes and records at once (issue 15). */
#define NSLOTS 3

typedef struct fslot {
    source_req req;
    const char *data;       /* buf, the source's bytes (lent), "" or NULL */
    char *buf;
    size_t len, cap;
    const char *etag;       /* etag_buf or lent */
    char *etag_buf;
    size_t etag_cap;
    int has_err;
    sm_err err;
    predec_buf recs;
    uint64_t filled;        /* k + 1 once item k is put here */
    sysdec_scratch scratch; /* the producer's, while it fills the slot */
} fslot;

struct scan_fetch {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* head, tail, a slot or running changed */
    fslot slots[NSLOTS];
    uint64_t head, tail;
    int running;                /* the producer has not returned */
    int rc;
    sm_err err;
    scan_fetch_fn fn;
    void *ud;
};

static void *fetch_main(void *arg)
{
    scan_fetch *f = arg;
    sm_err err = {0};
    int rc = f->fn(f->ud, f, &err);
    pthread_mutex_lock(&f->mu);
    if (rc != 0 && f->rc == 0) {
        f->rc = rc;
        f->err = err;
    }
    f->running = 0;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

static void free_slots(scan_fetch *f)
{
    for (size_t i = 0; i < NSLOTS; i++) {
        free(f->slots[i].buf);
        free(f->slots[i].etag_buf);
        predec_buf_free(&f->slots[i].recs);
        sys_decode_scratch_free(&f->slots[i].scratch);
    }
}

scan_fetch *scan_fetch_start(scan_fetch_fn fn, void *ud)
{
    scan_fetch *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->fn = fn;
    f->ud = ud;
    f->running = 1;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    if (pthread_create(&f->thread, NULL, fetch_main, f) != 0) {
        pthread_cond_destroy(&f->cv);
        pthread_mutex_destroy(&f->mu);
        free(f);
        return NULL;
    }
    return f;
}

/* Copies n bytes into *buf (grown to *cap); 0, or -1 on OOM. */
static int copy_into(char **buf, size_t *cap, const void *src, size_t n)
{
    if (n > *cap) {
        char *nb = malloc(n);
        if (!nb)
            return -1;
        free(*buf);
        *buf = nb;
        *cap = n;
    }
    memcpy(*buf, src, n);
    return 0;
}

/* Waits until item k's slot is free: the consumer released the item
 * that used it before. Then only the producer touches it until put. */
static fslot *wait_slot(scan_fetch *f, uint64_t k)
{
    pthread_mutex_lock(&f->mu);
    while (k - f->head >= NSLOTS)
        pthread_cond_wait(&f->cv, &f->mu);
    pthread_mutex_unlock(&f->mu);
    return &f->slots[k % NSLOTS];
}

void scan_fetch_put(scan_fetch *f, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err, int kind)
{
    pthread_mutex_lock(&f->mu);
    uint64_t k = f->tail++;
    pthread_mutex_unlock(&f->mu);
    fslot *s = wait_slot(f, k);
    int lent = 0;
    s->req = *req;
    s->req.buf = NULL;   /* the slot's own, not the consumer's business */
    s->req.cap = NULL;
    s->has_err = err != NULL;
    if (err)
        s->err = *err;
    s->len = len;
    if (!data) {
        s->data = NULL;
    } else if (len == 0) {
        s->data = "";
    } else if (len <= COPY_MAX && copy_into(&s->buf, &s->cap, data, len) == 0) {
        s->data = s->buf;
    } else {
        s->data = data;
        lent = 1;
    }
    if (!etag) {
        s->etag = NULL;
    } else if (copy_into(&s->etag_buf, &s->etag_cap, etag, strlen(etag) + 1) == 0) {
        s->etag = s->etag_buf;
    } else {
        s->etag = etag;
        lent = 1;
    }
    s->recs.n = 0;
    if (kind != PREDEC_NONE && s->data && len)
        predec_decode(&s->recs, &s->scratch, s->data, len, kind);

    pthread_mutex_lock(&f->mu);
    s->filled = k + 1;
    pthread_cond_broadcast(&f->cv);
    /* Lent bytes belong to the source only until this callback returns. */
    while (lent && f->head <= k)
        pthread_cond_wait(&f->cv, &f->mu);
    pthread_mutex_unlock(&f->mu);
}

int scan_fetch_take(scan_fetch *f, scan_item *out)
{
    pthread_mutex_lock(&f->mu);
    uint64_t k = f->head;
    /* Every item begun gets put, so the ring is empty for good only
     * once the producer returned and every item was taken. */
    while (f->slots[k % NSLOTS].filled != k + 1 && !(!f->running && k == f->tail))
        pthread_cond_wait(&f->cv, &f->mu);
    int empty = f->slots[k % NSLOTS].filled != k + 1;
    pthread_mutex_unlock(&f->mu);
    if (empty)
        return -1;
    const fslot *s = &f->slots[k % NSLOTS];
    out->req = s->req;
    out->data = s->data;
    out->len = s->len;
    out->etag = s->etag;
    out->err = s->has_err ? &s->err : NULL;
    out->pre = predec_view(&s->recs);
    return 0;
}

void scan_fetch_release(scan_fetch *f)
{
    pthread_mutex_lock(&f->mu);
    if (f->head < f->tail)
        f->head++;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

int scan_fetch_finish(scan_fetch *f, sm_err *err)
{
    pthread_join(f->thread, NULL);
    int rc = f->rc;
    if (rc != 0 && err)
        *err = f->err;
    free_slots(f);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    free(f);
    return rc;
}
