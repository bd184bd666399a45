/* Conformance of model/gpu with Holistic Trace Analysis: every folder of
 * ../shared/samples/kineto/ is loaded through the reference loader
 * (kineto_jansson.h), analysed by gpu_trace / gpu_rank, and EVERY figure HTA
 * gives in expected.json is checked:
 * - times within 1 % of HTA's µs, and never tighter than the 1 µs HTA
 *   rounds every time to;
 * - percentages within 0.1 point, plus the rounding HTA applied when it
 *   printed them (2 decimals: 0.005; 1 decimal: 0.05; an idle ratio of 2
 *   decimals: 0.5 point);
 * - counts within 1 %.
 * Where smtop chooses differently from HTA (gpu_trace.h says why), the
 * figure is listed in `divergences` with the reason, printed with both
 * values, and must still differ: a listed divergence that no longer
 * diverges fails, so the list stays true. Traces on which HTA fails (CPU
 * only, no rank) must still give their steps and CPU ops. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "model/gpu/gpu_rank.h"
#include "model/rules/rules.h"
#include "model/gpu/gpu_trace.h"
#include "tests/unit/hta_div.h"
#include "tests/unit/kineto_jansson.h"

#define KDIR SMTOP_SAMPLES "/kineto"
#define MAX_RANKS 8

/* Figures of one folder where smtop differs on purpose; the top kernels'
 * double aggregation is recognised by its arithmetic (check_top_kernels). */
static const struct {
    const char *folder, *figure;
    div_id id;
} divergences[] = {
    {"triton", "compute_time", DIV_STREAM_CPU_OP},
    {"triton", "kernel_time", DIV_STREAM_CPU_OP},
    {"triton", "COMPUTATION us", DIV_STREAM_CPU_OP},
    {"triton", "kernel sum", DIV_STREAM_CPU_OP},
    {"triton", "kernel mean", DIV_STREAM_CPU_OP},
    {"triton", "kernel max", DIV_STREAM_CPU_OP},
    {"triton", "launch count", DIV_DRIVER_LAUNCH},
    {"triton", "short_kernels", DIV_DRIVER_LAUNCH},
    {"triton", "cpu_duration_p50", DIV_DRIVER_LAUNCH},
    {"triton", "gpu_duration_p50", DIV_DRIVER_LAUNCH},
    {"triton", "launch_delay_p50", DIV_DRIVER_LAUNCH},
    {"triton", "launch_delay_mean", DIV_DRIVER_LAUNCH},
    {"amd_mi250", "launch count", DIV_HIP_LAUNCH},
    {"amd_mi250", "short_kernels", DIV_HIP_LAUNCH},
    {"amd_mi250", "cpu_duration_p50", DIV_HIP_LAUNCH},
    {"amd_mi250", "gpu_duration_p50", DIV_HIP_LAUNCH},
    {"amd_mi250", "launch_delay_p50", DIV_HIP_LAUNCH},
    {"amd_mi250", "launch_delay_mean", DIV_HIP_LAUNCH},
    {"cp_simple_add", "idle_time", DIV_SYNC_ROWS},
    {"cp_simple_add", "kernel_time", DIV_SYNC_ROWS},
    {"cp_cuda_event_sync", "idle_time", DIV_SYNC_ROWS},
    {"cp_cuda_event_sync", "non_compute_time", DIV_SYNC_ROWS},
    {"cp_cuda_event_sync", "idle_time_pctg", DIV_SYNC_ROWS},
    {"cp_cuda_event_sync", "non_compute_time_pctg", DIV_SYNC_ROWS},
    {"cp_cuda_event_sync_multi_stream", "non_compute_time", DIV_SYNC_ROWS},
};

typedef struct folder {
    const char *name;
    int64_t rank_id[MAX_RANKS];
    gpu_rank *rank[MAX_RANKS];
    size_t n;
} folder;

typedef struct tally {
    int checked, failed, diverged;
    int by_id[DIV_COUNT];        /* figures that diverge, per reason */
    const char *folder;
} tally;

