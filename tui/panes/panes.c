/* panes: the explicit registry of dashboard panes, in screen order. An
 * array (not constructor attributes) so that no pane can silently vanish
 * when linked from a static library. The Diff pane is not in it: it is
 * appended only with --baseline (panes_select). */
#include "tui/panes/pane.h"
#include "tui/panes/pane_alerts.h"
#include "tui/panes/pane_diff.h"
#include "tui/panes/pane_python.h"
#include "tui/panes/pane_timeline.h"
#include "tui/panes/panes_builtin.h"

static const pane_vtbl *const registry[] = {
    &pane_system_vtbl,
    &pane_heatmap_vtbl,
    &pane_steps_vtbl,
    &pane_python_vtbl,
    &pane_timeline_vtbl,
    &pane_alerts_vtbl,
};

size_t panes_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const pane_vtbl *panes_at(size_t i)
{
    return i < panes_count() ? registry[i] : 0;
}

size_t panes_select(int baseline, const pane_vtbl **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < panes_count() && n < cap; i++)
        out[n++] = registry[i];
    if (baseline && n < cap)   /* diff mode only: nothing to compare without */
        out[n++] = &pane_diff_vtbl;
    return n;
}
