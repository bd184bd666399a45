/* The live-vs-final differential harness (issue 12): a writer imitating
 * smdebug's (live_writer.h) builds a job one action at a time while the
 * dashboard's own scan loop (job_open + job_scan, what the loader thread
 * runs) tails the directory, scanning between actions as the seed
 * decides. When the job has ended and closed its files, the live model
 * must equal, exactly, the model `smtop report` builds from the finished
 * directory (job_open + job_scan + job_finish): every series' count, min,
 * max and mean (the CPU total included) and every phase's event count,
 * min, max and mean, per node.
 *
 * ctest runs a fixed set of seeds. tests/stress/live_vs_final.sh runs the
 * threaded variant below for a given time: the writer in real time on one
 * thread, the real loader thread (loader_start) scanning every 20 ms.
 *   SMTOP_LIVE_SEEDS=first:count      seeds of the deterministic runs
 *   SMTOP_LIVE_STRESS_S=N             threaded runs for N seconds instead */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tmpdir.h"
#include "io/run/job.h"
#include "io/run/loader.h"
#include "live_writer.h"
#include "model_diff.h"

#define ACTIONS 400

typedef struct run_result {
    model_diff d;
    int64_t scans, actions, events, samples, rotations, corrupt, skipped;
} run_result;

static job *open_job(const char *dir)
{
    sm_err err = {0};
    job *j = job_open(dir, NULL, NULL, &err);
    if (!j)
        fail_msg("job_open %s: %s", dir, err.msg);
    return j;
}

static void scan(job *j, run_result *r)
{
    sm_err err = {0};
    if (job_scan(j, &err) != 0)
        fail_msg("scan: %s", err.msg);
    r->scans++;
}

/* `smtop report` on the finished directory, then the comparison. */
static void compare_with_report(const char *dir, job *live, run_result *r)
{
    job *fin = open_job(dir);
    scan(fin, r);
    job_finish(fin);
    r->d = mdiff_compare(job_model(fin), job_model(live));
    scan_stats a, b;
    scanner_get_stats(job_scanner(fin), &a);
    scanner_get_stats(job_scanner(live), &b);
    r->corrupt = a.corrupt_lines + b.corrupt_lines;
    r->skipped = a.skipped_files + b.skipped_files;
    job_close(fin);
}