static int div_of(const tally *t, const char *what)
{
    for (size_t i = 0; i < sizeof divergences / sizeof *divergences; i++)
        if (strcmp(divergences[i].folder, t->folder) == 0 &&
            strcmp(divergences[i].figure, what) == 0)
            return (int)divergences[i].id;
    return -1;
}

static int agrees(double ours, double hta, double tol)
{
    return (isnan(ours) && isnan(hta)) || (!isnan(ours) && !isnan(hta) && fabs(ours - hta) <= tol);
}

/* A figure that differs for reason id: counted, printed, and it must
 * still differ, so the list stays true. */
static void diverge(tally *t, const char *what, double ours, double hta, double tol, div_id id)
{
    t->checked++;
    t->diverged++;
    t->by_id[id]++;
    printf("  DIVERGES %s %s: smtop %g, HTA %g: %s\n", t->folder, what, ours, hta,
           div_text[id].title);
    if (agrees(ours, hta, tol)) {
        t->failed++;
        printf("  FAIL %s %s: listed as diverging but agrees (%g)\n", t->folder, what, ours);
    }
}

/* One figure: ours against HTA's within tol (NaN matches NaN, HTA's null). */
static void check(tally *t, const char *figure, const char *what, double ours, double hta,
                  double tol)
{
    int id = div_of(t, what);
    if (id >= 0) {
        diverge(t, what, ours, hta, tol, (div_id)id);
        return;
    }
    t->checked++;
    if (!agrees(ours, hta, tol)) {
        t->failed++;
        printf("  FAIL %s %s/%s: smtop %g, HTA %g (tolerance %g)\n", t->folder, figure, what,
               ours, hta, tol);
    }
}

static double us_tol(double hta)
{
    return fmax(0.01 * fabs(hta), 1.0);
}

static void check_us(tally *t, const char *fig, const char *what, double ours, double hta)
{
    check(t, fig, what, ours, hta, us_tol(hta));
}

static void check_n(tally *t, const char *fig, const char *what, double ours, double hta)
{
    check(t, fig, what, ours, hta, 0.01 * fabs(hta));
}

static double num(json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v);
    return NAN;   /* null: HTA's NaN */
}

static int feed(const sm_kevent *ev, void *ctx)
{
    return gpu_trace_add(ctx, ev);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static gpu_rank *rank_of(folder *f, int64_t id)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->rank_id[i] == id)
            return f->rank[i];
    assert_true(f->n < MAX_RANKS);
    f->rank_id[f->n] = id;
    f->rank[f->n] = gpu_rank_new();
    assert_non_null(f->rank[f->n]);
    return f->rank[f->n++];
}

static void load_file(folder *f, const char *path)
{
    gpu_trace *t = gpu_trace_new(NULL);
    assert_non_null(t);
    kj_file kf;
    if (kj_load(&kf, path, feed, t) != 0)
        fail_msg("%s", kf.err);
    size_t reading = gpu_trace_memory_bytes(t);
    assert_int_equal(gpu_trace_end(t, &kf.meta), 0);
    printf("  %s: %lld events, %zu KiB while read, %zu KiB after its end\n",
           strrchr(path, '/') + 1, (long long)kf.meta.events, reading >> 10,
           gpu_trace_memory_bytes(t) >> 10);
    /* HTA numbers a trace without distributedInfo.rank as rank 0 */
    assert_int_equal(gpu_rank_merge(rank_of(f, kf.meta.rank >= 0 ? kf.meta.rank : 0), t), 0);
    gpu_trace_free(t);
    kj_free(&kf);
}

static void load_folder(folder *f, const char *name)
{
    memset(f, 0, sizeof *f);
    f->name = name;
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/%s", KDIR, name);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *files[16];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 16)
        if (strstr(de->d_name, ".json"))
            files[n++] = strdup(de->d_name);
    closedir(d);
    qsort(files, n, sizeof *files, by_name);
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        load_file(f, path);
        free(files[i]);
    }
}

static void free_folder(folder *f)
{
    for (size_t i = 0; i < f->n; i++)
        gpu_rank_free(f->rank[i]);
}

static const gpu_summary *sum_of(folder *f, json_t *row)
{
    return gpu_rank_summary(rank_of(f, (int64_t)json_integer_value(json_object_get(row, "rank"))));
}

