/* phase_window: a phase's statistics over a time window, from the events
 * it retains (phase_stats keeps its newest PHASE_RECENT_CAP), so a view
 * can show the steps inside the window `+ - [ ]` selected rather than
 * every step of the job.
 *
 * Takes retained events (oldest first, as phase_stats_recent gives them)
 * and a window; gives a phase_summary and a histogram with phase_stats'
 * buckets, over the events that start inside it. Pure. */
#ifndef SMTOP_PHASE_WINDOW_H
#define SMTOP_PHASE_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "model/steps/phase_stats.h"

/* What a window's statistics can be computed from. */
typedef enum phase_window_scope {
    PHASE_WINDOW_WHOLE = 0,   /* the window holds every step, or none that is
                                 retained: use the phase's own statistics */
    PHASE_WINDOW_ALL,         /* every step in the window is retained */
    PHASE_WINDOW_NEWEST       /* the window starts before the oldest retained
                                 step: only its newest steps are known */
} phase_window_scope;

/* The scope of [t0_us, t1_us) for a phase summarised by all whose retained
 * events are ev[0..n). */
phase_window_scope phase_window_scope_of(const phase_summary *all, const phase_event *ev,
                                         size_t n, int64_t t0_us, int64_t t1_us);

/* Statistics of the events of ev[0..n) that start in [t0_us, t1_us) into
 * out (exact percentiles, first/last times of those events; count 0 and
 * NAN mean/percentiles when none) and their histogram into hist (zeroed
 * first). 0, or -1 on OOM (out and hist then unspecified). */
int phase_window_summary(const phase_event *ev, size_t n, int64_t t0_us, int64_t t1_us,
                         phase_summary *out, uint32_t hist[PHASE_HIST_BUCKETS]);

#endif
