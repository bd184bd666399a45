/* source_none: a source that holds nothing, for a job whose only data
 * comes from elsewhere (a training job without profiler output, whose
 * dashboard shows CloudWatch's metrics: io/run/job_watch.h). Lists no
 * key, reads none; the scanner waits on it as on an empty folder. */
#ifndef SMTOP_SOURCE_NONE_H
#define SMTOP_SOURCE_NONE_H

#include "io/source/source.h"

/* A source describing itself as `describe` (copied, e.g. "JOB (no
 * profiler output)"). NULL on OOM. */
source *source_none_new(const char *describe);

#endif
