/* Conformance of the critical path (model/gpu/gpu_cpath.h) with Holistic
 * Trace Analysis: every folder of ../shared/samples/kineto/ is loaded
 * through the reference loader (kineto_jansson.h) and analysed; each step
 * of ../shared/samples/kineto/critical_path.json (HTA's own figures, per
 * rank and ProfilerStep, or over a trace without steps) is checked:
 * - the path's length within 1 % (never tighter than 1 µs);
 * - each bound_by class within 1 percentage point of the path;
 * - each of HTA's top events (its shortened names) with its time on the
 *   path within 1 % (1 µs), smtop's times summed by shortened name;
 * - a step where HTA raised an error: smtop gives no path either.
 * A figure listed in `divergences` (with its reason, hta_div.h) is printed
 * with both values and must still differ. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gpu/gpu_rank.h"
#include "model/gpu/gpu_trace.h"
#include "tests/unit/hta_div.h"
#include "tests/unit/kineto_jansson.h"

#define KDIR SMTOP_SAMPLES "/kineto"
#define MAX_RANKS 8

/* Figures where smtop differs on purpose: folder, step ("" any), figure. */
static const struct {
    const char *folder, *step, *figure;
    div_id id;
} divergences[] = {
    /* HTA clips an event with args.stream out of the CPU side (critical_path_analysis.py
     * critical_path_analysis: cpu_kernels = trace_df["stream"].eq(-1)), so the
     * torch.compile cpu_op triton_poi_fused_add_cos_sin_0 (stream 0) is not on its
     * path, and its 45 us go to its parent */
    {"triton", "ProfilerStep#1", "top Torch-Compiled Region: 0/0", DIV_STREAM_CPU_OP},
};

typedef struct tally {
    int checked, failed, diverged;
    const char *folder, *step;
} tally;

static int div_of(const tally *t, const char *what)
{
    for (size_t i = 0; i < sizeof divergences / sizeof *divergences; i++)
        if (divergences[i].id != DIV_COUNT && !strcmp(divergences[i].folder, t->folder) &&
            (!divergences[i].step[0] || !strcmp(divergences[i].step, t->step)) &&
            !strcmp(divergences[i].figure, what))
            return (int)divergences[i].id;
    return -1;
}

static void check(tally *t, const char *what, double ours, double hta, double tol)
{
    int id = div_of(t, what);
    int ok = (isnan(ours) && isnan(hta)) || fabs(ours - hta) <= tol;
    t->checked++;
    if (id >= 0) {
        t->diverged++;
        printf("  DIVERGES %s %s %s: smtop %g, HTA %g: %s\n", t->folder, t->step, what, ours,
               hta, div_text[id].title);
        if (ok) {
            t->failed++;
            printf("  FAIL %s %s %s: listed as diverging but agrees\n", t->folder, t->step,
                   what);
        }
        return;
    }
    if (!ok) {
        t->failed++;
        printf("  FAIL %s %s %s: smtop %g, HTA %g (tolerance %g)\n", t->folder, t->step, what,
               ours, hta, tol);
    }
}

static double us_tol(double hta)
{
    return fmax(0.01 * fabs(hta), 1.0);
}

typedef struct folder {
    int64_t rank_id[MAX_RANKS];
    gpu_rank *rank[MAX_RANKS];
    size_t n;
} folder;

static int feed(const sm_kevent *ev, void *ctx)
{
    return gpu_trace_add(ctx, ev);
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

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_folder(folder *f, const char *name)
{
    memset(f, 0, sizeof *f);
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
        gpu_trace *t = gpu_trace_new(NULL);
        assert_non_null(t);
        kj_file kf;
        if (kj_load(&kf, path, feed, t) != 0)
            fail_msg("%s", kf.err);
        assert_int_equal(gpu_trace_end(t, &kf.meta), 0);
        assert_int_equal(gpu_rank_merge(rank_of(f, kf.meta.rank >= 0 ? kf.meta.rank : 0), t), 0);
        gpu_trace_free(t);
        kj_free(&kf);
        free(files[i]);
    }
}

/* The summary of the step named "ProfilerStep#N", or of the whole rank. */
static const gpu_summary *step_summary(const gpu_rank *r, const char *step, gpu_window *w)
{
    const gpu_summary *all = gpu_rank_summary(r);
    long long n;
    if (sscanf(step, "ProfilerStep#%lld", &n) != 1)
        return all;
    for (size_t i = 0; i < all->n_steps; i++)
        if (all->step_rows[i].step == n) {
            int64_t at = all->step_rows[i].start_us;
            assert_int_equal(gpu_rank_window(r, at, at + 1, w), 0);
            return gpu_window_summary(w);
        }
    return NULL;
}

