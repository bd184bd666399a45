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

#include "model/model.h"

#define FRESHNESS_SAMPLES 4                          /* sampling intervals allowed */
#define FRESHNESS_GRACE_US (10LL * 1000000)          /* ...and at least this */
#define FRESHNESS_ENDED_US (3600LL * 1000000)        /* an hour without data */
#define FRESHNESS_DEFAULT_SAMPLE_US (500LL * 1000)   /* SageMaker's default */

typedef enum freshness {
    FRESH_NONE = 0,   /* no sample yet */
    FRESH_LIVE,
    FRESH_STALE,
    FRESH_ENDED
} freshness;

/* The oldest age of the newest sample that still counts as LIVE:
 * scan_us + max(FRESHNESS_SAMPLES * sample_us, FRESHNESS_GRACE_US).
 * sample_us <= 0 means unknown (FRESHNESS_DEFAULT_SAMPLE_US). */
int64_t freshness_live_limit_us(int64_t sample_us, int64_t scan_us);

/* The state of data whose newest sample is at newest_us (0 = none) at
 * wall-clock time now_us. A newest sample in the future (clock skew
 * between the writer and this machine) counts as LIVE. */
freshness freshness_of(int64_t now_us, int64_t newest_us, int64_t sample_us,
                       int64_t scan_us);

/* The job's system sampling interval in µs (every node is configured
 * alike, so the first node with a series tells), 0 when unknown. */
int64_t freshness_sample_interval(const model *m);

#endif
