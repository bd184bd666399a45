/* jobs_screen: the `smtop jobs` list — a k9s/htop-like table of training
 * jobs kept current by a jobs_feed thread, so keys never wait on the
 * network. Enter opens the selected job's dashboard; Esc there comes
 * back with the cursor on the same job. */
#ifndef SMTOP_JOBS_SCREEN_H
#define SMTOP_JOBS_SCREEN_H

#include <stddef.h>

#include "io/jobs/job_probe.h"
#include "io/source/source_open.h"
#include "model/jobs/joblist.h"
#include "model/util/sm_err.h"

/* The options of `smtop jobs` (tui/cmd/jobs_args.h parses them), shared by
 * the --json writer and the list screen. */
typedef struct jobs_args {
    int json;
    int faults;               /* --faults: the faults view */
    double since_s;           /* epoch seconds; jobs created after it */
    const char *status;       /* --status */
    const char *name;         /* --name (NameContains) */
    const char *filter;       /* --filter: the `/` pattern */
    jobcol sort;
    int desc;
    size_t limit;             /* --limit; 0 = none */
    double interval_s;        /* --interval: refresh of running jobs */
    const char *spec;         /* DIR or s3://...; NULL = the SageMaker API */
    source_opts so;           /* --profile, --region, --endpoint-url, ... */
    source_opts probe_so;     /* so, failing fast, archives up to JOBS_FILES_ARCHIVE_MAX:
                                 how the list opens each job */
    /* How the list opens and judges each job, as `smtop report` does:
     * set by the caller before jobs_screen_run (jobs_args_probe_opts);
     * it points into probe_so. */
    job_probe_opts probe;
} jobs_args;

struct jobrow;

/* What Enter does: opens the dashboard of src (the job's profiler output,
 * or its name: CloudWatch's metrics) for row (NULL for a job of SOURCE's
 * files) in this process, while the list's terminal is down, and returns
 * its exit status (0 for success); *hung = 1 when it left a thread hung
 * in a request, which the process must not wait for. */
typedef int (*jobs_open_fn)(void *ud, const char *src, const struct jobrow *row, int *hung);

/* Runs the list until q, Ctrl-C or a signal; Enter calls open(ud, ...).
 * Returns 0; 1 when a dashboard left a thread hung (end the process
 * without joins); -1 with err when the list could not run. */
int jobs_screen_run(const jobs_args *a, jobs_open_fn open, void *ud, sm_err *err);

#endif
