/* loader: the thread that scans the job every interval so that keys and
 * redraws never wait on I/O, and builds the derived products (rules, the
 * Python merge, the diff: model/view/viewsnap.h) so that frames never compute
 * them. Takes a job; gives model updates and `viewsnap` snapshots. After
 * each pass or build it makes loader_fd() readable, which the UI's poll()
 * watches, so the frame after new data comes at once instead of at the
 * next timeout. */
#ifndef SMTOP_LOADER_H
#define SMTOP_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"
#include "model/view/viewbuild.h"
#include "io/run/job.h"

typedef struct loader loader;

/* Starts scanning j (not owned; must outlive the loader) immediately and
 * then every interval_ms; a pass that leaves files pending is followed
 * at once by another. NULL with err when the thread or pipe cannot be made. */
loader *loader_start(job *j, int interval_ms, sm_err *err);

typedef struct loader_opts {
    int interval_ms;     /* between passes once caught up; <= 0: 5000 */
    viewbuild *dv;         /* NULL: no derived products; borrowed, outlives l */
    int derive_min_ms;   /* while backfilling, builds at most this often;
                            <= 0: 1000. Caught up: after every pass. */
    int view_min_ms;     /* within a pass, rebuilds the panes' view data at
                            most this often (at once for a new view
                            request); <= 0: 250 */
} loader_opts;

/* As loader_start, and builds o->dv's products after passes (and at once
 * after loader_poke), publishing each as the latest snapshot. */
loader *loader_start_opts(job *j, const loader_opts *o, sm_err *err);

/* The latest snapshot (a new reference: viewsnap_unref it), NULL before
 * the first build or without a viewbuild. Never waits on the model lock. */
viewsnap *loader_snapshot(loader *l);
/* The viewbuild's choices changed (a rule override, a Python selection):
 * build and publish now, without waiting for the interval (when a pass is
 * running, as soon as it ends). */
void loader_poke(loader *l);

/* Stops the thread and frees l: a pass in progress is cancelled through
 * the source (source_cancel), so this returns within milliseconds even
 * when the network hangs. The source accepts calls again afterwards.
 * NULL is a no-op. */
void loader_stop(loader *l);

/* Asks the thread to stop and waits at most ms for it. 0: stopped and
 * l freed, as loader_stop. -1: a pass is still blocked (a hanging
 * request, a huge listing); l and its job stay in use by the thread, so
 * the caller must free neither and should end the process soon (a user
 * who pressed q or sent SIGTERM must not wait on the network). */
int loader_stop_within(loader *l, int ms);

/* How many answers to view requests (viewbuild_want_view) were built, the
 * time they took in all and the longest: at most an eighth of the
 * loader's time (plus the last answer) goes to them, however often the
 * request changes. Thread-safe. */
void loader_view_stats(loader *l, uint64_t *answers, int64_t *answers_us, int64_t *max_us);

/* File descriptor that is readable after a pass completed. */
int loader_fd(const loader *l);
/* Drains loader_fd; returns the number of passes signalled since. */
int loader_ack(loader *l);

/* Latest failure of a whole pass (e.g. a listing refused by S3) in plain
 * words, with the wall-clock time it happened; "" and 0 after a pass that
 * succeeded. Thread-safe copy. */
void loader_last_error(loader *l, char *buf, size_t cap, int64_t *when_us);

#endif
