/* scanner_internal: the scanner's state, shared by its stages — scanner.c
 * (lifecycle, the pass, status and messages), scan_list.c (listing, the
 * catalog's windows, forgetting, the first pass's newest minutes),
 * scan_order.c (the work list, newest first), scan_round.c (fetch rounds,
 * fetch-ahead), scan_shard.c (node workers) and scan_feed.c (a fetched
 * file into the model). Not used outside io/scan/. */
#ifndef SMTOP_SCANNER_INTERNAL_H
#define SMTOP_SCANNER_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/scan/scanner.h"
#include "io/scan/catalog.h"
#include "io/decode/predec.h"
#include "io/scan/scan_adopt.h"
#include "io/scan/scan_decode.h"
#include "io/scan/scan_ingest.h"
#include "io/scan/scan_unread.h"
#include "io/decode/decoder.h"
#include "io/decode/sys_decode.h"
#include "io/decode/tf_meta.h"
#include "io/decode/trace_carry.h"

#define DEFAULT_WINDOW_US (5LL * 60 * 1000000)
#define DEFAULT_BATCH 64

struct scanner {
    source *src;
    char *root;                  /* key prefix of profiler-output, "" or "x/" */
    int jobs_checked;            /* jobs_inside looked (once, while waiting) */
    char jobs_msg[SCANNER_MSG_LEN];  /* "" or the jobs it found inside */
    model *m;
    scanner_opts o;
    void (*on_ingest)(void *ud);   /* scan_on_ingest */
    void *on_ingest_ud;
    catalog *cat;
    adopt_list adopt;            /* open .tmp trace files, for rename matching */
    int adopt_any;               /* this round: a .tmp is or will be tracked */
    trace_carry *carry;          /* B/E pairs split across a writer's files */
    sysdec_scratch scratch;
    int64_t newest_sys_us, newest_trace_us;
    uint64_t pass;               /* passes begun; cat_entry.listed */
    /* Start-after keys (relative) of the windowed listings, system/ and
     * framework/pevents/: they only move forward, and a file at or before
     * them is never listed again, so once read it leaves the catalog
     * (`forgotten` counts those). */
    char *win_after[2];
    int64_t forgotten;
    cat_entry **work;
    size_t nwork, capwork;
    predec *pre;                 /* lines of the file being ingested that
                                    the fetch thread decoded ahead, or NULL */
    tf_meta_book *tfb;           /* smdebug's TF session records, by step dir */
    pthread_mutex_t mu;          /* guards st, msgs and unread */
    scan_stats st;
    char msgs[SCANNER_MSG_MAX][SCANNER_MSG_LEN];
    size_t msg_head, msg_count;
    unread_list unread;          /* files not read, with why */
    /* st.last_error says why a pass failed or why a file is not read:
     * true only until S3 answers again, so a pass that succeeds puts the
     * status right (a data problem, e.g. corrupt lines, stays said). */
    int err_transient;
    int shed;                    /* scanner_shed ran: no pass may follow */
    char *sbuf;                  /* a streamed file's piece, read here */
    size_t scap;
};

/* Kinds read line by line, in pieces, as they grow. */
static inline int scan_is_line_kind(key_kind k)
{
    key_info ki;
    ki.kind = k;
    const decoder *d = decoder_for(&ki);
    return d && d->grows;
}

/* The decoder of e's kind (decoder_for), NULL for those no decoder
 * reads. */
static inline const decoder *scan_decoder(const cat_entry *e)
{
    key_info ki;
    ki.kind = e->ki.kind;
    return decoder_for(&ki);
}

/* Files read in pieces as they come (their decoder's streamed), when
 * the caller takes their records. */
static inline int scan_is_stream(const scanner *sc, const cat_entry *e)
{
    const decoder *d = sc->o.sink ? scan_decoder(e) : NULL;
    return d && d->streamed;
}

/* ---- scanner.c: status and messages (each takes mu itself) ----------- */

/* The work list was (re)built: its files are pending, and the pass's
 * progress counts them and their unread bytes. */
