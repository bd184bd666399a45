/* report_diff_gpu: the PyTorch profiler (Kineto) part of `smtop diff`.
 *
 * Per rank, each base rank against the target's rank of the same number
 * (distributedInfo.rank; else the same process on the same node; else
 * the one rank of each side, two single-trace runs), each row naming
 * both sides' process and node:
 * - gpu[]: the temporal breakdown (the report's gpu[] rows: idle,
 *   compute, non-compute % of the span, comm/compute overlap);
 * - gpu_kernel_types[]: HTA's kernel-type breakdown, % of GPU time by
 *   type set;
 * - gpu_steps[]: the mean step's split (compute, comm, memory, idle µs);
 * - gpu_critical_path[]: the critical path's share by HTA's bound_by
 *   class, once the ranks have one.
 * Then the kernels added, removed, slower and faster (HTA's TraceDiff
 * categories, gpu_diff.h) over the whole job, matched by their whole
 * names and kept whole in JSON.
 *
 * A side's kernels travel in its snapshot as "kernel_table" (raw names,
 * type, count, sum over every rank) and its ranks' step split and path
 * as "rank_steps", so `smtop diff` and the dashboard's pane compare the
 * same figures. Names are unescaped and sanitized only for the output. */
#include "tui/report/report_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/sanitize.h"
#include "model/gpu/gpu_diff.h"
#include "model/core/model_gpu.h"
#include "tui/text/sanitize.h"

#define KDIFF_MAX 200     /* kernel rows in a diff: the largest changes */
#define KDIFF_TEXT 10     /* of them, shown per category in the text */

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A rank's mean step split and critical path ("rank_steps" row). */
static json_t *rank_steps_row(const model_gpu_row *row)
{
    const gpu_summary *g = gpu_rank_summary(row->gpu);
    double sum[4] = {0};
    for (size_t i = 0; i < g->n_steps; i++) {
        sum[0] += (double)g->step_rows[i].compute_us;
        sum[1] += (double)g->step_rows[i].comm_us;
        sum[2] += (double)g->step_rows[i].memory_us;
        sum[3] += (double)g->step_rows[i].idle_us;
    }
    double n = g->n_steps ? (double)g->n_steps : NAN;
    json_t *cp = json_object();
    for (int b = 0; cp && b < GPU_BOUND_N; b++)
        if (isfinite(g->critical_path.bound_pct[b]))
            json_object_set_new(cp, gpu_bound_name(b), json_real(g->critical_path.bound_pct[b]));
    return json_pack("{s:s, s:s, s:o, s:I, s:o, s:o, s:o, s:o, s:o}", "node", row->node,
                     "process", row->process,
                     "rank", row->rank >= 0 ? json_integer(row->rank) : json_null(),
                     "steps", (json_int_t)g->n_steps, "compute_us", num_or_null(sum[0] / n),
                     "comm_us", num_or_null(sum[1] / n), "memory_us", num_or_null(sum[2] / n),
                     "idle_us", num_or_null(sum[3] / n), "critical_path", cp);
}

int report_diff_add_kernels(json_t *obj, job *j)
{
    gpu_table all;
    gpu_table_init(&all);
    int rc = 0;
    json_t *ranks = json_array();
    pthread_mutex_lock(job_lock(j));
    const model *m = job_model(j);
    for (size_t i = 0; rc == 0 && i < model_gpu_count(m); i++) {
        rc = gpu_table_merge(&all, gpu_rank_kernels(model_gpu_at(m, i)->gpu));
        if (rc == 0 && (!ranks || json_array_append_new(ranks, rank_steps_row(model_gpu_at(m, i)))))
            rc = -1;
    }
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
    if (rc == 0 && arr && ranks && json_object_set_new(obj, "kernel_table", arr) == 0 &&
        json_object_set_new(obj, "rank_steps", ranks) == 0)
        return 0;
    json_decref(arr);
    json_decref(ranks);
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

/* A kernel's whole name (clean since its trace was kept): never cut, so
 * two kernels that share a long prefix stay two. NULL on OOM. */
static json_t *whole_name(const char *name)
{
    return json_string(name);
}

static json_t *kdiff_row(const gpu_kdiff *k)
{
    double ch = k->kind == GPU_DIFF_SLOWER || k->kind == GPU_DIFF_FASTER
                    ? (k->b_mean_us - k->a_mean_us) / k->a_mean_us * 100.0
                    : NAN;
    return json_pack("{s:o, s:s, s:s, s:I, s:I, s:o, s:o, s:I, s:I, s:o}", "name",
                     whole_name(k->name), "kind", gpu_diff_kind_name(k->kind), "type",
                     gpu_ktype_name(k->type), "base_count", (json_int_t)k->a_count,
                     "target_count", (json_int_t)k->b_count, "base_mean_us",
                     num_or_null(k->a_mean_us), "target_mean_us", num_or_null(k->b_mean_us),
                     "base_sum_us", (json_int_t)k->a_sum_us, "target_sum_us",
                     (json_int_t)k->b_sum_us, "change_pct", num_or_null(ch));
}

static void diff_kernels(const json_t *b, const json_t *t, json_t *out, diff_count *c)
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
        c->changed++;
        if (kept++ < KDIFF_MAX)
            json_array_append_new(out, kdiff_row(&d[i]));
    }
    free(d);
    gpu_table_free(&ta);
    gpu_table_free(&tb);
}

