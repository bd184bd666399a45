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

/* Widens [*t0, *t1) by node nd's events of `step`; 1 when it had any. */
static int widen_by_node(const phase_stats *ps, long long step, phase_event *ev,
                         int64_t *t0, int64_t *t1)
{
    size_t n = phase_stats_recent(ps, ev, PHASE_RECENT_CAP);
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].step != step)
            continue;
        int64_t a = ev[i].start_us, b = ev[i].start_us + ev[i].dur_us;
        if (*t1 <= *t0) {
            *t0 = a;
            *t1 = b;
        }
        *t0 = a < *t0 ? a : *t0;
        *t1 = b > *t1 ? b : *t1;
        seen = 1;
    }
    return seen;
}

size_t step_focus_window(const model *m, const char *label, long long step,
                         int64_t hint_t0, int64_t hint_t1, int64_t *t0, int64_t *t1)
{
    *t0 = hint_t0;
    *t1 = hint_t1;
    size_t nodes = hint_t1 > hint_t0;
    if (step < 0 || !label)
        return nodes;
    /* On OOM the hint alone is still the picked step's window. */
    phase_event *ev = malloc(PHASE_RECENT_CAP * sizeof *ev);
    if (!ev)
        return nodes;
    size_t seen = 0;
    for (size_t i = 0; i < model_node_count(m); i++) {
        const phase_stats *ps = phase_by_label(model_node_at(m, i), label);
        if (ps)
            seen += (size_t)widen_by_node(ps, step, ev, t0, t1);
    }
    free(ev);
    return seen > nodes ? seen : nodes;
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
