/* report_diff: see report_diff.h. Building the diff object. */
#include "tui/report/report_diff.h"
#include "tui/report/report_unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/query/step_breakdown.h"
#include "tui/report/report.h"

#define DIFF_MAX_STEPS 4096

static json_t *node_breakdown(const model_node *n, step_breakdown *buf)
{
    int k = step_breakdown_node(n, "Step:ModeKeys.TRAIN", buf, DIFF_MAX_STEPS);
    if (k <= 0)
        k = step_breakdown_node(n, NULL, buf, DIFF_MAX_STEPS);
    if (k <= 0)
        return NULL;
    double sum[SB_NCAT + 1] = {0};
    for (int i = 0; i < k; i++) {
        for (int c = 0; c < SB_NCAT; c++)
            sum[c] += (double)buf[i].cat_us[c];
        sum[SB_NCAT] += (double)buf[i].other_us;
    }
    return json_pack("{s:s, s:i, s:f, s:f, s:f, s:f, s:f}", "node", model_node_id(n),
                     "steps", k, "data_us", sum[SB_DATA] / k,
                     "forward_us", sum[SB_FORWARD] / k, "backward_us", sum[SB_BACKWARD] / k,
                     "comm_us", sum[SB_COMM] / k, "other_us", sum[SB_NCAT] / k);
}

int report_diff_add_breakdown(json_t *obj, job *j)
{
    step_breakdown *buf = malloc(DIFF_MAX_STEPS * sizeof *buf);
    json_t *arr = json_array();
    int rc = buf && arr ? 0 : -1;
    pthread_mutex_lock(job_lock(j));
    const model *m = job_model(j);
    for (size_t i = 0; rc == 0 && i < model_node_count(m); i++) {
        json_t *row = node_breakdown(model_node_at(m, i), buf);
        if (row && json_array_append_new(arr, row) != 0)
            rc = -1;
    }
    pthread_mutex_unlock(job_lock(j));
    free(buf);
    if (rc == 0 && json_object_set_new(obj, "step_breakdown", arr) == 0)
        return 0;
    json_decref(arr);
    return -1;
}

/* The floor under which a change is noise, in the row's unit: 0.1 ms,
 * or 0.1 points of a percentage. */
static double noise_floor(const char *unit)
{
    return !strcmp(unit, "us") ? 100.0 : !strcmp(unit, "s") ? 0.0001 : 0.1;
}

static int is_noise(const char *unit, double b, double t)
{
    if (b == 0 && t == 0)
        return 1;
    if (!isfinite(b) || !isfinite(t) || b == t)
        return 0;   /* the same figure on both sides: a row marked "=", not noise */
    /* kept only when it is both: 0.1 ms at least (0 -> 40 µs stays noise)
     * and 1 % of the base */
    if (fabs(t - b) < noise_floor(unit))
        return 1;
    return b != 0 && fabs(t - b) / fabs(b) * 100.0 < DIFF_NOISE_PCT;
}

int report_diff_add_row(json_t *arr, json_t *row, const char *unit, double b, double t,
                        diff_count *c)
{
    if (!row)
        return -1;
    if (is_noise(unit, b, t)) {
        json_decref(row);
        c->noise++;
        return 0;
    }
    char kb[32], kt[32];
    snprintf(kb, sizeof kb, "base_%s", unit);
    snprintf(kt, sizeof kt, "target_%s", unit);
    json_object_set_new(row, kb, json_real(b));
    json_object_set_new(row, kt, json_real(t));
    json_object_set_new(row, "change_pct", b != 0 && isfinite(b) && isfinite(t)
                                               ? json_real((t - b) / fabs(b) * 100.0)
                                               : json_null());
    if (b != t)
        c->changed++;
    return json_array_append_new(arr, row);
}

void report_diff_row_values(const json_t *row, double *b, double *t)
{
    const char *k;
    const json_t *v;
    *b = *t = NAN;
    json_object_foreach((json_t *)row, k, v) {
        if (!strncmp(k, "base_", 5))
            *b = json_is_number(v) ? json_number_value(v) : NAN;
        else if (!strncmp(k, "target_", 7))
            *t = json_is_number(v) ? json_number_value(v) : NAN;
    }
}

static const json_t *find2(const json_t *arr, const char *k1, const char *v1,
                           const char *k2, const char *v2)
{
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e) {
        const char *a = json_string_value(json_object_get(e, k1));
        const char *b = k2 ? json_string_value(json_object_get(e, k2)) : v2;
        if (a && b && !strcmp(a, v1) && (!k2 || !strcmp(b, v2)))
            return e;
    }
    return NULL;
}

