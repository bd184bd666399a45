/* Scanner behaviour on a real directory: growth read exactly once, partial
 * lines held back, corrupt lines counted per file, unreadable files
 * reported, newest files first, the .tmp → final rename not double-counted,
 * a replaced file not double-counted. */
#include "scan_fixture.h"

#include <sys/stat.h>

#include "io/synth/synth.h"

static const char *line_at(int core, double ts, double v, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "{\"Type\":\"cpu\",\"Name\":\"cpu%d\",\"Dimension\":\"CPUUtilization\","
             "\"Value\":%.2f,\"NodeId\":\"algo-1\",\"Timestamp\":%.7f}\n",
             core, v, ts);
    return buf;
}

static int64_t core_count(fixture *f, const char *node, const char *name)
{
    const model_node *n = model_find_node(f->m, node);
    if (!n)
        return 0;
    const series *s = model_node_find_series(n, "cpu", "CPUUtilization", name);
    if (!s)
        return 0;
    series_summary sum;
    series_get_summary(s, &sum);
    return sum.count;
}

#define SYS1 "system/incremental/2020060923/1591748100.algo-1.json"

static void test_growth_read_once_byte_for_byte(void **state)
{
    fixture *f = *state;
    char l1[256], l2[256], l3[256];
    line_at(0, 1591748101.5, 10, l1, sizeof l1);
    line_at(0, 1591748102.0, 20, l2, sizeof l2);
    line_at(0, 1591748102.5, 30, l3, sizeof l3);
    /* first scan sees one full line and half of the second */
    char first[512];
    snprintf(first, sizeof first, "%s%.*s", l1, 40, l2);
    fixture_put(f, SYS1, first, "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    assert_int_equal(core_count(f, "algo-1", "cpu0"), 1);
    /* the writer completes line 2 and adds line 3 */
    char rest[512];
    snprintf(rest, sizeof rest, "%s%s", l2 + 40, l3);
    fixture_put(f, SYS1, rest, "a");
    fixture_scan(f);
    fixture_scan(f);   /* nothing new: nothing read twice */
    assert_int_equal(core_count(f, "algo-1", "cpu0"), 3);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.bytes_read, (int64_t)(strlen(l1) + strlen(l2) + strlen(l3)));
    assert_int_equal(st.corrupt_lines, 0);
    const series *s = model_node_find_series(model_find_node(f->m, "algo-1"), "cpu",
                                             "CPUUtilization", "cpu0");
    series_summary sum;
    series_get_summary(s, &sum);
    assert_float_equal(sum.mean, 20.0, 1e-9);
}

