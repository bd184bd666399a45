/* Unit tests for diff mode's pieces: the Diff pane joins the panes only
 * with a baseline (panes_select), the change marks it shares with
 * `smtop diff` (report_diff_mark), the pane drawing a slowdown within
 * bounds at wide and 80x24 sizes, the alerts pane taking start-up
 * rule options (pane_alerts_configure), and one diff (report_diff_build)
 * behind the pane and the command: the noise floor, each job's own node
 * and rank, kernels matched and kept by whole name, the same counts. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>
#include <jansson.h>

#include "tui/panes/pane_ext.h"
#include "tui/panes/pane_alerts.h"
#include "tui/panes/pane_diff.h"
#include "tui/report/report_diff.h"
#include "tui/report/report_rules.h"
#include "tui/theme/theme.h"
#include "tui/panes/view.h"

static void test_select_only_with_baseline(void **state)
{
    (void)state;
    const pane_vtbl *out[16];
    size_t n = panes_select(0, out, 16);
    assert_int_equal(n, panes_count());
    for (size_t i = 0; i < n; i++)
        assert_ptr_not_equal(out[i], &pane_diff_vtbl);
    size_t m = panes_select(1, out, 16);
    assert_int_equal(m, panes_count() + 1);
    assert_ptr_equal(out[m - 1], &pane_diff_vtbl);   /* appended: numbers keep */
    assert_ptr_equal(out[0], panes_at(0));
    assert_int_equal(panes_select(1, out, 2), 2);     /* cap respected */
}

static json_t *row(double b, double t)
{
    json_t *r = json_pack("{s:s, s:s, s:s, s:f, s:f}", "node", "algo-1", "phase",
                          "Step:ModeKeys.TRAIN", "stat", "p50_us", "base_us", b, "target_us", t);
    json_object_set_new(r, "change_pct", b != 0 ? json_real((t - b) / b * 100) : json_null());
    return r;
}

static void test_marks(void **state)
{
    (void)state;
    char m[48];
    json_t *r = row(100, 150);
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), 1);
    assert_string_equal(m, "+50.0 % \u25b2");
    assert_int_equal(report_diff_mark(r, m, sizeof m, 0), 1);
    assert_string_equal(m, "+50.0 % +");
    json_decref(r);
    r = row(200, 150);
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), -1);
    assert_string_equal(m, "-25.0 % \u25bc");
    json_decref(r);
    r = row(100000, 100001);   /* 0.001 %: below the text diff's epsilon */
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), 0);
    assert_string_equal(m, "=");
    json_decref(r);
    r = row(0, 5);
    assert_int_equal(report_diff_mark(r, m, sizeof m, 1), 0);
    assert_string_equal(m, "(no baseline)");
    json_decref(r);
}

/* Draws the pane with `diff` in an h×w window framed by sentinels; the
 * text of the window goes to text. */
static void draw(const json_t *diff, int h, int w, wchar_t text[][256])
{
    theme *th = theme_default();
    theme_apply(th, THEME_MONO);
    view_state v;
    view_init(&v, GLYPHS_BRAILLE);
    dash_ext ext = {.diff = diff, .diff_gen = 1};
    pane_ctx c = {.view = &v, .th = th, .ext = &ext};
    pane *p = pane_diff_vtbl.create();
    WINDOW *outer = newwin(h + 2, w + 2, 0, 0);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            mvwaddch(outer, y, x, 'Z');
    WINDOW *inner = derwin(outer, h, w, 1, 1);
    pane_diff_vtbl.draw(p, inner, &c);
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++)
            if (!(y >= 1 && y <= h && x >= 1 && x <= w) &&
                (mvwinch(outer, y, x) & A_CHARTEXT) != 'Z')
                fail_msg("diff pane %dx%d wrote outside at (%d,%d)", w, h, y, x);
    for (int y = 0; y < h; y++) {
        text[y][0] = L'\0';
        mvwinnwstr(inner, y, 0, text[y], 255);
    }
    delwin(inner);
    delwin(outer);
    pane_diff_vtbl.destroy(p);
    theme_free(th);
}

