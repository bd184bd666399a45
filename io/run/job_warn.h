/* job_warn: what went wrong reading a job, one list for every surface —
 * `report` (its warnings and the header's trace count), `report --json`
 * ("warnings"), the dashboard's status line and its W view — so that
 * what a count says is what the list shows (issue 33). Covers the job's
 * scanner and, with --traces, that one's (its keys under its path).
 *
 * A file whose bytes end early (a .gz written in place) is "still being
 * written?" while the job runs and "truncated" once it has ended
 * (scanner_unread_at): the caller says which, from job_warn_ended or its
 * own snapshot of the same judgement. Thread-safe (the scanners' own
 * locks; job_warn_ended takes the job's). */
#ifndef SMTOP_JOB_WARN_H
#define SMTOP_JOB_WARN_H

#include <stddef.h>
#include <stdint.h>

#include "io/run/job.h"

typedef struct job_warn_counts {
    int64_t corrupt_lines, partial_lines, skipped_files, lines, bytes_read;
    int64_t noted;           /* problems the scanners noted (their rings) */
    int64_t unread_files;    /* files not read (each named by job_warn_lines) */
    int64_t traces_read;     /* PyTorch profiler traces read */
    int64_t traces_unread;   /* of the files not read, how many are traces */
} job_warn_counts;

/* The counts now, into out. Takes the scanners' own locks, never the
 * model's: the dashboard draws them each frame, and a pass may hold the
 * model's lock for as long as a fetch hangs. */
void job_warn_get_counts(job *j, job_warn_counts *out);

/* The lines a reader gets, in this order: each noted problem ("KEY:
 * what", oldest first), then each file not read ("KEY: not read: why").
 * line(ud, text) for every line; unread(ud, key, why) too for each file
 * not read (either may be NULL). Returns how many lines. */
typedef void (*job_warn_line_fn)(void *ud, const char *text);
typedef void (*job_warn_unread_fn)(void *ud, const char *key, const char *why);
size_t job_warn_lines(job *j, int ended, job_warn_line_fn line, job_warn_unread_fn unread,
                      void *ud);

/* 1 when the job has ended at now_us: the API says so, or its data does
 * (model/view/freshness: FRESH_ENDED, the header's ENDED badge). */
int job_warn_ended(job *j, int64_t now_us);

/* After a pass (job_scan): the trace counts into the model, for the
 * verdict (model_set_trace_files). */
void job_warn_count_traces(job *j);

#endif