static void test_partial_last_line_counted_at_finish(void **state)
{
    fixture *f = *state;
    char l1[256];
    line_at(1, 1591748101.5, 10, l1, sizeof l1);
    char text[512];
    snprintf(text, sizeof text, "%s{\"Type\":\"cpu\",\"Na", l1);
    fixture_put(f, SYS1, text, "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    scanner_finish(f->sc);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.partial_lines, 1);
    assert_int_equal(st.corrupt_lines, 0);
    assert_int_equal(core_count(f, "algo-1", "cpu1"), 1);
}

static void test_corrupt_line_skipped_rest_kept(void **state)
{
    fixture *f = *state;
    char l1[256], l3[256], text[1024];
    line_at(2, 1591748101.5, 10, l1, sizeof l1);
    line_at(2, 1591748102.5, 30, l3, sizeof l3);
    snprintf(text, sizeof text, "%s{\"Type\":\"cpu\", garbage here}\n%s", l1, l3);
    fixture_put(f, SYS1, text, "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.corrupt_lines, 1);
    assert_int_equal(core_count(f, "algo-1", "cpu2"), 2);
    char msgs[4][SCANNER_MSG_LEN];
    size_t n = scanner_messages(f->sc, msgs, 4);
    assert_int_equal(n, 1);
    /* Named by its line number, so a user can open the file there. */
    assert_non_null(strstr(msgs[0], "1591748100.algo-1.json: line 2: 1 corrupt line"));
}

/* Issue 12, finding 3: a node's first scan ended partway through a
 * timestamp's cores, and the next minute's file was read first (newest
 * first). The total took 2 as the core count and emitted every later
 * timestamp twice. Each timestamp must give one total, the mean of its
 * four cores. */
static void test_cpu_total_first_scan_ends_mid_timestamp(void **state)
{
    fixture *f = *state;
    char text[8192] = "", l[256];
    const char *minute2 = "system/incremental/2020060923/1591748160.algo-1.json";
    for (int c = 0; c < 2; c++)
        strcat(text, line_at(c, 1591748101.0, 10 * (c + 1), l, sizeof l));
    fixture_put(f, SYS1, text, "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    text[0] = '\0';
    for (int c = 2; c < 4; c++)
        strcat(text, line_at(c, 1591748101.0, 10 * (c + 1), l, sizeof l));
    for (int t = 1; t < 3; t++)
        for (int c = 0; c < 4; c++)
            strcat(text, line_at(c, 1591748101.0 + t, 10 * (c + 1), l, sizeof l));
    fixture_put(f, SYS1, text, "a");
    text[0] = '\0';
    for (int t = 0; t < 3; t++)
        for (int c = 0; c < 4; c++)
            strcat(text, line_at(c, 1591748161.0 + t, 10 * (c + 1), l, sizeof l));
    fixture_put(f, minute2, text, "w");
    fixture_scan(f);
    fixture_scan(f);
    const series *tot = model_node_cpu_total(model_find_node(f->m, "algo-1"));
    assert_non_null(tot);
    series_summary sum;
    series_get_summary(tot, &sum);
    print_message("total: %lld samples, min %.2f max %.2f\n", (long long)sum.count,
                  sum.min, sum.max);
    assert_int_equal(sum.count, 6);
    assert_float_equal(sum.min, 25.0, 1e-9);
    assert_float_equal(sum.max, 25.0, 1e-9);
}

#define TMP "framework/1234-algo-1_pythontimeline.json.tmp"
#define FINAL "framework/pevents/2020071317/1594662614000000_1234-algo-1_pythontimeline.json"

static const char *trace_head =
    "[\n"
    "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": "
    "{\"start_time_since_epoch_in_micros\": 1594662600000000}},\n"
    "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": "
    "{\"name\": \"Step:ModeKeys.TRAIN\"}},\n";

static const char *step_line(int step, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "{\"name\": \"Step:ModeKeys.TRAIN\", \"pid\": 1, \"ph\": \"X\", \"ts\": %d, "
             "\"dur\": 1000, \"args\": {\"step_num\": \"%d\"}},\n",
             step * 2000, step);
    return buf;
}

static void test_tmp_renamed_to_final_not_double_counted(void **state)
{
    fixture *f = *state;
    char buf[256];
    fixture_put(f, TMP, trace_head, "w");
    fixture_put(f, TMP, step_line(0, buf, sizeof buf), "a");
    fixture_put(f, TMP, step_line(1, buf, sizeof buf), "a");
    fixture_open(f, NULL);
    fixture_scan(f);
    assert_int_equal(fixture_train_steps(f->m), 2);
    /* the writer adds a step, closes the array and renames */
    fixture_put(f, TMP, step_line(2, buf, sizeof buf), "a");
    fixture_put(f, TMP, "]\n", "a");
    char from[512], to[512];
    snprintf(from, sizeof from, "%s/%s", f->dir, TMP);
    snprintf(to, sizeof to, "%s/%s", f->dir, FINAL);
    fixture_mkdirs(f->dir, FINAL);
    assert_int_equal(rename(from, to), 0);
    fixture_scan(f);
    assert_int_equal(fixture_train_steps(f->m), 3);
    /* a new .tmp starts at the same path: a new file, read from byte 0 */
    fixture_put(f, TMP,
               "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": "
               "{\"start_time_since_epoch_in_micros\": 1594662700000000}},\n"
               "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": "
               "{\"name\": \"Step:ModeKeys.TRAIN\"}},\n",
               "w");
    fixture_put(f, TMP, step_line(3, buf, sizeof buf), "a");
    fixture_scan(f);
    assert_int_equal(fixture_train_steps(f->m), 4);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.corrupt_lines, 0);
}

/* A closed trace that grows after it was read (smdebug never does that;
 * a copy still being written can) is read again from its start: each
 * step counted once, and the warnings name the file. */
static void test_closed_trace_growing_read_again_and_named(void **state)
{
    fixture *f = *state;
    char buf[256];
    fixture_put(f, FINAL, trace_head, "w");
    fixture_put(f, FINAL, step_line(0, buf, sizeof buf), "a");
    fixture_put(f, FINAL, step_line(1, buf, sizeof buf), "a");
    fixture_open(f, NULL);
    fixture_scan(f);
    assert_int_equal(fixture_train_steps(f->m), 2);
    fixture_put(f, FINAL, step_line(2, buf, sizeof buf), "a");
    fixture_put(f, FINAL, "]\n", "a");
    fixture_scan(f);
    assert_int_equal(fixture_train_steps(f->m), 3);
    char msgs[SCANNER_MSG_MAX][SCANNER_MSG_LEN];
    size_t n = scanner_messages(f->sc, msgs, SCANNER_MSG_MAX);
    int named = 0;
    for (size_t i = 0; i < n; i++)
        named |= strstr(msgs[i], FINAL) && strstr(msgs[i], "grew");
    assert_true(named);
    fixture_scan(f);   /* and once only */
    assert_int_equal(fixture_train_steps(f->m), 3);
    assert_int_equal(scanner_messages(f->sc, msgs, SCANNER_MSG_MAX), n);
}

/* smdebug's close(): the last ",\n" is truncated away, "\n]\n" appended,
 * then the file renamed. A scan may land between any two of those steps
 * (the dashboard tails a live writer); none may cost or corrupt a line. */
static void close_like_smdebug(fixture *f, int scan_after_truncate, int scan_after_append)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", f->dir, TMP);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size - 2), 0);
    if (scan_after_truncate)
        fixture_scan(f);
    fixture_put(f, TMP, "\n]\n", "a");
    if (scan_after_append)
        fixture_scan(f);
    char to[512];
    snprintf(to, sizeof to, "%s/%s", f->dir, FINAL);
    fixture_mkdirs(f->dir, FINAL);
    assert_int_equal(rename(path, to), 0);
}