static int find(wchar_t text[][256], int h, const wchar_t *needle)
{
    for (int y = 0; y < h; y++)
        if (wcsstr(text[y], needle))
            return y;
    return -1;
}

static void test_draw_slowdown(void **state)
{
    (void)state;
    json_t *d = json_pack("{s:s, s:s, s:[], s:[], s:[], s:[], s:i}", "base", "/b",
                          "target", "/t", "steps", "utilization", "breakdown", "python",
                          "changed", 1);
    json_array_append_new(json_object_get(d, "steps"), row(120000, 180000));
    wchar_t text[30][256];
    draw(d, 30, 120, text);
    assert_true(find(text, 30, L"1 changed, 0 under the noise floor, vs baseline /b") == 0);
    int y = find(text, 30, L"algo-1 TRAIN p50");
    assert_true(y > 0);
    assert_non_null(wcsstr(text[y], L"120.0 ms \u2192 180.0 ms"));
    assert_non_null(wcsstr(text[y], L"+50.0 % \u25b2"));
    draw(d, 3, 38, text);   /* the 80x24 grid: current value and mark only */
    y = find(text, 3, L"algo-1 TRAIN p50");
    assert_true(y > 0);
    assert_non_null(wcsstr(text[y], L"180.0 ms +50.0 % \u25b2"));
    for (int h = 1; h < 6; h++)
        for (int w = 1; w < 50; w += 7)
            draw(d, h, w, text);
    draw(NULL, 3, 38, text);   /* before the first build */
    assert_true(find(text, 3, L"reading the current job") == 0);
    json_decref(d);
}

/* Two kernel names that agree on their first 70 characters: a cut at 60
 * made them one kernel, both slower and faster (issue 33). */
#define LONG_K "void at::native::vectorized_elementwise_kernel<4, at::native::Fill"

/* A side of a diff: a one-node job (its node named `node`) with one
 * PyTorch profiler rank 3. The figures are given per side; see below. */
static json_t *side(const char *node, const double *v)
{
    json_t *o = json_pack(
        "{s:s, s:[{s:s, s:s, s:f, s:f, s:f, s:f}, {s:s, s:s, s:f, s:f, s:f, s:f},"
        " {s:s, s:s, s:f, s:f, s:f, s:f}],"
        " s:[{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:[{s:s, s:f}, {s:s, s:f}]}],"
        " s:[{s:s, s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:{}}],"
        " s:[{s:s, s:i, s:i, s:i}, {s:s, s:i, s:i, s:i}]}",
        "source", v[0] == 100000 ? "/b" : "/t",
        "steps", "node", node, "phase", "Step:ModeKeys.TRAIN", "p50_us", v[0], "p95_us", v[0],
        "p99_us", v[0], "mean_us", v[0],
        "node", node, "phase", "forward", "p50_us", 0.0, "p95_us", 0.0, "p99_us", 0.0,
        "mean_us", 0.0,
        "node", node, "phase", "cpu_op", "p50_us", v[1], "p95_us", v[1] * 1.5, "p99_us", v[2],
        "mean_us", v[1],
        "gpu", "process", "rank 3", "node", node, "rank", 3, "idle_pct", v[3], "compute_pct",
        v[4], "non_compute_pct", 10.0, "comm_comp_overlap_pct", 5.0, "kernel_types",
        "type", "COMPUTATION", "pct", v[5], "type", "MEMORY", "pct", 100 - v[5],
        "rank_steps", "node", node, "process", "rank 3", "rank", 3, "steps", 4, "compute_us",
        v[6], "comm_us", 0.0, "memory_us", 1000.0, "idle_us", v[7], "critical_path",
        "kernel_table", "name", LONG_K "<float>_a", "type", 1, "count", 10, "sum_us",
        (int)v[8], "name", LONG_K "<float>_b", "type", 1, "count", 10, "sum_us", (int)v[9]);
    assert_non_null(o);
    return o;
}

