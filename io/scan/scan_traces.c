/* scan_traces: a run of streamed files in the work list (PyTorch profiler
 * traces) read and decoded on the ingest workers, in parallel across
 * files (issue 35; HACKING.md, "The interfaces of issues 32-36", contract
 * 4).
 *
 * Each worker (this thread one of them) claims the next file of the run,
 * reads it piece by piece into its own buffer and feeds its decoder
 * (pure: it touches nothing but its state); the decoder's end hands its
 * finished trace to this batch's slot for the file instead of the model.
 * This thread applies the slots in list order as soon as each and all
 * before it are done: the caller's sink under the model's lock
 * (placement, the duplicate-rank check, events and figures into the
 * model), then what the file did said (read, not read and why), so the
 * model and the messages see the order one thread would, whatever the
 * thread count. No worker touches the model, and a run holds no other
 * file: placement sees the model as one thread would at that place.
 *
 * Memory: a trace being read holds its analysis' logs and kept events,
 * and a finished one its figures until applied. A worker claims a new
 * file only while what the run holds stays under 32 MB a worker (or when
 * it holds nothing else, so one big trace still goes), so N traces in
 * flight cost at most that plus the traces' own overshoot, not N times a
 * trace. */
#include "io/scan/scanner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_BUDGET_PER_WORKER ((size_t)32 << 20)

enum { TS_WAITING, TS_READING, TS_DONE };
/* What a file's read came to, said when it is applied. */
enum { OUT_NONE, OUT_UNREAD, OUT_ENDED };

typedef struct trace_slot {
    size_t work_at;
    int state;                /* TS_* */
    int out;                  /* OUT_*; NONE: abandoned, read again next pass */
    int rc;                   /* OUT_ENDED: the decoder's verdict */
    int64_t len;              /* OUT_ENDED: the bytes it ended after */
    size_t held;              /* bytes it holds now */
    sm_trace_done *done;      /* its record, until applied */
    sm_err err;               /* OUT_ENDED: why not read; a failed fetch */
    int fetch_failed;         /* the source could not attempt a read */
    char why[SCANNER_MSG_LEN];   /* OUT_UNREAD */
} trace_slot;

struct trace_batch {
    scanner *sc;
    trace_slot *s;
    size_t n;
    pthread_mutex_t mu;       /* guards the fields below and slots' state */
    pthread_cond_t cv;        /* a slot done, memory let go, a stop */
    size_t next;              /* the next slot to claim */
    size_t applied;           /* slots applied (a prefix) */
    size_t reading;           /* slots being read */
    size_t held, budget;
    size_t stop_at;           /* the first slot whose fetch failed, or n */
};

trace_batch *scan_traces_new(scanner *sc, size_t first, size_t n, size_t nwk)
{
    trace_batch *tb = calloc(1, sizeof *tb);
    if (!tb || !(tb->s = calloc(n ? n : 1, sizeof *tb->s))) {
        free(tb);
        return NULL;
    }
    tb->sc = sc;
    tb->n = tb->stop_at = n;
    tb->budget = TRACE_BUDGET_PER_WORKER * (nwk ? nwk : 1);
    for (size_t i = 0; i < n; i++)
        tb->s[i].work_at = first + i;
    pthread_mutex_init(&tb->mu, NULL);
    pthread_cond_init(&tb->cv, NULL);
    return tb;
}

void scan_traces_free(trace_batch *tb)
{
    if (!tb)
        return;
    for (size_t i = 0; i < tb->n; i++)
        decoder_kineto_free_done(tb->s[i].done);
    pthread_mutex_destroy(&tb->mu);
    pthread_cond_destroy(&tb->cv);
    free(tb->s);
    free(tb);
}

/* ---- a worker's file -------------------------------------------------- */

typedef struct piece_ctx {
    trace_batch *tb;
    trace_slot *ts;
    cat_entry *e;
    const decoder *d;
    void *st;                 /* the decoder's state, from the first piece */
    size_t got;
    int called, stop;
} piece_ctx;

