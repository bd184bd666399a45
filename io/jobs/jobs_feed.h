/* jobs_feed: keeps the job list current on a thread of its own, so the
 * screen never waits on the network.
 *
 * First pass: ListTrainingJobs page by page (the screen shows the first
 * page as soon as it is merged), then DescribeTrainingJob for the rows
 * the screen wants (those on screen) and every job in progress. Then
 * every interval the rows on screen that are still running (or not yet
 * described) are described again (and their figures read: CloudWatch,
 * then jobs_files for those with S3 profiler data), and every 6th interval the newest
 * jobs are listed again (created since the newest known, minus an hour
 * for late ones) and every running job is described, on screen or not. Ended jobs, once described, are never asked again. A
 * change of the wanted rows wakes the thread at once. Errors land in
 * the feed's status (the screen's status line); the feed keeps going. */
#ifndef SMTOP_JOBS_FEED_H
#define SMTOP_JOBS_FEED_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "io/jobs/jobs_api.h"
#include "io/jobs/job_probe.h"
#include "io/jobs/jobs_files.h"
#include "io/source/source.h"
#include "model/jobs/joblist.h"

typedef struct jobs_feed jobs_feed;

/* Takes api and files (may be NULL: no S3 profiler data read; both
 * freed with the feed) and starts the thread. interval_s is the refresh
 * of running jobs. NULL with err on failure (api and files freed). */
jobs_feed *jobs_feed_start(jobs_api *api, jobs_files *files, double interval_s, sm_err *err);

/* The same over a directory or S3 prefix (jobs_scan): src (opened on
 * spec) and probe (the rows' figures) are taken and freed with the
 * feed; every 6 intervals the folders are listed again. NULL with err
 * on failure (src and probe freed). */
jobs_feed *jobs_feed_start_scan(source *src, const char *spec, job_probe *probe,
                                double interval_s, sm_err *err);

/* Cancels what is in flight, joins the thread and frees everything. */
void jobs_feed_stop(jobs_feed *f);

/* The list and its lock: read rows only while holding it. */
joblist *jobs_feed_list(jobs_feed *f);
pthread_mutex_t *jobs_feed_lock(jobs_feed *f);

/* Grows by one whenever the list changed: redraw when it moved. */
uint64_t jobs_feed_generation(jobs_feed *f);

/* A file descriptor that becomes readable when the list changed; the
 * screen polls it and calls jobs_feed_drain. */
int jobs_feed_fd(jobs_feed *f);
void jobs_feed_drain(jobs_feed *f);

/* The rows the screen shows now (copied): described first when needed. */
void jobs_feed_want(jobs_feed *f, const char *const *names, size_t n);

/* The status-line text: the transport's state while it connects or backs
 * off, else the last error, else the progress ("listing: 300 jobs"). */
void jobs_feed_status(jobs_feed *f, char *buf, size_t cap, int *is_error);

/* 1 once the first listing pass ended (well or not). */
int jobs_feed_listed(jobs_feed *f);

/* Calls answered so far, and HTTP requests sent (retries included). */
void jobs_feed_counters(jobs_feed *f, int64_t *lists, int64_t *describes,
                        int64_t *requests);

#endif
