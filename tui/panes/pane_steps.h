/* pane_steps: the step-time pane — a histogram of one node's
 * phase durations (model/steps/step_hist: p1..p99 in equal bars, outliers
 * in an overflow row) with p50/p95/p99 marked, count/mean/min/max, and a strip
 * of recent durations with outliers highlighted.
 *
 * The strip has a step cursor for the cross-filter: `,`/`<` and `.`/`>`
 * move it one step back/forward over the retained steps (the strip
 * scrolls to keep it visible; forward past the newest step drops the
 * cursor, and the strip follows new steps again), `o`/`O` jump to the
 * previous/next outlier, `f` ties every pane to the cursor's step — the
 * newest without a cursor — with that step's own window on its node
 * (view_focus_step, view_focus_node; `f` again on the focused step leaves it, as Esc
 * does). The cursor is anchored to its step's start time, so it stays on
 * its step while new steps arrive; a '>' marks its histogram row.
 *
 * The computations are pure functions (pane_steps_calc.h, unit-tested
 * without a terminal); the vtable in panes_builtin.h only lays them out. */
#ifndef SMTOP_PANE_STEPS_H
#define SMTOP_PANE_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "tui/panes/pane_steps_calc.h"

#endif
