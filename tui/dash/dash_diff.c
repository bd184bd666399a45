/* dash_diff: diff mode's live side (smtop --baseline). The baseline was
 * read once before the screen opened; here the current job's report
 * object is rebuilt with the same code `smtop diff` uses
 * (report_diff_snapshot + report_diff_build) whenever its data changed,
 * and handed to the Diff pane through pane_ctx.ext. A rebuild walks the
 * whole model, so it is rate-limited rather than done per frame. */
#include "tui/dash/dash_internal.h"

#include <jansson.h>

#include "tui/report/report_diff.h"

/* At most one rebuild per this many µs while data keeps arriving. */
#define DASH_DIFF_MIN_US 2000000

static uint64_t source_gen(dash *d)
{
    pthread_mutex_lock(job_lock(d->j));
    uint64_t g = model_generation(job_model(d->j)) * 1000003u +
                 pystats_store_generation(job_pystats(d->j));
    pthread_mutex_unlock(job_lock(d->j));
    return g;
}

void dash_diff_refresh(dash *d, int64_t now_us)
{
    if (!d->o->baseline)
        return;
    uint64_t gen = source_gen(d);
    if (d->diff && (gen == d->diff_src_gen || now_us - d->diff_at_us < DASH_DIFF_MIN_US))
        return;
    if (!d->diff && d->diff_at_us && now_us - d->diff_at_us < DASH_DIFF_MIN_US)
        return;   /* the last attempt failed: do not retry every frame */
    d->diff_at_us = now_us;
    sm_err err = {0};
    json_t *cur = report_diff_snapshot(d->j, &err);
    json_t *diff = cur ? report_diff_build(d->o->baseline, cur) : NULL;
    json_decref(cur);
    if (!diff) {
        dash_notice(d, err.msg[0] ? err.msg : "out of memory building the diff");
        return;
    }
    json_decref(d->diff);
    d->diff = diff;
    d->diff_src_gen = gen;
    d->ext.diff_gen++;
}

void dash_diff_free(dash *d)
{
    json_decref(d->diff);
    d->diff = NULL;
    d->ext.diff = NULL;
}