static int natural_cmp(const void *a, const void *b)
{
    return model_natural_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* A job's nodes as a section's rows name them under key (writer rows
 * aside), each once, in natural order (algo-2 before algo-10); NULL when
 * the rows name none or memory is short. */
static const char **nodes_of(const json_t *rows, const char *key, size_t *n)
{
    const char **v = malloc((json_array_size(rows) + 1) * sizeof *v);
    size_t i, k = 0;
    const json_t *e;
    json_array_foreach(v ? rows : NULL, i, e) {
        const char *name = json_string_value(json_object_get(e, key));
        if (!name || json_is_string(json_object_get(e, "process")))
            continue;
        size_t j = 0;
        while (j < k && strcmp(v[j], name))
            j++;
        if (j == k)
            v[k++] = name;
    }
    qsort(v, k, sizeof *v, natural_cmp);
    *n = k;
    return v;
}

/* How one section's base nodes meet the target's: by name; and when the
 * two jobs share no node name and have as many nodes, by their natural
 * order (a single PyTorch profiler trace is named by its file, a
 * CloudWatch host by its instance, a SageMaker node algo-<n>: two
 * one-node jobs always pair, algo-1..4 meets i-0a..i-0d in order). A job
 * that shares some names pairs by name only: by position, a node of one
 * name could meet another of that name's twin. The one rule of the
 * steps, utilization and breakdown rows. */
typedef struct node_pair {
    const json_t *target;   /* the target's rows */
    const char *key;        /* the key naming a row's node */
    const char **base, **other;   /* each job's nodes, natural order */
    size_t n;               /* nodes paired by position; 0 when by name */
} node_pair;

static int shares_name(const char **a, const char **b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (!strcmp(a[i], b[j]))
                return 1;
    return 0;
}

static node_pair pair_nodes(const json_t *b, const json_t *t, const char *arr, const char *key)
{
    node_pair p = {json_object_get(t, arr), key, NULL, NULL, 0};
    size_t nb = 0, nt = 0;
    p.base = nodes_of(json_object_get(b, arr), key, &nb);
    p.other = nodes_of(p.target, key, &nt);
    if (p.base && p.other && nb == nt && !shares_name(p.base, p.other, nb))
        p.n = nb;
    return p;
}

static void pair_free(node_pair *p)
{
    free(p->base);
    free(p->other);
}

/* The target's name for the base's node: its twin of the same name
 * first, else its partner by position when the jobs pair so; NULL when
 * the target has no such node. */
static const char *pair_target(const node_pair *p, const char *node)
{
    size_t i;
    const json_t *e;
    json_array_foreach(p->target, i, e) {
        const char *n = json_string_value(json_object_get(e, p->key));
        if (n && !strcmp(n, node) && !json_is_string(json_object_get(e, "process")))
            return node;
    }
    for (i = 0; i < p->n; i++)
        if (!strcmp(p->base[i], node))
            return p->other[i];
    return NULL;
}

/* A row's node keys: the base's node, and the target's when it is called
 * otherwise (a row of two nodes of one name carries none, so those diffs
 * read as they did before rows paired nodes of other names). */
static json_t *node_row(const char *node, const char *target_node)
{
    json_t *r = json_pack("{s:s}", "node", node);
    if (r && strcmp(node, target_node))
        json_object_set_new(r, "target_node", json_string(target_node));
    return r;
}

static void diff_steps(const json_t *b, const json_t *t, json_t *out, diff_count *ch)
{
    node_pair np = pair_nodes(b, t, "steps", "node");
    static const char *const stats[] = {"p50_us", "p95_us", "p99_us", "mean_us"};
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(b, "steps"), i, e) {
        /* Node against node: writer ids carry pids that differ between two
         * runs; find2 meets a node's own rows before its writers'. */
        if (json_is_string(json_object_get(e, "process")))
            continue;
        const char *node = json_string_value(json_object_get(e, "node"));
        const char *ph = json_string_value(json_object_get(e, "phase"));
        const char *tn = node && ph ? pair_target(&np, node) : NULL;
        const json_t *o = tn ? find2(np.target, "node", tn, "phase", ph) : NULL;
        for (size_t s = 0; o && s < 4; s++)   /* each side's own node name */
            report_diff_add_row(out, json_pack("{s:s, s:s, s:s, s:s}", "node", node,
                                   "target_node", tn, "phase", ph,
                                   "stat", stats[s]), "us",
                    json_number_value(json_object_get(e, stats[s])),
                    json_number_value(json_object_get(o, stats[s])), ch);
    }
    pair_free(&np);
}

