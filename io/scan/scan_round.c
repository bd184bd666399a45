/* scan_round: fetch rounds over the work list — a pool of read-and-decode
 * threads (a reentrant source) or one fetch-ahead thread, the consumer
 * feeding the model in list order; files larger than one read go on in
 * further rounds. See scanner_internal.h. */
#include "io/scan/scanner_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "io/scan/scan_fetch.h"

/* How much of line file e one read asks for: read_chunk bytes (the first
 * read of a closed trace at least SCAN_FIRST_READ_MIN), the rest in later
 * reads of the pass. A closed trace read from its start
 * while .tmp files are tracked is read whole: scan_adopt matches the .tmp's
 * lines against its first bytes, which one chunk might cut short. Whether
 * any is tracked is taken when the round starts (`adopt_any`): requests
 * are built on the fetch threads while this round's .tmp files are still
 * being ingested. */
static int64_t read_len(const scanner *sc, const cat_entry *e)
{
    /* What fits in one read is asked to the end, as always: a whole closed
     * object is what the S3 cache keeps. */
    if (e->size - e->consumed <= (int64_t)sc->o.read_chunk)
        return -1;
    if (e->ki.kind != KEY_TRACE || e->consumed != 0)
        return (int64_t)sc->o.read_chunk;
    if (sc->adopt_any)
        return -1;
    return (int64_t)(sc->o.read_chunk > SCAN_FIRST_READ_MIN ? sc->o.read_chunk
                                                            : SCAN_FIRST_READ_MIN);
}

void scan_round_req(scanner *sc, source_req *req, size_t i)
{
    cat_entry *e = sc->work[i];
    int whole = !scan_is_line_kind(e->ki.kind);
    e->asked_at = e->consumed;
    *req = (source_req){.key = e->key, .offset = whole ? 0 : e->consumed,
                        .len = whole ? -1 : read_len(sc, e), .user = e};
}

source_req scan_round_peek(const scanner *sc, size_t i)
{
    const cat_entry *e = sc->work[i];
    int whole = !scan_is_line_kind(e->ki.kind);
    return (source_req){.key = e->key, .offset = whole ? 0 : e->consumed,
                        .len = whole ? -1 : read_len(sc, e), .user = sc->work[i]};
}

/* How many files from work[i] one fetch asks for: up to a batch, ending
 * before a streamed file (0 when work[i] is one: it is read alone, piece
 * by piece, at its place in the list). */
static size_t batch_len(const scanner *sc, size_t i)
{
    size_t n = 0;
    while (i + n < sc->nwork && n < sc->o.batch && !scan_is_stream(sc, sc->work[i + n]))
        n++;
    return n;
}

/* Builds the requests of work[i, i+n). */
static void fill_reqs(scanner *sc, source_req *reqs, size_t i, size_t n)
{
    for (size_t k = 0; k < n; k++)
        scan_round_req(sc, &reqs[k], i + k);
}

typedef struct ahead_ctx {
    scanner *sc;
    source_req *reqs;
} ahead_ctx;

/* Fetch thread: a callback's arguments go to the scanner's thread, with a
 * line file's lines decoded ahead. Reads nothing but the entry's kind,
 * which no one changes after the listing. */
static void ahead_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *err)
{
    scan_fetch *f = ud;
    const cat_entry *e = req->user;
    scan_fetch_put(f, req, data, len, etag, err, err ? PREDEC_NONE : scan_predec_kind(e->ki.kind));
}

/* One fetch thread, batches of requests (a source whose fetches must not
 * overlap, e.g. S3 with its own parallel transfers). A request reads only
 * its own entry's offset, which nothing but that entry's ingest changes
 * (adoption rewinds an open .tmp, and those come first in the list), so
 * the next batch need not wait for this one to be ingested. */
