/* gpu_clock: which PyTorch profiler traces lie far off the job's clock
 * (issue 25, bad input: "a trace from another job"). A folder shared by
 * two jobs (a rerun writing the same tensorboard-output/, a trace copied
 * in by hand) gives traces whose baseTimeNanoseconds is hours or days
 * away from the job's: they are still read and counted, and named, since
 * they stretch the job's time range and add another job's GPU time.
 *
 * The job's clock is the span of its system metrics when it has any:
 * they are sampled the whole time the job runs, so a trace that does not
 * come within GPU_CLOCK_NEAR_SYS_US of them did not run during it.
 * Without system metrics the traces themselves are the clock: sorted by
 * start, chained while each begins within GPU_CLOCK_NEAR_TRACES_US of the
 * chain's end (a job's profiling cycles may be hours apart), and the
 * chain holding the most traces is the job's; on a tie, or with one chain,
 * nothing is far off (no other clock to judge by). Pure: no I/O. */
#ifndef SMTOP_GPU_CLOCK_H
#define SMTOP_GPU_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#define GPU_CLOCK_NEAR_SYS_US (3600LL * 1000000)          /* 1 h */
#define GPU_CLOCK_NEAR_TRACES_US (24LL * 3600 * 1000000)  /* 1 day */

/* A span on the job clock, µs since the epoch, t0 <= t1. */
typedef struct gpu_span {
    int64_t t0_us, t1_us;
} gpu_span;

/* Sets far[i] to 1 for each of the n trace spans sp[i] off the job's
 * clock, 0 for the others, and *job to the span it judged them by (the
 * system metrics' sys when not NULL, else the job's chain; untouched
 * when nothing is far off). Returns how many are far off, or -1 on OOM
 * (far untouched). */
int gpu_clock_far_off(const gpu_span *sp, size_t n, const gpu_span *sys, uint8_t *far,
                      gpu_span *job);

#endif