static const char *str_of(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* The target's row for the base's rank `row` among arr: the same rank
 * number, else the same process (on the same node first: ranks without a
 * number repeat), else the one rank of each side. */
static const json_t *find_rank(const json_t *arr, const json_t *row, size_t nbase)
{
    const json_t *r = json_object_get(row, "rank"), *hit = NULL;
    const char *p = str_of(row, "process"), *nd = str_of(row, "node");
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e) {
        const json_t *q = json_object_get(e, "rank");
        if (json_is_integer(r) && json_is_integer(q))
            if (json_integer_value(r) == json_integer_value(q))
                return e;
    }
    json_array_foreach(arr, i, e) {
        if (json_is_integer(r) && json_is_integer(json_object_get(e, "rank")))
            continue;   /* numbered on both sides: by number alone */
        if (strcmp(p, str_of(e, "process")))
            continue;
        if (!strcmp(nd, str_of(e, "node")))
            return e;
        hit = hit ? hit : e;
    }
    if (!hit && nbase == 1 && json_array_size(arr) == 1)
        hit = json_array_get(arr, 0);
    return hit;
}

/* A row naming both sides' rank: its process and node in each job. */
static json_t *rank_row(const json_t *e, const json_t *o, const char *key, const char *what)
{
    const json_t *r = json_object_get(e, "rank");
    return json_pack("{s:s, s:s, s:s, s:s, s:O, s:s}", "process", str_of(e, "process"), "node",
                     str_of(e, "node"), "target_process", str_of(o, "process"), "target_node",
                     str_of(o, "node"), "rank", json_is_integer(r) ? r : json_null(), key, what);
}

typedef struct rank_pair {
    const json_t *e, *o;   /* the base's row and the target's of the same rank */
} rank_pair;

/* Calls fn for each base row of array key with its target row. */
static void each_rank(const json_t *b, const json_t *t, const char *key, json_t *out,
                      diff_count *c,
                      void (*fn)(const rank_pair *pr, json_t *out, diff_count *c))
{
    const json_t *ba = json_object_get(b, key), *ta = json_object_get(t, key);
    size_t i;
    const json_t *e;
    json_array_foreach(ba, i, e) {
        rank_pair pr = {e, find_rank(ta, e, json_array_size(ba))};
        if (pr.o)
            fn(&pr, out, c);
    }
}

/* The report's gpu[] row figures, % of the span. */
static void temporal(const rank_pair *pr, json_t *out, diff_count *c)
{
    static const char *const metrics[] = {"idle", "compute", "non_compute",
                                          "comm_comp_overlap"};
    for (size_t k = 0; k < 4; k++) {
        char key[40];
        snprintf(key, sizeof key, "%s_pct", metrics[k]);
        const json_t *vb = json_object_get(pr->e, key), *vt = json_object_get(pr->o, key);
        if (json_is_number(vb) && json_is_number(vt))
            report_diff_add_row(out, rank_row(pr->e, pr->o, "metric", metrics[k]), "pct",
                                json_number_value(vb), json_number_value(vt), c);
    }
}

/* The kernel-type breakdown: a type set on either side (0 where absent). */
static double ktype_pct(const json_t *row, const char *type)
{
    size_t i;
    const json_t *k;
    json_array_foreach(json_object_get(row, "kernel_types"), i, k)
        if (!strcmp(str_of(k, "type"), type))
            return json_number_value(json_object_get(k, "pct"));
    return 0;
}

static void kernel_types(const rank_pair *pr, json_t *out, diff_count *c)
{
    for (int set = 1; set < 8; set++) {
        const char *type = gpu_ktype_name(set);
        report_diff_add_row(out, rank_row(pr->e, pr->o, "type", type), "pct",
                            ktype_pct(pr->e, type), ktype_pct(pr->o, type), c);
    }
}

