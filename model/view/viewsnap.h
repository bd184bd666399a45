/* viewsnap: the products computed from the model after a pass — rule
 * results, the merged Python stats the dashboard asked for, the view data
 * its panes draw (model/view/viewdata.h), and one extra product the caller
 * supplies (the dashboard's baseline diff) — published as one immutable,
 * reference-counted snapshot, as btop's collector thread does. Built off
 * the UI thread by a viewbuild (viewbuild.h).
 *
 * A snapshot never changes after it is built: the UI reads it without any
 * lock, draws every pane and answers every key and click from it, never
 * takes the model lock, and drops it with viewsnap_unref. It holds
 * pointers into the Python store (merged rows name the store's strings),
 * so the last reference must go before the store is freed. */
#ifndef SMTOP_VIEWSNAP_H
#define SMTOP_VIEWSNAP_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/pystats/pystats.h"
#include "model/rules/rules.h"
#include "model/steps/phase_stats.h"
#include "model/view/verdict.h"
#include "model/view/viewdata.h"

typedef struct viewsnap viewsnap;

viewsnap *viewsnap_ref(viewsnap *s);
void viewsnap_unref(viewsnap *s);   /* NULL is a no-op */

/* Changes with every snapshot that differs from the one before. */
uint64_t viewsnap_generation(const viewsnap *s);

/* Rule results in rules table order, and the parameter values they were
 * evaluated with. */
const rule_result *viewsnap_rule_at(const viewsnap *s, size_t i);
double viewsnap_rule_param(const viewsnap *s, size_t i, size_t p);

/* The job's verdict (model/view/verdict.h), built with the rule results
 * over the whole job: what the header's verdict line says. */
const verdict *viewsnap_verdict(const viewsnap *s);

/* The step result i's span is (model/query/step_event.h: found when the rule
 * results were derived, so `J` focuses it without the model): 1 and
 * *out, or 0 when the span is no retained step. */
int viewsnap_rule_step(const viewsnap *s, size_t i, phase_event *out);

/* The Python store's windows (copies, in store order; the Python pane's
 * window menu lists them), and whether each failed to decode. NULL past
 * the count. */
size_t viewsnap_python_window_count(const viewsnap *s);
const pystats_window *viewsnap_python_window_at(const viewsnap *s, size_t i, int *failed);

/* What the job is called (job_describe: the scan may still name it),
 * as the loader passed it with viewbuild_set_place before the build. The
 * header shows it without the model lock. */
const char *viewsnap_place(const viewsnap *s);

/* The merge asked for by viewbuild_want_python (NULL before one is built or
 * when the job has no Python stats), and the key it answers. */
const pystats_result *viewsnap_python(const viewsnap *s, uint64_t *key);
/* Which profiler the job's Python stats come from (cProfile before
 * pyinstrument when it has both); 0 when it has none. The count of that
 * profiler's windows goes to *windows. */
int viewsnap_python_profiler(const viewsnap *s, pystats_profiler *prof, size_t *windows);
/* The first start and the last end of that profiler's windows (0, 0 when
 * the job has none): a time window holding both merges the whole job. */
void viewsnap_python_span(const viewsnap *s, int64_t *lo_us, int64_t *hi_us);

/* The view data asked for by viewbuild_want_view, built from the model as
 * it was at this snapshot (NULL before the first request). Immutable. */
const viewdata *viewsnap_view(const viewsnap *s);

/* The extra product (NULL until one was built), a count that changes with
 * every rebuild, and the last failure's message ("" when none). */
const void *viewsnap_extra(const viewsnap *s, uint64_t *gen);
const char *viewsnap_extra_error(const viewsnap *s);

#endif
