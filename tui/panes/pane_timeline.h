/* pane_timeline: the "Timeline" pane — three views of the selected node's
 * framework events, cycled with `v`:
 *   steps   the last steps that fit as horizontal bars split into their
 *           phases (model/query/step_breakdown.h), the slowest marked; j/k select
 *           a bar, `f` ties every pane to its window (the step
 *           cross-filter, view_focus_step).
 *   loader  data-loading time per step and its share of the step, the
 *           data-loader workers seen, a GetNext latency histogram.
 *   events  the framework events in the visible window (model/
 *           event_window.h), `s` orders by start or duration, `/` filters
 *           by name.
 * Enter stays the dashboard's zoom key everywhere: `f`, not Enter, focuses
 * a step, so the same key works whether or not the pane is zoomed.
 *
 * The pure helpers below are what the views compute; they are unit-tested
 * without a terminal. */
#ifndef SMTOP_PANE_TIMELINE_H
#define SMTOP_PANE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/query/step_breakdown.h"
#include "tui/panes/pane.h"

typedef enum tl_view {
    TL_STEPS = 0,
    TL_LOADER,
    TL_EVENTS,
    TL_NVIEWS
} tl_view;

extern const pane_vtbl pane_timeline_vtbl;

/* "steps", "loader", "events". */
const char *pane_timeline_view_name(tl_view v);

/* Index of the "other" part in pane_timeline_bar_parts' output. */
#define TL_OTHER SB_NCAT

/* Splits a bar of `cells` cells among step b's parts: out[SB_DATA ..
 * SB_COMM] and out[TL_OTHER]. Categories may overlap (communication runs
 * during backward), so each part gets its share of the sum of all parts
 * rather than of the step; the parts add up to exactly `cells` (largest
 * remainder), or are all 0 when the step has no time at all. */
void pane_timeline_bar_parts(const step_breakdown *b, int cells, int out[TL_OTHER + 1]);

/* The GPU split of a Kineto rank's step (model/view/gpuview.h): parts
 * TL_GPU_COMPUTE .. TL_GPU_IDLE of a bar of `cells` cells, in proportion
 * to g's compute, communication, memory and idle times (they add up to
 * the step), exactly `cells` in all (largest remainder); all 0 when g has
 * no time. */
enum { TL_GPU_COMPUTE = 0, TL_GPU_COMM, TL_GPU_MEMORY, TL_GPU_IDLE, TL_GPU_NPARTS };
void pane_timeline_gpu_parts(const gpu_step *g, int cells, int out[TL_GPU_NPARTS]);
/* "compute", "comm", "memory", "idle". */
const char *pane_timeline_gpu_part_name(int part);

/* slow[i] = 1 for any step of b[0..n) longer than threshold (INFINITY:
 * none by threshold) and for the `top` longest that are also longer than
 * TL_SLOW_OVER_MEDIAN times the median of b — so the steady jitter of a
 * healthy job is not marked — else 0. n is a screenful (O(n^2)). */
#define TL_SLOW_OVER_MEDIAN 1.2
void pane_timeline_mark_slow(const step_breakdown *b, size_t n, size_t top,
                             double threshold, int *slow);

/* Index of the step that starts at sel_start_us, or the newest (n - 1)
 * when none does (or sel_start_us is 0); 0 when n is 0. */
size_t pane_timeline_find_sel(const step_breakdown *b, size_t n, int64_t sel_start_us);

/* Data-loading share of b[0..n): total data time and total step time. */
void pane_timeline_data_share(const step_breakdown *b, size_t n, int64_t *data_us,
                              int64_t *step_us);

#endif
