/* scan_feed: one fetched file (or piece of one) into the model, under the
 * lock: line files through scan_ingest, whole files by their decoder; what the
 * model refused and what could not be read named. See
 * scanner_internal.h. */
#include "io/scan/scanner_internal.h"

#include <stdio.h>
#include <string.h>

#include "io/scan/scan_ingest.h"

/* ---- fetching and ingesting ------------------------------------------- */

/* A system file is final once a newer minute of the same node exists: the
 * profiler has moved on. Closed trace files are final by name. */
static int entry_is_final(const scanner *sc, const cat_entry *e, size_t len)
{
    (void)sc;
    /* A large closed file comes in several reads: the last one ends it. */
    return e->ki.kind == KEY_TRACE && e->consumed + (int64_t)len >= e->size;
}

/* Names the file the records the model refused came from (a..b are the
 * model's counts before and after ingesting it). */
void scan_feed_note_drops(scanner *sc, const char *rel, const model_drops *b,
                       const model_drops *a)
{
    char what[256];
    if (a->bad_time != b->bad_time) {
        int64_t n = a->bad_time - b->bad_time;
        snprintf(what, sizeof what,
                 "%lld record%s with a time outside 2000-2100 ignored (latest: %.6g s "
                 "since 1970%s)", (long long)n, n == 1 ? "" : "s",
                 (double)a->bad_time_us / 1e6,
                 model_time_plausible(a->bad_time_us / 1000) ? ": milliseconds as seconds?" : "");
        scan_add_message(sc, rel, what);
    }
    if (a->series_cap != b->series_cap) {
        snprintf(what, sizeof what,
                 "%lld samples dropped: their series are past the cap of %d per node "
                 "or %d in all", (long long)(a->series_cap - b->series_cap),
                 MODEL_NODE_SERIES_MAX, MODEL_SERIES_MAX);
        scan_add_message(sc, rel, what);
    }
    if (a->node_cap != b->node_cap) {
        snprintf(what, sizeof what, "%lld records dropped: their nodes are past the cap of %d",
                 (long long)(a->node_cap - b->node_cap), MODEL_NODE_MAX);
        scan_add_message(sc, rel, what);
    }
}

/* Reads a whole file by its decoder, under the lock: its samples and
 * events into the model, the rest to the caller's sink. A TF trace is
 * placed first (scan_decode_place); one that cannot be says what record
 * it lacks, not only that the step's start is unknown. */
static void ingest_whole(scanner *sc, cat_entry *e, const void *data, size_t len)
{
    const decoder *d = sc->o.sink ? scan_decoder(e) : NULL;
    /* A trace .gz grows in place: one fetched past its listed size was
     * read whole, and must not be fetched again (and counted twice) when
     * the next listing sees that size. */
    e->whole_size = d && d->streamed && (int64_t)len > e->size ? (int64_t)len : e->size;
    if (!d)
        return;
    sm_err err = {0}, place = {0};
    const char *rel = scan_rel_key(sc, e->key);
    key_info ki;
    catalog_entry_info(e, &ki);
    model_drops before, after;
    scan_sink sink;
    scan_decode_sink(sc, &sink);
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_get_drops(sc->m, &before);
    int placed = scan_decode_place(sc, rel, &ki, &place) == 0;
    void *st = d->begin(&ki, rel, &err);
    int rc = -1;
    if (st) {
        d->feed(st, data, len, &sink.out);
        rc = d->end(st, (int64_t)len, &sink.out, &err);
    }
    model_get_drops(sc->m, &after);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    scan_feed_note_drops(sc, rel, &before, &after);
    scan_decode_say(sc, &sink, rel);
    /* An unplaced trace says what record it lacks, not only that the
     * step's start is unknown. */
    scan_feed_whole_said(sc, e, rc, !placed && err.code == SM_ERR_NOTFOUND ? place.msg : err.msg,
                         err.code == SM_ERR_PARTIAL);
}

void scan_feed_whole_said(scanner *sc, cat_entry *e, int rc, const char *why, int partial)
{
    if (rc == 0) {
        scan_note_read(sc, e);
        return;
    }
    pthread_mutex_lock(&sc->mu);
    if (!e->unread_at)
        sc->st.skipped_files++;
    pthread_mutex_unlock(&sc->mu);
    char what[SCANNER_MSG_LEN];
    snprintf(what, sizeof what, "not read: %s", why);
    scan_note_unread_as(sc, e, scan_rel_key(sc, e->key), what, partial);
}

void scan_feed_lines(scanner *sc, ingest_ctx *cx, cat_entry *e, const char *data, size_t len,
                     pthread_mutex_t *adopt_mu, feed_note *fn)
{
    model_shard_get_drops(cx->w, &fn->before);
    size_t skip = 0;
    if (adopt_mu)
        pthread_mutex_lock(adopt_mu);
    if (e->ki.kind == KEY_TRACE && e->consumed == 0 && scan_ingest_reader(cx, e))
        skip = scan_adopt_take(&sc->adopt, e, data, len);
    if (e->ki.kind == KEY_TRACE_TMP)
        scan_adopt_track(&sc->adopt, e);
    if (adopt_mu)
        pthread_mutex_unlock(adopt_mu);
    if (e->ki.kind == KEY_SYSTEM)
        model_shard_set_stream(cx->w, e->id);   /* one file, one stream */
    fn->oom = scan_ingest_bytes(cx, e, data, len, skip, entry_is_final(sc, e, len)) != 0;
    model_shard_get_drops(cx->w, &fn->after);
    fn->n = cx->n;
}