static void make_dir(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/smtop-live-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char sub[300];
    snprintf(sub, sizeof sub, "%s/system", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/framework", dir);
    mkdir(sub, 0755);
}

static void remove_dir(const char *dir)
{
    assert_int_equal(tmpdir_remove(dir), 0);
}

/* One run: the directory, the writer and the live job tailing it. */
typedef struct harness {
    char dir[256];
    lw_pick pick;
    live_writer w;
    job *live;
} harness;

static void harness_begin(harness *h, uint64_t seed)
{
    make_dir(h->dir, sizeof h->dir);
    h->pick = (lw_pick){.rng = seed * 0x9e3779b97f4a7c15ULL + 1};
    lw_init(&h->w, lw_posix_fs(h->dir), &h->pick);
    lw_begin(&h->w);
    h->live = open_job(h->dir);
}

/* The writer has stopped and the live job has caught up: compare. */
static void harness_end(harness *h, run_result *r)
{
    assert_int_equal(h->w.failures, 0);
    r->actions = h->w.actions;
    r->events = h->w.events;
    r->samples = h->w.samples;
    r->rotations = h->w.rotations;
    compare_with_report(h->dir, h->live, r);
    job_close(h->live);
    lw_free(&h->w);
    remove_dir(h->dir);
}

/* One deterministic run: actions and scans interleaved as the seed says. */
static run_result run_seed(uint64_t seed)
{
    run_result r = {0};
    harness h;
    harness_begin(&h, seed);
    for (int i = 0; i < ACTIONS; i++) {
        lw_step(&h.w);
        if (lw_pick_n(&h.pick, 4) == 0)
            scan(h.live, &r);
    }
    while (lw_finish_step(&h.w))
        if (lw_pick_n(&h.pick, 3) == 0)
            scan(h.live, &r);
    scan(h.live, &r);
    scan(h.live, &r);
    harness_end(&h, &r);
    return r;
}

static void print_result(const char *what, uint64_t seed, const run_result *r)
{
    print_message("%s %3llu: %4lld actions %3lld scans %4lld rotations %6lld samples "
                  "%6lld events | compared %lld series, %lld phases | %lld mismatches%s%s\n",
                  what, (unsigned long long)seed, (long long)r->actions, (long long)r->scans,
                  (long long)r->rotations, (long long)r->samples, (long long)r->events,
                  (long long)r->d.series, (long long)r->d.phases, (long long)r->d.mismatches,
                  r->d.mismatches ? ": " : "", r->d.first);
}

static void seeds_from_env(uint64_t *first, uint64_t *count)
{
    const char *e = getenv("SMTOP_LIVE_SEEDS");
    if (e && *e) {
        unsigned long long a = 0, b = 0;
        if (sscanf(e, "%llu:%llu", &a, &b) == 2) {
            *first = a;
            *count = b;
        }
    }
}

static void test_live_equals_final_fixed_seeds(void **state)
{
    (void)state;
    uint64_t first = 1, count = 24, failed = 0;
    seeds_from_env(&first, &count);
    for (uint64_t s = first; s < first + count; s++) {
        run_result r = run_seed(s);
        print_result("seed", s, &r);
        failed += r.d.mismatches != 0 || r.corrupt != 0 || r.skipped != 0;
    }
    assert_int_equal(failed, 0);
}

/* ---- the threaded variant (stress script) ----------------------------- */

typedef struct stress_writer {
    live_writer *w;
    int64_t until_ns;
} stress_writer;

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *stress_write(void *ud)
{
    stress_writer *sw = ud;
    while (mono_ns() < sw->until_ns) {
        lw_step(sw->w);
        if (lw_pick_n(sw->w->pick, 8) == 0)
            usleep(1000 * lw_pick_n(sw->w->pick, 5));
    }
    while (lw_finish_step(sw->w))
        ;
    return NULL;
}

/* Waits (with a deadline) until the loader has completed two passes
 * that began after the writer stopped. */
static void wait_two_passes(job *j)
{
    scan_stats st;
    scanner_get_stats(job_scanner(j), &st);
    int64_t want = st.passes + 3, deadline = mono_ns() + 60 * 1000000000LL;
    while (mono_ns() < deadline) {
        scanner_get_stats(job_scanner(j), &st);
        if (st.passes >= want)
            return;
        usleep(5000);
    }
    fail_msg("the loader did not complete two passes within 60 s");
}

static run_result run_threaded(uint64_t seed, int seconds)
{
    run_result r = {0};
    harness h;
    harness_begin(&h, seed);
    sm_err err = {0};
    loader *l = loader_start(h.live, 20, &err);
    assert_non_null(l);
    stress_writer sw = {&h.w, mono_ns() + (int64_t)seconds * 1000000000LL};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, stress_write, &sw), 0);
    pthread_join(th, NULL);
    wait_two_passes(h.live);
    loader_stop(l);
    scan_stats st;
    scanner_get_stats(job_scanner(h.live), &st);
    harness_end(&h, &r);
    r.scans = st.passes;
    return r;
}

static void test_live_equals_final_threaded(void **state)
{
    (void)state;
    const char *e = getenv("SMTOP_LIVE_STRESS_S");
    int total = e ? atoi(e) : 0;
    uint64_t first = 1000, count = 0, failed = 0;
    seeds_from_env(&first, &count);
    int64_t end = mono_ns() + (int64_t)total * 1000000000LL;
    uint64_t s = first, runs = 0;
    for (; mono_ns() < end; s++, runs++) {
        run_result r = run_threaded(s, 10);
        print_result("threaded seed", s, &r);
        failed += r.d.mismatches != 0 || r.corrupt != 0 || r.skipped != 0;
    }
    print_message("threaded: %llu runs, %llu failed\n", (unsigned long long)runs,
                  (unsigned long long)failed);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_live_equals_final_fixed_seeds),
    };
    const struct CMUnitTest threaded[] = {
        cmocka_unit_test(test_live_equals_final_threaded),
    };
    if (getenv("SMTOP_LIVE_STRESS_S"))
        return cmocka_run_group_tests(threaded, NULL, NULL);
    return cmocka_run_group_tests(fixed, NULL, NULL);
}