/* The pane and `smtop diff` read one diff: rows under the noise floor
 * (0 -> 0, under 0.1 ms or 0.1 points, under 1 %) are left out and
 * counted, an unchanged figure stays ("="), each side keeps its node
 * and rank names, kernels keep their whole names, and the pane's head
 * counts what the command's closing line counts. */
static void test_one_diff_pane_and_command(void **state)
{
    (void)state;
    /*                   TRAIN   cpu_op p99   idle compute ktype gpu_comp gpu_idle ka    kb */
    const double vb[] = {100000, 40, 20000, 10, 80,    90,   50000,   5000,    1000, 1000};
    const double vt[] = {150000, 31, 20150, 20, 80.05, 70,   70000,   5050,    2000, 500};
    json_t *b = side("algo-1", vb), *t = side("algo-7", vt);
    json_t *d = report_diff_build(b, t);
    assert_non_null(d);
    /* kept and changed: TRAIN x4, idle, COMPUTATION, MEMORY, the step's
     * compute, kernels _a (slower) and _b (faster) */
    assert_int_equal(json_integer_value(json_object_get(d, "changed")), 10);
    /* left out: forward x4 (0 -> 0), cpu_op x4 (9 µs, 15 µs, 150 µs = 0.75 %, 9 µs),
     * compute +0.05 points, 5 kernel types 0 -> 0, comm 0 -> 0, idle +50 µs */
    assert_int_equal(json_integer_value(json_object_get(d, "noise_rows")), 16);
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(d, "steps"), i, r) {
        assert_string_equal(json_string_value(json_object_get(r, "phase")),
                            "Step:ModeKeys.TRAIN");
        assert_string_equal(json_string_value(json_object_get(r, "node")), "algo-1");
        assert_string_equal(json_string_value(json_object_get(r, "target_node")), "algo-7");
    }
    assert_int_equal(json_array_size(json_object_get(d, "steps")), 4);
    assert_int_equal(json_array_size(json_object_get(d, "gpu")), 3);   /* = rows stay */
    assert_int_equal(json_array_size(json_object_get(d, "gpu_kernel_types")), 2);
    assert_int_equal(json_array_size(json_object_get(d, "gpu_steps")), 2);
    const json_t *g = json_array_get(json_object_get(d, "gpu"), 0);
    assert_string_equal(json_string_value(json_object_get(g, "target_node")), "algo-7");
    const json_t *k = json_object_get(d, "kernels");
    assert_int_equal(json_array_size(k), 2);
    int slower = 0, faster = 0;
    json_array_foreach(k, i, r) {
        const char *nm = json_string_value(json_object_get(r, "name"));
        const char *kind = json_string_value(json_object_get(r, "kind"));
        slower += !strcmp(nm, LONG_K "<float>_a") && !strcmp(kind, "slower");
        faster += !strcmp(nm, LONG_K "<float>_b") && !strcmp(kind, "faster");
    }
    assert_true(slower == 1 && faster == 1);

    wchar_t text[60][256];
    draw(d, 60, 200, text);
    assert_true(find(text, 60, L"10 changed, 16 under the noise floor, vs baseline /b") == 0);
    assert_true(find(text, 60, L"rank 3 (algo-1) -> rank 3 (algo-7) idle") > 0);
    assert_true(find(text, 60, L"forward") < 0 && find(text, 60, L"cpu_op") < 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    report_diff_print_text(d, f, 1, 0);
    fclose(f);
    assert_non_null(strstr(buf, "\n10 values changed; 16 under the noise floor left out"));
    assert_non_null(strstr(buf, "algo-1 -> algo-7"));
    assert_non_null(strstr(buf, LONG_K "<float>_a\n"));
    assert_non_null(strstr(buf, LONG_K "<float>_b\n"));
    assert_null(strstr(buf, "cpu_op"));
    assert_null(strstr(buf, "forward"));
    free(buf);
    json_decref(d);
    json_decref(b);
    json_decref(t);
}

