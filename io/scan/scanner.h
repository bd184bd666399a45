/* scanner: turns a source into model updates, one pass per scan interval.
 *
 * Each pass lists what is new under the profiler-output root (with a
 * start-after that trails the newest key by `window_us`, so late uploads
 * from slow nodes are still found), keeps a catalog of every file that can
 * still change with the bytes already consumed (a file read and behind
 * that window is never listed again and leaves it), fetches only new
 * bytes, holds back a partial last line until a later pass completes it,
 * and processes files newest first — each node's newest system file
 * before anything else — so the latest minutes reach the model before the
 * history. A job's first pass reads the newest minutes before it lists
 * the whole job. Over a local source, each node's files are read,
 * decoded and added on one of several threads, in that order, and the
 * job-wide state is folded in between batches of files (scan_shard.c);
 * over S3 a thread reads and decodes ahead while the scanning thread adds
 * in order. The results are the same either way.
 *
 * Line-oriented kinds (system metrics, framework traces incl. the open
 * `.tmp` file and its renamed final form) are decoded here; every other
 * kind by its decoder (below). Files under framework/ or system/ that
 * are not read are named (scanner_unread). */
#ifndef SMTOP_SCANNER_H
#define SMTOP_SCANNER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/util/sm_err.h"
#include "io/decode/keyname.h"
#include "io/source/source.h"

#define SCANNER_MSG_LEN 768

typedef struct scanner scanner;

/* A line file's bytes per read: above smdebug's 10 MB trace rotation, so
 * its own files are read in one request. */
#define SCAN_READ_CHUNK ((size_t)16 << 20)
/* The first read of a closed trace asks for at least this much: its layout
 * (one event per line, or another) is judged from its first element, the
 * writer's ~100-byte metadata event (json_split.h). */
#define SCAN_FIRST_READ_MIN ((size_t)64 << 10)

/* Files other than the line files are read by their decoder
 * (io/decode/decoder.h, decoder_for): Python stats, TF traces and rule
 * reports whole, once per version, PyTorch profiler traces (KEY_KINETO,
 * KEY_KINETO_MAYBE) as a stream: their bytes in pieces of at most 1 MiB
 * (8 MiB from a source whose every read is a request, S3), each piece
 * its own read, so memory does not grow with the file (a local file is
 * read to its end, past its listed size if it grew: a .gz written in
 * place). A TF trace placed by its .metadata record reaches its decoder
 * with ki.node the writer's node and ki.time_us the session start (else
 * the same step's start on that node, else 0: it is then named as not
 * placed). A decoder's samples and events go into the model; what else
 * it gives (a Python stats window, a finished Kineto trace) goes to the
 * caller's sink, with the lock held, in the work list's order. A file
 * whose decoder fails, or whose record the sink refuses, is counted as
 * skipped and named in scanner_unread with why. */

typedef struct scanner_opts {
    int64_t window_us;          /* start-after trails newest key; default 5 min */
    pthread_mutex_t *lock;      /* held around each model update; may be NULL */
    const rec_sink *sink;       /* the caller's records (pywindow, trace; the
                                   rest is ignored); NULL: only the line
                                   files are read */
    size_t batch;               /* files fetched per source_fetch call; default 64 */
    size_t read_chunk;          /* most bytes of a line file one read asks
                                   for (default SCAN_READ_CHUNK): a larger
                                   file is read in several within the pass,
                                   so memory does not grow with file size */
    int sequential;             /* 1: fetch and decode on the calling thread
                                   only (no fetch-ahead thread); the results
                                   are the same either way */
    size_t threads;             /* ingest threads of a pass; 0: one per core
                                   this process may run on (its CPU
                                   affinity); the results are the same
                                   whatever the count */
    int wait;                   /* with root NULL: a source that holds no
                                   profiler data yet is a job that has not
                                   written anything; passes succeed and
                                   report `waiting` until data appears */
} scanner_opts;

typedef struct scan_stats {
    int64_t passes;             /* completed scans */
    int64_t files_known;        /* files seen (including those read and
                                   dropped from the catalog) */
    int64_t files_pending;      /* files with unread bytes in the current pass */
    int listing_cached;         /* 1 when the last pass listed from a cache that
                                   may be stale: another pass should follow now */
    int64_t bytes_read;         /* total payload bytes fetched */
    int64_t lines;              /* lines decoded */
    int64_t corrupt_lines;      /* skipped, per-file counts summed */
    int64_t partial_lines;      /* trailing partial lines of final files */
    int64_t skipped_files;      /* unreadable or undecodable files */
    int64_t unread_files;       /* files now on the unread list (see
                                   scanner_unread) */
    int64_t last_scan_us;       /* wall clock at the end of the last pass */
    int scanning;               /* 1 while a pass runs */
    int waiting;                /* 1 while no profiler data exists yet
                                   (opts.wait): nothing to read so far */
    int64_t started_us;         /* wall clock when the scanner was made:
                                   how long a waiting job has been waited for */
    int64_t messages;           /* warnings noted (scanner_messages keeps the
                                   newest SCANNER_MSG_MAX) */
    /* How far the running (or last) pass has read, for a progress line
     * (issue 35): the reads it took on (a file, or a further piece of one
     * read in chunks; done = pass_files - files_pending), the bytes they
     * hold (listed sizes, compressed for .gz) and those read so far. */
    int64_t pass_started_us;
    int64_t pass_files;
    int64_t pass_bytes, pass_bytes_read;
    char last_error[SCANNER_MSG_LEN]; /* latest problem in plain words, "" if none */
} scan_stats;

