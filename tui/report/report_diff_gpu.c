/* report_diff_gpu: the PyTorch profiler (Kineto) part of `smtop diff` —
 * each rank's GPU time breakdown (the report's gpu[] rows, matched by
 * process) and the kernels added, removed, slower and faster (HTA's
 * TraceDiff categories, gpu_diff.h) over the whole job.
 *
 * A side's kernels travel in its snapshot as "kernel_table" (raw names,
 * type, count, sum over every rank) and are laid back into gpu_tables for
 * gpu_diff_kernels, so `smtop diff` and the dashboard's pane compare the
 * same figures. Names are unescaped and sanitized only for the output. */
#include "tui/report/report_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "model/gpu/gpu_diff.h"
#include "model/core/model_gpu.h"
#include "tui/text/sanitize.h"

#define KDIFF_MAX 200     /* kernel rows in a diff: the largest changes */
#define KDIFF_TEXT 10     /* of them, shown per category in the text */

int report_diff_add_kernels(json_t *obj, job *j)
{
    gpu_table all;
    gpu_table_init(&all);
    int rc = 0;
    pthread_mutex_lock(job_lock(j));
    const model *m = job_model(j);
    for (size_t i = 0; rc == 0 && i < model_gpu_count(m); i++)
        rc = gpu_table_merge(&all, gpu_rank_kernels(model_gpu_at(m, i)->gpu));
    pthread_mutex_unlock(job_lock(j));
    json_t *arr = json_array();
    for (size_t i = 0; rc == 0 && arr && i < all.n; i++) {
        const gpu_stat *s = &all.rows[i];
        if (s->count > 0 &&
            json_array_append_new(arr, json_pack("{s:o, s:i, s:I, s:I}", "name",
                                                 json_stringn_nocheck(s->name, s->len), "type",
                                                 s->type, "count", (json_int_t)s->count,
                                                 "sum_us", (json_int_t)s->sum_us)) != 0)
            rc = -1;
    }
    gpu_table_free(&all);
    if (rc == 0 && arr && json_object_set_new(obj, "kernel_table", arr) == 0)
        return 0;
    json_decref(arr);
    return -1;
}

/* A snapshot's kernel_table back into t. -1 on OOM. */
static int table_of(const json_t *side, gpu_table *t)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(side, "kernel_table"), i, e) {
        const json_t *nm = json_object_get(e, "name");
        if (!json_is_string(nm))
            continue;
        int64_t r = gpu_table_intern(t, (sm_str){json_string_value(nm), json_string_length(nm)});
        if (r < 0)
            return -1;
        gpu_stat *s = &t->rows[r];
        s->type = (int)json_integer_value(json_object_get(e, "type"));
        s->count += json_integer_value(json_object_get(e, "count"));
        s->sum_us += json_integer_value(json_object_get(e, "sum_us"));
        s->self_us = s->sum_us;
    }
    return 0;
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *kdiff_row(const gpu_kdiff *k)
{
    char name[1024];
    kineto_str_sanitize((sm_str){k->name, strlen(k->name)}, name, sizeof name);
    double ch = k->kind == GPU_DIFF_SLOWER || k->kind == GPU_DIFF_FASTER
                    ? (k->b_mean_us - k->a_mean_us) / k->a_mean_us * 100.0
                    : NAN;
    return json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:I, s:I, s:o}", "name", name, "kind",
                     gpu_diff_kind_name(k->kind), "type", gpu_ktype_name(k->type), "base_count",
                     (json_int_t)k->a_count, "target_count", (json_int_t)k->b_count,
                     "base_mean_us", num_or_null(k->a_mean_us), "target_mean_us",
                     num_or_null(k->b_mean_us), "base_sum_us", (json_int_t)k->a_sum_us,
                     "target_sum_us", (json_int_t)k->b_sum_us, "change_pct", num_or_null(ch));
}

static void diff_kernels(const json_t *b, const json_t *t, json_t *out, int *ch)
{
    gpu_table ta, tb;
    gpu_table_init(&ta);
    gpu_table_init(&tb);
    size_t n = 0;
    gpu_kdiff *d = NULL;
    if (table_of(b, &ta) == 0 && table_of(t, &tb) == 0)
        d = gpu_diff_kernels(&ta, &tb, GPU_DIFF_DEFAULT_THRESHOLD, &n);
    size_t kept = 0;
    for (size_t i = 0; d && i < n; i++) {
        if (d[i].kind == GPU_DIFF_SAME)
            continue;
        (*ch)++;
        if (kept++ < KDIFF_MAX)
            json_array_append_new(out, kdiff_row(&d[i]));
    }
    free(d);
    gpu_table_free(&ta);
    gpu_table_free(&tb);
}

