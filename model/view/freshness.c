/* freshness: see freshness.h. */
#include "model/view/freshness.h"

#include "model/core/model_gpu.h"
#include "model/rules/rule_impl.h"

int64_t freshness_live_limit_us(int64_t sample_us, int64_t scan_us)
{
    if (sample_us <= 0)
        sample_us = FRESHNESS_DEFAULT_SAMPLE_US;
    int64_t allow = FRESHNESS_SAMPLES * sample_us;
    return (scan_us > 0 ? scan_us : 0) + (allow > FRESHNESS_GRACE_US ? allow : FRESHNESS_GRACE_US);
}

freshness freshness_of(int64_t now_us, int64_t newest_us, int64_t sample_us,
                       int64_t scan_us)
{
    if (newest_us <= 0)
        return FRESH_NONE;
    int64_t age = now_us - newest_us;
    if (age <= freshness_live_limit_us(sample_us, scan_us))
        return FRESH_LIVE;
    return age < FRESHNESS_ENDED_US ? FRESH_STALE : FRESH_ENDED;
}

int64_t freshness_sample_interval(const model *m)
{
    for (size_t i = 0; i < model_node_count(m); i++) {
        const model_node *n = model_node_at(m, i);
        if (model_node_series_count(n) > 0)
            return rule_sample_interval(model_node_series_at(n, 0));
    }
    return 0;
}

void freshness_trace_limits(int64_t gap_us, int64_t *late_us, int64_t *gone_us)
{
    int64_t late = (int64_t)(FRESHNESS_TRACE_LATE_GAPS * gap_us),
            gone = (int64_t)(FRESHNESS_TRACE_GONE_GAPS * gap_us);
    *late_us = late > FRESHNESS_TRACE_LIVE_US ? late : FRESHNESS_TRACE_LIVE_US;
    *gone_us = gone > FRESHNESS_ENDED_US ? gone : FRESHNESS_ENDED_US;
}

freshness freshness_of_traces(int64_t now_us, int64_t newest_us, int64_t gap_us,
                              int64_t scan_us)
{
    if (newest_us <= 0)
        return FRESH_NONE;
    int64_t age = now_us - newest_us, late, gone;
    freshness_trace_limits(gap_us, &late, &gone);
    if (age <= late + (scan_us > 0 ? scan_us : 0))
        return FRESH_LIVE;
    if (age >= gone)
        return FRESH_ENDED;
    return gap_us > 0 ? FRESH_STALE : FRESH_QUIET;
}

int freshness_writing(freshness f)
{
    return f == FRESH_LIVE || f == FRESH_QUIET;
}

int64_t freshness_cycle_gap(const gpu_summary *s)
{
    int64_t gap = 0;
    if (!s || s->traces < 2)
        return 0;
    for (size_t i = 1; i < s->n_steps; i++) {
        int64_t d = s->step_rows[i].start_us - s->step_rows[i - 1].start_us;
        if (d > gap)
            gap = d;
    }
    return gap;
}

int64_t freshness_trace_gap(const model *m)
{
    int64_t gap = 0;
    for (size_t i = 0; i < model_gpu_count(m); i++) {
        int64_t g = freshness_cycle_gap(gpu_rank_summary(model_gpu_at(m, i)->gpu));
        if (g > gap)
            gap = g;
    }
    return gap;
}
