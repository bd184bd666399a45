/* rule_util: result bookkeeping and the weighted percentile shared by the
 * rule implementations. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules/rule_impl.h"
#include "model/util/stable_sort.h"

static void copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void rule_result_example(rule_result *o, const char *node, const char *device,
                         int64_t t0, int64_t t1, double value, const char *fmt, ...)
{
    if (o->n_examples >= RULE_MAX_EXAMPLES)
        return;
    rule_example *e = &o->examples[o->n_examples++];
    memset(e, 0, sizeof *e);
    e->t0_us = t0;
    e->t1_us = t1;
    e->value = value;
    copy_str(e->node, sizeof e->node, node);
    copy_str(e->device, sizeof e->device, device);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
}

void rule_result_worst(rule_result *o, const char *node, const char *device,
                       int64_t t0, int64_t t1)
{
    copy_str(o->node, sizeof o->node, node);
    copy_str(o->device, sizeof o->device, device);
    o->t0_us = t0;
    o->t1_us = t1;
}

void rule_result_message(rule_result *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->message, sizeof o->message, fmt, ap);
    va_end(ap);
}

void rule_result_cause(rule_result *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->cause, sizeof o->cause, fmt, ap);
    va_end(ap);
}

void rule_result_fix(rule_result *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->fix, sizeof o->fix, fmt, ap);
    va_end(ap);
}

void rule_result_short(rule_result *o, const char *fmt, ...)
{
    char why[sizeof o->message - sizeof RULE_TOO_SHORT + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    o->too_short = 1;
    snprintf(o->message, sizeof o->message, RULE_TOO_SHORT "%s", why);
}

static int64_t samples_of(const series *s)
{
    int64_t a, b;
    return s ? series_extent(s, &a, &b) : 0;
}

int64_t rule_samples_most(const model *m, int gpu)
{
    int64_t most = 0;
    for (size_t i = 0; i < model_node_count(m); i++) {
        const model_node *n = model_node_at(m, i);
        int64_t k = gpu ? 0 : samples_of(model_node_cpu_total(n));
        for (size_t g = 0; gpu && g < model_node_gpu_count(n); g++) {
            int64_t c = samples_of(gpu == 1 ? model_node_gpu_util(n, g) : model_node_gpu_mem(n, g));
            k = c > k ? c : k;
        }
        most = k > most ? k : most;
    }
    return most;
}

static int vw_cmp(const void *a, const void *b)
{
    double x = ((const rule_vw *)a)->v, y = ((const rule_vw *)b)->v;
    return (x > y) - (x < y);
}

/* Value at (0-based) rank r of the expanded multiset, ranks counted with
 * weights; entries are sorted. */
static double value_at_rank(const rule_vw *vw, size_t n, double r)
{
    double cum = 0;
    for (size_t i = 0; i < n; i++) {
        cum += vw[i].w;
        if (r < cum)
            return vw[i].v;
    }
    return vw[n - 1].v;
}

/* Stable sort by v. */
STABLE_SORT_DEFINE(sort_vw, rule_vw, A.v < B.v)


double rule_percentile(rule_vw *vw, size_t n, double p)
{
    double total = 0;
    int nan = 0;
    for (size_t i = 0; i < n; i++) {
        total += vw[i].w;
        nan |= isnan(vw[i].v);
    }
    if (n == 0 || total <= 0)
        return NAN;
    /* NaN makes vw_cmp no ordering at all: keep qsort's own answer then. */
    rule_vw *tmp = nan ? NULL : malloc(n * sizeof *tmp);
    if (tmp) {
        sort_vw(vw, tmp, n);
        free(tmp);
    } else {
        qsort(vw, n, sizeof *vw, vw_cmp);
    }
    return rule_percentile_sorted(vw, n, p);
}

double rule_percentile_sorted(const rule_vw *vw, size_t n, double p)
{
    /* Weights are sample counts (whole numbers): their sum is exact in
     * any order, so it matches the one taken before sorting. */
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += vw[i].w;
    if (n == 0 || total <= 0)
        return NAN;
    /* numpy "linear": rank p/100·(N-1), interpolated between neighbours */
    double rank = p / 100.0 * (total - 1);
    if (rank < 0)
        rank = 0;
    double lo = floor(rank);
    double a = value_at_rank(vw, n, lo);
    double b = value_at_rank(vw, n, lo + 1 < total ? lo + 1 : lo);
    return a + (b - a) * (rank - lo);
}