static int ahead_run(void *ud, scan_fetch *f, sm_err *err)
{
    ahead_ctx *a = ud;
    scanner *sc = a->sc;
    for (size_t i = 0; i < sc->nwork;) {
        size_t n = batch_len(sc, i);
        if (!n) {
            if (scan_stream_fetch(sc, i++, ahead_cb, f, 0, err) != 0)
                return -1;
            continue;
        }
        fill_reqs(sc, a->reqs, i, n);
        if (source_fetch(sc->src, a->reqs, n, ahead_cb, f, err) != 0)
            return -1;
        i += n;
    }
    return 0;
}

/* Decode threads: opts.threads, else one per core this process may run
 * on (taskset, cgroups: not every core online), the consumer (this
 * thread) feeding the model being one of the loads; at least one. */
static size_t pool_size(const scanner *sc)
{
    if (sc->o.threads)
        return sc->o.threads;
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                         : sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? (size_t)n : 1;
}

size_t scan_threads(const scanner *sc)
{
    return sc->o.sequential ? 1 : pool_size(sc);
}

static int fetch_round(scanner *sc, source_req *reqs, sm_err *err);

/* Fetches and ingests the work list; files larger than one read go on
 * in further rounds until read to their listed size. */
int scan_round_fetch_work(scanner *sc, sm_err *err)
{
    source_req *reqs = calloc(sc->o.batch, sizeof *reqs);
    if (!reqs)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = 0;
    do
        rc = fetch_round(sc, reqs, err);
    while (rc == 0 && scan_order_keep_unfinished(sc));
    free(reqs);
    return rc;
}

static int fetch_round(scanner *sc, source_req *reqs, sm_err *err)
{
    int rc = 0;
    /* With line files to decode (a pass over a job's history, or several
     * nodes' new minutes), threads read and decode; over a source whose
     * fetches must not overlap (S3, with its own parallel transfers), one
     * fetch thread while this one feeds the model; otherwise, or when no
     * thread starts, fetch here. */
    size_t nlines = 0;
    for (size_t i = 0; i < sc->nwork; i++) {
        sc->work[i]->work_at = (uint32_t)i;
        nlines += scan_predec_kind(sc->work[i]->ki.kind) != PREDEC_NONE;
    }
    /* .tmp files come first in the list, so they are tracked by the time
     * a closed trace after them is ingested. */
    sc->adopt_any = sc->adopt.n > 0;
    for (size_t i = 0; i < sc->nwork && !sc->adopt_any; i++)
        sc->adopt_any = sc->work[i]->ki.kind == KEY_TRACE_TMP;
    /* A source that reads in parallel (a directory): every worker reads,
     * decodes and adds its nodes' files (scan_shard). */
    if (nlines >= 2 && !sc->o.sequential && sc->src->vt->fetch_reentrant) {
        rc = scan_shard_round(sc, pool_size(sc) < nlines ? pool_size(sc) : nlines, err);
        if (rc != 0)
            scan_stream_abandon_all(sc);
        return rc;
    }
    ahead_ctx a = {sc, reqs};
    scan_fetch *f = NULL;
    if (nlines >= 2 && !sc->o.sequential)
        f = scan_fetch_start(ahead_run, &a);
    if (f) {
        scan_item it;
        while (scan_fetch_take(f, &it) == 0) {
            cat_entry *e = it.req.user;
            sc->pre = &it.pre;
            scan_feed_cb(sc, &it.req, it.data, it.len, it.etag, it.err);
            sc->pre = NULL;
            scan_fetch_release(f);
            scan_list_forget_if_read(sc, e);
        }
        rc = scan_fetch_finish(f, err);
    } else {
        for (size_t i = 0; i < sc->nwork && rc == 0;) {
            size_t n = batch_len(sc, i);
            if (!n) {
                rc = scan_stream_fetch(sc, i++, scan_feed_cb, sc, 1, err);
                continue;
            }
            fill_reqs(sc, reqs, i, n);
            rc = source_fetch(sc->src, reqs, n, scan_feed_cb, sc, err);
            for (size_t k = 0; k < n; k++)   /* the source is done with their keys */
                scan_list_forget_if_read(sc, sc->work[i + k]);
            i += n;
        }
    }
    if (rc != 0)
        scan_stream_abandon_all(sc);
    return rc;
}