static void check_steps(tally *t, folder *f, json_t *exp)
{
    int64_t ours[256];
    size_t n = 0;
    for (size_t r = 0; r < f->n; r++) {
        const gpu_summary *s = gpu_rank_summary(f->rank[r]);
        for (size_t i = 0; i < s->n_steps; i++) {
            size_t j = 0;
            while (j < n && ours[j] != s->step_rows[i].step)
                j++;
            if (j == n && n < 256)
                ours[n++] = s->step_rows[i].step;
        }
    }
    check_n(t, "steps", "profiler_steps count", (double)n, (double)json_array_size(exp));
    for (size_t i = 0; i < json_array_size(exp); i++) {
        long long want = atoll(json_string_value(json_array_get(exp, i)));
        size_t j = 0;
        while (j < n && ours[j] != want)
            j++;
        check(t, "steps", "profiler step present", j < n, 1, 0);
    }
}

/* HTA failed on this trace: smtop still shows its steps and CPU ops. */
static void check_failed(tally *t, folder *f, const char *what, json_t *err)
{
    for (size_t r = 0; r < f->n; r++) {
        const gpu_summary *s = gpu_rank_summary(f->rank[r]);
        size_t nops = 0;
        free(gpu_table_sorted(gpu_rank_ops(f->rank[r]), 1, &nops));
        printf("  %s: HTA fails (%s); smtop: no GPU rows, %lld steps, %zu CPU ops\n", what,
               json_string_value(json_object_get(err, "error")), (long long)s->steps, nops);
        check(t, what, "no GPU figures", s->has_gpu || s->n_streams, 0, 0);
        check(t, what, "steps and ops still shown", s->steps > 0 && nops > 0, 1, 0);
    }
}

static void check_temporal(tally *t, folder *f, json_t *exp)
{
    if (json_is_object(exp)) {
        check_failed(t, f, "temporal", exp);
        return;
    }
    for (size_t i = 0; i < json_array_size(exp); i++) {
        json_t *row = json_array_get(exp, i);
        const gpu_summary *s = sum_of(f, row);
        check_us(t, "temporal", "idle_time", (double)s->idle_us, num(json_object_get(row, "idle_time(us)")));
        check_us(t, "temporal", "compute_time", (double)s->compute_us, num(json_object_get(row, "compute_time(us)")));
        check_us(t, "temporal", "non_compute_time", (double)s->non_compute_us, num(json_object_get(row, "non_compute_time(us)")));
        check_us(t, "temporal", "kernel_time", (double)s->span_us, num(json_object_get(row, "kernel_time(us)")));
        check(t, "temporal", "idle_time_pctg", s->idle_pct, num(json_object_get(row, "idle_time_pctg")), 0.105);
        check(t, "temporal", "compute_time_pctg", s->compute_pct, num(json_object_get(row, "compute_time_pctg")), 0.105);
        check(t, "temporal", "non_compute_time_pctg", s->non_compute_pct, num(json_object_get(row, "non_compute_time_pctg")), 0.105);
    }
}

static int ktype_set(const char *name)
{
    for (int k = 1; k < 8; k++)
        if (strcmp(gpu_ktype_name(k), name) == 0)
            return k;
    return 0;
}

static void check_kernel_types(tally *t, folder *f, json_t *exp)
{
    int64_t us[8] = {0}, all = 0;
    for (size_t r = 0; r < f->n; r++)
        for (int k = 1; k < 8; k++)
            us[k] += gpu_rank_summary(f->rank[r])->ktype_us[k];
    for (int k = 1; k < 8; k++)
        all += us[k];
    int listed[8] = {0};
    for (size_t i = 0; i < json_array_size(exp); i++) {
        json_t *row = json_array_get(exp, i);
        int k = ktype_set(json_string_value(json_object_get(row, "kernel_type")));
        check(t, "kernel_type", "kernel type known", k > 0, 1, 0);
        listed[k] = 1;
        double pct = all ? 100.0 * (double)us[k] / (double)all : NAN;
        char what[96];
        snprintf(what, sizeof what, "%s us", gpu_ktype_name(k));
        check_us(t, "kernel_type", what, (double)us[k], num(json_object_get(row, "sum")));
        snprintf(what, sizeof what, "%s pct", gpu_ktype_name(k));
        check(t, "kernel_type", what, pct, num(json_object_get(row, "percentage")), 0.15);
    }
    for (int k = 1; k < 8; k++)
        if (us[k] > 0)
            check(t, "kernel_type", "every type smtop finds is in HTA's list", listed[k], 1, 0);
}

