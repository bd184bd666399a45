/* Unit tests of io/synth: determinism, the file layout of SPEC §1, line
 * counts, trace files as smdebug closes them, and the job's shape
 * (initialization, straggler, outliers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/synth/synth.h"
#include "io/synth/synth_internal.h"

#define START_S 1591748100LL /* a full minute, 2020-06-10 00:15 UTC */

/* ---- helpers: temp trees, file lists ---- */

typedef struct file_list {
    char **paths; /* relative to the root, sorted */
    size_t n;
} file_list;

static file_list *walk_target;
static size_t walk_root_len;

static int walk_cb(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_F) {
        walk_target->paths = realloc(walk_target->paths,
                                     (walk_target->n + 1) * sizeof(char *));
        walk_target->paths[walk_target->n++] = strdup(p + walk_root_len + 1);
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static file_list list_files(const char *root)
{
    file_list l = {0};
    walk_target = &l;
    walk_root_len = strlen(root);
    nftw(root, walk_cb, 16, FTW_PHYS);
    qsort(l.paths, l.n, sizeof *l.paths, cmp_str);
    return l;
}

static void free_list(file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
}

static char *read_all(const char *root, const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int rm_cb(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(p);
}

static void rm_tree(const char *root)
{
    nftw(root, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_tmp(char *buf)
{
    strcpy(buf, "/tmp/smtop_synth_XXXXXX");
    assert_non_null(mkdtemp(buf));
}

static void small_opts(synth_opts *o, const char *out)
{
    synth_opts_init(o);
    o->out = out;
    o->nodes = 2;
    o->gpus = 2;
    o->cpus = 3;
    o->minutes = 3;
    o->start_us = START_S * 1000000;
}

static void run_ok(const synth_opts *o)
{
    sm_err err;
    sm_err_clear(&err);
    int rc = synth_run(o, NULL, &err);
    if (rc)
        fail_msg("synth_run: %s", err.msg);
}

#define assert_prefix(buf, lit) assert_memory_equal((buf), (lit), strlen(lit))

static int count_lines(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += s[i] == '\n';
    return c;
}

/* ---- tests ---- */

static void test_formatters(void **state)
{
    (void)state;
    char b[32];
    *synth_fmt_value(b, 1.6) = '\0';
    assert_string_equal(b, "1.6");
    *synth_fmt_value(b, 51.1) = '\0';
    assert_string_equal(b, "51.1");
    *synth_fmt_value(b, 0.0) = '\0';
    assert_string_equal(b, "0.0");
    *synth_fmt_value(b, 100.0) = '\0';
    assert_string_equal(b, "100.0");
    *synth_fmt_value(b, 1.3649) = '\0';
    assert_string_equal(b, "1.36");
    *synth_fmt_value(b, 0.05) = '\0';
    assert_string_equal(b, "0.05");
    *synth_fmt_ts(b, 15917481092321954LL) = '\0';
    assert_string_equal(b, "1591748109.2321954");
    *synth_fmt_ts(b, 15917481090000001LL) = '\0';
    assert_string_equal(b, "1591748109.0000001");
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    char a[64], b[64], c[64];
    make_tmp(a);
    make_tmp(b);
    make_tmp(c);
    synth_opts o;
    small_opts(&o, a);
    run_ok(&o);
    o.out = b;
    run_ok(&o);
    o.out = c;
    o.seed = 2;
    run_ok(&o);
    file_list la = list_files(a), lb = list_files(b), lc = list_files(c);
    assert_true(la.n > 6);
    assert_int_equal(la.n, lb.n);
    int differs_from_c = la.n != lc.n;
    for (size_t i = 0; i < la.n; i++) {
        assert_string_equal(la.paths[i], lb.paths[i]);
        size_t na, nb;
        char *da = read_all(a, la.paths[i], &na), *db = read_all(b, lb.paths[i], &nb);
        assert_int_equal(na, nb);
        assert_memory_equal(da, db, na);
        if (!differs_from_c && i < lc.n && !strncmp(la.paths[i], "system/", 7)) {
            size_t nc;
            char *dc = read_all(c, lc.paths[i], &nc);
            differs_from_c = nc != na || memcmp(da, dc, na) != 0;
            free(dc);
        }
        free(da);
        free(db);
    }
    assert_true(differs_from_c); /* the seed matters */
    free_list(&la);
    free_list(&lb);
    free_list(&lc);
    rm_tree(a);
    rm_tree(b);
    rm_tree(c);
}

/* system/incremental/<hour>/<minute>.algo-<n>.json, one per node per
 * minute, each with (60000/interval) groups of cpus+2*gpus+5 lines. */
static void check_system_files(int hour_dirs, int interval_ms)
{
    char d[64];
    make_tmp(d);
    synth_opts o;
    small_opts(&o, d);
    o.hour_dirs = hour_dirs;
    o.interval_ms = interval_ms;
    o.traces = 0;
    run_ok(&o);
    file_list l = list_files(d);
    assert_int_equal(l.n, (size_t)(o.nodes * o.minutes));
    int per_file = (60000 / interval_ms) * (o.cpus + 2 * o.gpus + 5);
    for (int m = 0; m < o.minutes; m++)
        for (int n = 0; n < o.nodes; n++) {
            char rel[128];
            if (hour_dirs)
                snprintf(rel, sizeof rel, "system/incremental/2020061000/%lld.algo-%d.json",
                         START_S + 60 * m, n + 1);
            else
                snprintf(rel, sizeof rel, "system/incremental/%lld.algo-%d.json",
                         START_S + 60 * m, n + 1);
            size_t len;
            char *buf = read_all(d, rel, &len);
            assert_int_equal(count_lines(buf, len), per_file);
            assert_int_equal(buf[len - 1], '\n');
            free(buf);
        }
    free_list(&l);
    rm_tree(d);
}

static void test_system_layout_and_counts(void **state)
{
    (void)state;
    check_system_files(1, 500);
    check_system_files(0, 1000);
    check_system_files(1, 60000);
}

/* Every line is a flat JSON object with the profiler's keys, a 7-digit
 * timestamp inside the file's minute, and values in range. */
static void test_system_lines_parse(void **state)
{
    (void)state;
    char d[64];
    make_tmp(d);
    synth_opts o;
    small_opts(&o, d);
    o.minutes = 2;
    run_ok(&o);
    size_t len;
    char *buf = read_all(d, "system/incremental/2020061000/1591748160.algo-2.json", &len);
    assert_prefix(buf, "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":");
    int lines = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        json_error_t je;
        json_t *j = json_loads(line, 0, &je);
        assert_non_null(j);
        assert_string_equal(json_string_value(json_object_get(j, "NodeId")), "algo-2");
        assert_non_null(json_string_value(json_object_get(j, "Type")));
        assert_non_null(json_string_value(json_object_get(j, "Name")));
        assert_non_null(json_string_value(json_object_get(j, "Dimension")));
        double v = json_number_value(json_object_get(j, "Value"));
        double ts = json_real_value(json_object_get(j, "Timestamp"));
        assert_true(v >= 0);
        assert_true(ts >= 1591748160.0 && ts < 1591748220.0);
        const char *dot = strrchr(line, '.');
        assert_int_equal(strlen(dot), 1 + 7 + 1); /* ".NNNNNNN}" */
        json_decref(j);
    }
    assert_int_equal(lines, 120 * (3 + 4 + 5));
    free(buf);
    rm_tree(d);
}

typedef struct trace_stats {
    int files, train, eval, train_slow3x;
    double train_sum;
    int64_t first_step_us;
} trace_stats;

/* Parses one closed trace file and checks its name against its content. */
static void check_trace_file(const char *root, const char *rel, trace_stats *st)
{
    size_t len;
    char *buf = read_all(root, rel, &len);
    assert_prefix(buf, "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, "
                       "\"args\": {\"start_time_since_epoch_in_micros\": ");
    assert_true(len > 4 && !strcmp(buf + len - 4, "}\n]\n"));
    json_error_t je;
    json_t *arr = json_loadb(buf, len, 0, &je);
    if (!arr)
        fail_msg("%s: %s line %d", rel, je.text, je.line);
    assert_true(json_is_array(arr));
    json_int_t base = json_integer_value(json_object_get(
        json_object_get(json_array_get(arr, 0), "args"), "start_time_since_epoch_in_micros"));
    const char *phase[16] = {0};
    int64_t end = 0;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) {
        int pid = (int)json_integer_value(json_object_get(e, "pid"));
        const char *ph = json_string_value(json_object_get(e, "ph"));
        json_t *args = json_object_get(e, "args");
        assert_true(pid >= 0 && pid < 16);
        if (!strcmp(ph, "M")) {
            if (json_object_get(args, "name"))
                phase[pid] = json_string_value(json_object_get(args, "name"));
            continue;
        }
        assert_string_equal(ph, "X");
        assert_non_null(phase[pid]); /* named before use */
        int64_t ts = json_integer_value(json_object_get(e, "ts")) + base;
        int64_t dur = json_integer_value(json_object_get(e, "dur"));
        if (ts + dur > end)
            end = ts + dur;
        if (strncmp(phase[pid], "Step:", 5))
            continue;
        assert_true(json_is_string(json_object_get(args, "step_num")));
        if (!st->first_step_us || ts < st->first_step_us)
            st->first_step_us = ts;
        if (!strcmp(phase[pid], "Step:ModeKeys.TRAIN")) {
            st->train++;
            st->train_sum += (double)dur;
            st->train_slow3x += dur > 300000; /* 2.5x the 120 ms mean */
        } else {
            st->eval++;
        }
    }
    char want[64];
    snprintf(want, sizeof want, "/%lld_", (long long)end);
    assert_non_null(strstr(rel, want));
    char hour[11];
    synth_fmt_hour(hour, end);
    assert_non_null(strstr(rel, hour));
    st->files++;
    json_decref(arr);
    free(buf);
}

static trace_stats node_traces(const char *root, const file_list *l, const char *node)
{
    trace_stats st = {0};
    for (size_t i = 0; i < l->n; i++)
        if (!strncmp(l->paths[i], "framework/pevents/", 18) && strstr(l->paths[i], node))
            check_trace_file(root, l->paths[i], &st);
    return st;
}

static void test_traces(void **state)
{
    (void)state;
    char d[64];
    make_tmp(d);
    synth_opts o;
    small_opts(&o, d);
    o.nodes = 3;
    o.minutes = 4;
    o.slow_node = 1;
    o.outlier_rate = 0.1;
    run_ok(&o);
    file_list l = list_files(d);
    for (size_t i = 0; i < l.n; i++)
        assert_null(strstr(l.paths[i], ".tmp")); /* batch closes everything */
    trace_stats s1 = node_traces(d, &l, "-algo-1_pythontimeline.json");
    trace_stats s2 = node_traces(d, &l, "-algo-2_pythontimeline.json");
    /* rotated every 60 s over ~3 minutes of training */
    assert_true(s1.files >= 3 && s1.files <= 5);
    assert_true(s1.train > 1000 && s1.eval >= 50);
    /* nothing during initialization: 4 min / 5 = 48 s */
    assert_true(s1.first_step_us >= (START_S + 48) * 1000000);
    double m1 = s1.train_sum / s1.train, m2 = s2.train_sum / s2.train;
    double out1 = (double)s1.train_slow3x / s1.train;
    assert_true(out1 > 0.07 && out1 < 0.13);
    /* the straggler's steps are ~30% longer (compare medians via count) */
    assert_true(s2.train < s1.train * 0.9);
    assert_true(m2 > m1 * 1.15);
    free_list(&l);
    rm_tree(d);
}

typedef struct gpu_samples {
    double t[4096], v[4096];
    int n;
} gpu_samples;

static void read_gpu_util(const char *root, const file_list *l, const char *node,
                          gpu_samples *g)
{
    for (size_t i = 0; i < l->n; i++) {
        if (strncmp(l->paths[i], "system/", 7) || !strstr(l->paths[i], node))
            continue;
        size_t len;
        char *buf = read_all(root, l->paths[i], &len);
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
            if (!strstr(line, "\"GPUUtilization\""))
                continue;
            json_t *j = json_loads(line, 0, NULL);
            assert_non_null(j);
            assert_true(g->n < 4096);
            g->t[g->n] = json_real_value(json_object_get(j, "Timestamp"));
            g->v[g->n++] = json_number_value(json_object_get(j, "Value"));
            json_decref(j);
        }
        free(buf);
    }
}

/* Eval windows [start, end] in epoch seconds, from algo-1's traces. */
static int read_eval_windows(const char *root, const file_list *l, double w[][2], int max)
{
    int n = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (strncmp(l->paths[i], "framework/pevents/", 18) || !strstr(l->paths[i], "-algo-1_"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, l->paths[i]);
        json_t *arr = json_load_file(path, 0, NULL);
        assert_non_null(arr);
        double base = (double)json_integer_value(json_object_get(
            json_object_get(json_array_get(arr, 0), "args"), "start_time_since_epoch_in_micros"));
        int eval_pid = -1;
        size_t k;
        json_t *e;
        json_array_foreach(arr, k, e) {
            json_t *args = json_object_get(e, "args");
            const char *name = json_string_value(json_object_get(args, "name"));
            if (name && !strcmp(name, "Step:ModeKeys.EVAL"))
                eval_pid = (int)json_integer_value(json_object_get(e, "pid"));
            if (json_integer_value(json_object_get(e, "pid")) != eval_pid ||
                strcmp(json_string_value(json_object_get(e, "ph")), "X"))
                continue;
            double a = (base + (double)json_integer_value(json_object_get(e, "ts"))) / 1e6;
            double b = a + (double)json_integer_value(json_object_get(e, "dur")) / 1e6;
            if (n && a - w[n - 1][1] < 1.0) {
                w[n - 1][1] = b; /* same eval phase */
            } else if (n < max) {
                w[n][0] = a;
                w[n++][1] = b;
            }
        }
        json_decref(arr);
    }
    return n;
}

/* GPU utilization follows the schedule: idle while initializing, ~90%
 * while training, dips exactly during EVAL, lower on the straggler. */
static void test_gpu_follows_schedule(void **state)
{
    (void)state;
    char d[64];
    make_tmp(d);
    synth_opts o;
    small_opts(&o, d);
    o.gpus = 1;
    o.minutes = 4; /* init 48 s, final 8 s */
    o.slow_node = 1;
    run_ok(&o);
    file_list l = list_files(d);
    static gpu_samples g1, g2;
    memset(&g1, 0, sizeof g1);
    memset(&g2, 0, sizeof g2);
    read_gpu_util(d, &l, "algo-1.json", &g1);
    read_gpu_util(d, &l, "algo-2.json", &g2);
    double w[16][2];
    int nw = read_eval_windows(d, &l, w, 16);
    assert_true(nw >= 1);
    double init = 0, train = 0, eval = 0, slow = 0;
    int ni = 0, nt = 0, ne = 0, ns = 0;
    double t0 = (double)START_S, train_end = t0 + 4 * 60 - 8;
    for (int i = 0; i < g1.n; i++) {
        double t = g1.t[i];
        int in_eval = 0;
        for (int k = 0; k < nw; k++)
            in_eval |= t >= w[k][0] && t < w[k][1];
        if (t < t0 + 30)
            init += g1.v[i], ni++;
        else if (in_eval)
            eval += g1.v[i], ne++;
        else if (t > t0 + 50 && t < train_end - 1)
            train += g1.v[i], nt++;
    }
    for (int i = 0; i < g2.n; i++)
        if (g2.t[i] > t0 + 50 && g2.t[i] < train_end - 1)
            slow += g2.v[i], ns++;
    assert_true(ni > 0 && nt > 0 && ne > 0 && ns > 0);
    assert_true(init / ni < 10);
    assert_true(train / nt > 85);
    assert_true(eval / ne < 60);
    assert_true(slow / ns < train / nt - 10);
    free_list(&l);
    rm_tree(d);
}

/* Turning traces off changes nothing in the system metrics. */
static void test_no_traces_same_system(void **state)
{
    (void)state;
    char a[64], b[64];
    make_tmp(a);
    make_tmp(b);
    synth_opts o;
    small_opts(&o, a);
    run_ok(&o);
    o.out = b;
    o.traces = 0;
    run_ok(&o);
    file_list la = list_files(a), lb = list_files(b);
    size_t sys_a = 0;
    for (size_t i = 0; i < la.n; i++)
        sys_a += !strncmp(la.paths[i], "system/", 7);
    assert_int_equal(sys_a, lb.n);
    for (size_t i = 0; i < lb.n; i++) {
        assert_int_equal(strncmp(lb.paths[i], "system/", 7), 0);
        size_t na, nb;
        char *da = read_all(a, lb.paths[i], &na), *db = read_all(b, lb.paths[i], &nb);
        assert_int_equal(na, nb);
        assert_memory_equal(da, db, na);
        free(da);
        free(db);
    }
    free_list(&la);
    free_list(&lb);
    rm_tree(a);
    rm_tree(b);
}

static void test_bad_options(void **state)
{
    (void)state;
    synth_opts o;
    sm_err err;
    small_opts(&o, "/tmp/never-written");
    o.interval_ms = 700;
    assert_int_equal(synth_run(&o, NULL, &err), -1);
    assert_int_equal(err.code, SM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--interval-ms"));
    small_opts(&o, "/tmp/never-written");
    o.slow_node = 2;
    assert_int_equal(synth_opts_check(&o, &err), -1);
    small_opts(&o, NULL);
    assert_int_equal(synth_opts_check(&o, &err), -1);
    small_opts(&o, "/tmp/never-written");
    o.minutes = 0;
    assert_int_equal(synth_opts_check(&o, &err), -1);
    o.live = 1; /* live may start from nothing */
    assert_int_equal(synth_opts_check(&o, &err), 0);
    /* an output path blocked by a file is an I/O error naming the path */
    small_opts(&o, "/dev/null/x");
    assert_int_equal(synth_run(&o, NULL, &err), -1);
    assert_int_equal(err.code, SM_ERR_IO);
    assert_non_null(strstr(err.msg, "/dev/null"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formatters),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_system_layout_and_counts),
        cmocka_unit_test(test_system_lines_parse),
        cmocka_unit_test(test_traces),
        cmocka_unit_test(test_gpu_follows_schedule),
        cmocka_unit_test(test_no_traces_same_system),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