void scan_feed_say(scanner *sc, cat_entry *e, const feed_note *fn)
{
    pthread_mutex_lock(&sc->mu);
    sc->st.lines += fn->n.lines;
    sc->st.corrupt_lines += fn->n.corrupt;
    sc->st.partial_lines += fn->n.partial;
    pthread_mutex_unlock(&sc->mu);
    const char *rel = scan_rel_key(sc, e->key);
    if (fn->oom)
        scan_add_message(sc, rel, "out of memory, will retry");
    scan_feed_note_drops(sc, rel, &fn->before, &fn->after);
    const rec_lines *n = &fn->n;
    if (n->corrupt) {
        char what[240], lines[80] = "";
        size_t k = 0;
        for (size_t i = 0; i < n->nbad; i++)
            k += (size_t)snprintf(lines + k, sizeof lines - k, "%s%lld", i ? ", " : "",
                                  (long long)n->bad_line[i]);
        int64_t bad = n->corrupt;
        snprintf(what, sizeof what, "line%s %s%s: %lld corrupt line%s skipped (first: \"%s\")",
                 n->nbad > 1 ? "s" : "", lines, bad > (int64_t)n->nbad ? ", ..." : "",
                 (long long)bad, bad == 1 ? "" : "s", n->first_bad);
        scan_add_message(sc, rel, what);
    }
}

static void ingest_lines(scanner *sc, cat_entry *e, const char *data, size_t len)
{
    ingest_ctx cx = {.w = model_writer(sc->m), .scratch = &sc->scratch, .carry = sc->carry};
    cx.pre = sc->pre;
    feed_note fn;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    scan_feed_lines(sc, &cx, e, data, len, NULL, &fn);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    scan_feed_say(sc, e, &fn);
}

int scan_feed_accept(scanner *sc, cat_entry *e, size_t *len, const char *etag,
                     const sm_err *err, char *why)
{
    return scan_feed_accept_piece(sc, e, len, etag, err, why, 1);
}

int scan_feed_accept_piece(scanner *sc, cat_entry *e, size_t *len, const char *etag,
                           const sm_err *err, char *why, int first)
{
    why[0] = '\0';
    if (!err && etag && e->etag && sc->src->vt->etag_is_identity && strcmp(etag, e->etag)) {
        /* The path now names another file than the one listed (the writer
         * renamed the .tmp and started a new one in between): its bytes do
         * not continue this entry. The next listing sees the change. */
        *len = 0;
    }
    pthread_mutex_lock(&sc->mu);
    if (first && sc->st.files_pending > 0)
        sc->st.files_pending--;
    if (!err) {
        sc->st.bytes_read += (int64_t)*len;
        sc->st.pass_bytes_read += (int64_t)*len;
    }
    pthread_mutex_unlock(&sc->mu);
    if (err && err->code == SM_ERR_NOTFOUND && e->ki.kind == KEY_TRACE_TMP)
        return 0;   /* renamed since the listing: a rotation, seen next pass */
    if (err) {
        if (!e->failed) {
            pthread_mutex_lock(&sc->mu);
            sc->st.skipped_files++;
            pthread_mutex_unlock(&sc->mu);
        }
        e->failed = 1;
        snprintf(why, SCANNER_MSG_LEN, "not read: %s", err->msg);
        return 0;
    }
    e->failed = 0;
    if (scan_is_line_kind(e->ki.kind))
        scan_note_read(sc, e);
    return 1;
}

void scan_feed_cb(void *ud, const source_req *req, const void *data, size_t len,
                  const char *etag, const sm_err *err)
{
    scanner *sc = ud;
    cat_entry *e = req->user;
    char why[SCANNER_MSG_LEN];
    if (scan_is_stream(sc, e)) {
        scan_stream_piece(sc, e, req, data, len, etag, err);
        if (sc->on_ingest)
            sc->on_ingest(sc->on_ingest_ud);
        return;
    }
    if (!scan_feed_accept(sc, e, &len, etag, err, why)) {
        if (why[0])
            scan_note_unread(sc, e, scan_rel_key(sc, e->key), why);
        return;
    }
    if (scan_is_line_kind(e->ki.kind)) {
        if (len)
            ingest_lines(sc, e, data, len);
    } else {
        ingest_whole(sc, e, data, len);
    }
    if (sc->on_ingest)
        sc->on_ingest(sc->on_ingest_ud);
}

void scan_on_ingest(scanner *sc, void (*fn)(void *ud), void *ud)
{
    sc->on_ingest = fn;
    sc->on_ingest_ud = ud;
}
