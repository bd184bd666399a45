/* report_stream: `report --json` written part by part must be the very
 * bytes json_dumpf writes for the whole tree (issue 15: the per-node
 * arrays never exist whole, the output does not change), on trees made to
 * exercise the layout, on synthetic jobs (several nodes, two writers per
 * node, a node with no metrics, a node with no steps, SageMaker rule
 * output) and on the real samples, also with parts built on several
 * threads; and a failed write or part is an error with a message,
 * whatever was already written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpdir.h"
#include "io/synth/synth.h"
#include "tui/report/report.h"
#include "tui/report/report_python.h"
#include "tui/report/report_rules.h"
#include "tui/report/report_stream.h"

/* Part i of the layout trees: sizes[i] elements of every kind jansson
 * formats (escapes, non-ASCII, reals, nesting, empty containers). */
static int sample_part(const void *ctx, size_t i, json_t *arr)
{
    const int *sizes = ctx;
    for (int k = 0; k < sizes[i]; k++) {
        json_t *e;
        switch ((i + (size_t)k) % 4) {
        case 0:
            e = json_pack("{s:s, s:f, s:I, s:n, s:b}", "s\"q", "tab\tnl\n/\xc3\xa9\xe2\x98\x83",
                          "r", 0.1 + (double)k, "i", (json_int_t)-7, "n", "t", 1);
            break;
        case 1:
            e = json_pack("[f, [], {}, [i, {s:[s]}]]", 1e300, k, "deep", "x");
            break;
        case 2:
            e = json_string("plain \x01 control");
            break;
        default:
            e = json_real(-2.5e-17);
        }
        if (json_array_append_new(arr, e) != 0)
            return -1;
    }
    return 0;
}

static const int SIZES[] = {2, 0, 1, 3, 0};
static const int NONE[] = {0, 0, 0};

/* A report-like tree: placeholders at the top, inside an array of
 * objects (as the rules' details), one with no elements at all, one with
 * no parts, followed by ordinary members. */
static json_t *layout_tree(report_stream *st)
{
    json_t *details = json_pack("{s:s, s:o, s:{}, s:[], s:s}", "message", "m\xc3\xa9",
                                "nodes", report_stream_array(st, 5, sample_part, SIZES, NULL),
                                "empty_o", "empty_a", "after", "tail");
    json_t *rules = json_pack("[{s:s, s:o, s:{s:i}}, s, {s:o}]", "name", "r1",
                              "details", details, "sagemaker", "x", 1, "str",
                              "inner", report_stream_array(st, 2, sample_part, SIZES + 2, NULL));
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:{}, s:[], s:{s:s}, s:o}",
                     "version", 3,
                     "nodes", report_stream_array(st, 5, sample_part, SIZES, NULL),
                     "rules", rules,
                     "empty_parts", report_stream_array(st, 3, sample_part, NONE, NULL),
                     "no_parts", report_stream_array(st, 0, sample_part, NONE, NULL),
                     "o", "a", "k\xe2\x98\x83", "z\xe2\x98\x83", "v",
                     "last", report_stream_array(st, 2, sample_part, SIZES + 2, NULL));
}

/* report_stream_dump into memory: the bytes, NUL-terminated (caller frees). */
static char *stream_dump(const json_t *obj, const report_stream *st, size_t flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    sm_err err = {0};
    int rc = report_stream_dump(obj, st, f, flags, &err);
    if (rc != 0)
        fail_msg("report_stream_dump: %s", err.msg);
    fclose(f);
    return buf;
}

static void assert_same_bytes(const char *whole, const char *streamed)
{
    size_t k = 0;
    while (whole[k] && whole[k] == streamed[k])
        k++;
    if (whole[k] || streamed[k])
        fail_msg("streamed output differs at byte %zu: whole \"%.40s\", streamed \"%.40s\"", k,
                 whole + k, streamed + k);
}

