/* model_diff: what a live model and the model `smtop report` builds from
 * the finished files disagree on, for the live-vs-final harness. Compares,
 * exactly, every node's series (count, min, max, mean — the CPU total
 * included) and every phase's event statistics (count, min, max, mean),
 * both ways, and the job's time span. Header-only, test code. */
#ifndef SMTOP_TEST_MODEL_DIFF_H
#define SMTOP_TEST_MODEL_DIFF_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

typedef struct model_diff {
    int raw_only;          /* skip the derived CPU total (see mdiff_compare_raw) */
    int64_t mismatches;
    int64_t series, samples, phases, events;   /* compared, from the final side */
    char first[512];                           /* the first mismatch, in words */
} model_diff;

static inline void mdiff_note(model_diff *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void mdiff_note(model_diff *d, const char *fmt, ...)
{
    if (d->mismatches++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->first, sizeof d->first, fmt, ap);
        va_end(ap);
    }
}

/* Same double, NaN equal to NaN. */
static inline int mdiff_same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static inline void mdiff_series(model_diff *d, const char *node, const series *f,
                                const series *l)
{
    series_summary a, b;
    series_get_summary(f, &a);
    d->series++;
    d->samples += a.count;
    if (!l) {
        mdiff_note(d, "%s %s/%s/%s: %lld samples in the files, no live series", node,
                   series_type(f), series_dimension(f), series_name(f), (long long)a.count);
        return;
    }
    series_get_summary(l, &b);
    if (a.count != b.count || !mdiff_same(a.min, b.min) || !mdiff_same(a.max, b.max) ||
        !mdiff_same(a.mean, b.mean))
        mdiff_note(d, "%s %s/%s/%s: files n %lld min %.17g max %.17g mean %.17g, "
                      "live n %lld min %.17g max %.17g mean %.17g",
                   node, series_type(f), series_dimension(f), series_name(f),
                   (long long)a.count, a.min, a.max, a.mean, (long long)b.count, b.min, b.max,
                   b.mean);
}

static inline void mdiff_phase(model_diff *d, const char *node, const phase_stats *f,
                               const phase_stats *l)
{
    phase_summary a, b;
    phase_stats_get_summary(f, &a);
    d->phases++;
    d->events += a.count;
    if (!l) {
        mdiff_note(d, "%s phase %s: %lld events in the files, none live", node,
                   phase_stats_label(f), (long long)a.count);
        return;
    }
    phase_stats_get_summary(l, &b);
    if (a.count != b.count || a.min_us != b.min_us || a.max_us != b.max_us ||
        !mdiff_same(a.mean_us, b.mean_us))
        mdiff_note(d, "%s phase %s: files n %lld min %lld max %lld mean %.17g, "
                      "live n %lld min %lld max %lld mean %.17g",
                   node, phase_stats_label(f), (long long)a.count, (long long)a.min_us,
                   (long long)a.max_us, a.mean_us, (long long)b.count, (long long)b.min_us,
                   (long long)b.max_us, b.mean_us);
}

/* Everything of `from` must be in `to` the same; `both` also checks the
 * values (the reverse pass only looks for extra series and phases). */
static inline void mdiff_nodes(model_diff *d, const model *from, const model *to, int both,
                               const char *extra_side)
{
    for (size_t i = 0; i < model_node_count(from); i++) {
        const model_node *f = model_node_at(from, i);
        const model_node *l = model_find_node(to, model_node_id(f));
        if (!l) {
            mdiff_note(d, "node %s only %s", model_node_id(f), both ? "in the files" : extra_side);
            continue;
        }
        for (size_t k = 0; k < model_node_series_count(f); k++) {
            const series *s = model_node_series_at(f, k);
            const series *o = model_node_find_series(l, series_type(s), series_dimension(s),
                                                     series_name(s));
            if (d->raw_only && s == model_node_cpu_total(f))
                continue;
            if (both)
                mdiff_series(d, model_node_id(f), s, o);
            else if (!o)
                mdiff_note(d, "%s %s/%s/%s only %s", model_node_id(f), series_type(s),
                           series_dimension(s), series_name(s), extra_side);
        }
        for (size_t k = 0; k < model_node_phase_count(f); k++) {
            const phase_stats *p = model_node_phase_at(f, k);
            const phase_stats *o = model_node_find_phase(l, phase_stats_label(p));
            if (both)
                mdiff_phase(d, model_node_id(f), p, o);
            else if (!o)
                mdiff_note(d, "%s phase %s only %s", model_node_id(f), phase_stats_label(p),
                           extra_side);
        }
    }
}

static inline model_diff mdiff_run(const model *final, const model *live, int raw_only)
{
    model_diff d = {.raw_only = raw_only};
    mdiff_nodes(&d, final, live, 1, "");
    mdiff_nodes(&d, live, final, 0, "live");
    if (model_first_us(final) != model_first_us(live) ||
        model_last_us(final) != model_last_us(live))
        mdiff_note(&d, "time span: files %lld..%lld, live %lld..%lld",
                   (long long)model_first_us(final), (long long)model_last_us(final),
                   (long long)model_first_us(live), (long long)model_last_us(live));
    return d;
}

static inline model_diff mdiff_compare(const model *final, const model *live)
{
    return mdiff_run(final, live, 0);
}

/* As mdiff_compare, without the CPU total: for arbitrary bytes, whose
 * timestamps need not rise, the total's grouping of cores is a heuristic
 * that depends on where reads end. */
static inline model_diff mdiff_compare_raw(const model *final, const model *live)
{
    return mdiff_run(final, live, 1);
}

#endif