static void test_smdebug_close_any_interleaving(void **state)
{
    fixture *f = *state;
    for (int mask = 0; mask < 4; mask++) {
        char buf[256];
        fixture_put(f, TMP, trace_head, "w");
        fixture_put(f, TMP, step_line(0, buf, sizeof buf), "a");
        fixture_put(f, TMP, step_line(1, buf, sizeof buf), "a");
        fixture_open(f, NULL);
        fixture_scan(f);
        fixture_put(f, TMP, step_line(2, buf, sizeof buf), "a");
        close_like_smdebug(f, mask & 1, mask & 2);
        fixture_scan(f);
        fixture_scan(f);
        scan_stats st;
        scanner_get_stats(f->sc, &st);
        print_message("interleaving %d: steps %lld, corrupt %lld\n", mask,
                      (long long)fixture_train_steps(f->m), (long long)st.corrupt_lines);
        assert_int_equal(fixture_train_steps(f->m), 3);
        assert_int_equal(st.corrupt_lines, 0);
        fixture_teardown(state);
        fixture_setup(state);
        f = *state;
    }
}

/* The reader saw "{...}," before the writer flushed its "\n"; close() then
 * rewrote those bytes (",\n" truncated, "\n]\n" appended). The held event
 * must count once and nothing may be reported corrupt. */
static void test_close_after_write_cut_before_newline(void **state)
{
    fixture *f = *state;
    char buf[256];
    fixture_put(f, TMP, trace_head, "w");
    fixture_put(f, TMP, step_line(0, buf, sizeof buf), "a");
    step_line(1, buf, sizeof buf);
    buf[strlen(buf) - 1] = '\0';              /* cut before the "\n" */
    fixture_put(f, TMP, buf, "a");
    fixture_open(f, NULL);
    fixture_scan(f);
    assert_int_equal(fixture_train_steps(f->m), 1);
    fixture_put(f, TMP, "\n", "a");           /* the rest of the flush */
    close_like_smdebug(f, 0, 1);             /* scanned before the rename */
    fixture_scan(f);
    fixture_scan(f);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.corrupt_lines, 0);
    assert_int_equal(fixture_train_steps(f->m), 2);
}

/* A file rewritten in place (new inode, old lines plus new ones) must not
 * count the old lines twice. */
