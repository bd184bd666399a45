/* cw_answer: CloudWatch's GetMetricData answers for a job's hosts (the
 * queries io/aws/cw_host asks: dimension Host = JOB/algo-N, Ids
 * "h<host>_<metric>"), read into points and points into the system
 * samples of the job's nodes. Pure: the cloudwatch decoder
 * (decoder_cloudwatch.c) reads answers through it.
 *
 * Each point becomes a sample of node algo-N at the period's start:
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
 *     scale to their data, no rule reads them). */
#ifndef SMTOP_CW_ANSWER_H
#define SMTOP_CW_ANSWER_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"

#define CW_ANSWER_METRICS 5    /* GPU, GPU memory, CPU, memory, disk */
#define CW_ANSWER_HOST_MAX 1024

/* How a job's figures are read: its hosts and the instance type's
 * counts. */
typedef struct cw_answer_job {
    const char *name;      /* the training job's name (queries only) */
    int hosts;             /* algo-1 .. algo-hosts (at most CW_ANSWER_HOST_MAX) */
    int gpus, vcpus;       /* per host, when known */
    int known;             /* 0: raw sums (unknown type, instance groups) */
} cw_answer_job;

/* Fills gpus, vcpus and known from an instance type ("ml.p4d.24xlarge")
 * and the number of instance groups (0: none). */
void cw_answer_job_type(cw_answer_job *j, const char *instance_type, int groups);

/* Called for each point read. */
typedef void (*cw_answer_point_fn)(void *ud, int host, int metric, int64_t ts_us, double v);

/* Every point of xml[0..len) (NUL-terminated: one answer, or the pages of
 * one fetch one after another) to fn, oldest first over all of them (a
 * stable sort: CloudWatch answers newest first, and a malformed answer
 * may repeat an Id out of order); a point without a time, with a value
 * that is not finite or of a host past hosts (0: any) is left out.
 * Returns the points given, -1 on OOM (none given). */
long cw_answer_points(const char *xml, size_t len, int hosts, cw_answer_point_fn fn, void *ud);

/* The sample a point becomes (see above), into *s with its strings
 * pointing into node (at least 16 bytes) and static text. 0, or -1 when
 * the point gives none (GPUs of a type without them, a metric out of
 * range, a value that is not finite). */
int cw_answer_sample(const cw_answer_job *j, int host, int metric, int64_t ts_us, double v,
                     char *node, size_t node_cap, sm_sample *s);

/* The key the ingest path gives a fetch's answers under (the decoder
 * reads the job's type back from it): "cloudwatch/GetMetricData?type=
 * TYPE&groups=G&hosts=H&period=P". Returns out. */
char *cw_answer_key(const char *instance_type, int groups, int hosts, int period_s,
                    char *out, size_t cap);
/* Reads such a key back: 0, or -1 when it is not one. type: at least 64
 * bytes. */
int cw_answer_key_parse(const char *key, char *type, size_t type_cap, int *groups, int *hosts,
                        int *period_s);

#endif
