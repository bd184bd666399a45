/* panes_builtin: the vtables of the built-in data panes, for the registry
 * in tui/panes/panes.c. Each pane's pure helpers live in its own header
 * (pane_system.h, pane_heatmap.h, pane_steps.h). */
#ifndef SMTOP_PANES_BUILTIN_H
#define SMTOP_PANES_BUILTIN_H

#include "tui/panes/pane.h"

extern const pane_vtbl pane_system_vtbl;   /* per-node charts */
extern const pane_vtbl pane_heatmap_vtbl;  /* nodes x devices utilization */
extern const pane_vtbl pane_steps_vtbl;    /* step-time histogram and strip */

#endif