static void test_layout_matches_jansson(void **state)
{
    (void)state;
    const size_t flags[] = {REPORT_JSON_FLAGS, JSON_INDENT(3) | JSON_ENSURE_ASCII, 0,
                            JSON_COMPACT, JSON_INDENT(2) | JSON_COMPACT | JSON_ESCAPE_SLASH,
                            JSON_INDENT(31) | JSON_REAL_PRECISION(5)};
    for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
        json_t *whole = layout_tree(NULL);
        report_stream *st = report_stream_new();
        json_t *streamed = layout_tree(st);
        assert_non_null(whole);
        assert_non_null(streamed);
        char *a = json_dumps(whole, flags[f]);
        char *b = stream_dump(streamed, st, flags[f]);
        assert_non_null(strstr(a, "deep"));    /* the parts are in the tree */
        assert_same_bytes(a, b);
        /* The placeholders stay empty in the tree: the parts were never kept. */
        assert_int_equal(json_array_size(json_object_get(streamed, "nodes")), 0);
        free(a);
        free(b);
        json_decref(whole);
        json_decref(streamed);
        report_stream_free(st);
    }
}

static int failing_part(const void *ctx, size_t i, json_t *arr)
{
    (void)ctx;
    return i < 2 ? json_array_append_new(arr, json_integer((json_int_t)i)) : -1;
}

static void test_part_failure_is_an_error(void **state)
{
    (void)state;
    report_stream *st = report_stream_new();
    json_t *obj = json_pack("{s:o}", "nodes", report_stream_array(st, 4, failing_part, NULL, NULL));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sm_err err = {0};
    assert_int_equal(report_stream_dump(obj, st, f, REPORT_JSON_FLAGS, &err), -1);
    assert_int_equal(err.code, SM_ERR_NOMEM);
    assert_non_null(strstr(err.msg, "out of memory"));
    fclose(f);
    assert_non_null(strstr(buf, "1"));   /* what was built before is written */
    free(buf);
    json_decref(obj);
    report_stream_free(st);
    /* Without a stream the same failure is a NULL array, not a short one. */
    assert_null(report_stream_array(NULL, 4, failing_part, NULL, NULL));
}

/* Many parts of 0-3 elements each, more than the threads build ahead. */
static int many_part(const void *ctx, size_t i, json_t *arr)
{
    (void)ctx;
    static const int sizes[] = {1, 0, 3, 2, 1, 0, 0, 2};
    return sample_part((const int[]){sizes[i % 8]}, 0, arr) != 0 ? -1
         : i % 5 == 0 ? json_array_append_new(arr, json_integer((json_int_t)i)) : 0;
}

static json_t *par_tree(report_stream *st)
{
    json_t *(*arr)(report_stream *, size_t, report_part_fn, const void *, void *) =
        st ? report_stream_array_par : report_stream_array;
    return json_pack("{s:o, s:o, s:{s:o}, s:o, s:s}",
                     "nodes", arr(st, 203, many_part, NULL, NULL),
                     "one", arr(st, 1, many_part, NULL, NULL),
                     "in", "steps", arr(st, 40, many_part, NULL, NULL),
                     "none", arr(st, 0, many_part, NULL, NULL), "after", "tail");
}

/* Parts built on several threads (report_stream_array_par) are the very
 * bytes of the whole tree, whatever the thread count and layout. */
static void test_parallel_parts_match(void **state)
{
    (void)state;
    const size_t flags[] = {REPORT_JSON_FLAGS, 0, JSON_COMPACT, JSON_INDENT(3)};
    const size_t threads[] = {0, 1, 2, 3, 8, 40};
    json_t *whole = par_tree(NULL);
    assert_non_null(whole);
    for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
        char *a = json_dumps(whole, flags[f]);
        for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
            report_stream *st = report_stream_new();
            json_t *obj = par_tree(st);
            report_stream_set_threads(st, threads[t]);
            char *b = stream_dump(obj, st, flags[f]);
            assert_same_bytes(a, b);
            free(b);
            json_decref(obj);
            report_stream_free(st);
        }
        free(a);
    }
    json_decref(whole);
}

/* A part that fails on a helper thread: the dump is -1 (out of memory),
 * the parts before it written, and every thread stopped. */
