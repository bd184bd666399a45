/* step_outliers: see step_outliers.h. */
#include "model/steps/step_outliers.h"

#include <string.h>

void step_outliers_find(const phase_stats *ph, double sigma, phase_event *ev, size_t cap,
                        step_outliers *out)
{
    phase_summary s;
    phase_stats_get_summary(ph, &s);
    memset(out, 0, sizeof *out);
    out->slowest.step = -1;
    out->count = s.count;
    out->mean_us = s.mean_us;
    out->stddev_us = s.stddev_us;
    out->p50_us = s.p50_us;
    out->threshold_us = s.mean_us + sigma * s.stddev_us;
    out->checked = phase_stats_recent(ph, ev, cap);
    for (size_t i = 0; i < out->checked; i++) {
        out->checked_us += (double)ev[i].dur_us;
        if ((double)ev[i].dur_us <= out->threshold_us)
            continue;
        out->outliers++;
        out->lost_us += (double)ev[i].dur_us - s.p50_us;
        if (ev[i].dur_us > out->slowest.dur_us)
            out->slowest = ev[i];
    }
}

double step_outliers_lost_pct(const step_outliers *o)
{
    return o->checked_us > 0 ? 100.0 * o->lost_us / o->checked_us : 0;
}
