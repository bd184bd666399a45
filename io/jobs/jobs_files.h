/* jobs_files: the figures of jobs listed from the SageMaker API that
 * have Debugger or PyTorch profiler data, read from their profiler
 * output on S3 (job_probe: the job opened as `smtop URL` opens it and
 * judged as the report judges it: the rules that fired, GPU/CPU/memory
 * % of the newest 5 minutes, step p50, idle GPU-hours; the row keeps the
 * API's times), for the rows on screen.
 *
 * A row's profiler URL (s3://BUCKET/PATH/JOB/profiler-output/) is read
 * through one source per bucket, opened at its root with a short first
 * contact (one attempt within 2 s): a bucket that cannot be read (denied,
 * missing, unreachable) is said once and left alone for 10 minutes, its
 * rows keeping CloudWatch's figures. A row whose files hold system
 * metrics becomes a Debugger row (CloudWatch is not asked for it again).
 *
 * A row whose description names a TensorBoard or checkpoint sync, or an
 * output.tar.gz once ended (source_job_has_traces), is read through its
 * places' union as `report --job` reads it, each place listed once a
 * probe, an archive read only up to JOBS_FILES_ARCHIVE_MAX: a job whose
 * traces are only there gets its step p50 from them (step_source
 * kineto), its GPU % and alerts as the report's, and the row keeps what
 * each place held (jobrow.seen: jobs --json's trace_sources[]). */
#ifndef SMTOP_JOBS_FILES_H
#define SMTOP_JOBS_FILES_H

#include <pthread.h>
#include <stddef.h>

#include "io/jobs/job_probe.h"
#include "io/source/source_open.h"
#include "model/jobs/joblist.h"

/* The biggest output.tar.gz the list reads (it is read whole to find its
 * members): a bigger one is named, its row keeping CloudWatch's figures. */
#define JOBS_FILES_ARCHIVE_MAX ((int64_t)256 << 20)

typedef struct jobs_files jobs_files;

/* o: how jobs are opened and judged (job_probe.h; o->so the transport
 * options: profile, region, S3 endpoint); copied shallowly (its strings
 * must outlive jf). NULL on OOM. */
jobs_files *jobs_files_new(const job_probe_opts *o);
void jobs_files_free(jobs_files *jf);

/* Probes those of names[0..n) that have an S3 profiler URL or places
 * read as a union and are due
 * (job_probe_due), holding mu (may be NULL) only to copy rows in and
 * out; changed(ud) after each changed row. Past budget_s seconds (0: no
 * bound) no further job is begun: the rest stay due for the next call.
 * Returns how many were read; a bucket that failed leaves its message in
 * err and the rest go on. */
long jobs_files_figures(jobs_files *jf, joblist *l, pthread_mutex_t *mu,
                        const char *const *names, size_t n, double now_s, double budget_s,
                        void (*changed)(void *ud), void *ud, sm_err *err);

/* Cancels a read in flight (quitting); thread-safe once created. */
void jobs_files_cancel(jobs_files *jf);

#endif
