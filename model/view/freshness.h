/* freshness: is the job still writing? The header's LIVE / STALE / ENDED
 * badge, decided from the age of the newest sample alone.
 *
 * A writer adds a sample every sampling interval and the loader sees it
 * within one scan interval, so a job that is writing never shows data
 * older than about (sampling interval + scan interval). LIVE allows a few
 * sampling intervals on top, and at least FRESHNESS_GRACE_US, because
 * writers flush in batches and a pass takes time; past that the data is
 * STALE (the job stalled, or its uploads lag); from FRESHNESS_ENDED_US on
 * the job is taken to have ENDED. Pure: the caller passes the clock. */
#ifndef SMTOP_FRESHNESS_H
#define SMTOP_FRESHNESS_H

#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/model.h"

#define FRESHNESS_SAMPLES 4                          /* sampling intervals allowed */
#define FRESHNESS_GRACE_US (10LL * 1000000)          /* ...and at least this */
#define FRESHNESS_ENDED_US (3600LL * 1000000)        /* an hour without data */
#define FRESHNESS_DEFAULT_SAMPLE_US (500LL * 1000)   /* SageMaker's default */

typedef enum freshness {
    FRESH_NONE = 0,   /* no sample yet */
    FRESH_LIVE,
    FRESH_STALE,
    FRESH_ENDED,
    FRESH_QUIET       /* traces only: none new for a while, cadence unknown */
} freshness;

/* A job seen through PyTorch profiler traces alone writes once per
 * profiling cycle (torch.profiler's schedule), minutes apart, so its
 * limits scale with the longest gap between cycles: LIVE while the
 * newest data is at most FRESHNESS_TRACE_LATE_GAPS gaps old (and at
 * least FRESHNESS_TRACE_LIVE_US), ENDED from FRESHNESS_TRACE_GONE_GAPS
 * gaps (at least FRESHNESS_ENDED_US), STALE between. With one cycle seen
 * the gap is unknown: QUIET rather than a false STALE until ENDED.
 * `smtop jobs` judges a traces-only folder job by the same limits. */
#define FRESHNESS_TRACE_LIVE_US (120LL * 1000000)
#define FRESHNESS_TRACE_LATE_GAPS 1.5
#define FRESHNESS_TRACE_GONE_GAPS 4.0

/* The oldest age of the newest sample that still counts as LIVE:
 * scan_us + max(FRESHNESS_SAMPLES * sample_us, FRESHNESS_GRACE_US).
 * sample_us <= 0 means unknown (FRESHNESS_DEFAULT_SAMPLE_US). */
int64_t freshness_live_limit_us(int64_t sample_us, int64_t scan_us);

/* The state of data whose newest sample is at newest_us (0 = none) at
 * wall-clock time now_us. A newest sample in the future (clock skew
 * between the writer and this machine) counts as LIVE. */
freshness freshness_of(int64_t now_us, int64_t newest_us, int64_t sample_us,
                       int64_t scan_us);

/* A traces-only job's limits for a longest cycle gap of gap_us (0 =
 * unknown): LIVE while the newest data is at most *late_us old, ENDED
 * from *gone_us, as described above. */
void freshness_trace_limits(int64_t gap_us, int64_t *late_us, int64_t *gone_us);

/* freshness_of for a traces-only job whose longest gap between
 * profiling cycles is gap_us (0 = unknown), limits as described above;
 * the scan interval is added to the LIVE limit. */
freshness freshness_of_traces(int64_t now_us, int64_t newest_us, int64_t gap_us,
                              int64_t scan_us);

/* 1 while the job may still be writing: LIVE or QUIET. */
int freshness_writing(freshness f);

/* The longest gap between the starts of two consecutive ProfilerSteps of
 * one rank, once the rank merged two traces or more (each trace holds
 * one cycle's consecutive steps, so the longest gap spans two cycles);
 * 0 when unknown. */
int64_t freshness_cycle_gap(const gpu_summary *s);

/* freshness_cycle_gap's largest over the model's PyTorch profiler ranks. */
int64_t freshness_trace_gap(const model *m);

/* The job's system sampling interval in µs (every node is configured
 * alike, so the first node with a series tells), 0 when unknown. */
int64_t freshness_sample_interval(const model *m);

/* What a job's freshness is judged by, read from its model (the
 * snapshot's view data keeps it; a report reads it at its end). */
typedef struct freshness_in {
    int64_t newest_us;       /* model_last_us */
    int64_t sample_us;       /* freshness_sample_interval */
    int64_t trace_gap_us;    /* traces only (no system interval, ranks):
                                freshness_trace_gap; -1 otherwise */
} freshness_in;
void freshness_read(const model *m, freshness_in *out);

/* The job's state from in: freshness_of_traces for a traces-only job,
 * else freshness_of. The header's badge and the warnings' "truncated"
 * both ask this. */
freshness freshness_judge(const freshness_in *in, int64_t now_us, int64_t scan_us);

#endif
