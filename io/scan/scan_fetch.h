/* scan_fetch: fetch-ahead — threads that run a source's fetches (the
 * reads and the copy out of the page cache) and decode line files ahead
 * (predec_decode), while the calling thread only consumes: the scanner
 * feeding the model (in one place), the export writing JSON. Internal to
 * io/.
 *
 * Order and results are the unthreaded ones: every fetch callback becomes
 * an item, handed to the consumer in order with the same arguments (bytes
 * copied, or lent while the producer waits), and the consumer runs its
 * usual callback on it. One producer thread (the S3 scanner's fetches
 * must not overlap; a local source is read by node workers instead,
 * scan_shard.c). */
#ifndef SMTOP_SCAN_FETCH_H
#define SMTOP_SCAN_FETCH_H

#include <stddef.h>

#include "model/util/sm_err.h"
#include "io/decode/predec.h"
#include "io/source/source.h"

typedef struct scan_fetch scan_fetch;

/* One fetch callback, as the source made it. */
typedef struct scan_item {
    source_req req;
    const void *data;       /* NULL on error */
    size_t len;
    const char *etag;
    const sm_err *err;      /* NULL on success */
    predec pre;             /* records decoded ahead (n = 0 when none) */
} scan_item;

/* The producer: runs on the fetch thread, calls scan_fetch_put for each
 * callback and returns the fetch result (0, or -1 with *err set). */
typedef int (*scan_fetch_fn)(void *ud, scan_fetch *f, sm_err *err);

/* Starts the fetch thread running fn(ud, f, err). NULL when it cannot be
 * started (the caller then fetches on its own thread). */
scan_fetch *scan_fetch_start(scan_fetch_fn fn, void *ud);
/* Producer side. Queues one callback's arguments (decoding data ahead as
 * `kind`, a PREDEC_* value), blocking while the queue is full; when the
 * bytes cannot be copied it lends them and waits until the consumer has
 * released the item. */
void scan_fetch_put(scan_fetch *f, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err, int kind);

/* Consumer side. Waits for the next item: 0, or -1 once the producer has
 * returned and every item was taken. The item stays valid until
 * scan_fetch_release. */
int scan_fetch_take(scan_fetch *f, scan_item *out);
void scan_fetch_release(scan_fetch *f);

/* Joins the thread (after scan_fetch_take returned -1) and frees f.
 * Returns the producer's result, copying its error into *err. */
int scan_fetch_finish(scan_fetch *f, sm_err *err);

#endif
