/* job: one opened training job — its source, scanner, model and the lock
 * that serialises the loader thread's updates against the views' reads.
 * Shared by `smtop report` (scan once, render) and the dashboard (scan on a
 * loader thread every interval). Opaque; owns everything it opens. */
#ifndef SMTOP_JOB_H
#define SMTOP_JOB_H

#include <pthread.h>

#include "io/scan/scanner.h"
#include "io/source/source_open.h"
#include "model/model.h"
#include "model/pystats.h"

typedef struct job job;

/* Opens `spec` (local path or s3:// URL), finds profiler-output inside it
 * and prepares a scanner. Nothing is read yet. NULL with err set. */
job *job_open(const char *spec, const source_opts *so, const model_config *mc,
              sm_err *err);
void job_close(job *j);

/* One scan pass (see scanner_scan). */
int job_scan(job *j, sm_err *err);
/* Declares the data final (report mode). */
void job_finish(job *j);

model *job_model(job *j);
scanner *job_scanner(job *j);
/* Python profiler stats (cProfile / pyinstrument); read under job_lock. */
pystats_store *job_pystats(job *j);
source *job_source(job *j);
pthread_mutex_t *job_lock(job *j);
const char *job_describe(job *j);   /* e.g. "s3://b/job/profiler-output" */

#endif
