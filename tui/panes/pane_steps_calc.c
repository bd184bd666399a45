/* pane_steps_calc: the Steps pane's arithmetic; see pane_steps_calc.h. */
#include "tui/panes/pane_steps_calc.h"

#include <math.h>

#include "model/util/lbound.h"
#include "model/steps/step_hist.h"

size_t pane_steps_hist_rows(const uint32_t *counts, size_t nbuckets,
                            size_t max_rows, steps_hist_row *out)
{
    size_t first = nbuckets, last = 0;
    for (size_t i = 0; i < nbuckets; i++) {
        if (counts[i] == 0)
            continue;
        if (first == nbuckets)
            first = i;
        last = i;
    }
    if (first == nbuckets || max_rows == 0)
        return 0;
    size_t span = last - first + 1;
    size_t per = (span + max_rows - 1) / max_rows;
    size_t n = 0;
    for (size_t b = first; b <= last; b += per, n++) {
        out[n].b0 = b;
        out[n].b1 = b + per <= last + 1 ? b + per : last + 1;
        out[n].count = 0;
        for (size_t i = out[n].b0; i < out[n].b1; i++)
            out[n].count += counts[i];
    }
    return n;
}

size_t pane_steps_bucket_of(double us)
{
    /* Binary search for the last bucket whose lower bound is <= us. */
    size_t lo = 0, hi = PHASE_HIST_BUCKETS - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (phase_hist_lower_us(mid) <= us)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

size_t pane_steps_row_of(const steps_hist_row *rows, size_t n, size_t bucket)
{
    for (size_t i = 0; i < n; i++)
        if (bucket >= rows[i].b0 && bucket < rows[i].b1)
            return i;
    return n;
}

double pane_steps_outlier_threshold(const phase_summary *s)
{
    if (!s || s->count < 10)
        return INFINITY;
    double t = s->mean_us + 3.0 * s->stddev_us;
    if (s->p99_us > 0 && s->p99_us < t)
        t = s->p99_us;
    if (t < 1.1 * s->p50_us)
        t = 1.1 * s->p50_us;
    return t;
}

steps_layout pane_steps_layout_for(int h)
{
    steps_layout l = {0, 0, 0};
    int avail = h - 1; /* the header line */
    if (avail <= 0)
        return l;
    l.stats_rows = avail >= 8 ? 2 : 1;
    avail -= l.stats_rows;
    l.strip_rows = avail >= 14 ? 3 : avail >= 8 ? 2 : avail >= 1 ? 1 : 0;
    avail -= l.strip_rows;
    l.hist_rows = avail;
    return l;
}

size_t pane_steps_strip(const int64_t *dur, size_t n, size_t cols, int per_col,
                        double threshold, double *frac, int *outlier)
{
    size_t m = cols * (size_t)(per_col > 0 ? per_col : 1);
    if (m > n)
        m = n;
    const int64_t *d = dur + (n - m);
    int64_t max = 0;
    for (size_t i = 0; i < m; i++)
        if (d[i] > max)
            max = d[i];
    for (size_t i = 0; i < m; i++) {
        frac[i] = max > 0 ? (double)d[i] / (double)max : 0.0;
        outlier[i] = (double)d[i] > threshold;
    }
    return m;
}

typedef struct cursor_key {
    const phase_event *ev;
    int64_t at_us;
} cursor_key;

static int starts_by(const void *ctx, size_t i)
{
    const cursor_key *k = ctx;
    return k->ev[i].start_us <= k->at_us;
}

size_t pane_steps_count_upto(const phase_event *ev, size_t n, int64_t t_us)
{
    cursor_key k = {ev, t_us};
    return lbound(n, starts_by, &k);
}

size_t pane_steps_cursor_find(const phase_event *ev, size_t n, int64_t at_us)
{
    if (at_us == 0 || n == 0)
        return n;
    /* The last event with start_us <= at_us. */
    size_t lo = pane_steps_count_upto(ev, n, at_us);
    return lo ? lo - 1 : 0;
}

size_t pane_steps_next_outlier(const phase_event *ev, size_t n, size_t from,
                               double threshold, int dir)
{
    if (n == 0)
        return n;
    size_t i = from < n ? from : (dir < 0 ? 0 : n - 1);
    for (size_t k = 0; k < n; k++) {
        i = dir < 0 ? (i + n - 1) % n : (i + 1) % n;
        if ((double)ev[i].dur_us > threshold)
            return i;
    }
    return n;
}

size_t pane_steps_strip_end(size_t n, size_t m, size_t cursor)
{
    if (cursor >= n || m == 0 || cursor + m >= n)
        return n;
    size_t end = cursor + 1 + m / 4;
    if (end < m)
        end = m;   /* near the oldest step: a full strip from the start */
    return end < n ? end : n;
}

/* ---- drawing ---------------------------------------------------------- */