/* A top kernel's mean, max or min: smtop's real figure agrees, or HTA's
 * is its double aggregation (agg, worked out from smtop's table) and the
 * difference is documented; anything else fails. */
static void check_agg(tally *t, const char *what, double real, double agg, double hta)
{
    if (!agrees(real, hta, us_tol(hta)) && agrees(agg, hta, us_tol(hta)))
        diverge(t, what, real, hta, us_tol(hta), DIV_TOP_AGGREGATE);
    else
        check_us(t, "top_kernels", what, real, hta);
}

/* Whether HTA names kernel k of rank `rank` in its own rows. */
static int hta_names(json_t *exp, int64_t rank, const gpu_stat *k)
{
    for (size_t i = 0; i < json_array_size(exp); i++) {
        json_t *row = json_array_get(exp, i);
        if (json_integer_value(json_object_get(row, "rank")) != rank)
            continue;
        char *raw = kj_raw(json_object_get(row, "name"));
        int same = strcmp(raw, k->name) == 0;
        free(raw);
        if (same)
            return 1;
    }
    return 0;
}

/* HTA's "others" row of one rank and type: every kernel of the type HTA
 * does not name, its figures both real and as HTA aggregates them (over
 * the per-name sums). */
static void check_others(tally *t, folder *f, json_t *exp, json_t *row)
{
    int64_t rank = (int64_t)json_integer_value(json_object_get(row, "rank"));
    int type = ktype_set(json_string_value(json_object_get(row, "kernel_type")));
    size_t n = 0;
    const gpu_stat **all = gpu_table_sorted(gpu_rank_kernels(rank_of(f, rank)), 0, &n);
    double sum = 0, count = 0, names = 0, mx = 0, mn = INFINITY, name_mx = 0, name_mn = INFINITY;
    for (size_t i = 0; i < n; i++) {
        const gpu_stat *k = all[i];
        if (k->type != type || hta_names(exp, rank, k))
            continue;
        sum += (double)k->sum_us;
        count += (double)k->count;
        names++;
        mx = fmax(mx, (double)k->max_us);
        mn = fmin(mn, (double)k->min_us);
        name_mx = fmax(name_mx, (double)k->sum_us);
        name_mn = fmin(name_mn, (double)k->sum_us);
    }
    free(all);
    check(t, "top_kernels", "others found", names > 0, 1, 0);
    if (names == 0)
        return;
    check_us(t, "top_kernels", "others sum", sum, num(json_object_get(row, "sum (us)")));
    check_agg(t, "others mean", sum / count, sum / names, num(json_object_get(row, "mean (us)")));
    check_agg(t, "others max", mx, name_mx, num(json_object_get(row, "max (us)")));
    check_agg(t, "others min", mn, name_mn, num(json_object_get(row, "min (us)")));
}

static void check_top_kernels(tally *t, folder *f, json_t *exp)
{
    for (size_t i = 0; i < json_array_size(exp); i++) {
        json_t *row = json_array_get(exp, i);
        if (strcmp(json_string_value(json_object_get(row, "name")), "others") == 0) {
            check_others(t, f, exp, row);
            continue;
        }
        gpu_rank *r = rank_of(f, (int64_t)json_integer_value(json_object_get(row, "rank")));
        char *raw = kj_raw(json_object_get(row, "name"));
        const gpu_stat *k = gpu_table_find(gpu_rank_kernels(r), raw);
        free(raw);
        check(t, "top_kernels", "kernel found", k != NULL, 1, 0);
        if (!k)
            continue;
        const char *type = json_string_value(json_object_get(row, "kernel_type"));
        check(t, "top_kernels", "kernel type", k->type == ktype_set(type), 1, 0);
        double sum = (double)k->sum_us;
        check_us(t, "top_kernels", "kernel sum", sum, num(json_object_get(row, "sum (us)")));
        check_agg(t, "kernel mean", sum / (double)k->count, sum, num(json_object_get(row, "mean (us)")));
        check_agg(t, "kernel max", (double)k->max_us, sum, num(json_object_get(row, "max (us)")));
        check_agg(t, "kernel min", (double)k->min_us, sum, num(json_object_get(row, "min (us)")));
    }
}