/* The decoder's record goes to its slot, to be applied in list order. */
static int slot_trace(void *ud, sm_trace_done *t, sm_err *err)
{
    (void)err;
    ((trace_slot *)ud)->done = t;
    return 0;
}

/* What the slot holds now, into the run's count. */
static void set_held(trace_batch *tb, trace_slot *ts, size_t now)
{
    pthread_mutex_lock(&tb->mu);
    tb->held = tb->held - ts->held + now;
    ts->held = now;
    pthread_mutex_unlock(&tb->mu);
}

/* The file's end after len bytes: its decoder's verdict and record. */
static void end_read(piece_ctx *c, int64_t len)
{
    c->ts->len = len;
    rec_sink out = {.ud = c->ts, .trace = slot_trace};
    c->ts->rc = c->d->end(c->st, len, &out, &c->ts->err);
    c->st = NULL;
    c->ts->out = OUT_ENDED;
    c->stop = 1;
}

static void piece_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *err)
{
    piece_ctx *c = ud;
    scanner *sc = c->tb->sc;
    cat_entry *e = c->e;
    int first = req->offset == 0;
    size_t fetched = len;
    c->called = 1;
    c->stop = 1;
    if (!scan_feed_accept_piece(sc, e, &len, etag, err, c->ts->why, first)) {
        c->ts->out = c->ts->why[0] ? OUT_UNREAD : OUT_NONE;
        return;
    }
    if (fetched && !len)
        return;   /* the path names another file by now: next pass */
    if (first) {
        key_info ki;
        catalog_entry_info(e, &ki);
        if (!(c->st = c->d->begin(&ki, scan_rel_key(sc, e->key), &c->ts->err))) {
            c->ts->out = OUT_ENDED;
            c->ts->rc = -1;
            if (!c->ts->err.msg[0])
                sm_err_set(&c->ts->err, SM_ERR_NOMEM, "out of memory");
            return;
        }
    }
    static const rec_sink none = {0};
    int last = req->len < 0 || len < (size_t)req->len;
    int more = !len || c->d->feed(c->st, data, len, &none) == 0;
    c->got = len;
    c->stop = 0;
    if (c->d->held)
        set_held(c->tb, c->ts, c->d->held(c->st));
    if (last || !more)
        end_read(c, req->offset + (int64_t)len);
}

/* Reads and decodes slot ts's file, piece by piece; main: this is the
 * scanning thread, which lets the view data be rebuilt between pieces. */
static void read_trace(trace_batch *tb, trace_slot *ts, char **buf, size_t *cap, int main)
{
    scanner *sc = tb->sc;
    piece_ctx c = {tb, ts, sc->work[ts->work_at], scan_decoder(sc->work[ts->work_at]), NULL,
                   0, 0, 0};
    for (int64_t off = 0;;) {
        source_req req = scan_stream_req(sc, c.e, off);
        req.buf = buf;
        req.cap = cap;
        c.called = 0;
        if (source_fetch(sc->src, &req, 1, piece_cb, &c, &ts->err) != 0) {
            ts->fetch_failed = 1;
            break;
        }
        if (!c.called || c.stop)
            break;
        off += (int64_t)c.got;
        if (main && sc->on_ingest)
            sc->on_ingest(sc->on_ingest_ud);
    }
    if (c.st)
        c.d->drop(c.st);   /* not read to its end: read again next pass */
    set_held(tb, ts, ts->done ? decoder_kineto_done_bytes(ts->done) : 0);
}

/* ---- claiming ---------------------------------------------------------- */

/* Whether a worker may start the next file (mu held): one is left, no
 * fetch failed before it, and the run holds less than its budget, or
 * nothing at all (one big trace still goes). */
static int may_claim(const trace_batch *tb)
{
    return tb->next < tb->n && tb->next < tb->stop_at &&
           (tb->held < tb->budget || (tb->reading == 0 && tb->applied == tb->next));
}

/* Claims, reads and finishes the next file (mu held, and let go while
 * it reads). */
