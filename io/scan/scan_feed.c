/* scan_feed: one fetched file (or piece of one) into the model, under the
 * lock: line files through scan_ingest, whole files to on_file; what the
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

/* Hands a whole file to on_file; a TF trace first gets its node and
 * session start from smdebug's record (ki.node, ki.time_us; time_us 0
 * when there is none, and on_file may then anchor it otherwise). */
static void ingest_whole(scanner *sc, cat_entry *e, const void *data, size_t len)
{
    /* A Kineto .gz grows in place: one fetched past its listed size was
     * read whole, and must not be fetched again (and counted twice) when
     * the next listing sees that size. */
    int kineto = e->ki.kind == KEY_KINETO || e->ki.kind == KEY_KINETO_MAYBE;
    e->whole_size = kineto && (int64_t)len > e->size ? (int64_t)len : e->size;
    if (!sc->o.on_file)
        return;
    sm_err err = {0}, place = {0};
    const char *rel = scan_rel_key(sc, e->key);
    key_info ki;
    catalog_entry_info(e, &ki);
    int placed = 1;
    if (ki.kind == KEY_TF_TRACE) {
        tf_place pl;
        placed = tf_meta_place(sc->tfb, rel, &pl, &place) == 0;
        if (placed) {
            snprintf(ki.node, sizeof ki.node, "%s", pl.node);
            ki.time_us = pl.base_us;
        }
    }
    model_drops before, after;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_get_drops(sc->m, &before);
    int rc = sc->o.on_file(sc->o.on_file_ud, &ki, rel, data, len, &err);
    model_get_drops(sc->m, &after);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    scan_feed_note_drops(sc, rel, &before, &after);
    if (rc == 0) {
        scan_note_read(sc, e);
        return;
    }
    pthread_mutex_lock(&sc->mu);
    if (!e->unread_at)
        sc->st.skipped_files++;
    pthread_mutex_unlock(&sc->mu);
    /* An unplaced trace says what record it lacks, not only that the
     * step's start is unknown. */
    char why[SCANNER_MSG_LEN];
    snprintf(why, sizeof why, "not read: %s",
             !placed && err.code == SM_ERR_NOTFOUND ? place.msg : err.msg);
    scan_note_unread(sc, e, rel, why);
}

static void ingest_lines(scanner *sc, cat_entry *e, const char *data, size_t len)
{
    ingest_ctx cx = {.m = sc->m, .scratch = &sc->scratch, .carry = sc->carry};
    cx.pre = sc->pre;
    int64_t corrupt_before = e->corrupt;
    model_drops before, after;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_get_drops(sc->m, &before);
    size_t skip = 0;
    if (e->ki.kind == KEY_TRACE && e->consumed == 0)
        skip = scan_adopt_take(&sc->adopt, e, data, len);
    if (e->ki.kind == KEY_TRACE_TMP)
        scan_adopt_track(&sc->adopt, e);
    if (e->ki.kind == KEY_SYSTEM)
        model_set_stream(sc->m, e->id);   /* one file, one stream */
    int rc = scan_ingest_bytes(&cx, e, data, len, skip, entry_is_final(sc, e, len));
    model_get_drops(sc->m, &after);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    pthread_mutex_lock(&sc->mu);
    sc->st.lines += cx.n.lines;
    sc->st.corrupt_lines += cx.n.corrupt;
    sc->st.partial_lines += cx.n.partial;
    pthread_mutex_unlock(&sc->mu);
    const char *rel = scan_rel_key(sc, e->key);
    if (rc != 0)
        scan_add_message(sc, rel, "out of memory, will retry");
    scan_feed_note_drops(sc, rel, &before, &after);
    if (e->corrupt != corrupt_before) {
        char what[128];
        snprintf(what, sizeof what, "%lld corrupt line%s skipped (first: \"%s\")",
                 (long long)(e->corrupt - corrupt_before),
                 e->corrupt - corrupt_before == 1 ? "" : "s", cx.first_bad);
        scan_add_message(sc, rel, what);
    }
}

void scan_feed_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *err)
{
    scanner *sc = ud;
    cat_entry *e = req->user;
    if (!err && etag && e->etag && sc->src->vt->etag_is_identity && strcmp(etag, e->etag)) {
        /* The path now names another file than the one listed (the writer
         * renamed the .tmp and started a new one in between): its bytes do
         * not continue this entry. The next listing sees the change. */
        len = 0;
    }
    pthread_mutex_lock(&sc->mu);
    if (sc->st.files_pending > 0)
        sc->st.files_pending--;
    if (!err)
        sc->st.bytes_read += (int64_t)len;
    pthread_mutex_unlock(&sc->mu);
    if (err && err->code == SM_ERR_NOTFOUND && e->ki.kind == KEY_TRACE_TMP)
        return;   /* renamed since the listing: a rotation, seen next pass */
    if (err) {
        if (!e->failed) {
            pthread_mutex_lock(&sc->mu);
            sc->st.skipped_files++;
            pthread_mutex_unlock(&sc->mu);
        }
        e->failed = 1;
        char why[SCANNER_MSG_LEN];
        snprintf(why, sizeof why, "not read: %s", err->msg);
        scan_note_unread(sc, e, scan_rel_key(sc, e->key), why);
        return;
    }
    e->failed = 0;
    if (scan_is_line_kind(e->ki.kind))
        scan_note_read(sc, e);
    if (scan_is_line_kind(e->ki.kind)) {
        if (len)
            ingest_lines(sc, e, data, len);
    } else {
        ingest_whole(sc, e, data, len);
    }
    if (sc->on_ingest)
        sc->on_ingest(sc->on_ingest_ud);
}

void scanner_on_ingest(scanner *sc, void (*fn)(void *ud), void *ud)
{
    sc->on_ingest = fn;
    sc->on_ingest_ud = ud;
}
