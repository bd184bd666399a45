/* gpu_diff: kernel sets compared (see gpu_diff.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_diff.h"
#include "model/util/stable_sort.h"

const char *gpu_diff_kind_name(gpu_diff_kind k)
{
    static const char *const names[] = {"added", "removed", "slower", "faster", "same"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "";
}

static double mean_of(const gpu_stat *s)
{
    return s && s->count > 0 ? (double)s->sum_us / (double)s->count : NAN;
}

static gpu_kdiff row_of(const gpu_stat *x, const gpu_stat *y, double thr)
{
    gpu_kdiff d;
    memset(&d, 0, sizeof d);
    const gpu_stat *any = x ? x : y;
    d.name = any->name;
    d.type = any->type;
    d.a_count = x ? x->count : 0;
    d.b_count = y ? y->count : 0;
    d.a_sum_us = x ? x->sum_us : 0;
    d.b_sum_us = y ? y->sum_us : 0;
    d.a_mean_us = mean_of(x);
    d.b_mean_us = mean_of(y);
    if (!x)
        d.kind = GPU_DIFF_ADDED;
    else if (!y)
        d.kind = GPU_DIFF_REMOVED;
    else if (d.b_mean_us > d.a_mean_us * (1 + thr))
        d.kind = GPU_DIFF_SLOWER;
    else if (d.b_mean_us < d.a_mean_us * (1 - thr))
        d.kind = GPU_DIFF_FASTER;
    else
        d.kind = GPU_DIFF_SAME;
    return d;
}

static int64_t change(const gpu_kdiff *d)
{
    int64_t c = d->b_sum_us - d->a_sum_us;
    return c < 0 ? -c : c;
}

static int diff_less(const gpu_kdiff *a, const gpu_kdiff *b)
{
    if (change(a) != change(b))
        return change(a) > change(b);
    return strcmp(a->name, b->name) < 0;
}

STABLE_SORT_DEFINE(sort_diffs, gpu_kdiff, diff_less(&A, &B))

static const gpu_stat *live(const gpu_stat *s)
{
    return s && s->count > 0 ? s : NULL;
}

gpu_kdiff *gpu_diff_kernels(const gpu_table *a, const gpu_table *b, double rel_threshold,
                            size_t *n)
{
    *n = 0;
    size_t cap = a->n + b->n;
    gpu_kdiff *out = malloc((cap ? cap : 1) * sizeof *out);
    gpu_kdiff *tmp = malloc((cap ? cap : 1) * sizeof *tmp);
    if (!out || !tmp) {
        free(out);
        free(tmp);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++)
        if (live(&a->rows[i]))
            out[k++] = row_of(&a->rows[i], live(gpu_table_find(b, a->rows[i].name)),
                              rel_threshold);
    for (size_t i = 0; i < b->n; i++)
        if (live(&b->rows[i]) && !live(gpu_table_find(a, b->rows[i].name)))
            out[k++] = row_of(NULL, &b->rows[i], rel_threshold);
    sort_diffs(out, tmp, k);
    free(tmp);
    if (k == 0) {
        free(out);
        return NULL;
    }
    *n = k;
    return out;
}