static void test_replaced_file_not_double_counted(void **state)
{
    fixture *f = *state;
    char l1[256], l2[256], l3[256], text[1024];
    line_at(4, 1591748101.5, 10, l1, sizeof l1);
    line_at(4, 1591748102.0, 20, l2, sizeof l2);
    line_at(4, 1591748102.5, 30, l3, sizeof l3);
    snprintf(text, sizeof text, "%s%s", l1, l2);
    fixture_put(f, SYS1, text, "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    assert_int_equal(core_count(f, "algo-1", "cpu4"), 2);
    snprintf(text, sizeof text, "%s%s%s", l1, l2, l3);
    fixture_put(f, "system/incremental/2020060923/new.tmp", text, "w");
    char from[512], to[512];
    snprintf(from, sizeof from, "%s/system/incremental/2020060923/new.tmp", f->dir);
    snprintf(to, sizeof to, "%s/%s", f->dir, SYS1);
    assert_int_equal(rename(from, to), 0);
    fixture_scan(f);
    assert_int_equal(core_count(f, "algo-1", "cpu4"), 3);
}

/* A slow node's file that shows up late, but within the 5-minute window
 * behind the newest key, is still found by the next pass. */
static void test_late_upload_within_window_found(void **state)
{
    fixture *f = *state;
    char l[256], key[128];
    for (int m = 0; m <= 10; m++) {
        long t = 1591748100L + 60L * m;
        snprintf(key, sizeof key, "system/incremental/2020061000/%ld.algo-1.json", t);
        fixture_put(f, key, line_at(0, (double)t + 1, 1, l, sizeof l), "w");
    }
    fixture_open(f, NULL);
    fixture_scan(f);
    assert_int_equal(core_count(f, "algo-1", "cpu0"), 11);
    snprintf(key, sizeof key, "system/incremental/2020061000/%ld.algo-2.json",
             1591748100L + 60L * 7);
    line_at(0, 1591748100.0 + 60 * 7 + 1, 1, l, sizeof l);
    memcpy(strstr(l, "algo-1"), "algo-2", 6);   /* the slow node's own line */
    fixture_put(f, key, l, "w");
    fixture_scan(f);
    assert_int_equal(core_count(f, "algo-2", "cpu0"), 1);
    assert_int_equal(core_count(f, "algo-1", "cpu0"), 11);
}

/* What the catalog holds when the first pass ingests its last file. */
typedef struct last_bytes {
    scanner *sc;
    size_t bytes;
} last_bytes;

static void note_bytes(void *ud)
{
    last_bytes *lb = ud;
    lb->bytes = scanner_catalog_bytes(lb->sc);
}

/* Scans `minutes` minutes of 2 nodes (system files and traces) written
 * under a fresh directory; returns the catalog's bytes at the pass's last
 * ingest, and the files it knew. */
static size_t history_pass_bytes(int minutes, int64_t *known)
{
    fixture *f;
    fixture_setup((void **)&f);
    synth_opts o;
    synth_opts_init(&o);
    o.out = f->dir;
    o.nodes = 2;
    o.minutes = minutes;
    o.start_us = 1591748100LL * 1000000;
    sm_err err = {0};
    assert_int_equal(synth_run(&o, NULL, &err), 0);
    fixture_open(f, NULL);
    last_bytes lb = {f->sc, 0};
    scan_on_ingest(f->sc, note_bytes, &lb);
    fixture_scan(f);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    *known = st.files_known;
    fixture_teardown((void **)&f);
    return lb.bytes;
}

/* A file behind the windows (never listed again) leaves the catalog once
 * read, during the pass, not when it ends: what the first pass over a
 * job's history holds at its end does not grow with the history (a day of
 * 16 nodes is 46k files), and the files are still counted as known. */
static void test_history_read_leaves_catalog(void **state)
{
    (void)state;
    int64_t known10, known60;
    size_t short_job = history_pass_bytes(10, &known10);
    size_t long_job = history_pass_bytes(60, &known60);
    assert_true(known60 >= known10 + 2 * 50 * 2);
    assert_true(short_job > 0);
    /* The same window of files either way; their ETags (inode numbers)
     * may differ in length. */
    assert_true(long_job <= short_job + 64);
}

/* Records the order in which keys are fetched, and unlinks a file
 * between the listing and the reads. */
typedef struct spy {
    char order[16][128];
    int n;
    char unlink_before_fetch[512];   /* a file that vanishes after listing */
} spy;

static void spy_fetch(void *ud, const source_req *r, size_t n)
{
    spy *sp = ud;
    if (sp->unlink_before_fetch[0])
        unlink(sp->unlink_before_fetch);
    for (size_t i = 0; i < n && sp->n < 16; i++)
        snprintf(sp->order[sp->n++], 128, "%s", r[i].key);
}

static void test_newest_files_first(void **state)
{
    fixture *f = *state;
    char l[256];
    fixture_put(f, "system/incremental/2020060922/1591744500.algo-1.json",
               line_at(0, 1591744501, 1, l, sizeof l), "w");
    fixture_put(f, SYS1, line_at(0, 1591748101, 1, l, sizeof l), "w");
    fixture_put(f, "system/incremental/2020060923/1591748160.algo-2.json",
               line_at(0, 1591748161, 1, l, sizeof l), "w");
    sm_err err = {0};
    spy sp = {0};
    assert_non_null(f->src = source_local_open(f->dir, &err));
    hook_source h = hook_source_wrap(f->src, spy_fetch, &sp);
    fixture_open(f, &h.base);
    fixture_scan(f);
    assert_int_equal(sp.n, 3);
    assert_non_null(strstr(sp.order[0], "1591748160"));
    assert_non_null(strstr(sp.order[1], "1591748100"));
    assert_non_null(strstr(sp.order[2], "1591744500"));
}

/* Works as root too (CI): the file disappears between listing and read. */
typedef struct unread_got {
    int n;
    char key[8][256], why[8][SCANNER_MSG_LEN];
} unread_got;

static void collect_unread(void *ud, const char *key, const char *why)
{
    unread_got *u = ud;
    if (u->n < 8) {
        snprintf(u->key[u->n], sizeof u->key[0], "%s", key);
        snprintf(u->why[u->n], sizeof u->why[0], "%s", why);
    }
    u->n++;
}

static void test_unreadable_file_reported_and_skipped(void **state)
{
    fixture *f = *state;
    char l[256];
    fixture_put(f, SYS1, line_at(3, 1591748101.5, 10, l, sizeof l), "w");
    fixture_put(f, "system/incremental/2020060923/1591748160.algo-1.json",
               line_at(3, 1591748161.5, 10, l, sizeof l), "w");
    sm_err err = {0};
    spy sp = {0};
    snprintf(sp.unlink_before_fetch, sizeof sp.unlink_before_fetch, "%s/%s", f->dir, SYS1);
    assert_non_null(f->src = source_local_open(f->dir, &err));
    hook_source h = hook_source_wrap(f->src, spy_fetch, &sp);
    fixture_open(f, &h.base);
    fixture_scan(f);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.skipped_files, 1);
    assert_int_equal(core_count(f, "algo-1", "cpu3"), 1);
    assert_non_null(strstr(st.last_error, "1591748100.algo-1.json"));
    /* and it is on the list of files not read, with the reason */
    assert_int_equal(st.unread_files, 1);
    unread_got u = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 1);
    assert_string_equal(u.key[0], SYS1);
    assert_non_null(strstr(u.why[0], "not read: cannot read"));
}