/* A one-node job: a TRAIN step, GPU utilization, a step breakdown. */
static json_t *one_node(const char *node, double step_us, double gpu, double data_us)
{
    json_t *o = json_pack(
        "{s:s, s:[{s:s, s:s, s:f, s:f, s:f, s:f}],"
        " s:[{s:s, s:[{s:s, s:s, s:s, s:s, s:f}]}],"
        " s:[{s:s, s:i, s:f, s:f, s:f, s:f, s:f}]}",
        "source", node, "steps", "node", node, "phase", "Step:ModeKeys.TRAIN", "p50_us", step_us,
        "p95_us", step_us, "p99_us", step_us, "mean_us", step_us,
        "nodes", "id", node, "metrics", "type", "gpu", "dimension", "GPUUtilization", "name",
        "gpu0", "unit", "pct", "mean_pct", gpu,
        "step_breakdown", "node", node, "steps", 10, "data_us", data_us, "forward_us", 40000.0,
        "backward_us", 60000.0, "comm_us", 0.0, "other_us", 5000.0);
    assert_non_null(o);
    return o;
}

/* Two one-node jobs pair their nodes whatever they are called, in the
 * utilization and breakdown rows as in the step rows (issue 33: algo-1
 * against a CloudWatch host had step rows only), each row naming the
 * target's node; the pane counts what the command counts. */
static void test_one_node_jobs_pair(void **state)
{
    (void)state;
    json_t *b = one_node("algo-1", 100000, 50, 10000), *t = one_node("i-0abc", 120000, 80, 10000);
    json_t *d = report_diff_build(b, t);
    assert_non_null(d);
    const json_t *u = json_object_get(d, "utilization"), *k = json_object_get(d, "breakdown");
    assert_int_equal(json_array_size(u), 1);
    assert_int_equal(json_array_size(k), 4);   /* data, forward, backward, other: =; comm: 0 -> 0 */
    const json_t *rows[] = {json_array_get(u, 0), json_array_get(k, 0),
                            json_array_get(json_object_get(d, "steps"), 0)};
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(json_string_value(json_object_get(rows[i], "node")), "algo-1");
        assert_string_equal(json_string_value(json_object_get(rows[i], "target_node")), "i-0abc");
    }
    assert_string_equal(json_string_value(json_object_get(rows[0], "metric")), "gpu_util");
    /* TRAIN x4 and gpu_util changed */
    assert_int_equal(json_integer_value(json_object_get(d, "changed")), 5);
    wchar_t text[40][256];
    draw(d, 40, 200, text);
    assert_true(find(text, 40, L"5 changed, ") == 0);
    assert_true(find(text, 40, L"algo-1->i-0abc gpu_util") > 0);
    json_decref(d);
    /* the same name on both sides: no target_node, as before */
    json_decref(t);
    t = one_node("algo-1", 120000, 80, 10000);
    d = report_diff_build(b, t);
    assert_non_null(d);
    assert_null(json_object_get(json_array_get(json_object_get(d, "utilization"), 0),
                                "target_node"));
    assert_int_equal(json_integer_value(json_object_get(d, "changed")), 5);
    json_decref(d);
    json_decref(b);
    json_decref(t);
}

/* A job of the given nodes, each as one_node makes it, listed in the
 * order given (the diff sorts them itself). */
static json_t *nodes_job(const char *const *names, size_t n, double gpu)
{
    json_t *job = one_node(names[0], 100000, gpu, 10000);
    static const char *const arr[] = {"steps", "nodes", "step_breakdown"};
    for (size_t i = 1; i < n; i++) {
        json_t *o = one_node(names[i], 100000, gpu, 10000);
        for (size_t a = 0; a < 3; a++)
            assert_int_equal(json_array_extend(json_object_get(job, arr[a]),
                                               json_object_get(o, arr[a])), 0);
        json_decref(o);
    }
    return job;
}

/* The target's node named by each utilization row, in row order. */
static void assert_util_targets(const json_t *d, const char *const *node, const char *const *tn,
                                size_t n)
{
    const json_t *u = json_object_get(d, "utilization");
    assert_int_equal(json_array_size(u), n);
    for (size_t i = 0; i < n; i++) {
        const json_t *r = json_array_get(u, i);
        assert_string_equal(json_string_value(json_object_get(r, "node")), node[i]);
        const char *got = json_string_value(json_object_get(r, "target_node"));
        if (tn[i])
            assert_string_equal(got, tn[i]);
        else
            assert_null(got);
    }
}

