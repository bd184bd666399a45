/* dash_diff: diff mode's live side (smtop --baseline). The baseline was
 * read once before the screen opened; the current job's report object is
 * rebuilt with the same code `smtop diff` uses (report_diff_snapshot +
 * report_diff_build) on the loader thread, as the viewbuild's extra product,
 * and reaches the Diff pane through the snapshot. A rebuild walks the
 * whole model, so it is rate-limited rather than done per pass. */
#include "tui/dash/dash_internal.h"

#include <jansson.h>

#include "tui/report/report_diff.h"

/* At most one rebuild per this many µs while data keeps arriving. */
#define DASH_DIFF_MIN_US 2000000

/* Runs on the loader thread: reads only d->j (which takes its own lock)
 * and d->o, neither of which the UI changes. */
static void *diff_build(void *ud, sm_err *err)
{
    const dash *d = ud;
    json_t *cur = report_diff_snapshot(d->j, err);
    json_t *diff = cur ? report_diff_build(d->o->baseline, cur) : NULL;
    json_decref(cur);
    if (!diff && !err->msg[0])
        sm_err_set(err, SM_ERR_NOMEM, "out of memory building the diff");
    return diff;
}

static void diff_free(void *p)
{
    json_decref(p);
}

void dash_diff_setup(dash *d)
{
    if (d->o->baseline)
        viewbuild_set_extra(d->dv, diff_build, diff_free, d, DASH_DIFF_MIN_US);
}