static void step_split(const rank_pair *pr, json_t *out, diff_count *c)
{
    static const char *const cats[] = {"compute", "comm", "memory", "idle"};
    for (size_t k = 0; k < 4; k++) {
        char key[32];
        snprintf(key, sizeof key, "%s_us", cats[k]);
        const json_t *vb = json_object_get(pr->e, key), *vt = json_object_get(pr->o, key);
        if (json_is_number(vb) && json_is_number(vt))
            report_diff_add_row(out, rank_row(pr->e, pr->o, "category", cats[k]), "us",
                                json_number_value(vb), json_number_value(vt), c);
    }
}

static void critical_path(const rank_pair *pr, json_t *out, diff_count *c)
{
    const json_t *cb = json_object_get(pr->e, "critical_path");
    const json_t *ct = json_object_get(pr->o, "critical_path");
    for (int b = 0; b < GPU_BOUND_N; b++) {
        const json_t *vb = json_object_get(cb, gpu_bound_name(b));
        const json_t *vt = json_object_get(ct, gpu_bound_name(b));
        if (json_is_number(vb) && json_is_number(vt))
            report_diff_add_row(out, rank_row(pr->e, pr->o, "class", gpu_bound_name(b)), "pct",
                                json_number_value(vb), json_number_value(vt), c);
    }
}

int report_diff_gpu(const json_t *b, const json_t *t, json_t *d, diff_count *c)
{
    static const char *const keys[] = {"gpu", "gpu_kernel_types", "gpu_steps",
                                       "gpu_critical_path", "kernels"};
    json_t *arr[5];
    for (size_t i = 0; i < 5; i++)
        if (!(arr[i] = json_array()) || json_object_set_new(d, keys[i], arr[i]) != 0)
            return -1;
    each_rank(b, t, "gpu", arr[0], c, temporal);
    each_rank(b, t, "gpu", arr[1], c, kernel_types);
    each_rank(b, t, "rank_steps", arr[2], c, step_split);
    each_rank(b, t, "rank_steps", arr[3], c, critical_path);
    diff_kernels(b, t, arr[4], c);
    return 0;
}

/* "rank 3 (control)", or both sides' "rank 3 (control) -> rank 1 (test)"
 * when the target's rank or node is another. */
void report_diff_rank_label(const json_t *row, char *out, size_t cap)
{
    char a[160], b[160];
    snprintf(a, sizeof a, "%s (%s)", str_of(row, "process"), str_of(row, "node"));
    snprintf(b, sizeof b, "%s (%s)", str_of(row, "target_process"), str_of(row, "target_node"));
    char raw[340];
    snprintf(raw, sizeof raw, "%s%s%s", a, strcmp(a, b) ? " -> " : "", strcmp(a, b) ? b : "");
    sanitize_str(raw, out, cap, -1);
}

static void print_kind(const json_t *arr, const char *kind, const char *title, FILE *f)
{
    size_t i, shown = 0, all = 0;
    const json_t *r;
    json_array_foreach(arr, i, r) {
        if (strcmp(str_of(r, "kind"), kind))
            continue;
        if (!all++)
            fprintf(f, "  %s:\n", title);
        if (shown++ >= KDIFF_TEXT)
            continue;
        char vb[32] = "-", vt[32] = "-", pct[24] = "";
        const json_t *mb = json_object_get(r, "base_mean_us"),
                     *mt = json_object_get(r, "target_mean_us"), *c = json_object_get(r, "change_pct");
        if (json_is_number(mb))
            snprintf(vb, sizeof vb, "%.1f us", json_number_value(mb));
        if (json_is_number(mt))
            snprintf(vt, sizeof vt, "%.1f us", json_number_value(mt));
        if (json_is_number(c))
            snprintf(pct, sizeof pct, "%+.1f %%", json_number_value(c));
        /* the name last and whole: a cut would make two kernels one */
        const char *nm = str_of(r, "name");
        size_t cap = strlen(nm) + 1;
        char *name = malloc(cap);
        if (name)
            sanitize_str(nm, name, cap, -1);
        fprintf(f, "    %12s -> %-12s %9s  %s\n", vb, vt, pct, name ? name : "");
        free(name);
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
    fputs("\nGPU kernels, mean time per launch (base -> target; names whole)\n", f);
    print_kind(arr, "added", "added (only in target)", f);
    print_kind(arr, "removed", "removed (only in base)", f);
    print_kind(arr, "slower", "slower", f);
    print_kind(arr, "faster", "faster", f);
}
