/* scan_stream: whole files read as a stream (PyTorch profiler traces,
 * their decoder's streamed), so that memory does not grow with a file's size:
 * a trace of GBs is read in pieces, each a fetch of its own, and handed
 * piece by piece to its reader; only the reader's end takes the model's
 * lock. See scanner_internal.h.
 *
 * The pieces of a file are fetched one after another on one thread (this
 * one, or over S3 the fetch-ahead thread, whose queue keeps them in
 * order), between the batches of other files, at the file's place in the
 * work list: files reach the model in the list's order, as when each was
 * read whole. The reader lives in the catalog entry from the piece at
 * offset 0 to the file's end; a read cut short (a failed fetch, the path
 * naming another file by now, a failed round) drops it, and the file,
 * whose handed-over size did not change, is read again next pass. */
#include "io/scan/scanner_internal.h"

#include <stdio.h>

/* Pieces: 1 MiB from a disk; 8 MiB where every read is a request (S3),
 * so a GB costs about a hundred requests, not a thousand. */
#define STREAM_PIECE_LOCAL ((size_t)1 << 20)
#define STREAM_PIECE_REMOTE ((size_t)8 << 20)

/* The read of e's piece at off. A closed object that fits in one piece is
 * asked whole, as before: a whole object is what the S3 cache keeps (a
 * larger one, read by ranges, is not kept: a later run fetches it
 * again, rather than hold it whole to store it). A
 * local file is read in pieces to its end, wherever that is now (a .gz
 * written in place may have grown past its listed size): a piece shorter
 * than asked is the last. */
source_req scan_stream_req(const scanner *sc, cat_entry *e, int64_t off)
{
    int local = sc->src->vt->etag_is_identity;
    size_t piece = local ? STREAM_PIECE_LOCAL : STREAM_PIECE_REMOTE;
    int64_t len = !local && off == 0 && e->size <= (int64_t)piece ? -1 : (int64_t)piece;
    return (source_req){.key = e->key, .offset = off, .len = len, .user = e};
}

typedef struct pull_ctx {
    source_fetch_cb cb;
    void *ud;
    size_t got;
    int called, failed;
} pull_ctx;

static void pull_cb(void *ud, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err)
{
    pull_ctx *c = ud;
    c->called = 1;
    c->failed = err != NULL;
    c->got = len;
    c->cb(c->ud, req, data, len, etag, err);
}

static void abandon(scanner *sc, cat_entry *e)
{
    if (e->stream)
        scan_decoder(e)->drop(e->stream);
    (void)sc;
    e->stream = NULL;
}

int scan_stream_fetch(scanner *sc, size_t i, source_fetch_cb cb, void *ud, int direct,
                      sm_err *err)
{
    cat_entry *e = sc->work[i];
    int rc = 0;
    for (int64_t off = 0;;) {
        source_req req = scan_stream_req(sc, e, off);
        if (direct) {
            req.buf = &sc->sbuf;
            req.cap = &sc->scap;
        }
        pull_ctx c = {cb, ud, 0, 0, 0};
        if (source_fetch(sc->src, &req, 1, pull_cb, &c, err) != 0) {
            rc = -1;
            break;
        }
        if (!c.called || c.failed || req.len < 0 || c.got < (size_t)req.len)
            break;
        off += (int64_t)c.got;
        if (direct && !e->stream)
            break;   /* the reader wants no more, or the file is another one */
    }
    if (direct)
        abandon(sc, e);   /* not fetched to its end: read again next pass */
    return rc;
}

/* The file's end after len bytes: its decoder's verdict and records,
 * under the lock. */
static void end_file(scanner *sc, cat_entry *e, int64_t len)
{
    /* A .gz grows in place: one read past its listed size must not be
     * read again (and counted twice) when the next listing sees that
     * size. */
    e->whole_size = len > e->size ? len : e->size;
    void *rd = e->stream;
    e->stream = NULL;
    sm_err err = {0};
    const char *rel = scan_rel_key(sc, e->key);
    model_drops before, after;
    scan_sink sink;
    scan_decode_sink(sc, &sink);
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_get_drops(sc->m, &before);
    int rc = scan_decoder(e)->end(rd, len, &sink.out, &err);
    model_get_drops(sc->m, &after);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    scan_feed_note_drops(sc, rel, &before, &after);
    scan_decode_say(sc, &sink, rel);
    scan_feed_whole_said(sc, e, rc, err.msg, err.code == SM_ERR_PARTIAL);
}

void scan_stream_piece(scanner *sc, cat_entry *e, const source_req *req, const void *data,
                       size_t len, const char *etag, const sm_err *err)
{
    int first = req->offset == 0;
    if (first)
        abandon(sc, e);   /* a read an earlier, failed round cut short */
    else if (!e->stream)
        return;           /* its reader wanted no more: the fetch thread reads on */
    char why[SCANNER_MSG_LEN];
    size_t fetched = len;
    if (!scan_feed_accept_piece(sc, e, &len, etag, err, why, first)) {
        abandon(sc, e);
        if (why[0])
            scan_note_unread(sc, e, scan_rel_key(sc, e->key), why);
        return;
    }
    if (fetched && !len) {
        abandon(sc, e);   /* the path names another file by now: next pass */
        return;
    }
    const decoder *d = scan_decoder(e);
    if (first) {
        key_info ki;
        catalog_entry_info(e, &ki);
        sm_err berr = {0};
        e->stream = d->begin(&ki, scan_rel_key(sc, e->key), &berr);
        if (!e->stream) {
            scan_feed_whole_said(sc, e, -1, berr.msg[0] ? berr.msg : "out of memory", 0);
            return;
        }
    }
    int last = req->len < 0 || len < (size_t)req->len;
    /* no lock: a streamed decoder hands its records over at its end */
    static const rec_sink none = {0};
    int more = !len || d->feed(e->stream, data, len, &none) == 0;
    if (last || !more)
        end_file(sc, e, req->offset + (int64_t)len);
}

void scan_stream_abandon_all(scanner *sc)
{
    if (!sc->o.sink)
        return;
    size_t it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it)))
        abandon(sc, e);
}
