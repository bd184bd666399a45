/* job_watch: what the SageMaker API says of the training job behind a
 * dashboard — its status for the header, and, when the job has no
 * Debugger system metrics, its per-host CloudWatch metrics as the
 * system samples of its nodes (io/aws/cw_host.h).
 *
 * Runs on a thread of its own (job_watch_start), so an API that is slow
 * or out of reach never delays a scan pass, and never on the UI's: the
 * header reads a copy of the row (job_watch_row) under the watch's own
 * small lock. Calls are bounded:
 *   - DescribeTrainingJob when the row was not described yet, then once
 *     a minute while the job runs, never again once it ended (a row
 *     from the job list that was described after it ended costs none);
 *     a failed describe (no API access, no such job) is retried after
 *     ten minutes and the header keeps the files' freshness;
 *   - GetMetricData once a minute while the job runs (CloudWatch's
 *     resolution), from the newest point it has less a few minutes
 *     (late points), and once more after it ended, then never again.
 * CloudWatch becomes the system source only when a pass has finished and
 * the model holds no system sample (for a running job with a profiler
 * path, once it has trained 5 minutes: Debugger's first files may come
 * late): a job with Debugger metrics never asks for it. */
#ifndef SMTOP_JOB_WATCH_H
#define SMTOP_JOB_WATCH_H

#include <pthread.h>

#include "io/scan/scanner.h"
#include "model/jobs/jobrow.h"
#include "model/model.h"
#include "model/util/sm_err.h"

typedef struct job_watch job_watch;

typedef struct job_watch_opts {
    const char *region;    /* --region, or NULL */
    const char *profile;   /* --profile, or NULL */
} job_watch_opts;

/* A watch of the job `name`, starting from row when not NULL (copied: a
 * row the job list described). NULL with err when there are no
 * credentials or libcurl cannot start. */
job_watch *job_watch_new(const char *name, const jobrow *row, const job_watch_opts *o,
                         sm_err *err);
/* Stops the thread (its call in flight cancelled) and frees w. NULL is
 * fine. */
void job_watch_free(job_watch *w);

/* Starts the thread polling w (job_watch_poll) every second, with the
 * passes sc has finished, into m under lock; all borrowed, outliving w.
 * 0, or -1 with err. */
int job_watch_start(job_watch *w, model *m, pthread_mutex_t *lock, scanner *sc, sm_err *err);

/* Does what is due at now_s (see above). passes: scan passes finished
 * so far. Samples go into m under lock (NULL: none held). Returns 1 when
 * the row or the model changed, else 0; failures are kept for
 * job_watch_error, never returned: the files' view goes on. */
int job_watch_poll(job_watch *w, model *m, pthread_mutex_t *lock, long passes, double now_s);

/* DescribeTrainingJob now, on the caller's thread (before a command
 * opens the job: its profiler output is in the answer). 0, or -1 with
 * err: what the API said (AccessDenied names the permission). */
int job_watch_describe(job_watch *w, sm_err *err);

/* A copy of the row; 1 when the API described the job, else 0.
 * Thread-safe. */
int job_watch_row(job_watch *w, jobrow *out);

/* fn(ud) after a poll that changed the row or the model (on the watch's
 * thread, holding the watch's lock: fn must not call back into w); NULL
 * stops it. Thread-safe. */
void job_watch_on_change(job_watch *w, void (*fn)(void *ud), void *ud);

/* 1 once CloudWatch is the job's system source, and when its last fetch
 * worked into *fetched_s (0 before one; may be NULL). Thread-safe. */
int job_watch_cloudwatch(job_watch *w, double *fetched_s);

/* The last failure in words ("" when the last calls worked). Thread-safe. */
void job_watch_error(job_watch *w, char *buf, size_t cap);

/* on = 1: a call in flight ends within milliseconds and later ones fail
 * at once; 0 allows them again. Thread-safe. */
void job_watch_cancel(job_watch *w, int on);

/* DescribeTrainingJob and GetMetricData calls made. Thread-safe. */
void job_watch_counters(job_watch *w, long *describes, long *metric_calls);

/* The training job's name in an s3:// URL or path of its profiler data
 * (".../JOB/profiler-output[/...]", else the last part of
 * ".../JOB[/]") into out; 0 when none looks like a job name (1-63
 * letters, digits and '-'). */
int job_watch_name_from(const char *spec, char *out, size_t cap);

#endif
