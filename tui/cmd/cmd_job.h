/* cmd_job: `--job NAME` of the dashboard, report, diff and export — a
 * training job named to the SageMaker API rather than by where its files
 * lie. */
#ifndef SMTOP_CMD_JOB_H
#define SMTOP_CMD_JOB_H

#include "io/run/job.h"
#include "model/jobs/jobrow.h"

/* Opens the job `name`: DescribeTrainingJob, then every place its data
 * can be (io/source/source_job.h: the profiler output, the TensorBoard
 * and checkpoint syncs, output.tar.gz once ended) read as one job
 * folder, else an empty source that CloudWatch's per-host metrics fill; with row
 * (the job list's, already described) no call is made here. The watch
 * (io/run/job_watch.h) goes with the job: on a thread of its own when
 * thread (the dashboard), else polled by the caller (job_poll_watch).
 * NULL with err: no credentials, or what the API said (exit 1). */
job *cmd_job_open(const char *name, const jobrow *row, const source_opts *so,
                  const model_config *mc, int thread, sm_err *err);

/* The job `name` as DescribeTrainingJob says it (region and profile from
 * so): *out filled, its profiler_url the job's profiler output or "" when
 * it has none, its places (source_job_open opens them). 0, or -1 with err (no credentials, an unknown job, a
 * missing permission: what the API said; exit 1). */
int cmd_job_resolve(const char *name, const source_opts *so, jobrow *out, sm_err *err);

#endif
