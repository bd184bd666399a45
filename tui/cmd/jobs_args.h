/* jobs_args: the options of `smtop jobs`, parsed once and shared by the
 * --json writer and the list screen. */
#ifndef SMTOP_JOBS_ARGS_H
#define SMTOP_JOBS_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "io/jobs/job_probe.h"
#include "io/source/source_open.h"
#include "model/jobs/joblist.h"

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
} jobs_args;

/* Parses argv[1..argc). Returns 0 to run, 1 for --help (printed), -1 on a
 * usage error (printed with a hint). */
int jobs_args_parse(jobs_args *a, int argc, char **argv);

/* The usage text. */
void jobs_args_usage(FILE *f);

/* How the list opens and judges each job (job_probe.h): through a's
 * transport options, by the rule set `smtop report` uses (rules.conf).
 * o holds a pointer into a. */
void jobs_args_probe_opts(const jobs_args *a, job_probe_opts *o);

#endif