/* `root` is the key prefix of profiler-output within the source ("" when
 * the source is the profiler-output directory itself); see
 * scanner_find_root. NULL: found by the first pass that sees data (see
 * opts.wait; without it a pass on a source with no data fails like
 * scanner_find_root). `m` is not owned. NULL with err set on failure. */
scanner *scanner_new(source *src, const char *root, model *m,
                     const scanner_opts *opts, sm_err *err);
void scanner_free(scanner *sc);
/* The threads a pass over a local source reads on (opts.threads, else
 * the cores this process may run on; 1 when sequential): what work after
 * the pass may use as well (the report's rules). At least 1. */
size_t scan_threads(const scanner *sc);

/* Finds the profiler-output root inside `src`: "" when the source holds
 * system/ or framework/ directly, "profiler-output/" when it holds a job
 * directory. Writes it into root (cap bytes). -1 with err when neither. */
int scanner_find_root(source *src, char *root, size_t cap, sm_err *err);
/* The job folders inside src (keys before "/profiler-output/", or before
 * "/system/" or "/framework/"), in listing order: up to max into out;
 * returns how many were found (may exceed max; 0 on a listing error,
 * err set). Lists the whole tree, up to a bound: for the error on a
 * folder that holds jobs rather than being one. */
#define SCAN_JOB_NAME 256
size_t scan_find_jobs(source *src, char (*out)[SCAN_JOB_NAME], size_t max, sm_err *err);
/* The same without the message: 1 found (root written), 0 the source
 * holds no profiler data (yet), -1 with err when listing failed. When
 * jobs is not NULL it is set to the number of job folders the probe
 * found inside (scan_find_jobs's count; 0 unless the result is 0), so a
 * caller that asks "a folder of jobs?" lists the source once. */
int scanner_probe_root(source *src, char *root, size_t cap, size_t *jobs, sm_err *err);
/* Thread-safe copy of the root into buf; 0 while it is not known yet. */
int scanner_root(scanner *sc, char *buf, size_t cap);

/* fn(ud) runs on the scanning thread after each file a pass ingests, with
 * no lock held: the loader publishes the panes' view data from there, so
 * a long pass does not hold back what the screen shows. NULL: none. Set
 * it while no pass runs. */
void scan_on_ingest(scanner *sc, void (*fn)(void *ud), void *ud);

/* One pass. Returns 0 (problems with single files are counted, not fatal),
 * or -1 with err when the listing itself failed (the catalog is intact and
 * the next pass retries). */
int scanner_scan(scanner *sc, sm_err *err);

/* Declares the data final (report mode, end of a job): partial trailing
 * lines still held back are counted as partial_lines and dropped. */
void scanner_finish(scanner *sc);
/* After scanner_finish, when no pass will follow (a report): frees what
 * only a next pass would use — every file's catalog entry (its key,
 * ETag, decoder, partial line), but those the unread list names, and the
 * .tmp traces kept for renames. Stats, messages and the unread list stay
 * whole. A later scanner_scan fails. At 16 nodes x 24 h that was a fifth
 * of the report's peak. */
void scanner_shed(scanner *sc);

/* The bytes the scanner's catalog of files holds (catalog_bytes): what
 * it keeps per file it has seen. Not thread-safe: call it between passes
 * or from the scanner's own thread (a scan_on_ingest callback). */
size_t scanner_catalog_bytes(const scanner *sc);

/* Thread-safe copy of the counters. */
void scanner_get_stats(scanner *sc, scan_stats *out);

/* Every file under framework/ or system/ that is not read — an unknown
 * name, a TF trace not placed on the job clock, a file that could not be
 * read or decoded — with why ("not read: unknown file name"), once each,
 * in the order they were noted; a file read later leaves the list.
 * Thread-safe: calls cb for each under the scanner's lock (cb must not
 * call the scanner) and returns the count. Keys are relative to the
 * profiler-output root. */
typedef void (*scanner_unread_cb)(void *ud, const char *key, const char *why);
size_t scanner_unread(scanner *sc, scanner_unread_cb cb, void *ud);
/* The same, where a file whose bytes end early (SM_ERR_PARTIAL: a .gz
 * written in place) is said to be still being written while the job
 * runs (ended 0, as scanner_unread), and truncated once it has ended
 * (ended 1: it will not be completed). */
size_t scanner_unread_at(scanner *sc, int ended, scanner_unread_cb cb, void *ud);

#define SCANNER_MSG_MAX 100
/* Per-file warnings ("system/…/1591748100.algo-1.json: 2 corrupt lines"),
 * oldest first, the newest SCANNER_MSG_MAX kept. Thread-safe: copies up to
 * max of them into out; returns how many. */
size_t scanner_messages(scanner *sc, char (*out)[SCANNER_MSG_LEN], size_t max);
/* Adds a warning about key (relative to the root) from outside the scan,
 * as "key: what", to the messages above. Thread-safe; do not call it
 * with the model's lock held. */
void scanner_note(scanner *sc, const char *key, const char *what);

#endif
