/* jobs_scan: the job list without the API — every job folder under a
 * directory or an S3 prefix that holds profiler-output/, or PyTorch
 * profiler traces only (the folder around tensorboard-output/, else the
 * folder holding the traces: status from their freshness).
 *
 * Listing skips each job's folder once it is found (the next listing
 * starts after "JOB/" + U+10FFFF), so a prefix of many large jobs costs
 * a few listings per job, not one per file. Per job: the end markers
 * (profiler-output/system/ and framework/training_job_end.ts: Completed,
 * ended at the marker's time), the first system file (whether it has
 * Debugger's metrics) and the files of the last two hours (how fresh it is: InProgress while
 * the newest is under an hour old, "Stale" past 2 minutes; with neither
 * marker nor fresh data the status is unknown); its times and figures
 * are the job's data's (jobs_scan_figures). A traces-only job has
 * no end marker of its own (one named training_job_end.ts anywhere in
 * its folder counts) and writes a trace per profiling cycle, so its
 * freshness is judged against its cadence (jobs_scan_trace_status).
 * Names are the folders' paths below the root, as found (the views
 * sanitize them). */
#ifndef SMTOP_JOBS_SCAN_H
#define SMTOP_JOBS_SCAN_H

#include <pthread.h>

#include "io/jobs/job_probe.h"
#include "io/source/source.h"
#include "model/jobs/joblist.h"

/* Lists the jobs under src (opened on spec, which the rows' profiler
 * URLs start with) into l, holding mu (may be NULL) for each row; after
 * each row, changed(ud) when non-NULL. now_s: the time freshness is
 * judged at. Returns how many jobs, or -1 with err (rows found stay). */
long jobs_scan_list(source *src, const char *spec, double now_s, joblist *l,
                    pthread_mutex_t *mu, void (*changed)(void *ud), void *ud, sm_err *err);

/* Fills the figures (job_probe) of the rows named names[0..n) that are
 * due, opening each at its open_url, holding mu (may be NULL) only to
 * copy a row in and out; after each changed row, changed(ud) when
 * non-NULL. A job that cannot be read keeps its row as it was and its
 * message in err; the others go on. Returns how many rows were probed. */
long jobs_scan_figures(job_probe *p, joblist *l, pthread_mutex_t *mu, const char *const *names,
                       size_t n, double now_s, void (*changed)(void *ud), void *ud, sm_err *err);

/* The status a job's files say, for the row and the tests: marker 1 when
 * an end marker exists; newest_s the newest system file's time (0 when
 * none). Fills r->status, r->secondary and r->updated_s. */
void jobs_scan_status(jobrow *r, int marker, double marker_s, double newest_s, double now_s);

/* The status a traces-only job's files say: marker and marker_s as
 * above; newest_s the newest trace's time; gap_s the longest gap between
 * two traces of one writer (trace_cadence_gap; 0 unknown). Completed
 * with a marker; else InProgress "Training" while the newest trace is
 * under 1.5 gaps (at least 2 minutes) old, "Stale" past that, and past
 * 4 gaps (at least an hour) no longer in progress. With the gap unknown
 * (one profiling cycle seen) a trace older than 2 minutes proves
 * nothing: "trace N m ago", in progress for an hour, never stale.
 * Fills status, secondary, updated_s, end_s and stale_after_s (what
 * the faults view calls stale for this row). */
void jobs_scan_trace_status(jobrow *r, int marker, double marker_s, double newest_s,
                            double gap_s, double now_s);

#endif