static void test_parallel_part_failure(void **state)
{
    (void)state;
    for (size_t t = 2; t <= 4; t++) {
        report_stream *st = report_stream_new();
        json_t *obj = json_pack("{s:o}", "nodes",
                                report_stream_array_par(st, 30, failing_part, NULL, NULL));
        report_stream_set_threads(st, t);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        sm_err err = {0};
        assert_int_equal(report_stream_dump(obj, st, f, REPORT_JSON_FLAGS, &err), -1);
        assert_int_equal(err.code, SM_ERR_NOMEM);
        fclose(f);
        assert_non_null(strstr(buf, "1"));
        free(buf);
        json_decref(obj);
        report_stream_free(st);
    }
}

/* A write that fails (a full disk, a reader gone) is -1 with the system's
 * reason, never a crash. */
static void assert_write_fails(FILE *f, const char *reason)
{
    report_stream *st = report_stream_new();
    json_t *obj = layout_tree(st);
    sm_err err = {0};
    assert_int_equal(report_stream_dump(obj, st, f, REPORT_JSON_FLAGS, &err), -1);
    assert_int_equal(err.code, SM_ERR_IO);
    if (!strstr(err.msg, reason))
        fail_msg("expected '%s' in '%s'", reason, err.msg);
    json_decref(obj);
    report_stream_free(st);
}

static void test_write_errors(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        assert_write_fails(full, "No space left on device");
        fclose(full);
    }
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    close(fd[0]);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *w = fdopen(fd[1], "w");
    assert_non_null(w);
    assert_write_fails(w, "Broken pipe");
    fclose(w);
    signal(SIGPIPE, old);
}

/* The report as `smtop report --json` composes it: the model's sections,
 * the Python top-N and the rules, with or without a stream. */
static json_t *full_report(job *j, const char *spec, report_stream *st)
{
    sm_err err = {0};
    json_t *obj = report_build(j, st);
    assert_non_null(obj);
    report_python_opts py;
    report_python_opts_init(&py);
    pthread_mutex_lock(job_lock(j));
    int rc = report_python_add(obj, job_pystats(j), &py, &err);
    pthread_mutex_unlock(job_lock(j));
    assert_int_equal(rc, 0);
    report_rules_opts ro = {.no_config = 1};
    source_opts so;
    source_opts_init(&so);
    if (report_rules_run(obj, j, spec, &so, &ro, st, &err) < 0)
        fail_msg("report_rules_run: %s", err.msg);
    return obj;
}

/* The streamed report of spec is byte-identical to the whole tree's dump;
 * returns that dump, parsed, for the caller's checks. */
static json_t *assert_report_streams_whole(const char *spec)
{
    sm_err err = {0};
    job *j = job_open(spec, NULL, NULL, &err);
    if (!j || job_scan(j, &err) != 0)
        fail_msg("job %s: %s", spec, err.msg);
    job_finish(j);
    json_t *whole = full_report(j, spec, NULL);
    char *a = json_dumps(whole, REPORT_JSON_FLAGS);
    json_decref(whole);
    report_stream *st = report_stream_new();
    json_t *streamed = full_report(j, spec, st);
    pthread_mutex_lock(job_lock(j));
    char *b = stream_dump(streamed, st, REPORT_JSON_FLAGS);
    pthread_mutex_unlock(job_lock(j));
    assert_same_bytes(a, b);
    json_decref(streamed);
    report_stream_free(st);
    job_close(j);
    json_t *parsed = json_loads(b, 0, NULL);
    assert_non_null(parsed);
    free(a);
    free(b);
    return parsed;
}