/* Every file under framework/ and system/ is read or named with why;
 * other folders (rule output's HTML) are not profiler data. */
static void test_unknown_files_named_once(void **state)
{
    fixture *f = *state;
    char l[256];
    fixture_put(f, SYS1, line_at(3, 1591748101.5, 10, l, sizeof l), "w");
    fixture_put(f, "system/incremental/2020060923/notes.txt", "x", "w");
    fixture_put(f, "framework/pevents/2020060923/1591748100000000_1-algo-1_unknown.json", "[", "w");
    fixture_put(f, "framework/pytorch/pyinstrument/algo-1/train-1-stepstart-1.5_train-1-stepend-2.5/"
                  "python_stats.html", "<html>", "w");
    fixture_put(f, "framework/pytorch/cprofile/algo-1/train-1-stepstart-1.5_train-1-stepend-2.5/"
                  "stats.bin", "x", "w");
    fixture_put(f, "other/readme.txt", "x", "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    fixture_scan(f);   /* a second pass names nothing twice */
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.unread_files, 4);
    assert_int_equal(st.skipped_files, 0);
    assert_int_equal(core_count(f, "algo-1", "cpu3"), 1);
    unread_got u = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 4);
    int seen = 0;
    for (int i = 0; i < u.n; i++) {
        if (strstr(u.key[i], "notes.txt") || strstr(u.key[i], "_unknown.json")) {
            assert_string_equal(u.why[i], "not read: unknown file name");
            seen |= strstr(u.key[i], "notes.txt") ? 1 : 2;
        } else if (strstr(u.key[i], "python_stats.html")) {
            assert_non_null(strstr(u.why[i], "pyinstrument's HTML view"));
            seen |= 4;
        } else {
            assert_non_null(strstr(u.key[i], "stats.bin"));
            assert_non_null(strstr(u.why[i], "unknown file name in a Python stats folder"));
            seen |= 8;
        }
    }
    assert_int_equal(seen, 15);
}

