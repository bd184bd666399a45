/* step_event: an alert's span turned back into the step it is. A
 * StepOutlier alert carries node, phase label and times but no step
 * number; the loader looks the step up when it derives the rule results
 * (model/view/viewsnap.h), so the Alerts pane's `J` focuses that step from the
 * snapshot without reading the model. Takes a model (the caller holds its
 * lock); gives a copy of one retained event. */
#ifndef SMTOP_STEP_EVENT_H
#define SMTOP_STEP_EVENT_H

#include <stdint.h>

#include "model/model.h"
#include "model/steps/phase_stats.h"

/* The retained event of phase `label` on node (or writer) `node` that
 * starts at start_us. 1 and *out when found, else 0. */
int step_event_find(const model *m, const char *node, const char *label, int64_t start_us,
                    phase_event *out);

#endif
