/* panes: the explicit registry of dashboard panes, in screen order. An
 * array (not constructor attributes) so that no pane can silently vanish
 * when linked from a static library. The python and alerts panes join
 * here when they exist. */
#include "pane.h"
#include "pane_alerts.h"
#include "pane_python.h"
#include "panes_builtin.h"

static const pane_vtbl *const registry[] = {
    &pane_system_vtbl,
    &pane_heatmap_vtbl,
    &pane_steps_vtbl,
    &pane_python_vtbl,
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