void scan_progress_add_work(scanner *sc);

/* The wall clock, microseconds since the epoch. */
int64_t scan_wall_us(void);
/* Adds "key: what" to the message ring and the status line. */
void scan_add_message(scanner *sc, const char *key, const char *what);
/* Names e (relative key rel) as not read, with why; partial: its bytes
 * end early (scanner_unread_at says what that means for the job). */
void scan_note_unread(scanner *sc, cat_entry *e, const char *rel, const char *why);
void scan_note_unread_as(scanner *sc, cat_entry *e, const char *rel, const char *why,
                         int partial);
/* e was read: off the list of what is not read. */
void scan_note_read(scanner *sc, cat_entry *e);

/* A catalog key relative to the root, or to the job when it lies outside
 * the root (rule-output/, Kineto traces beside profiler-output/). */
static inline const char *scan_rel_key(const scanner *sc, const char *key)
{
    size_t rl = sc->root ? strlen(sc->root) : 0;
    return rl && strncmp(key, sc->root, rl) ? key : key + rl;
}

/* ---- scan_list.c ------------------------------------------------------ */

/* Lists everything that may have changed since the last pass into the
 * catalog. 0, or -1 with err. */
int scan_list_all(scanner *sc, sm_err *err);
/* Moves the windowed listings' start-after keys forward. 0, or -1 on OOM. */
int scan_list_update_windows(scanner *sc);
/* Forgets e now if it is read and behind the windows (its work slot goes
 * NULL). e may be NULL. */
void scan_list_forget_if_read(scanner *sc, cat_entry *e);
/* Drops every catalog entry behind the windows; uses the work list. */
void scan_list_forget_behind(scanner *sc);
/* A job's first pass: reads the newest minutes of system files before the
 * whole listing. 0 (also when there is nothing to gain), or -1 with err. */
int scan_list_newest_first(scanner *sc, sm_err *err);

/* ---- scan_order.c ----------------------------------------------------- */

/* Appends e to the work list; 0, or -1 on OOM. */
int scan_order_push(scanner *sc, cat_entry *e);
/* Builds this pass's work list, newest first; 0, or -1 on OOM. */
int scan_order_build(scanner *sc);
/* Keeps in the work list the line files with bytes left past this
 * round's read; how many. */
size_t scan_order_keep_unfinished(scanner *sc);

/* ---- scan_round.c ----------------------------------------------------- */

/* The decode-ahead kind of a file (PREDEC_*; its key kind never changes). */
static inline int scan_predec_kind(key_kind k)
{
    return k == KEY_SYSTEM ? PREDEC_SYSTEM
           : k == KEY_TRACE || k == KEY_TRACE_TMP ? PREDEC_TRACE : PREDEC_NONE;
}
/* Builds the request of work[i] (marks the entry's asked_at). */
void scan_round_req(scanner *sc, source_req *req, size_t i);
/* The request work[i] will make, built without marking the entry (for a
 * hint: scan_round_req builds the real one when the file is read). */
source_req scan_round_peek(const scanner *sc, size_t i);

/* Fetches and ingests the work list, in rounds until every file is read
 * to its listed size. 0, or -1 with err. */
int scan_round_fetch_work(scanner *sc, sm_err *err);

/* ---- scan_shard.c ----------------------------------------------------- */

/* A fetch round over a source that reads in parallel, on `threads`
 * workers (this thread one of them), each node's files on one worker.
 * 0, or -1 with err. */
int scan_shard_round(scanner *sc, size_t threads, sm_err *err);

/* ---- scan_feed.c ------------------------------------------------------ */

/* What ingesting one read of a line file did, for scan_feed_say. */
typedef struct feed_note {
    int oom;
    rec_lines n;                /* its lines, the corrupt ones named */
    model_drops before, after;  /* the writer's drops around it */
} feed_note;

/* The part of a fetch callback every reader shares: counts the fetch and
 * says whether e's bytes (*len of them: 0 when the path names another
 * file by now) go on to be ingested: 1, else 0 with why (SCANNER_MSG_LEN
 * bytes) saying why e is not read, or "" when nothing is to be said. */
