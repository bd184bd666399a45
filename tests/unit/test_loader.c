/* loader: scans on its own thread, wakes the UI through its fd after each
 * pass, reports a failing pass in plain words, stops promptly even with a
 * long interval, and keeps answering view requests within its budget. */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
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
#include "io/run/loader.h"
#include "model/view/sysview.h"

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

/* A UI whose request changes with every frame: it never stops asking. */
typedef struct asker {
    viewbuild *dv;
    loader *l;
    atomic_int stop;
} asker;

static void *ask_forever(void *arg)
{
    asker *a = arg;
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.live = 1, q.span_us = 3600LL * 1000000;
    sysview_params sp = {.per_core = 1, .bins = 2000, .count = 16};
    viewdata_ask_for(&q, &sysview_query, &sp, sizeof sp);
    for (unsigned i = 0; !atomic_load(&a->stop); i++) {
        sp.bins = 2000 + i % 64;
        memcpy(q.ask[0].params, &sp, sizeof sp);
        viewbuild_want_view(a->dv, &q);
        loader_poke(a->l);
        struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* Found live: a request that changed after every answer had the loader
 * answer between every two files and a backfill take 96 s instead of 10.
 * Answers are served, but take at most an eighth of the loader's time. */
static void test_view_answers_keep_to_budget(void **s)
{
    (void)s;
    char big[] = "/tmp/smtop-loader-view-XXXXXX";
    assert_non_null(mkdtemp(big));
    synth_opts o;
    synth_opts_init(&o);
    o.out = big;
    o.nodes = 16, o.minutes = 6, o.start_us = 1700000000LL * 1000000;
    sm_err err = {0};
    assert_int_equal(synth_run(&o, NULL, &err), 0);
    source_opts so;
    source_opts_init(&so);
    job *j = job_open(big, &so, NULL, &err);
    assert_non_null(j);
    viewbuild *dv = viewbuild_new(NULL, job_model(j), job_pystats(j), job_lock(j));
    assert_non_null(dv);
    loader_opts lo = {.interval_ms = 60000, .dv = dv};
    double t0 = now_s();
    loader *l = loader_start_opts(j, &lo, &err);
    assert_non_null(l);
    asker a = {.dv = dv, .l = l};
    atomic_init(&a.stop, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, ask_forever, &a), 0);
    /* The first pass reads the whole job, then the loader idles while
     * the asker keeps asking. */
    scan_stats st;
    do {
        assert_true(wait_readable(loader_fd(l), 60000) >= 0);
        loader_ack(l);
        scanner_get_stats(job_scanner(j), &st);
    } while (st.passes == 0 || st.files_pending > 0 || st.scanning);
    struct timespec idle = {0, 300000000};
    nanosleep(&idle, NULL);
    atomic_store(&a.stop, 1);
    pthread_join(th, NULL);
    uint64_t answers;
    int64_t total_us, max_us;
    loader_view_stats(l, &answers, &total_us, &max_us);
    double life_us = (now_s() - t0) * 1e6;
    loader_stop(l);
    viewbuild_free(dv);
    job_close(j);
    assert_int_equal(tmpdir_remove(big), 0);
    print_message("%llu answers, %.1f ms of %.1f ms, longest %.2f ms\n",
                  (unsigned long long)answers, total_us / 1e3, life_us / 1e3, max_us / 1e3);
    assert_true(answers >= 2);
    assert_true(total_us <= life_us / 8 + max_us);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scans_wakes_and_stops),
        cmocka_unit_test(test_failed_pass_is_reported),
        cmocka_unit_test(test_view_answers_keep_to_budget),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
