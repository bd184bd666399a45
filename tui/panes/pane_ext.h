/* dash_ext: what panes read beside the model through pane_ctx.ext. The
 * derived products (rules, the Python merge, the diff) come in `snap`, the
 * loader's latest immutable snapshot (model/view/viewsnap.h): a pane reads it
 * without any lock and never computes them itself. Filled by dash_ctx;
 * NULL members mean "none in this job" or "not built yet". */
#ifndef SMTOP_DASH_EXT_H
#define SMTOP_DASH_EXT_H

#include <stdint.h>

#include "model/view/viewsnap.h"
#include "model/pystats/pystats.h"

struct json_t;

typedef struct dash_ext {
    const viewsnap *snap;            /* latest derived products */
    /* Asks the loader for the merge of sel sorted by sort, named key (the
     * snapshot answers with viewsnap_python). NULL: nobody to ask. */
    void (*want_python)(void *ud, const pystats_select *sel, pystats_sort sort,
                        uint64_t key);
    void *want_ud;
    /* Diff mode: the current job against the baseline, a report_diff_build
     * object (the snapshot's extra product; NULL until the first build or
     * without --baseline); diff_gen changes with every rebuild. */
    const struct json_t *diff;
    uint64_t diff_gen;
} dash_ext;

#endif