static int bound_of(const char *name)
{
    for (int b = 0; b < GPU_BOUND_N; b++)
        if (!strcmp(gpu_bound_name(b), name))
            return b;
    return -1;
}

/* Our time on the path of events whose shortened name is want. */
static double top_us(const gpu_summary *s, const char *want)
{
    double us = 0;
    for (size_t i = 0; i < s->critical_path.n_top; i++) {
        char shortn[1024];
        const gpu_name_us *x = &s->critical_path.top[i];
        gpu_shorten_name(x->name, x->len, shortn, sizeof shortn);
        if (!strcmp(shortn, want))
            us += (double)x->us;
    }
    return us;
}

static void check_step(tally *t, const gpu_summary *s, json_t *exp)
{
    if (json_object_get(exp, "error")) {
        printf("  %s %s: HTA fails (%s); smtop: %lld paths, %lld without\n", t->folder,
               t->step, json_string_value(json_object_get(exp, "error")),
               (long long)(s ? s->critical_path.steps : -1),
               (long long)(s ? s->critical_path.failed : -1));
        check(t, "no path where HTA fails", s && s->critical_path.steps == 0, 1, 0);
        return;
    }
    check(t, "step found", s != NULL && s->critical_path.steps == 1, 1, 0);
    if (!s || s->critical_path.steps != 1)
        return;
    double path = json_number_value(json_object_get(exp, "critical_path_us"));
    check(t, "critical_path_us", (double)s->critical_path.path_us, path, us_tol(path));
    json_t *pct = json_object_get(exp, "bound_pct");
    for (int b = 0; b < GPU_BOUND_N; b++) {
        json_t *v = json_object_get(pct, gpu_bound_name(b));
        double ours = s->critical_path.path_us
                          ? 100.0 * (double)s->critical_path.bound_us[b] /
                                (double)s->critical_path.path_us
                          : 0;
        char what[96];
        snprintf(what, sizeof what, "%s pct", gpu_bound_name(b));
        check(t, what, ours, v ? json_number_value(v) : 0, 1.0);
    }
    const char *key;
    json_t *v;
    json_object_foreach(pct, key, v)
        check(t, "HTA's class known", bound_of(key) >= 0, 1, 0);
    json_object_foreach(json_object_get(exp, "top_events_us"), key, v) {
        char what[1200];
        snprintf(what, sizeof what, "top %s", key);
        check(t, what, top_us(s, key), json_number_value(v), us_tol(json_number_value(v)));
    }
    printf("  %s %s: path %lld us (HTA %.0f):", t->folder, t->step,
           (long long)s->critical_path.path_us, path);
    for (int b = 0; b < GPU_BOUND_N; b++)
        if (s->critical_path.bound_us[b])
            printf(" %s %.2f", gpu_bound_name(b),
                   100.0 * (double)s->critical_path.bound_us[b] / (double)s->critical_path.path_us);
    printf("\n");
}

static void test_cpath_conformance(void **state)
{
    (void)state;
    json_error_t je;
    json_t *cp = json_load_file(KDIR "/critical_path.json", 0, &je);
    if (!cp) {
        printf("SKIPPED: ../shared/samples not found (%s)\n", KDIR "/critical_path.json");
        skip();
    }
    tally total = {0};
    const char *name, *rank;
    json_t *ranks, *steps;
    json_object_foreach(json_object_get(cp, "traces"), name, ranks) {
        folder f;
        load_folder(&f, name);
        tally t = {.folder = name};
        json_object_foreach(ranks, rank, steps) {
            const gpu_rank *r = rank_of(&f, atoll(rank));
            for (size_t i = 0; i < json_array_size(steps); i++) {
                json_t *exp = json_array_get(steps, i);
                gpu_window *w = gpu_window_new();
                assert_non_null(w);
                t.step = json_string_value(json_object_get(exp, "step"));
                check_step(&t, step_summary(r, t.step, w), exp);
                gpu_window_free(w);
            }
        }
        printf("%-32s %3d figures, %d failed, %d documented divergences\n", name, t.checked,
               t.failed, t.diverged);
        total.checked += t.checked;
        total.failed += t.failed;
        total.diverged += t.diverged;
        for (size_t i = 0; i < f.n; i++)
            gpu_rank_free(f.rank[i]);
    }
    json_decref(cp);
    printf("all: %d critical path figures checked against HTA, %d failed, %d documented "
           "divergences\n", total.checked, total.failed, total.diverged);
    assert_true(total.checked > 100);
    assert_int_equal(total.failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpath_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
