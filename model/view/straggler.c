/* straggler: see straggler.h. */
#include "model/view/straggler.h"

#include <stdio.h>
#include <string.h>

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double straggler_median(const double *v, size_t n)
{
    double *t = malloc((n ? n : 1) * sizeof *t);
    size_t k = 0;
    if (!t)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            t[k++] = v[i];
    double med = NAN;
    if (k > 0) {
        qsort(t, k, sizeof *t, cmp_double);
        med = k % 2 ? t[k / 2] : (t[k / 2 - 1] + t[k / 2]) / 2.0;
    }
    free(t);
    return med;
}

double straggler_deviation(double v, double med, double floor)
{
    if (isnan(v) || isnan(med))
        return NAN;
    double base = fabs(med) > floor ? fabs(med) : floor;
    return fabs(v - med) / base;
}

double straggler_step_p50(const model_node *nd)
{
    if (model_node_phase_count(nd) == 0 || phase_stats_kind(model_node_phase_at(nd, 0)) != PHASE_STEP)
        return NAN;
    phase_summary s;
    phase_stats_get_summary(model_node_phase_at(nd, 0), &s);
    return s.count > 0 ? s.p50_us : NAN;
}

int straggler_from_rule(const rule_result *r, straggler_found *out)
{
    memset(out, 0, sizeof *out);
    if (!r || r->status != RULE_TRIGGERED || !r->node[0])
        return 0;
    snprintf(out->id, sizeof out->id, "%s", r->node);
    out->over_pct = r->worst_pct;
    out->value_us = r->worst_value;
    out->median_us = out->value_us / (1.0 + r->worst_pct / 100.0);
    return 1;
}
