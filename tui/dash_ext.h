/* dash_ext: the stores beside the model that panes read through
 * pane_ctx.ext, under the same lock as the model. Filled by dash_ctx;
 * NULL members mean "none in this job". */
#ifndef SMTOP_DASH_EXT_H
#define SMTOP_DASH_EXT_H

#include "../model/pystats.h"

typedef struct dash_ext {
    const pystats_store *pystats;   /* Python profiler stats (job_pystats) */
} dash_ext;

#endif
