/* step_event: see step_event.h. */
#include "model/query/step_event.h"

#include <string.h>

static const phase_stats *phase_by_label(const model_node *nd, const char *label)
{
    for (size_t i = 0; label && i < model_node_phase_count(nd); i++)
        if (strcmp(phase_stats_label(model_node_phase_at(nd, i)), label) == 0)
            return model_node_phase_at(nd, i);
    return NULL;
}

int step_event_find(const model *m, const char *node, const char *label, int64_t start_us,
                    phase_event *out)
{
    const model_node *nd = node ? model_find_writer(m, node) : NULL;
    const phase_stats *ps = nd ? phase_by_label(nd, label) : NULL;
    if (!ps)
        return 0;
    phase_event ev[16];
    size_t n = phase_stats_in_range(ps, start_us, start_us + 1, ev, sizeof ev / sizeof *ev);
    for (size_t i = 0; i < n; i++)
        if (ev[i].start_us == start_us) {
            *out = ev[i];
            return 1;
        }
    return 0;
}
