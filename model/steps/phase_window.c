/* phase_window: see phase_window.h. The window's steps are at most
 * PHASE_RECENT_CAP, so the percentiles are exact (quantile.h's exact
 * buffer, the same interpolation as the phase's own). */
#include "model/steps/phase_window.h"

#include <math.h>
#include <string.h>

#include "model/util/lbound.h"
#include "model/series/quantile.h"

typedef struct start_key {
    const phase_event *ev;
    int64_t t;
} start_key;

static int starts_before(const void *ctx, size_t i)
{
    const start_key *k = ctx;
    return k->ev[i].start_us < k->t;
}

/* Index of the first event starting at or after t. */
static size_t first_from(const phase_event *ev, size_t n, int64_t t)
{
    start_key k = {ev, t};
    return lbound(n, starts_before, &k);
}

phase_window_scope phase_window_scope_of(const phase_summary *all, const phase_event *ev,
                                         size_t n, int64_t t0_us, int64_t t1_us)
{
    if (n == 0 || (t0_us <= all->first_start_us && t1_us > ev[n - 1].start_us))
        return PHASE_WINDOW_WHOLE;
    /* Events not retained start at or before the oldest retained one. */
    if ((int64_t)n >= all->count || t0_us > ev[0].start_us)
        return PHASE_WINDOW_ALL;
    return first_from(ev, n, t1_us) > 0 ? PHASE_WINDOW_NEWEST : PHASE_WINDOW_WHOLE;
}

int phase_window_summary(const phase_event *ev, size_t n, int64_t t0_us, int64_t t1_us,
                         phase_summary *out, uint32_t hist[PHASE_HIST_BUCKETS])
{
    memset(out, 0, sizeof *out);
    memset(hist, 0, PHASE_HIST_BUCKETS * sizeof *hist);
    out->exact = 1;
    out->mean_us = out->stddev_us = out->p50_us = out->p95_us = out->p99_us = NAN;
    size_t a = first_from(ev, n, t0_us), b = first_from(ev, n, t1_us);
    if (a >= b)
        return 0;
    quant *q = quantile_new(b - a);
    if (!q)
        return -1;
    double sum = 0;
    out->min_us = out->max_us = ev[a].dur_us;
    out->first_start_us = ev[a].start_us;
    for (size_t i = a; i < b; i++) {
        int64_t d = ev[i].dur_us;
        if (quantile_add(q, (double)d) != 0) {
            quantile_free(q);
            return -1;
        }
        sum += (double)d;
        out->min_us = d < out->min_us ? d : out->min_us;
        out->max_us = d > out->max_us ? d : out->max_us;
        if (ev[i].start_us + d > out->last_end_us)
            out->last_end_us = ev[i].start_us + d;
        hist[phase_hist_bucket(d)]++;
    }
    out->count = (int64_t)(b - a);
    out->mean_us = sum / (double)out->count;
    double m2 = 0;
    for (size_t i = a; i < b; i++)
        m2 += ((double)ev[i].dur_us - out->mean_us) * ((double)ev[i].dur_us - out->mean_us);
    out->stddev_us = sqrt(m2 / (double)out->count);
    out->p50_us = quantile_get(q, 50);
    out->p95_us = quantile_get(q, 95);
    out->p99_us = quantile_get(q, 99);
    quantile_free(q);
    return 0;
}