static const json_t *find_rank(const json_t *arr, const json_t *row, size_t nbase)
{
    const char *p = json_string_value(json_object_get(row, "process"));
    const char *nd = json_string_value(json_object_get(row, "node"));
    const json_t *hit = NULL;
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e) {
        const char *q = json_string_value(json_object_get(e, "process"));
        const char *m = json_string_value(json_object_get(e, "node"));
        if (!p || !q || strcmp(p, q))
            continue;
        if (nd && m && !strcmp(nd, m))
            return e;   /* the same node first: ranks without a number repeat */
        hit = hit ? hit : e;
    }
    /* one rank a side (two single-trace runs, named by their files) */
    if (!hit && nbase == 1 && json_array_size(arr) == 1)
        hit = json_array_get(arr, 0);
    return hit;
}

static void diff_breakdown(const json_t *b, const json_t *t, json_t *out, int *ch)
{
    static const char *const metrics[] = {"idle", "compute", "non_compute",
                                          "comm_comp_overlap"};
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(b, "gpu"), i, e) {
        const json_t *o = find_rank(json_object_get(t, "gpu"), e,
                                    json_array_size(json_object_get(b, "gpu")));
        for (size_t k = 0; o && k < 4; k++) {
            char key[40];
            snprintf(key, sizeof key, "%s_pct", metrics[k]);
            const json_t *vb = json_object_get(e, key), *vt = json_object_get(o, key);
            if (!json_is_number(vb) || !json_is_number(vt))
                continue;
            json_t *row = json_pack("{s:s, s:s, s:s}", "process",
                                    json_string_value(json_object_get(e, "process")), "node",
                                    json_string_value(json_object_get(e, "node")), "metric",
                                    metrics[k]);
            report_diff_add_row(out, row, "pct", json_number_value(vb), json_number_value(vt),
                                ch);
        }
    }
}

int report_diff_gpu(const json_t *b, const json_t *t, json_t *d, int *ch)
{
    json_t *gpu = json_array(), *kern = json_array();
    if (!gpu || !kern || json_object_set_new(d, "gpu", gpu) != 0 ||
        json_object_set_new(d, "kernels", kern) != 0)
        return -1;
    diff_breakdown(b, t, gpu, ch);
    diff_kernels(b, t, kern, ch);
    return 0;
}

static void print_kind(const json_t *arr, const char *kind, const char *title, FILE *f)
{
    size_t i, shown = 0, all = 0;
    const json_t *r;
    json_array_foreach(arr, i, r) {
        if (strcmp(json_string_value(json_object_get(r, "kind")), kind))
            continue;
        if (!all++)
            fprintf(f, "  %s:\n", title);
        if (shown++ >= KDIFF_TEXT)
            continue;
        char name[80], vb[32] = "-", vt[32] = "-", pct[24] = "";
        sanitize_str(json_string_value(json_object_get(r, "name")), name, sizeof name, 60);
        const json_t *mb = json_object_get(r, "base_mean_us"),
                     *mt = json_object_get(r, "target_mean_us"), *c = json_object_get(r, "change_pct");
        if (json_is_number(mb))
            snprintf(vb, sizeof vb, "%.1f us", json_number_value(mb));
        if (json_is_number(mt))
            snprintf(vt, sizeof vt, "%.1f us", json_number_value(mt));
        if (json_is_number(c))
            snprintf(pct, sizeof pct, "  %+.1f %%", json_number_value(c));
        fprintf(f, "    %-60s %12s -> %-12s%s\n", name, vb, vt, pct);
    }
    if (all > KDIFF_TEXT)
        fprintf(f, "    ... and %zu more (--json lists up to %d kernels)\n", all - KDIFF_TEXT,
                KDIFF_MAX);
}

void report_diff_print_kernels(const json_t *d, FILE *f)
{
    const json_t *arr = json_object_get(d, "kernels");
    if (!json_array_size(arr))
        return;
    fputs("\nGPU kernels, mean time per launch (base -> target)\n", f);
    print_kind(arr, "added", "added (only in target)", f);
    print_kind(arr, "removed", "removed (only in base)", f);
    print_kind(arr, "slower", "slower", f);
    print_kind(arr, "faster", "faster", f);
}