/* After the last pass of a report, scanner_shed frees the catalog but
 * what the report still reads — stats, messages, the unread list with
 * its keys — answers as before, and no pass may follow (it would read
 * every file again). */
static void test_shed_keeps_what_a_report_reads(void **state)
{
    fixture *f = *state;
    char l[256];
    fixture_put(f, SYS1, line_at(3, 1591748101.5, 10, l, sizeof l), "w");
    fixture_put(f, "system/incremental/2020060923/1591748160.algo-1.json",
                line_at(3, 1591748161.5, 20, l, sizeof l), "w");
    fixture_put(f, "system/incremental/2020060923/notes.txt", "x", "w");
    fixture_put(f, "framework/pevents/2020060923/1591748100000000_1-algo-1_unknown.json", "[", "w");
    fixture_open(f, NULL);
    fixture_scan(f);
    scanner_finish(f->sc);
    scan_stats before, after;
    scanner_get_stats(f->sc, &before);
    unread_got u0 = {0}, u1 = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u0), 2);
    scanner_shed(f->sc);
    scanner_get_stats(f->sc, &after);
    assert_memory_equal(&before, &after, sizeof before);
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u1), 2);
    assert_memory_equal(&u0, &u1, sizeof u0);
    assert_int_equal(core_count(f, "algo-1", "cpu3"), 2);
    sm_err err = {0};
    assert_int_equal(scanner_scan(f->sc, &err), -1);
    assert_non_null(strstr(err.msg, "no pass follows"));
    assert_int_equal(core_count(f, "algo-1", "cpu3"), 2);
}

/* Names in the tree that lead to no readable file — a symbolic link to
 * nothing, a link to itself — were passed over in silence (the first) or
 * only in the message ring (the second): both are files not read. */
static void test_links_to_nothing_named(void **state)
{
    fixture *f = *state;
    char l[256], path[512];
    fixture_put(f, SYS1, line_at(3, 1591748101.5, 10, l, sizeof l), "w");
    snprintf(path, sizeof path, "%s/system/incremental/2020060923/1591748160.algo-1.json", f->dir);
    assert_int_equal(symlink("/nonexistent/1591748160.algo-1.json", path), 0);
    snprintf(path, sizeof path, "%s/system/incremental/2020060923/1591748220.algo-1.json", f->dir);
    assert_int_equal(symlink("1591748220.algo-1.json", path), 0);
    fixture_open(f, NULL);
    fixture_scan(f);
    fixture_scan(f);   /* named once */
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(core_count(f, "algo-1", "cpu3"), 1);
    assert_int_equal(st.unread_files, 2);
    unread_got u = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 2);
    for (int i = 0; i < u.n; i++) {
        if (strstr(u.key[i], "1591748160")) {
            assert_string_equal(u.why[i], "not read: a symbolic link to nothing");
        } else {
            assert_non_null(strstr(u.key[i], "1591748220"));
            assert_non_null(strstr(u.why[i], "symbolic links"));   /* ELOOP's text */
        }
    }
}

#define TFSTEP "framework/tensorflow/detailed_profiling/2020060923/000000003/"
#define TFTRACE TFSTEP "plugins/profile/2020_06_09_23_55_01/ip-10-0-209-63.ec2.internal.trace.json.gz"

typedef struct tf_seen {
    int calls;
    char node[128];
    int64_t base;
} tf_seen;

