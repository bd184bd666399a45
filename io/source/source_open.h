/* source_open: picks the source implementation for a command-line SOURCE
 * ("s3://bucket/prefix" → S3, anything else → local directory) and holds
 * the transport options the user can set on the command line. */
#ifndef SMTOP_SOURCE_OPEN_H
#define SMTOP_SOURCE_OPEN_H

#include <stdint.h>

#include "model/util/sm_err.h"
#include "io/source/source.h"

typedef struct source_opts {
    const char *profile;       /* --profile / AWS_PROFILE; NULL = default */
    const char *region;        /* --region; NULL = resolve like the AWS CLI */
    const char *endpoint_url;  /* --endpoint-url; NULL = env or AWS */
    int parallel;              /* --s3-parallel, default 8 */
    int no_cache;              /* --no-cache */
    int64_t cache_size;        /* --cache-size bytes, default 1 GiB */
    /* Not an option: set by the dashboard, which watches jobs still being
     * started. A local directory that does not exist yet (its parent does)
     * opens empty, and a job with no data yet is waited for (job_open).
     * An S3 job's first pass may list from the cached listing of the last
     * run (list_cache.h), as passes follow that revalidate it. */
    int wait_for_data;
    /* Not an option either: the data is read in one pass (a report of a
     * job named to the API, which waits for data as a dashboard does), so
     * a cached listing must never answer it (list_cache.h serves a
     * dashboard's first pass only, the next one revalidating). */
    int one_pass;
    /* --traces PATH (dashboard, report, export: source_opts_parse_traces):
     * another directory, S3 prefix or file of PyTorch profiler traces
     * read into the same job; NULL none. */
    const char *traces;
    /* Not an option: a list of jobs opens many, and one unreachable
     * endpoint must not hold the rest (nor the running jobs' describes)
     * through a single job's connect retries: S3 connects once, within
     * 2 s, and retries a request at most 3 times (source_s3_tuning_fail_fast). */
    int fail_fast;
    /* Not an option: the biggest output.tar.gz of a job named to the API
     * that is read (source_job.h: it is read whole to find its members);
     * 0: SOURCE_JOB_TAR_MAX. The job list reads a smaller one. */
    int64_t archive_max;
} source_opts;

void source_opts_init(source_opts *o);

/* If argv[*i] is one of the transport options above, consumes it (and its
 * value, advancing *i) and returns 1; returns 0 when it is not one; -1 with
 * err (code SM_ERR_USAGE) when its value is missing or invalid. */
int source_opts_parse(source_opts *o, int argc, char **argv, int *i, sm_err *err);

/* The same for --traces PATH. */
int source_opts_parse_traces(source_opts *o, int argc, char **argv, int *i, sm_err *err);
/* Its help line. */
const char *source_opts_traces_help(void);

/* Help text for those options, one per line, for command usage messages. */
const char *source_opts_help(void);

/* Opens spec. NULL with err set (SM_ERR_NOTFOUND, SM_ERR_DENIED, ...). */
source *source_open(const char *spec, const source_opts *o, sm_err *err);

#endif
