/* phase_stats: durations of one kind of framework event on one node.
 *
 * Used for training steps per mode ("Step:ModeKeys.TRAIN", "...EVAL",
 * "...GLOBAL"), for Forward / Backward(post-forward), and for data-loader
 * events. Keeps count/mean/stddev/min/max exactly, percentiles through
 * quantile.h (exact up to PHASE_EXACT_CAP durations, then within
 * QUANT_REL_ERR), a log-scale histogram (PHASE_HIST_PER_OCTAVE buckets per
 * power of two, from 1 µs), and the most recent PHASE_RECENT_CAP events in
 * time order for strips and outlier lists. Events may arrive out of order. */
#ifndef SMTOP_PHASE_STATS_H
#define SMTOP_PHASE_STATS_H

#include <stddef.h>
#include <stdint.h>

#define PHASE_EXACT_CAP 4096
#define PHASE_RECENT_CAP 4096
#define PHASE_HIST_PER_OCTAVE 4
#define PHASE_HIST_BUCKETS (40 * PHASE_HIST_PER_OCTAVE) /* 1 µs .. ~12 days */

typedef enum phase_kind {
    PHASE_STEP = 0,     /* Step:ModeKeys.* */
    PHASE_FORWARD,
    PHASE_BACKWARD,
    PHASE_DATALOADER,   /* DataIterator, dataset::GetNext, DataLoaderIter::GetNext, ... */
    PHASE_OTHER
} phase_kind;

typedef struct phase_stats phase_stats;

typedef struct phase_summary {
    int64_t count;
    double mean_us, stddev_us;
    int64_t min_us, max_us;
    double p50_us, p95_us, p99_us;
    int exact;                 /* percentiles exact */
    double err_rel;            /* else within err_rel * |p| (QUANT_REL_ERR) */
    int64_t first_start_us;    /* earliest event start */
    int64_t last_end_us;       /* latest event end */
} phase_summary;

typedef struct phase_event {
    int64_t step;              /* -1 when unknown */
    int64_t start_us, dur_us;
} phase_event;

/* Bounds of a process's own phases on a node with several trace writers
 * (model/core/model_process.c): the node keeps the bounds above for its pooled
 * events, each rank exact percentiles up to 4,096 steps (then within
 * QUANT_REL_ERR) and its newest 1,024 events, so 8 ranks cost about two
 * nodes' worth, not eight. */
#define PHASE_PROC_EXACT_CAP 4096
#define PHASE_PROC_RECENT_CAP 1024

phase_stats *phase_stats_new(const char *label, phase_kind kind); /* NULL on OOM */
/* The same with other bounds (exact_cap values kept exactly, the newest
 * recent_cap events retained; recent_cap >= 8). NULL on OOM. */
phase_stats *phase_stats_new_bounded(const char *label, phase_kind kind, size_t exact_cap,
                                     size_t recent_cap);
void phase_stats_free(phase_stats *p);
/* A deep copy of p within the given bounds: the same count, mean, stddev,
 * min, max, histogram and first/last times; its newest recent_cap events;
 * percentiles exact while p holds at most exact_cap values. NULL on OOM. */
phase_stats *phase_stats_clone(const phase_stats *p, size_t exact_cap, size_t recent_cap);
int phase_stats_add(phase_stats *p, int64_t step, int64_t start_us, int64_t dur_us);

const char *phase_stats_label(const phase_stats *p);
phase_kind phase_stats_kind(const phase_stats *p);
void phase_stats_get_summary(const phase_stats *p, phase_summary *out);
/* As series_settle: the lazy work of const readers (staged events joined,
 * percentiles cached, the exact buffer sorted) done now, so that readers
 * only read until p is next written. */
void phase_stats_settle(phase_stats *p);

/* The percentiles pct[0..k) (0..100) into out, as the summary's p50 is
 * computed (exact, or within its err_rel). 0, or -1 on OOM (out NAN). */
int phase_stats_quantiles(const phase_stats *p, const double *pct, size_t k, double *out);

/* Histogram: counts[i] holds durations in [phase_hist_lower_us(i),
 * phase_hist_lower_us(i+1)); bucket 0 also holds 0 µs. */
const uint32_t *phase_stats_histogram(const phase_stats *p);
double phase_hist_lower_us(size_t bucket);
/* The bucket a duration counts in. */
size_t phase_hist_bucket(int64_t dur_us);

/* Copies up to max of the most recent events (by start time), oldest first,
 * into out; returns how many. */
size_t phase_stats_recent(const phase_stats *p, phase_event *out, size_t max);
/* How many events are retained, and how many of them start at or before
 * t_us (the index just after the last such event). */
size_t phase_stats_recent_count(const phase_stats *p);
/* Bytes each retained event takes now: 12 while their starts lie within
 * about an hour of each other, 16 while every duration fits 32 bits of µs
 * and every step number 32 bits, else 24. What is read back never
 * depends on it. */
size_t phase_stats_recent_bytes(const phase_stats *p);
/* Heap bytes owned by p. */
size_t phase_stats_memory_bytes(const phase_stats *p);
size_t phase_stats_recent_upto(const phase_stats *p, int64_t t_us);
/* Copies up to max retained events from index `first` on (0: the oldest
 * retained), oldest first; returns how many. */
size_t phase_stats_recent_from(const phase_stats *p, size_t first, phase_event *out,
                               size_t max);
/* Copies up to max retained events that overlap [t0_us, t1_us), oldest first. */
size_t phase_stats_in_range(const phase_stats *p, int64_t t0_us, int64_t t1_us,
                            phase_event *out, size_t max);

/* Classifies a (process/phase name, event name) pair. */
phase_kind phase_classify(const char *phase, size_t phase_len,
                          const char *name, size_t name_len);

uint64_t phase_stats_generation(const phase_stats *p);

#endif
