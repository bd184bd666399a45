/* job: one opened training job — its source, scanner, model and the lock
 * that serialises the loader thread's updates against the views' reads.
 * Shared by `smtop report` (scan once, render) and the dashboard (scan on a
 * loader thread every interval). Opaque; owns everything it opens. */
#ifndef SMTOP_JOB_H
#define SMTOP_JOB_H

#include <pthread.h>

#include "io/jobs/job_probe.h"
#include "io/scan/scanner.h"
#include "io/source/source_open.h"
#include "model/model.h"
#include "model/pystats/pystats.h"

typedef struct job job;

/* Opens `spec` (local path or s3:// URL) and prepares a scanner. Nothing
 * is listed or read yet: the first job_scan finds profiler-output inside
 * it, and fails when there is none — unless so->wait_for_data, where
 * passes succeed and scan_stats.waiting says the job has written nothing
 * yet. NULL with err set (the source cannot be opened). */
job *job_open(const char *spec, const source_opts *so, const model_config *mc,
              sm_err *err);
/* As job_open over a source the caller made (taken: freed with the job,
 * or here on failure). */
job *job_open_source(source *src, const source_opts *so, const model_config *mc,
                     sm_err *err);
/* As job_open_source with the profiler-output root inside src given
 * (NULL: found by the first pass): a job's places (io/source/source_job.h)
 * are read at theirs whatever they hold. */
job *job_open_source_at(source *src, const char *root, const source_opts *so,
                        const model_config *mc, sm_err *err);
void job_close(job *j);

/* Attaches w (taken, also on failure; NULL detaches; io/run/job_watch.h:
 * the API's status, CloudWatch as the system source of a job whose files
 * hold none) and, with thread, starts its thread (a dashboard); without,
 * job_poll_watch does what is due (a report, after its pass). 0, or -1
 * with err. */
struct job_watch;
int job_set_watch(job *j, struct job_watch *w, int thread, sm_err *err);
/* What the watch has due now, on this thread; nothing without a watch. */
void job_poll_watch(job *j);
/* The watch, NULL none: its row and error are thread-safe to read. */
struct job_watch *job_get_watch(job *j);

/* Cancels (on = 1) the reads and API calls in flight and later ones, for
 * quitting; 0 allows them again. Thread-safe. */
void job_cancel(job *j, int on);

/* One scan pass (see scanner_scan). A failure is never SM_ERR_USAGE:
 * the source could not be read. */
int job_scan(job *j, sm_err *err);
/* Declares the data final (report mode): no pass follows, and what only
 * a next pass would need is freed (scanner_shed). */
void job_finish(job *j);

model *job_model(job *j);
scanner *job_scanner(job *j);
/* The threads the job's passes read on (scan_threads): SMTOP_INGEST_THREADS,
 * else the cores this process may run on. At least 1. */
size_t job_threads(job *j);
/* The scanner of --traces PATH (source_opts.traces) and where it reads;
 * NULL when none was given. */
scanner *job_traces_scanner(job *j);
const char *job_traces_describe(job *j);
/* PyTorch profiler traces read so far. Takes no lock: the dashboard's
 * status line asks while a pass may hold the job's lock across a fetch
 * that hangs, and q must still be read. */
int64_t job_traces_read(job *j);
/* Python profiler stats (cProfile / pyinstrument); read under job_lock. */
pystats_store *job_pystats(job *j);
source *job_source(job *j);
pthread_mutex_t *job_lock(job *j);
/* e.g. "s3://b/job/profiler-output"; the source as given until a pass
 * found profiler-output in it. A loader's job_scan updates it: while one
 * runs, read it on the loader's thread (which passes it to the dashboard
 * in the snapshot, viewsnap_place) or under job_lock. */
const char *job_describe(job *j);

/* The job_* calls the job list's probe makes (job_probe_opts.ops): open
 * is job_open with the default model_config. Static; never NULL. */
const job_probe_ops *job_probe_ops_run(void);

#endif
