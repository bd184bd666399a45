/* step_focus: the step cross-filter's look-up over the model — which step
 * an alert's span is — and
 * the millisecond clock the focused window is shown with. No curses: the
 * steps and alerts panes call these on a key, the header and the python
 * pane use the clock; all are unit-tested on a hand-built model.
 * Callers hold the model lock. */
#ifndef SMTOP_STEP_FOCUS_H
#define SMTOP_STEP_FOCUS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/phase_stats.h"

/* The retained event of phase `label` on node (or process) `node` that starts at
 * start_us (how a StepOutlier alert's span, which carries node, phase and
 * times but no step number, is turned back into a step). 1 and *out when
 * found, else 0. */
int step_focus_find_event(const model *m, const char *node, const char *label,
                          int64_t start_us, phase_event *out);

/* "12:03:04.120": local time of day with milliseconds, since a step
 * window is usually shorter than a second. Returns buf. */
char *step_focus_clock(char *buf, size_t cap, int64_t t_us);

#endif
