/* job_probe: a job-list row's figures from the job's own profiler data,
 * for jobs listed from a directory or S3 prefix (jobs_scan):
 *
 * - GPU/CPU/memory % over the newest 5 minutes of Debugger system
 *   metrics, and idle GPU-hours over the whole job (jobfig.h: samples
 *   below 10 % times the series' interval). The job's system files are
 *   read once each, oldest first, from a cursor kept per job: at most
 *   PROBE_FILES_MAX files a call, so a long job catches up over a few
 *   refreshes (its figures show once it has). A local file newer than
 *   settle_s may still be written and waits for a later call.
 * - step p50 over the newest 5 minutes of smdebug's framework events
 *   (Step:ModeKeys.TRAIN in framework/pevents/, read from a cursor too),
 *   else over the newest PyTorch profiler trace's ProfilerStep#N (its
 *   last step left out), looked for in tensorboard-output/ and anywhere
 *   under the job folder but profiler-output/system/, framework/pevents/
 *   and debug-output/; a trace is read once (by key).
 *
 * A job is probed at most once a minute until it has ended (or, a
 * folder's, its status is unknown: nothing written for an hour) and
 * has been read to its end; never again then. Not thread-safe: one
 * caller (the feed's thread, or --json). */
#ifndef SMTOP_JOB_PROBE_H
#define SMTOP_JOB_PROBE_H

#include "io/source/source.h"
#include "model/jobs/jobrow.h"
#include "model/util/sm_err.h"

#define PROBE_FILES_MAX 2048     /* system files read per call and job */
#define PROBE_FILES_MAX_S3 256   /* the same from S3: a request each */
#define PROBE_TRACE_MAX ((int64_t)512 << 20)   /* a bigger Kineto trace is not read */

typedef struct job_probe job_probe;

job_probe *job_probe_new(void);   /* NULL on OOM */
void job_probe_free(job_probe *p);

/* 1 when r is due a probe at now_s: never probed, in progress and last
 * probed a minute ago or more, or not yet read to its end. */
int job_probe_due(job_probe *p, const jobrow *r, double now_s);

/* Reads what is new of the job whose folder is `job` under src ("" for
 * src's root itself, else "a/b/") and sets r's gpu/cpu/mem %, step p50
 * and idle GPU-hours (and their sources) from what it knows. settle_s:
 * see above (0: read every file). 1 when r was changed, 0 when not,
 * -1 with err (a listing or read failed; what was read stays). */
int job_probe_update(job_probe *p, source *src, const char *job, jobrow *r, double now_s,
                     double settle_s, sm_err *err);

#endif