/* Mean of the metric means of one kind on a node; NAN when absent. */
static double util_of(const json_t *node, const char *metric)
{
    double sum = 0;
    int n = 0;
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(node, "metrics"), i, m) {
        const char *ty = json_string_value(json_object_get(m, "type"));
        const char *dim = json_string_value(json_object_get(m, "dimension"));
        const char *nm = json_string_value(json_object_get(m, "name"));
        if (!ty || !dim)
            continue;
        int hit = !strcmp(metric, "cpu_total")
                      ? !strcmp(dim, "CPUUtilization") && nm && !strcmp(nm, "total")
                  : !strcmp(metric, "gpu_util") ? !strcmp(dim, "GPUUtilization")
                  : !strcmp(metric, "gpu_mem") ? !strcmp(dim, "GPUMemoryUtilization")
                                               : !strcmp(ty, "memory");
        if (hit) {
            sum += report_unit_get(m, "mean");
            n++;
        }
    }
    return n ? sum / n : NAN;
}

static void diff_util(const json_t *b, const json_t *t, json_t *out, diff_count *ch)
{
    static const char *const kinds[] = {"cpu_total", "gpu_util", "gpu_mem", "host_mem"};
    node_pair np = pair_nodes(b, t, "nodes", "id");
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(b, "nodes"), i, e) {
        const char *id = json_string_value(json_object_get(e, "id"));
        const char *tn = id ? pair_target(&np, id) : NULL;
        const json_t *o = tn ? find2(np.target, "id", tn, NULL, "") : NULL;
        for (size_t k = 0; o && k < 4; k++) {
            double vb = util_of(e, kinds[k]), vt = util_of(o, kinds[k]);
            json_t *row = isnan(vb) || isnan(vt) ? NULL : node_row(id, tn);
            if (row && json_object_set_new(row, "metric", json_string(kinds[k])) == 0)
                report_diff_add_row(out, row, "pct", vb, vt, ch);
            else
                json_decref(row);
        }
    }
    pair_free(&np);
}

static void diff_breakdown(const json_t *b, const json_t *t, json_t *out, diff_count *ch)
{
    static const char *const cats[] = {"data", "forward", "backward", "comm", "other"};
    node_pair np = pair_nodes(b, t, "step_breakdown", "node");
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(b, "step_breakdown"), i, e) {
        const char *id = json_string_value(json_object_get(e, "node"));
        const char *tn = id ? pair_target(&np, id) : NULL;
        const json_t *o = tn ? find2(np.target, "node", tn, NULL, "") : NULL;
        for (size_t c = 0; o && c < 5; c++) {
            char key[32];
            snprintf(key, sizeof key, "%s_us", cats[c]);
            json_t *row = node_row(id, tn);
            if (!row || json_object_set_new(row, "category", json_string(cats[c])) != 0) {
                json_decref(row);
                continue;
            }
            report_diff_add_row(out, row, "us", json_number_value(json_object_get(e, key)),
                                json_number_value(json_object_get(o, key)), ch);
        }
    }
    pair_free(&np);
}

static void diff_python(const json_t *b, const json_t *t, json_t *out, diff_count *ch)
{
    const json_t *tb = json_object_get(json_object_get(b, "python"), "top");
    const json_t *tt = json_object_get(json_object_get(t, "python"), "top");
    size_t i;
    const json_t *e;
    json_array_foreach(tb, i, e) {
        const char *fn = json_string_value(json_object_get(e, "function"));
        const json_t *o = fn ? find2(tt, "function", fn, NULL, "") : NULL;
        if (o)
            report_diff_add_row(out, json_pack("{s:s}", "function", fn), "s",
                    json_number_value(json_object_get(e, "tottime_s")),
                    json_number_value(json_object_get(o, "tottime_s")), ch);
    }
}

json_t *report_diff_build(const json_t *base, const json_t *target)
{
    const json_t *bs = json_object_get(base, "source"), *ts = json_object_get(target, "source");
    json_t *d = json_pack("{s:i, s:O, s:O, s:[], s:[], s:[], s:[]}",
                          "schema_version", REPORT_SCHEMA_VERSION, "base", bs ? bs : json_null(), "target", ts ? ts : json_null(),
                          "steps", "utilization", "breakdown", "python");
    if (!d)
        return NULL;
    diff_count ch = {0, 0};
    diff_steps(base, target, json_object_get(d, "steps"), &ch);
    diff_util(base, target, json_object_get(d, "utilization"), &ch);
    diff_breakdown(base, target, json_object_get(d, "breakdown"), &ch);
    diff_python(base, target, json_object_get(d, "python"), &ch);
    if (report_diff_gpu(base, target, d, &ch) != 0) {
        json_decref(d);
        return NULL;
    }
    json_object_set_new(d, "changed", json_integer(ch.changed));
    json_object_set_new(d, "noise_rows", json_integer(ch.noise));
    return d;
}
