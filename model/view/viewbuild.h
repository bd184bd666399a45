/* viewbuild: the snapshot builder — the application layer's one step
 * from the model to what the dashboard shows, with no I/O. The loader
 * thread builds after a pass (and, for the view data alone, between a
 * pass's files); the UI reads the immutable snapshots (viewsnap.h).
 *
 * Takes a model and a Python stats store (read under their lock, held only
 * while a product reads them); gives viewsnap snapshots. A `viewbuild`
 * keeps what the UI chose — rule parameters, the Python selection and
 * sort, the view request — and is safe to change from the UI thread while
 * the loader builds: changes take effect in the next build. */
#ifndef SMTOP_VIEWBUILD_H
#define SMTOP_VIEWBUILD_H

#include <pthread.h>
#include <stdint.h>

#include "model/util/sm_err.h"
#include "model/view/viewsnap.h"

typedef struct viewbuild viewbuild;

/* The caller's product: built without any lock held (it takes what it
 * needs itself), freed with free_fn. NULL is "keep the previous one"; the
 * message, if any, goes to viewsnap_extra_error. */
typedef void *(*viewbuild_extra_fn)(void *ud, sm_err *err);

/* A builder evaluating rules with the parameters of params (NULL:
 * defaults; copied, not kept) over m, merging py's windows. lock guards m
 * and py (NULL: the caller guarantees no writer runs). NULL on OOM. */
viewbuild *viewbuild_new(const rules *params, const model *m, const pystats_store *py,
                     pthread_mutex_t *lock);
void viewbuild_free(viewbuild *dv);

/* Applies "Name.param=value" to the rules of the next build. Thread-safe.
 * 0, or -1 with err (SM_ERR_USAGE); nothing changes then. */
int viewbuild_rule_override(viewbuild *dv, const char *spec, sm_err *err);

/* The merge the next builds make: sel (node copied) sorted by sort; key is
 * the caller's name for this choice, echoed by viewsnap_python. A NULL sel
 * stops merging. Thread-safe. */
void viewbuild_want_python(viewbuild *dv, const pystats_select *sel, pystats_sort sort,
                         uint64_t key);

/* The chart panes' and header's view data the next builds make (copied;
 * compared with memcmp, so zero q before filling it). NULL stops building
 * it. Thread-safe; a changed request makes viewbuild_pending 1. */
void viewbuild_want_view(viewbuild *dv, const viewdata_req *q);

/* Rebuilds the extra product with build(ud) when the model or the Python
 * store changed, at most once every min_us. Call before the first build. */
void viewbuild_set_extra(viewbuild *dv, viewbuild_extra_fn build, void (*free_fn)(void *),
                       void *ud, int64_t min_us);

/* The job's name the next full builds carry (viewsnap_place). Thread-safe. */
void viewbuild_set_place(viewbuild *dv, const char *place);

/* 1 when something the UI asked for (rules, Python choice) is not in the
 * last snapshot yet: the loader then builds without waiting. Thread-safe. */
int viewbuild_pending(viewbuild *dv);

/* 1 when the view request changed since the last build. Thread-safe. */
int viewbuild_pending_view(viewbuild *dv);

/* Builds a snapshot at wall time now_us (reusing the last one's products
 * that have not changed). NULL on OOM. The caller owns one reference. */
viewsnap *viewbuild_build(viewbuild *dv, int64_t now_us);
/* The same, rebuilding only the view data (the other products are the
 * last snapshot's): what the loader publishes between the files of a long
 * pass, so the panes follow the backfill and a key that changes the view
 * is answered without waiting for the pass. reuse: only the panes whose
 * request changed are rebuilt, the others are shared as they were (the
 * quick answer to a key; a build without reuse refreshes them all). */
viewsnap *viewbuild_build_view(viewbuild *dv, int64_t now_us, int reuse);

#endif
