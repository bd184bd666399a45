/* dash_ext: the stores beside the model that panes read through
 * pane_ctx.ext, under the same lock as the model. Filled by dash_ctx;
 * NULL members mean "none in this job". */
#ifndef SMTOP_DASH_EXT_H
#define SMTOP_DASH_EXT_H

#include <stdint.h>

#include "model/pystats.h"

struct json_t;

typedef struct dash_ext {
    const pystats_store *pystats;   /* Python profiler stats (job_pystats) */
    /* Diff mode: the current job against the baseline, a report_diff_build
     * object rebuilt by dash_diff.c (NULL until the first build or without
     * --baseline); diff_gen changes with every rebuild. */
    const struct json_t *diff;
    uint64_t diff_gen;
} dash_ext;

#endif
