/* loader: scans on its own thread, wakes the UI through its fd after each
 * pass, reports a failing pass in plain words, and stops promptly even
 * with a long interval. */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include "io/synth/synth.h"
#include "io/job/loader.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char dir[] = "/tmp/smtop-loader-test-XXXXXX";

static int setup(void **s)
{
    (void)s;
    if (!mkdtemp(dir))
        return -1;
    synth_opts o;
    synth_opts_init(&o);
    o.out = dir;
    o.nodes = 2, o.minutes = 2, o.traces = 0, o.start_us = 1700000000LL * 1000000;
    sm_err err = {0};
    return synth_run(&o, NULL, &err);
}

static int teardown(void **s)
{
    (void)s;
    return tmpdir_remove(dir);
}

static int wait_readable(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, ms);
}

static void test_scans_wakes_and_stops(void **s)
{
    (void)s;
    sm_err err = {0};
    source_opts so;
    source_opts_init(&so);
    job *j = job_open(dir, &so, NULL, &err);
    assert_non_null(j);
    loader *l = loader_start(j, 60000, &err);      /* one pass, then a long wait */
    assert_non_null(l);
    assert_int_equal(wait_readable(loader_fd(l), 20000), 1);
    assert_true(loader_ack(l) >= 1);
    pthread_mutex_lock(job_lock(j));
    assert_int_equal(model_node_count(job_model(j)), 2);
    pthread_mutex_unlock(job_lock(j));
    char msg[128];
    int64_t when = -1;
    loader_last_error(l, msg, sizeof msg, &when);
    assert_string_equal(msg, "");
    assert_int_equal(when, 0);
    /* nothing more to read until the next pass: the fd is drained */
    assert_int_equal(wait_readable(loader_fd(l), 50), 0);
    double t = now_s();
    loader_stop(l);
    assert_true(now_s() - t < 2.0);                 /* not the 60 s interval */
    job_close(j);
}

static void test_failed_pass_is_reported(void **s)
{
    (void)s;
    sm_err err = {0};
    source_opts so;
    source_opts_init(&so);
    job *j = job_open(dir, &so, NULL, &err);
    assert_non_null(j);
    /* Take the data away under the scanner: the listing itself fails. */
    char moved[128];
    snprintf(moved, sizeof moved, "%s.gone", dir);
    assert_int_equal(rename(dir, moved), 0);
    FILE *f = fopen(dir, "w");    /* a file where the directory was */
    assert_non_null(f);
    fclose(f);
    loader *l = loader_start(j, 60000, &err);
    assert_non_null(l);
    assert_int_equal(wait_readable(loader_fd(l), 20000), 1);
    char msg[512];
    int64_t when = 0;
    loader_last_error(l, msg, sizeof msg, &when);
    loader_stop(l);
    job_close(j);
    assert_int_equal(unlink(dir), 0);
    assert_int_equal(rename(moved, dir), 0);
    print_message("reported: %s\n", msg);
    assert_string_not_equal(msg, "");
    assert_true(when > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scans_wakes_and_stops),
        cmocka_unit_test(test_failed_pass_is_reported),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
