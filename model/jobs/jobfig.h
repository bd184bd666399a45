/* jobfig: a job-list row's figures from the job's own profiler data,
 * kept up to date file by file, so that a running job's files are read
 * once each and an ended job's never again.
 *
 * - jobfig_sys takes Debugger system samples (each exactly once, in any
 *   order across files): GPU/CPU/memory means over the newest 5 whole
 *   minutes of data (the minute of the newest sample and the 4 before
 *   it), and idle GPU-hours: every GPUUtilization sample below
 *   SAMPLING_BAND_LOW (10 %, the report's definition) counts for its
 *   series' sampling interval (the median of its first gaps, snapped as
 *   sampling_snap_interval does), summed over every GPU of every
 *   node.
 * - jobfig_steps keeps the newest training steps (smdebug's
 *   Step:ModeKeys.TRAIN, or a Kineto trace's ProfilerStep#N) for their
 *   p50 over the newest window.
 * Pure data; not thread-safe (the caller owns it). */
#ifndef SMTOP_JOBFIG_H
#define SMTOP_JOBFIG_H

#include <stdint.h>

#include "model/records.h"

#define JOBFIG_WINDOW_US 300000000LL   /* the newest 5 minutes */

typedef struct jobfig_sys jobfig_sys;

jobfig_sys *jobfig_sys_new(void);   /* NULL on OOM */
void jobfig_sys_free(jobfig_sys *s);

/* Adds one system sample: gpuN GPUUtilization (GPU mean and idle time),
 * cpuN CPUUtilization (CPU mean), MemoryUsedPercent (memory mean); any
 * other is ignored. 0, or -1 on OOM (s unchanged). */
int jobfig_sys_add(jobfig_sys *s, const sm_sample *x);

/* Means over the newest 5 minutes of data, each NaN without samples
 * there. */
void jobfig_sys_means(const jobfig_sys *s, double *gpu, double *cpu, double *mem);

/* Idle GPU-hours so far; NaN before any GPU sample. */
double jobfig_sys_idle_hours(const jobfig_sys *s);

/* The newest sample's time (µs), 0 before any. */
int64_t jobfig_sys_newest_us(const jobfig_sys *s);

typedef struct jobfig_steps jobfig_steps;

jobfig_steps *jobfig_steps_new(void);   /* NULL on OOM */
void jobfig_steps_free(jobfig_steps *st);
void jobfig_steps_clear(jobfig_steps *st);

/* Adds a step (number or -1, start and duration in µs). Steps that end
 * more than a window before the newest end are dropped as they age.
 * 0, or -1 on OOM (st unchanged). */
int jobfig_steps_add(jobfig_steps *st, int64_t step, int64_t start_us, int64_t dur_us);

/* The median duration in ms of the steps that end within window_us of
 * the newest end; drop_last leaves out the highest-numbered step (a
 * Kineto trace's last ProfilerStep holds the profiler's own stop).
 * NaN when none. */
double jobfig_steps_p50_ms(const jobfig_steps *st, int64_t window_us, int drop_last);

/* The newest step's end (µs), 0 when none. */
int64_t jobfig_steps_newest_us(const jobfig_steps *st);

#endif
