/* derive: the products computed from the model after a pass — rule
 * results, the merged Python stats the dashboard asked for, the view data
 * its panes draw, and one extra
 * product the caller supplies (the dashboard's baseline diff) — built off
 * the UI thread and published as one immutable, reference-counted
 * snapshot, as btop's collector thread does.
 *
 * Takes a model and a Python stats store (read under their lock, held only
 * while a product reads them); gives `derived` snapshots. A snapshot never
 * changes after deriver_build returns it: the UI reads it without any lock
 * and drops it with derived_unref. It holds pointers into the Python store
 * (merged rows name the store's strings), so the last reference must go
 * before the store is freed.
 *
 * The view data of the chart panes and the header (model/view/viewdata.h) is
 * one of the products: the UI then draws every pane and answers every
 * key and click from the snapshot, and never takes the model lock.
 *
 * A `deriver` keeps what the UI chose — rule parameters, the Python
 * selection and sort, the view request — and is safe to change from the UI thread while the
 * loader builds: changes take effect in the next build. */
#ifndef SMTOP_DERIVE_H
#define SMTOP_DERIVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/steps/phase_stats.h"
#include "model/pystats/pystats.h"
#include "model/rules/rules.h"
#include "model/util/sm_err.h"
#include "model/view/verdict.h"
#include "model/view/viewdata.h"

typedef struct derived derived;
typedef struct deriver deriver;

/* The caller's product: built without any lock held (it takes what it
 * needs itself), freed with free_fn. NULL is "keep the previous one"; the
 * message, if any, goes to derived_extra_error. */
typedef void *(*derive_extra_fn)(void *ud, sm_err *err);

/* A deriver evaluating rules with the parameters of params (NULL:
 * defaults; copied, not kept) over m, merging py's windows. lock guards m
 * and py (NULL: the caller guarantees no writer runs). NULL on OOM. */
deriver *deriver_new(const rules *params, const model *m, const pystats_store *py,
                     pthread_mutex_t *lock);
void deriver_free(deriver *dv);

/* Applies "Name.param=value" to the rules of the next build. Thread-safe.
 * 0, or -1 with err (SM_ERR_USAGE); nothing changes then. */
int deriver_rule_override(deriver *dv, const char *spec, sm_err *err);

/* The merge the next builds make: sel (node copied) sorted by sort; key is
 * the caller's name for this choice, echoed by derived_python. A NULL sel
 * stops merging. Thread-safe. */
void deriver_want_python(deriver *dv, const pystats_select *sel, pystats_sort sort,
                         uint64_t key);

/* The chart panes' and header's view data the next builds make (copied;
 * compared with memcmp, so zero q before filling it). NULL stops building
 * it. Thread-safe; a changed request makes deriver_pending 1. */
void deriver_want_view(deriver *dv, const viewdata_req *q);

/* Rebuilds the extra product with build(ud) when the model or the Python
 * store changed, at most once every min_us. Call before the first build. */
void deriver_set_extra(deriver *dv, derive_extra_fn build, void (*free_fn)(void *),
                       void *ud, int64_t min_us);

/* The job's name the next full builds carry (derived_place). Thread-safe. */
void deriver_set_place(deriver *dv, const char *place);

/* 1 when something the UI asked for (rules, Python choice) is not in the
 * last snapshot yet: the loader then builds without waiting. Thread-safe. */
int deriver_pending(deriver *dv);

/* 1 when the view request changed since the last build. Thread-safe. */
int deriver_pending_view(deriver *dv);

/* Builds a snapshot at wall time now_us (reusing the last one's products
 * that have not changed). NULL on OOM. The caller owns one reference. */
derived *deriver_build(deriver *dv, int64_t now_us);
/* The same, rebuilding only the view data (the other products are the
 * last snapshot's): what the loader publishes between the files of a long
 * pass, so the panes follow the backfill and a key that changes the view
 * is answered without waiting for the pass. reuse: only the panes whose
 * request changed are rebuilt, the others are shared as they were (the
 * quick answer to a key; a build without reuse refreshes them all). */
derived *deriver_build_view(deriver *dv, int64_t now_us, int reuse);

derived *derived_ref(derived *s);
void derived_unref(derived *s);   /* NULL is a no-op */

/* Changes with every snapshot that differs from the one before. */
uint64_t derived_generation(const derived *s);

/* Rule results in rules table order, and the parameter values they were
 * evaluated with. */
const rule_result *derived_rule_at(const derived *s, size_t i);
double derived_rule_param(const derived *s, size_t i, size_t p);

/* The job's verdict (model/view/verdict.h), built with the rule results
 * over the whole job: what the header's verdict line says. */
const verdict *derived_verdict(const derived *s);

/* The step result i's span is (model/query/step_event.h: found when the rule
 * results were derived, so `J` focuses it without the model): 1 and
 * *out, or 0 when the span is no retained step. */
int derived_rule_step(const derived *s, size_t i, phase_event *out);

/* The Python store's windows (copies, in store order; the Python pane's
 * window menu lists them), and whether each failed to decode. NULL past
 * the count. */
size_t derived_python_window_count(const derived *s);
const pystats_window *derived_python_window_at(const derived *s, size_t i, int *failed);

/* What the job is called (job_describe: the scan may still name it),
 * as the loader passed it with deriver_set_place before the build. The
 * header shows it without the model lock. */
const char *derived_place(const derived *s);

/* The merge asked for by deriver_want_python (NULL before one is built or
 * when the job has no Python stats), and the key it answers. */
const pystats_result *derived_python(const derived *s, uint64_t *key);
/* Which profiler the job's Python stats come from (cProfile before
 * pyinstrument when it has both); 0 when it has none. The count of that
 * profiler's windows goes to *windows. */
int derived_python_profiler(const derived *s, pystats_profiler *prof, size_t *windows);
/* The first start and the last end of that profiler's windows (0, 0 when
 * the job has none): a time window holding both merges the whole job. */
void derived_python_span(const derived *s, int64_t *lo_us, int64_t *hi_us);

/* The view data asked for by deriver_want_view, built from the model as
 * it was at this snapshot (NULL before the first request). Immutable. */
const viewdata *derived_view(const derived *s);

/* The extra product (NULL until one was built), a count that changes with
 * every rebuild, and the last failure's message ("" when none). */
const void *derived_extra(const derived *s, uint64_t *gen);
const char *derived_extra_error(const derived *s);

#endif
