/* job_probe: a job-list row's figures from the job itself. The job is
 * opened as `smtop URL` opens it (job_open: profiler-output and the
 * PyTorch profiler traces beside it), read to its end, its rules
 * evaluated as `smtop report` evaluates them (the caller's rule set:
 * rules.conf), and the row takes what model/view/jobsum computes for
 * every surface: the rules that fired and the verdict's worst finding,
 * the step p50, idle GPU-hours, the newest 5 minutes' GPU/CPU/memory
 * means and, for a folder's row, the data's time range (an API row keeps
 * the API's times). No figure is computed here. A job read as its places'
 * union (io/source/source_job.h) leaves in the row what each place's last
 * listing found (jobrow.seen: jobs --json's trace_sources[]).
 *
 * A job in progress stays open between calls (its scanner reads only
 * what is new) and is probed at most once a minute; once it has ended
 * (or, a folder's, its status is unknown: nothing written for an hour)
 * and has been read to its end, it is closed and never read again. At
 * most PROBE_OPEN_MAX jobs stay open: past that the one probed longest
 * ago is closed (read again from its start when next due). Not
 * thread-safe but for job_probe_cancel: one caller (the feed's thread,
 * or --json). */
#ifndef SMTOP_JOB_PROBE_H
#define SMTOP_JOB_PROBE_H

#include <pthread.h>

#include "io/source/source_open.h"
#include "model/jobs/jobrow.h"
#include "model/model.h"
#include "model/rules/rules.h"
#include "model/util/sm_err.h"

#define PROBE_OPEN_MAX 16

struct job;

/* What the probe does with a job: the run loop's job_* calls
 * (io/run/job.h: job_probe_ops_run), given by the caller because the
 * list sits on a floor below the run loop. Each as its job_* twin. */
typedef struct job_probe_ops {
    struct job *(*open)(const char *url, const source_opts *so, sm_err *err);
    int (*scan)(struct job *j, sm_err *err);
    void (*poll_watch)(struct job *j);
    void (*cancel)(struct job *j, int on);
    pthread_mutex_t *(*lock)(struct job *j);
    model *(*model)(struct job *j);
    void (*close)(struct job *j);
    source *(*source)(struct job *j);
} job_probe_ops;

typedef struct job_probe_opts {
    const job_probe_ops *ops;   /* required */
    const source_opts *so;   /* how a job is opened; its strings outlive the probe */
    /* The rule set a job is judged by (the report's: rules.conf), a new
     * one per job (the caller's to make, the probe's to free); NULL:
     * rules_new's defaults. NULL with err when it cannot be made. */
    rules *(*new_rules)(void *ud, sm_err *err);
    void *rules_ud;
    /* How a row's job is opened: `smtop report --job NAME`'s way for an
     * API row (its watch brings CloudWatch's metrics when its files hold
     * none; polled after each pass), NULL: ops->open(url, so). NULL with
     * err when it cannot be opened. */
    struct job *(*open)(void *ud, const jobrow *r, const char *url, sm_err *err);
    void *open_ud;
    int api_times;           /* 1: the rows' times are the API's: kept */
} job_probe_opts;

typedef struct job_probe job_probe;

job_probe *job_probe_new(const job_probe_opts *o);   /* NULL on OOM */
void job_probe_free(job_probe *p);

/* Cancels the reads of the job being probed, and every later one
 * (quitting). Thread-safe. */
void job_probe_cancel(job_probe *p);

/* 1 when r is due a probe at now_s: never probed, or in progress and
 * last probed a minute ago or more. */
int job_probe_due(job_probe *p, const jobrow *r, double now_s);

/* Reads what is new of the job at url (a directory or an s3:// URL, as
 * `smtop URL` takes it) and sets r's figures (see above). 1 when r was
 * changed, 0 when not (or url holds no profiler data yet), -1 with err
 * (the job could not be opened or read; r unchanged). */
int job_probe_update(job_probe *p, const char *url, jobrow *r, double now_s, sm_err *err);

#endif