int scan_feed_accept(scanner *sc, cat_entry *e, size_t *len, const char *etag,
                     const sm_err *err, char *why);
/* The same for a piece of a file; first: its first piece (the file
 * leaves the pending count). */
int scan_feed_accept_piece(scanner *sc, cat_entry *e, size_t *len, const char *etag,
                           const sm_err *err, char *why, int first);
/* A whole file was handed over (rc: the callback's result, why: its
 * error, partial: SM_ERR_PARTIAL's): read, or named as not read with why. */
void scan_feed_whole_said(scanner *sc, cat_entry *e, int rc, const char *why, int partial);
/* Ingests one read of line file e through cx (its writer, scratch, lines
 * decoded ahead) into fn; the model lock is the caller's. adopt_mu, when
 * not NULL, is taken around the .tmp adoption list. */
void scan_feed_lines(scanner *sc, ingest_ctx *cx, cat_entry *e, const char *data, size_t len,
                     pthread_mutex_t *adopt_mu, feed_note *fn);
/* Says what fn holds: the scanner's counts and the file's warnings. */
void scan_feed_say(scanner *sc, cat_entry *e, const feed_note *fn);

/* A source_fetch callback (ud: the scanner): one fetched file or piece of
 * one into the model, under the lock; failures named. Runs on the
 * scanning thread. */
void scan_feed_cb(void *ud, const source_req *req, const void *data, size_t len,
                  const char *etag, const sm_err *err);
/* Names the file the records the model refused came from (b..a: the
 * model's counts before and after ingesting it). */
void scan_feed_note_drops(scanner *sc, const char *rel, const model_drops *b,
                          const model_drops *a);

/* ---- scan_stream.c ---------------------------------------------------- */

/* Reads work[i], a streamed kind, piece by piece, each piece a fetch of
 * its own handed to cb(ud) (scan_feed_cb, or the fetch-ahead's queue,
 * which ends in it), until the file's end or a failure. direct: cb runs
 * the piece here (this thread reads into the scanner's own buffer and
 * stops once the reader wants no more). 0, or -1 with err when the
 * source could not attempt a read. */
int scan_stream_fetch(scanner *sc, size_t i, source_fetch_cb cb, void *ud, int direct,
                      sm_err *err);
/* One fetched piece of streamed file e into its reader (begun at offset
 * 0, ended at the file's end, under the lock); failures named. */
void scan_stream_piece(scanner *sc, cat_entry *e, const source_req *req, const void *data,
                       size_t len, const char *etag, const sm_err *err);
/* The read of streamed file e's piece at offset off: 1 MiB from a disk,
 * 8 MiB where every read is a request (S3; a closed object that fits in
 * one piece is asked whole); a local file is read to its end, a piece
 * shorter than asked being the last. */
source_req scan_stream_req(const scanner *sc, cat_entry *e, int64_t off);
/* Drops the reader of every entry whose read was cut short (a failed
 * round, the scanner's end). */
void scan_stream_abandon_all(scanner *sc);

/* ---- scan_traces.c ---------------------------------------------------- */

typedef struct trace_batch trace_batch;

/* A run of streamed files (work[first, first + n)) read and decoded on
 * nwk workers, applied in list order by this thread (HACKING, contract
 * 4); NULL on OOM. */
trace_batch *scan_traces_new(scanner *sc, size_t first, size_t n, size_t nwk);
void scan_traces_free(trace_batch *tb);
/* A helper worker's part: reads and decodes the batch's files it claims
 * (into buf), until none is left. */
void scan_traces_work(trace_batch *tb, char **buf, size_t *cap);
/* This thread's part, with the helpers at work: reads and decodes files
 * too, and applies each finished one in list order (the caller's sink,
 * under the lock; what each did said), until every file is applied. 0,
 * or -1 with err when a read could not be attempted (the files before it
 * count, as on one thread). Returns once no helper holds a file. */
int scan_traces_run(trace_batch *tb, char **buf, size_t *cap, sm_err *err);

#endif
