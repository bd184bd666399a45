/* step_focus: see step_focus.h. */
#include "tui/dash/step_focus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const phase_stats *phase_by_label(const model_node *nd, const char *label)
{
    for (size_t i = 0; label && i < model_node_phase_count(nd); i++)
        if (strcmp(phase_stats_label(model_node_phase_at(nd, i)), label) == 0)
            return model_node_phase_at(nd, i);
    return NULL;
}

int step_focus_find_event(const model *m, const char *node, const char *label,
                          int64_t start_us, phase_event *out)
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

char *step_focus_clock(char *buf, size_t cap, int64_t t_us)
{
    if (cap == 0)
        return buf;
    /* Floor division so the milliseconds stay in [0, 1000). */
    int64_t sec = t_us >= 0 ? t_us / 1000000 : -((-t_us + 999999) / 1000000);
    int ms = (int)((t_us - sec * 1000000) / 1000);
    time_t tt = (time_t)sec;
    struct tm tm;
    if (!localtime_r(&tt, &tm)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    snprintf(buf, cap, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
    return buf;
}
