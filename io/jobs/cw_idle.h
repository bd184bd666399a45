/* cw_idle: idle GPU-hours from CloudWatch, for jobs without Debugger
 * system metrics.
 *
 * GetMetricData of GPUUtilization (Average) for each host, Host =
 * JOB/algo-N, over the part of the job not counted yet: from the row's
 * cursor (idle_through_s; the training start at first) to its end, or
 * to two minutes ago while it runs (CloudWatch's newest minute arrives
 * late). The period is a minute, longer when that would pass 1,440
 * points a host (or 100,800 a call) so one call covers any job; every
 * point whose per-GPU mean (the host's figure / its GPUs) is below 10 %
 * counts the period for every GPU of the host (jobrow_add_cw_idle).
 * Points are counted once: each call covers [cursor, end) on whole
 * periods and moves the cursor to its end. A running job is asked every
 * 5 minutes, an ended one until its end is reached, then never again. */
#ifndef SMTOP_CW_IDLE_H
#define SMTOP_CW_IDLE_H

#include "io/aws/aws_api.h"
#include "model/jobs/jobrow.h"

#define CW_IDLE_MAX_HOSTS 500   /* GetMetricData's queries per call */

/* 1 when r is due a call at now_s: described, started, one known type
 * with GPUs, and time not yet counted (5 minutes of it while running). */
int cw_idle_due(const jobrow *r, double now_s);

/* The call's window and period for r at now_s: 0 when there is none,
 * else 1 with [*lo, *hi) on whole periods and *period_s. */
int cw_idle_window(const jobrow *r, double now_s, double *lo, double *hi, int *period_s);

/* Counts the window's idle GPU time into r and moves its cursor.
 * 1 counted (or nothing to count yet), -1 with err. */
int cw_idle_fetch(aws_api *cw, jobrow *r, double now_s, sm_err *err);

#endif
