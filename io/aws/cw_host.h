/* cw_host: a training job's per-host CloudWatch metrics as the system
 * samples of its nodes, for a dashboard whose job has no Debugger system
 * metrics.
 *
 * GetMetricData over /aws/sagemaker/TrainingJobs, dimension Host =
 * JOB/algo-N, Average per period, of GPUUtilization,
 * GPUMemoryUtilization, CPUUtilization, MemoryUtilization and
 * DiskUtilization: 5 queries a host, 100 hosts a call (the API's 500),
 * every page of the answer (NextToken). Each point becomes a sample of
 * node algo-N at the period's start:
 *   - GPU and GPU memory (0-100 x GPUs) divided by the instance type's
 *     GPUs, one "gpu" of the node (type gpu: the heatmap and the GPU
 *     rules read it as they read a Debugger GPU); none for a type
 *     without GPUs;
 *   - CPU (0-100 x vCPUs) divided by its vCPUs, the node's one core
 *     "cpu", whose total is the CPU chart;
 *   - memory as Debugger's MemoryUsedPercent, disk as "disk"
 *     DiskUtilization (percent of the volume used);
 *   - an instance type the table does not know (instance_types), or
 *     instance groups, leave GPU and CPU as CloudWatch sums them: type
 *     "cloudwatch", names "gpu raw", "gmem raw", "cpu raw" (charts that
 *     scale to their data, no rule reads them).
 * The pure halves (queries, answer) are separate from the call, for
 * tests. */
#ifndef SMTOP_CW_HOST_H
#define SMTOP_CW_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "io/aws/aws_api.h"
#include "model/model.h"

#define CW_HOST_METRICS 5
#define CW_HOST_PER_CALL 100   /* 500 queries a call / 5 metrics */
#define CW_HOST_MAX 1024       /* hosts asked at most */

/* How a job's figures are read: its hosts and the instance type's
 * counts. */
typedef struct cw_host_job {
    const char *name;      /* the training job's name */
    int hosts;             /* algo-1 .. algo-hosts (at most CW_HOST_MAX) */
    int gpus, vcpus;       /* per host, when known */
    int known;             /* 0: raw sums (unknown type, instance groups) */
} cw_host_job;

/* Fills gpus, vcpus and known from an instance type ("ml.p4d.24xlarge")
 * and the number of instance groups (0: none). */
void cw_host_job_type(cw_host_job *j, const char *instance_type, int groups);

/* The period to ask for data that ends end_s, at now_s: 60 s while
 * CloudWatch keeps minutes (15 days), then 300 s (63 days), then 3600. */
int cw_host_period(double end_s, double now_s);

/* The form parameters of the queries of hosts first+1 .. first+n (Ids
 * "h<host>_<metric>"), with StartTime/EndTime t0_s..t1_s and NextToken
 * when not NULL, into *params (free with cloudwatch_params_free); returns
 * how many, -1 on OOM. */
long cw_host_params(const cw_host_job *j, int first, int n, int period_s, double t0_s,
                    double t1_s, const char *next_token, s3_param **params);

/* Called for each point of an answer, per query in ascending time. */
typedef void (*cw_host_point_fn)(void *ud, int host, int metric, int64_t ts_us, double v);

/* Reads a GetMetricData answer (len bytes, NUL-terminated): every
 * result's points to fn, sorted by time, and its NextToken into next
 * ("" when none). Returns the points read, -1 on OOM. */
long cw_host_read(const char *xml, size_t len, cw_host_point_fn fn, void *ud, char *next,
                  size_t next_cap);

/* The sample a point becomes (see above), into *s with its strings
 * pointing into buf (at least 16 bytes). 0, or -1 when the point gives
 * none (GPUs of a type without them, a metric out of range). */
int cw_host_sample(const cw_host_job *j, int host, int metric, int64_t ts_us, double v,
                   char *node, size_t node_cap, sm_sample *s);

/* Fetches hosts' points over [t0_s, t1_s] (every page, every batch of
 * hosts) into fn. Returns the points, -1 with err (what came before the
 * failure went to fn). */
long cw_host_fetch(aws_api *cw, const cw_host_job *j, int period_s, double t0_s,
                   double t1_s, cw_host_point_fn fn, void *ud, sm_err *err);

#endif