static void claim_and_read(trace_batch *tb, char **buf, size_t *cap, int main)
{
    trace_slot *ts = &tb->s[tb->next++];
    ts->state = TS_READING;
    tb->reading++;
    pthread_mutex_unlock(&tb->mu);
    read_trace(tb, ts, buf, cap, main);
    pthread_mutex_lock(&tb->mu);
    if (ts->fetch_failed) {
        size_t i = (size_t)(ts - tb->s);
        tb->stop_at = i < tb->stop_at ? i : tb->stop_at;
    }
    ts->state = TS_DONE;
    tb->reading--;
    pthread_cond_broadcast(&tb->cv);
}

void scan_traces_work(trace_batch *tb, char **buf, size_t *cap)
{
    pthread_mutex_lock(&tb->mu);
    for (;;) {
        if (may_claim(tb))
            claim_and_read(tb, buf, cap, 0);
        else if (tb->next >= tb->n || tb->next >= tb->stop_at)
            break;
        else
            pthread_cond_wait(&tb->cv, &tb->mu);
    }
    pthread_mutex_unlock(&tb->mu);
}

/* ---- applying, in list order ------------------------------------------- */

/* What slot ts's file did, into the model and the scanner's words. */
static void apply(trace_batch *tb, trace_slot *ts)
{
    scanner *sc = tb->sc;
    cat_entry *e = sc->work[ts->work_at];
    const char *rel = scan_rel_key(sc, e->key);
    if (ts->out == OUT_UNREAD) {
        scan_note_unread(sc, e, rel, ts->why);
    } else if (ts->out == OUT_ENDED) {
        /* A .gz grows in place: one read past its listed size must not be
         * read again (and counted twice) when the next listing sees that
         * size. */
        e->whole_size = ts->len > e->size ? ts->len : e->size;
        int rc = ts->rc;
        if (ts->done) {
            model_drops before, after;
            scan_sink sink;
            scan_decode_sink(sc, &sink);
            sm_trace_done *t = ts->done;
            ts->done = NULL;
            if (sc->o.lock)
                pthread_mutex_lock(sc->o.lock);
            model_get_drops(sc->m, &before);
            rc = sink.out.trace(sink.out.ud, t, &ts->err);
            model_get_drops(sc->m, &after);
            if (sc->o.lock)
                pthread_mutex_unlock(sc->o.lock);
            scan_feed_note_drops(sc, rel, &before, &after);
        }
        scan_feed_whole_said(sc, e, rc, ts->err.msg, ts->err.code == SM_ERR_PARTIAL);
    }
    scan_list_forget_if_read(sc, e);
    if (sc->on_ingest)
        sc->on_ingest(sc->on_ingest_ud);
}

int scan_traces_run(trace_batch *tb, char **buf, size_t *cap, sm_err *err)
{
    pthread_mutex_lock(&tb->mu);
    while (tb->applied < tb->n && tb->applied < tb->stop_at) {
        trace_slot *ts = &tb->s[tb->applied];
        if (ts->state == TS_DONE && !ts->fetch_failed) {
            pthread_mutex_unlock(&tb->mu);
            apply(tb, ts);
            set_held(tb, ts, 0);
            pthread_mutex_lock(&tb->mu);
            tb->applied++;
            pthread_cond_broadcast(&tb->cv);
        } else if (ts->state == TS_DONE) {
            break;   /* its fetch failed: the files after it wait for the next pass */
        } else if (may_claim(tb)) {
            claim_and_read(tb, buf, cap, 1);
        } else {
            pthread_cond_wait(&tb->cv, &tb->mu);
        }
    }
    while (tb->reading)   /* a helper still reading past a failed fetch */
        pthread_cond_wait(&tb->cv, &tb->mu);
    int rc = 0;
    if (tb->stop_at < tb->n) {
        *err = tb->s[tb->stop_at].err;
        rc = -1;
    }
    pthread_mutex_unlock(&tb->mu);
    return rc;
}
