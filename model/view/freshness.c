/* freshness: see freshness.h. */
#include "model/view/freshness.h"

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