static void remove_matching(const char *dir, const char *pattern)
{
    char pat[1200];
    snprintf(pat, sizeof pat, "%s/%s", dir, pattern);
    glob_t g;
    assert_int_equal(glob(pat, 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++)
        assert_int_equal(unlink(g.gl_pathv[i]), 0);
    globfree(&g);
}

/* SageMaker's verdict for a rule whose details hold a streamed array, so
 * a member follows a placeholder inside a rule; and one broken file. */
static void write_rule_output(const char *root)
{
    char path[1200];
    snprintf(path, sizeof path, "mkdir -p '%s/rule-output/ProfilerReport-1/profiler-output/"
             "profiler-reports'", root);
    assert_int_equal(system(path), 0);
    const char *files[][2] = {
        {"OverallSystemUsage", "{\"RuleTriggered\": 0, \"Violations\": 0, \"Datapoints\": 9, "
                               "\"RuleParameters\": \"threshold:70\", \"Details\": {\"algo-1\": "
                               "{\"cpu\": {\"p50\": 12.5}}}}"},
        {"Broken", "{\"RuleTriggered\": "}};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/rule-output/ProfilerReport-1/profiler-output/"
                 "profiler-reports/%s.json", root, files[i][0]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(files[i][1], f);
        fclose(f);
    }
}

static size_t count_rows_of(const json_t *steps, const char *node, int with_process)
{
    size_t n = 0, i;
    json_t *row;
    json_array_foreach(steps, i, row)
        if (!strcmp(json_string_value(json_object_get(row, "node")), node) &&
            json_is_string(json_object_get(row, "process")) == with_process)
            n++;
    return n;
}

static void test_synth_job_streams_whole(void **state)
{
    (void)state;
    char root[] = "/tmp/smtop_stream_XXXXXX", out[200];
    assert_non_null(mkdtemp(root));
    snprintf(out, sizeof out, "%s/profiler-output", root);
    synth_opts o;
    synth_opts_init(&o);
    o.out = out;
    o.nodes = 4;
    o.gpus = 2;
    o.cpus = 4;
    o.minutes = 2;
    o.ranks = 2;
    o.slow_node = 1;
    o.python_every = 100;
    sm_err err = {0};
    if (synth_run(&o, NULL, &err) != 0)
        fail_msg("synth: %s", err.msg);
    remove_matching(out, "system/incremental/*/*.algo-4.json");       /* no metrics */
    remove_matching(out, "framework/pevents/*/*-algo-3_pythontimeline.json"); /* no steps */
    write_rule_output(root);

    json_t *r = assert_report_streams_whole(out);
    json_t *nodes = json_object_get(r, "nodes"), *steps = json_object_get(r, "steps");
    assert_int_equal(json_array_size(nodes), 4);
    assert_int_equal(json_array_size(json_object_get(json_array_get(nodes, 3), "metrics")), 0);
    assert_true(json_array_size(json_object_get(json_array_get(nodes, 0), "metrics")) > 0);
    assert_true(count_rows_of(steps, "algo-1", 1) >= 2);   /* two writers' rows */
    assert_true(count_rows_of(steps, "algo-1", 0) >= 1);   /* the pooled rows */
    assert_int_equal(count_rows_of(steps, "algo-3", 0), 0);
    assert_true(json_array_size(json_object_get(r, "device_usage")) > 0);
    assert_non_null(json_object_get(r, "rule_output_errors"));
    assert_true(json_is_object(json_object_get(r, "straggler")));
    json_decref(r);
    assert_int_equal(tmpdir_remove(root), 0);
}

static void test_samples_stream_whole(void **state)
{
    (void)state;
    /* the Kineto folders stream the gpu[] rows, one rank a part */
    const char *jobs[] = {SMTOP_SAMPLES "/test_traces", SMTOP_SAMPLES "/merge_traces",
                          SMTOP_SAMPLES "/kineto/nccl_data",
                          SMTOP_SAMPLES "/kineto/sampled_ranks"};
    struct stat sb;
    if (stat(jobs[0], &sb) != 0) {
        printf("SKIPPED: ../shared/samples not found\n");
        skip();
    }
    for (size_t i = 0; i < sizeof jobs / sizeof *jobs; i++)
        json_decref(assert_report_streams_whole(jobs[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_matches_jansson),
        cmocka_unit_test(test_part_failure_is_an_error),
        cmocka_unit_test(test_parallel_parts_match),
        cmocka_unit_test(test_parallel_part_failure),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_synth_job_streams_whole),
        cmocka_unit_test(test_samples_stream_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