static void check_overlap(tally *t, folder *f, json_t *exp)
{
    for (size_t i = 0; i < json_array_size(exp); i++) {
        json_t *row = json_array_get(exp, i);
        const gpu_summary *s = sum_of(f, row);
        check(t, "overlap", "comp_comm_overlap_pctg", s->comm_comp_overlap_pct,
              num(json_object_get(row, "comp_comm_overlap_pctg")), 0.105);
    }
}

static const gpu_stream_idle *stream_of(const gpu_summary *s, int64_t stream)
{
    for (size_t i = 0; i < s->n_streams; i++)
        if (s->streams[i].stream == stream)
            return &s->streams[i];
    return NULL;
}

static void check_idle_row(tally *t, const gpu_summary *s, json_t *row)
{
    const gpu_stream_idle *st = stream_of(s, (int64_t)json_integer_value(json_object_get(row, "stream")));
    check(t, "idle", "stream found", st != NULL, 1, 0);
    if (!st)
        return;
    const char *cat = json_string_value(json_object_get(row, "idle_category"));
    int64_t v = strcmp(cat, "host_wait") == 0 ? st->host_wait_us
              : strcmp(cat, "kernel_wait") == 0 ? st->kernel_wait_us : st->other_us;
    int64_t all = st->host_wait_us + st->kernel_wait_us + st->other_us;
    check_us(t, "idle", cat, (double)v, num(json_object_get(row, "idle_time")));
    check(t, "idle", "idle_time_ratio", all ? (double)v / (double)all : NAN,
          num(json_object_get(row, "idle_time_ratio")), 0.006);
}

static void check_idle(tally *t, folder *f, json_t *exp)
{
    if (json_is_object(exp)) {
        check_failed(t, f, "idle", exp);
        return;
    }
    for (size_t i = 0; i < json_array_size(exp); i++)
        check_idle_row(t, sum_of(f, json_array_get(exp, i)), json_array_get(exp, i));
    size_t rows = 0;   /* every stream smtop finds is in HTA's rows */
    for (size_t r = 0; r < f->n; r++)
        rows += gpu_rank_summary(f->rank[r])->n_streams;
    size_t hta_streams = 0;
    for (size_t i = 0; i < json_array_size(exp); i++)
        hta_streams += strcmp(json_string_value(json_object_get(json_array_get(exp, i),
                                                                "idle_category")), "other") == 0;
    check_n(t, "idle", "streams", (double)rows, (double)hta_streams);
}

static void check_launch(tally *t, folder *f, json_t *exp)
{
    const char *key;
    json_t *row;
    json_object_foreach(exp, key, row) {
        const gpu_summary *s = gpu_rank_summary(rank_of(f, atoll(key)));
        check_n(t, "launch", "launch count", (double)s->launch.count, num(json_object_get(row, "count")));
        check_n(t, "launch", "short_kernels", (double)s->launch.short_kernels, num(json_object_get(row, "short_kernels")));
        check_n(t, "launch", "launch_delay_over_100", (double)s->launch.delay_outliers,
                num(json_object_get(row, "launch_delay_over_100")));
        check_us(t, "launch", "cpu_duration_p50", s->launch.cpu_p50_us, num(json_object_get(row, "cpu_duration_p50")));
        check_us(t, "launch", "gpu_duration_p50", s->launch.gpu_p50_us, num(json_object_get(row, "gpu_duration_p50")));
        check_us(t, "launch", "launch_delay_p50", s->launch.delay_p50_us, num(json_object_get(row, "launch_delay_p50")));
        check_us(t, "launch", "launch_delay_mean", s->launch.delay_mean_us, num(json_object_get(row, "launch_delay_mean")));
    }
}

