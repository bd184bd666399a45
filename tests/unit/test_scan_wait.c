/* A job that has not written anything yet: with opts.wait (the dashboard)
 * a pass over an empty source succeeds and says it is waiting, the root
 * (profiler-output itself or a job directory holding it) is found by the
 * first pass that sees data, and the data is read at once; without it
 * (report) the pass fails as before. job_open does no listing, opens a
 * directory that is not created yet when its parent exists, and names
 * profiler-output in its description once found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpdir.h"
#include "io/run/job.h"
#include "io/scan/scanner.h"
#include "io/source/source.h"

#define SYS "system/incremental/2020061000/1591747200.algo-1.json"
#define LINE "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\"," \
             "\"Value\":12.5,\"NodeId\":\"algo-1\",\"Timestamp\":1591747201.5}\n"

static char dir[256];

static void put_file(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/smtop-wait-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(tmpdir_remove(dir), 0);
    return 0;
}

static void no_unread(void *ud, const char *key, const char *why)
{
    (void)ud;
    fail_msg("unread file %s (%s) while no root is known", key, why);
}

/* A scanner over the directory `path` with the root left to find. */
typedef struct rig {
    source *src;
    model *m;
    scanner *sc;
} rig;

static void rig_open(rig *r, const char *path, int wait)
{
    sm_err err = {0};
    scanner_opts o = {.wait = wait};
    r->src = source_local_open(path, &err);
    r->m = model_new(NULL);
    assert_non_null(r->src);
    r->sc = scanner_new(r->src, NULL, r->m, &o, &err);
    assert_non_null(r->sc);
}

static void rig_close(rig *r)
{
    scanner_free(r->sc);
    model_free(r->m);
    source_free(r->src);
}

static void test_waits_then_reads(void **state)
{
    (void)state;
    sm_err err = {0};
    rig r;
    rig_open(&r, dir, 1);
    scanner *sc = r.sc;
    scan_stats st;
    scanner_get_stats(sc, &st);
    assert_int_equal(st.waiting, 1);
    assert_true(st.started_us > 0);
    /* the dashboard's Diff pane asks for unread files at any time, also
     * before the root is known (this was strlen(NULL): a crash) */
    assert_int_equal(scanner_unread(sc, no_unread, NULL), 0);
    for (int pass = 1; pass <= 2; pass++) {
        assert_int_equal(scanner_scan(sc, &err), 0);
        scanner_get_stats(sc, &st);
        assert_int_equal(st.waiting, 1);
        assert_int_equal(st.passes, pass);
        assert_string_equal(st.last_error, "");
        assert_int_equal(scanner_unread(sc, no_unread, NULL), 0);
    }
    char root[64] = "x";
    assert_int_equal(scanner_root(sc, root, sizeof root), 0);
    assert_string_equal(root, "");
    /* the job directory form: profiler-output/ appears inside */
    put_file("profiler-output/" SYS, LINE);
    assert_int_equal(scanner_scan(sc, &err), 0);
    scanner_get_stats(sc, &st);
    assert_int_equal(st.waiting, 0);
    assert_int_equal(scanner_root(sc, root, sizeof root), 1);
    assert_string_equal(root, "profiler-output/");
    assert_int_equal(model_node_count(r.m), 1);   /* read in the same pass */
    rig_close(&r);
}

static void count_unread(void *ud, const char *key, const char *why)
{
    (void)key, (void)why;
    ++*(int *)ud;
}

/* The Diff pane asks for the unread files before the loader's first pass
 * has found the root (it crashed on the root's NULL): nothing, no crash. */
static void test_unread_before_root_known(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, dir, 1);
    int n = 0;
    assert_int_equal(scanner_unread(r.sc, count_unread, &n), 0);
    assert_int_equal(n, 0);
    rig_close(&r);
}

static void test_report_mode_fails(void **state)
{
    (void)state;
    sm_err err = {0};
    char empty[300];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    mkdir(empty, 0755);
    rig r;
    rig_open(&r, empty, 0);
    scanner *sc = r.sc;
    assert_int_equal(scanner_scan(sc, &err), -1);
    assert_int_equal(err.code, SM_ERR_NOTFOUND);
    assert_non_null(strstr(err.msg, "holds no profiler data"));
    scan_stats st;
    scanner_get_stats(sc, &st);
    assert_int_equal(st.waiting, 0);
    assert_int_equal(st.passes, 0);
    rig_close(&r);
}

static void test_job_not_created_yet(void **state)
{
    (void)state;
    sm_err err = {0};
    char later[300], gone[300];
    snprintf(later, sizeof later, "%s/later", dir);
    snprintf(gone, sizeof gone, "%s/no/such/job", dir);
    source_opts so;
    source_opts_init(&so);
    /* report: a missing directory is an error as ever */
    assert_null(job_open(later, &so, NULL, &err));
    assert_int_equal(err.code, SM_ERR_NOTFOUND);
    so.wait_for_data = 1;
    /* a missing parent stays an error */
    assert_null(job_open(gone, &so, NULL, &err));
    assert_non_null(strstr(err.msg, "does not exist, nor does"));
    job *j = job_open(later, &so, NULL, &err);
    assert_non_null(j);
    assert_string_equal(job_describe(j), later);
    assert_int_equal(job_scan(j, &err), 0);
    scan_stats st;
    scanner_get_stats(job_scanner(j), &st);
    assert_int_equal(st.waiting, 1);
    put_file("later/" SYS, LINE);
    assert_int_equal(job_scan(j, &err), 0);
    scanner_get_stats(job_scanner(j), &st);
    assert_int_equal(st.waiting, 0);
    assert_int_equal(model_node_count(job_model(j)), 1);
    assert_string_equal(job_describe(j), later);   /* it is profiler-output itself */
    job_close(j);
}

static void test_job_dir_described(void **state)
{
    (void)state;
    sm_err err = {0};
    char jobdir[300], want[400];
    snprintf(jobdir, sizeof jobdir, "%s/jobdir/", dir);
    put_file("jobdir/profiler-output/" SYS, LINE);
    source_opts so;
    source_opts_init(&so);
    job *j = job_open(jobdir, &so, NULL, &err);
    assert_non_null(j);
    assert_int_equal(job_scan(j, &err), 0);
    snprintf(want, sizeof want, "%s/jobdir/profiler-output", dir);
    assert_string_equal(job_describe(j), want);
    job_close(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_waits_then_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unread_before_root_known, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_mode_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_job_not_created_yet, setup, teardown),
        cmocka_unit_test_setup_teardown(test_job_dir_described, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
