/* source_job: the source of a training job named to the SageMaker API —
 * every place its data can be (model/jobs/jobplace.h), from the row its
 * DescribeTrainingJob answer filled. The one resolution behind the
 * dashboard's --job and Enter in `smtop jobs`, `report`, `export` and
 * `diff --job`, and the job list's figures of API rows.
 *
 * A job with its profiler output only is that folder, as before; a job
 * with other places is their union (source_union.h), read at the root
 * SOURCE_JOB_ROOT; a job with none is the empty source. */
#ifndef SMTOP_SOURCE_JOB_H
#define SMTOP_SOURCE_JOB_H

#include "io/source/source_open.h"
#include "model/jobs/jobrow.h"

#define SOURCE_JOB_ROOT "profiler-output/"
/* output.tar.gz is read whole to find its members: a bigger one is named,
 * not read (source_tar_limit; source_opts.archive_max sets another). */
#define SOURCE_JOB_TAR_MAX ((int64_t)2 << 30)

/* Opens r's places. *root is set to SOURCE_JOB_ROOT for a union, to
 * NULL otherwise (found by the first pass, as for a SOURCE). Nothing is
 * requested yet. NULL with err: a place's URL is malformed, or no
 * credentials (SM_ERR_USAGE / SM_ERR_NOTFOUND, as source_open's). */
source *source_job_open(const jobrow *r, const source_opts *o, const char **root, sm_err *err);

/* 1 when r names a place beyond its profiler output (a union opens). */
int source_job_has_traces(const jobrow *r);

#endif