/* What the Kineto rules say on each rank, at their defaults (shown, not
 * checked: HTA has no such figure; test_gpu_diff_rules tests them). */
static void print_rules(const folder *f)
{
    for (size_t r = 0; r < f->n; r++)
        for (size_t i = 0; i < rules_count(); i++) {
            rule_result o;
            if (rules_eval_rank_default(i, gpu_rank_summary(f->rank[r]), &o) != 0)
                continue;
            if (o.status == RULE_TRIGGERED)
                printf("  rank %lld: %s fires: %s\n", (long long)f->rank_id[r], o.name, o.message);
        }
}

static void test_conformance(void **state)
{
    (void)state;
    json_error_t je;
    json_t *expected = json_load_file(KDIR "/expected.json", 0, &je);
    if (!expected) {
        printf("SKIPPED: ../shared/samples not found (%s)\n", KDIR "/expected.json");
        skip();
    }
    json_t *traces = json_object_get(expected, "traces"), *exp;
    const char *name;
    tally total = {0};
    json_object_foreach(traces, name, exp) {
        folder f;
        load_folder(&f, name);
        tally t = {.folder = name};
        json_t *kb = json_object_get(exp, "gpu_kernel_breakdown");
        check_steps(&t, &f, json_object_get(exp, "profiler_steps"));
        check_temporal(&t, &f, json_object_get(exp, "temporal_breakdown"));
        check_kernel_types(&t, &f, json_object_get(kb, "kernel_type"));
        check_top_kernels(&t, &f, json_object_get(kb, "top_kernels"));
        check_overlap(&t, &f, json_object_get(exp, "comm_comp_overlap"));
        check_idle(&t, &f, json_object_get(exp, "idle_time_breakdown"));
        check_launch(&t, &f, json_object_get(exp, "cuda_kernel_launch_stats"));
        printf("%-20s %3d figures, %d failed, %d documented divergences\n", name, t.checked,
               t.failed, t.diverged);
        total.checked += t.checked;
        total.failed += t.failed;
        total.diverged += t.diverged;
        for (int d = 0; d < DIV_COUNT; d++)
            total.by_id[d] += t.by_id[d];
        print_rules(&f);
        free_folder(&f);
    }
    json_decref(expected);
    printf("all: %d figures checked against HTA, %d failed, %d documented divergences\n",
           total.checked, total.failed, total.diverged);
    for (int d = 0; d < DIV_COUNT; d++)
        printf("  %-36s %3d figures\n", div_text[d].title, total.by_id[d]);
    assert_true(total.checked > 300);
    assert_int_equal(total.failed, 0);
}

/* The man page's "DIFFERENCES FROM HTA" section holds one entry per
 * reason above, each headed by its title, and no other. */
static void test_man_hta(void **state)
{
    (void)state;
    FILE *f = fopen(SMTOP_TEST_SRC "/../tui/cmd/smtop.1.scd", "r");
    assert_non_null(f);
    char line[1024];
    int in = 0, entries = 0, seen[DIV_COUNT] = {0};
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' && line[1] == ' ')
            in = strncmp(line, "# DIFFERENCES FROM HTA", 22) == 0;
        if (!in || strncmp(line, "*", 1) != 0)
            continue;
        char *w = line;   /* scdoc escapes: "\\_" is "_" */
        for (char *r = line; *r; r++)
            if (*r != '\\')
                *w++ = *r;
        *w = '\0';
        size_t len = strcspn(line, "\n");
        if (len < 2 || line[len - 1] != '*')
            continue;   /* an entry's title is a whole line in bold */
        entries++;
        for (int d = 0; d < DIV_COUNT; d++) {
            size_t n = strlen(div_text[d].title);
            if (strncmp(line + 1, div_text[d].title, n) == 0 && line[1 + n] == '*')
                seen[d]++;
        }
    }
    fclose(f);
    for (int d = 0; d < DIV_COUNT; d++)
        if (seen[d] != 1)
            fail_msg("man page: \"%s\" is listed %d times under DIFFERENCES FROM HTA",
                     div_text[d].title, seen[d]);
    assert_int_equal(entries, DIV_COUNT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_man_hta),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