/* Two jobs of several nodes that share no node name and have as many
 * pair them in natural order (issue 33: they were left unpaired); jobs
 * that share some names pair those names only. */
static void test_nodes_pair_in_order(void **state)
{
    (void)state;
    static const char *const base[] = {"algo-10", "algo-2"}, *const other[] = {"i-0b", "i-0a"};
    json_t *b = nodes_job(base, 2, 50), *t = nodes_job(other, 2, 80);
    json_t *d = report_diff_build(b, t);
    assert_non_null(d);
    static const char *const bn[] = {"algo-10", "algo-2"}, *const tn[] = {"i-0b", "i-0a"};
    assert_util_targets(d, bn, tn, 2);   /* algo-2 meets i-0a, algo-10 i-0b */
    const json_t *s0 = json_array_get(json_object_get(d, "steps"), 0);
    assert_string_equal(json_string_value(json_object_get(s0, "target_node")), "i-0b");
    json_decref(d);
    json_decref(t);
    static const char *const part[] = {"algo-2", "algo-3"}, *const bn2[] = {"algo-2"};
    static const char *const tn2[] = {NULL};
    t = nodes_job(part, 2, 80);   /* algo-2 shared: algo-10 does not meet algo-3 */
    d = report_diff_build(b, t);
    assert_non_null(d);
    assert_util_targets(d, bn2, tn2, 1);
    json_decref(d);
    json_decref(t);
    static const char *const three[] = {"i-0a", "i-0b", "i-0c"};
    t = nodes_job(three, 3, 80);   /* 2 against 3: nothing pairs */
    d = report_diff_build(b, t);
    assert_non_null(d);
    assert_util_targets(d, bn2, tn2, 0);
    json_decref(d);
    json_decref(t);
    json_decref(b);
}

/* g is the graph-symbols key everywhere: the Diff pane goes back to its
 * top with Home (issue 14: the top was unreachable while g was shared),
 * and its key table says so. */
static void test_top_is_home_not_g(void **state)
{
    (void)state;
    pane *p = pane_diff_vtbl.create();
    pane_ctx c = {0};
    assert_int_equal(pane_diff_vtbl.on_key(p, 'g', &c), 0);
    assert_int_equal(pane_diff_vtbl.on_key(p, KEY_HOME, &c), 1);
    int home = 0;
    for (const pane_key *k = pane_diff_vtbl.keys; k && k->keys; k++) {
        home |= strstr(k->keys, "Home") != NULL;
        assert_null(strchr(k->keys, 'g'));
    }
    assert_true(home);
    pane_diff_vtbl.destroy(p);
}

static void test_alerts_configure(void **state)
{
    (void)state;
    pane *p = pane_alerts_vtbl.create();
    report_rules_opts o = {.no_config = 1, .n_overrides = 1};
    o.overrides[0] = "StepOutlier.stddev=4";
    sm_err err = {0};
    assert_int_equal(pane_alerts_configure(p, &o, &err), 0);
    o.overrides[0] = "StepOutlier.nope=4";
    assert_int_equal(pane_alerts_configure(p, &o, &err), -1);
    assert_int_equal(err.code, SM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "nope"));
    pane_alerts_vtbl.destroy(p);
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    setenv("XDG_CONFIG_HOME", "/nonexistent-smtop-test", 1);
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    if (!scr)
        scr = newterm("vt100", out, in);
    if (!scr)
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_only_with_baseline),
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_draw_slowdown),
        cmocka_unit_test(test_one_diff_pane_and_command),
        cmocka_unit_test(test_one_node_jobs_pair),
        cmocka_unit_test(test_nodes_pair_in_order),
        cmocka_unit_test(test_top_is_home_not_g),
        cmocka_unit_test(test_alerts_configure),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    return rc;
}