static int tf_on_file(void *ud, const key_info *ki, const char *key, const void *data,
                      size_t len, sm_err *err)
{
    (void)key;
    (void)data;
    (void)len;
    tf_seen *t = ud;
    t->calls++;
    snprintf(t->node, sizeof t->node, "%s", ki->node);
    t->base = ki->time_us;
    return ki->time_us ? 0 : sm_err_set(err, SM_ERR_NOTFOUND, "no time base");
}

/* A TF trace is placed from the .metadata record in its step directory;
 * one listed before its record is named, then read when the record comes. */
static void test_tf_trace_placed_when_record_arrives(void **state)
{
    fixture *f = *state;
    fixture_put(f, TFTRACE, "gz", "w");
    sm_err err = {0};
    f->src = source_local_open(f->dir, &err);
    f->m = model_new(NULL);
    tf_seen t = {0};
    scanner_opts o = {.on_file = tf_on_file, .on_file_ud = &t};
    f->sc = scanner_new(f->src, "", f->m, &o, &err);
    fixture_scan(f);
    assert_int_equal(t.calls, 1);
    assert_string_equal(t.node, "ip-10-0-209-63.ec2.internal");
    unread_got u = {0};
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 1);
    assert_string_equal(u.key[0], TFTRACE);
    assert_non_null(strstr(u.why[0], "not read: not placed on the job clock: no "
                                     "<writer>_<start_us>_<end_us>.metadata in " TFSTEP));
    fixture_scan(f);
    assert_int_equal(t.calls, 1);   /* nothing new: not fetched again */
    fixture_put(f, TFSTEP "151-algo-1_1591746900000000.5_1591746901000000.5.metadata", "", "w");
    fixture_scan(f);
    assert_int_equal(t.calls, 2);
    assert_string_equal(t.node, "algo-1");
    assert_int_equal(t.base, 1591746900000000LL);
    scan_stats st;
    scanner_get_stats(f->sc, &st);
    assert_int_equal(st.unread_files, 0);
    u.n = 0;
    assert_int_equal(scanner_unread(f->sc, collect_unread, &u), 0);
}

static void test_root_found_in_job_dir(void **state)
{
    fixture *f = *state;
    char l[256];
    fixture_put(f, "profiler-output/" SYS1, line_at(0, 1591748101, 1, l, sizeof l), "w");
    sm_err err = {0};
    f->src = source_local_open(f->dir, &err);
    char root[64];
    assert_int_equal(scanner_find_root(f->src, root, sizeof root, &err), 0);
    assert_string_equal(root, "profiler-output/");
    char empty[300];
    snprintf(empty, sizeof empty, "%s/empty", f->dir);
    mkdir(empty, 0755);
    source *e = source_local_open(empty, &err);
    assert_int_equal(scanner_find_root(e, root, sizeof root, &err), -1);
    assert_non_null(strstr(err.msg, "holds no profiler data"));
    source_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        FIXTURE_TEST(test_growth_read_once_byte_for_byte),
        FIXTURE_TEST(test_partial_last_line_counted_at_finish),
        FIXTURE_TEST(test_corrupt_line_skipped_rest_kept),
        FIXTURE_TEST(test_cpu_total_first_scan_ends_mid_timestamp),
        FIXTURE_TEST(test_unreadable_file_reported_and_skipped),
        FIXTURE_TEST(test_links_to_nothing_named),
        FIXTURE_TEST(test_tmp_renamed_to_final_not_double_counted),
        FIXTURE_TEST(test_smdebug_close_any_interleaving),
        FIXTURE_TEST(test_close_after_write_cut_before_newline),
        FIXTURE_TEST(test_newest_files_first),
        FIXTURE_TEST(test_late_upload_within_window_found),
        cmocka_unit_test(test_history_read_leaves_catalog),
        FIXTURE_TEST(test_closed_trace_growing_read_again_and_named),
        FIXTURE_TEST(test_replaced_file_not_double_counted),
        FIXTURE_TEST(test_root_found_in_job_dir),
        FIXTURE_TEST(test_unknown_files_named_once),
        FIXTURE_TEST(test_shed_keeps_what_a_report_reads),
        FIXTURE_TEST(test_tf_trace_placed_when_record_arrives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
