/* Unit tests for model/phase_stats: statistics against brute force, the
 * recent-event ring under out-of-order arrival, histogram, classify. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/steps/phase_stats.h"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static uint64_t rng = 0xdeadbeefcafef00dULL;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double np_pct(const int64_t *sorted, size_t n, double p)
{
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank), hi = (size_t)ceil(rank);
    return (double)sorted[lo] + (rank - (double)lo) * (double)(sorted[hi] - sorted[lo]);
}

static void shuffle(size_t *idx, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = next_u64() % i, t = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = t;
    }
}

/* n durations against brute force: percentiles exact up to
 * PHASE_EXACT_CAP of them, past it within the bound the summary states
 * (1 % relative, what report --json prints as percentile_error). */
static void check_summary_brute_force(size_t n)
{
    int64_t *d = malloc(n * sizeof *d);
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    double sum = 0;
    int64_t last_end = 0;
    for (size_t i = 0; i < n; i++) {
        d[i] = 100000 + (int64_t)(next_u64() % 50000);
        sum += (double)d[i];
        if (1000000 + (int64_t)i * 200000 + d[i] > last_end)
            last_end = 1000000 + (int64_t)i * 200000 + d[i];
        assert_int_equal(phase_stats_add(p, (int64_t)i, 1000000 + (int64_t)i * 200000, d[i]), 0);
    }
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += ((double)d[i] - mean) * ((double)d[i] - mean);
    qsort(d, n, sizeof *d, cmp_i64);
    phase_summary s;
    phase_stats_get_summary(p, &s);
    assert_int_equal(s.count, (int64_t)n);
    assert_close(s.mean_us, mean, 1e-6);
    assert_close(s.stddev_us, sqrt(ss / (double)n), 1e-6);    /* population */
    assert_int_equal(s.min_us, d[0]);
    assert_int_equal(s.max_us, d[n - 1]);
    assert_int_equal(s.exact, n <= PHASE_EXACT_CAP);
    if (s.exact) {
        assert_true(s.err_rel == 0);
        assert_close(s.p50_us, np_pct(d, n, 50), 1e-9);
        assert_close(s.p95_us, np_pct(d, n, 95), 1e-9);
        assert_close(s.p99_us, np_pct(d, n, 99), 1e-9);
    } else {
        assert_true(s.err_rel > 0 && s.err_rel <= 0.01);
        double q[3] = {50, 95, 99}, got[3] = {s.p50_us, s.p95_us, s.p99_us};
        for (int k = 0; k < 3; k++)
            assert_true(fabs(got[k] - np_pct(d, n, q[k])) <= s.err_rel * np_pct(d, n, q[k]));
    }
    assert_int_equal(s.first_start_us, 1000000);
    assert_int_equal(s.last_end_us, last_end);
    assert_string_equal(phase_stats_label(p), "Step:ModeKeys.TRAIN");
    assert_int_equal(phase_stats_kind(p), PHASE_STEP);
    assert_int_equal(phase_stats_generation(p), n);
    free(d);
    phase_stats_free(p);
}

static void test_summary_brute_force(void **state)
{
    (void)state;
    check_summary_brute_force(PHASE_EXACT_CAP);
    check_summary_brute_force(PHASE_EXACT_CAP + 1);
    check_summary_brute_force(20 * PHASE_EXACT_CAP);
}

static void test_recent_out_of_order(void **state)
{
    (void)state;
    size_t n = PHASE_RECENT_CAP + 1500;
    size_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    shuffle(idx, n);
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    int64_t last_end = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = idx[k];
        int64_t start = 5000000 + (int64_t)i * 1000, dur = 400 + (int64_t)(i % 7);
        if (start + dur > last_end)
            last_end = start + dur;
        assert_int_equal(phase_stats_add(p, (int64_t)i, start, dur), 0);
    }
    phase_event *ev = malloc(n * sizeof *ev);
    size_t got = phase_stats_recent(p, ev, n);
    assert_int_equal(got, PHASE_RECENT_CAP);
    for (size_t k = 0; k < got; k++) {
        size_t i = n - PHASE_RECENT_CAP + k;    /* the newest, oldest first */
        assert_int_equal(ev[k].step, (int64_t)i);
        assert_int_equal(ev[k].start_us, 5000000 + (int64_t)i * 1000);
    }
    assert_int_equal(phase_stats_recent(p, ev, 3), 3);
    assert_int_equal(ev[2].step, (int64_t)n - 1);
    /* Overlap query: [start of n-10, start of n-5) overlaps steps n-10..n-6. */
    int64_t t0 = 5000000 + (int64_t)(n - 10) * 1000, t1 = 5000000 + (int64_t)(n - 5) * 1000;
    got = phase_stats_in_range(p, t0 + 100, t1, ev, n);
    assert_int_equal(got, 5);
    assert_int_equal(ev[0].step, (int64_t)n - 10);
    assert_int_equal(ev[4].step, (int64_t)n - 6);
    phase_summary s;
    phase_stats_get_summary(p, &s);
    assert_int_equal(s.count, (int64_t)n);   /* dropped from the ring, still counted */
    assert_int_equal(s.first_start_us, 5000000);
    assert_int_equal(s.last_end_us, last_end);
    free(ev);
    free(idx);
    phase_stats_free(p);
}

static void test_histogram(void **state)
{
    (void)state;
    phase_stats *p = phase_stats_new("Forward", PHASE_FORWARD);
    int64_t durs[] = {0, 1, 2, 3, 4, 1000000, INT64_MAX / 2, -5};
    for (size_t i = 0; i < sizeof durs / sizeof *durs; i++)
        assert_int_equal(phase_stats_add(p, -1, 100, durs[i]), 0);
    const uint32_t *h = phase_stats_histogram(p);
    assert_int_equal(h[0], 3);     /* 0, 1 and the clamped negative */
    assert_int_equal(h[4], 1);     /* 2 = 2^(4/4) */
    assert_int_equal(h[6], 1);     /* 3: 4*log2(3) = 6.34 */
    assert_int_equal(h[8], 1);     /* 4 */
    assert_int_equal(h[79], 1);    /* 1e6: 4*log2(1e6) = 79.7 */
    assert_int_equal(h[PHASE_HIST_BUCKETS - 1], 1);
    assert_close(phase_hist_lower_us(0), 1, 0);
    assert_close(phase_hist_lower_us(4), 2, 1e-12);
    assert_close(phase_hist_lower_us(79), pow(2, 79 / 4.0), 1e-6);
    for (size_t b = 1; b < 100; b++) {  /* buckets agree with the bounds */
        double lo = phase_hist_lower_us(b);
        int64_t d = (int64_t)ceil(lo);
        if ((double)d < phase_hist_lower_us(b + 1)) {
            phase_stats *q = phase_stats_new("x", PHASE_OTHER);
            phase_stats_add(q, -1, 0, d);
            assert_int_equal(phase_stats_histogram(q)[b], 1);
            phase_stats_free(q);
        }
    }
    phase_stats_free(p);
}

#define CL(ph, nm) phase_classify(ph, strlen(ph), nm, strlen(nm))

/* A clone answers as the original; within smaller bounds it keeps the
 * newest events and every exact statistic, and its percentiles stay within
 * the sketch's bound. */
static void test_clone(void **state)
{
    (void)state;
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    for (int64_t i = 0; i < 5000; i++)
        assert_int_equal(phase_stats_add(p, i, 1000000 + i * 1000, 100 + (i * 7919) % 900), 0);
    phase_summary a, b;
    phase_stats_get_summary(p, &a);
    for (int bounded = 0; bounded < 2; bounded++) {
        phase_stats *c = bounded ? phase_stats_clone(p, PHASE_PROC_EXACT_CAP, PHASE_PROC_RECENT_CAP)
                                 : phase_stats_clone(p, PHASE_EXACT_CAP, PHASE_RECENT_CAP);
        assert_non_null(c);
        phase_stats_get_summary(c, &b);
        assert_int_equal(b.count, a.count);
        assert_true(b.mean_us == a.mean_us && b.stddev_us == a.stddev_us);
        assert_true(b.min_us == a.min_us && b.max_us == a.max_us);
        assert_true(b.first_start_us == a.first_start_us && b.last_end_us == a.last_end_us);
        assert_memory_equal(phase_stats_histogram(c), phase_stats_histogram(p),
                            PHASE_HIST_BUCKETS * sizeof(uint32_t));
        assert_string_equal(phase_stats_label(c), "Step:ModeKeys.TRAIN");
        assert_int_equal(b.exact, 5000 <= (bounded ? PHASE_PROC_EXACT_CAP : PHASE_EXACT_CAP));
        assert_true(fabs(b.p50_us - a.p50_us) <= 0.011 * a.p50_us);
        assert_true(fabs(b.p99_us - a.p99_us) <= 0.011 * a.p99_us);
        static phase_event ev[PHASE_RECENT_CAP];
        size_t n = phase_stats_recent(c, ev, PHASE_RECENT_CAP);
        assert_int_equal(n, bounded ? PHASE_PROC_RECENT_CAP : PHASE_RECENT_CAP);
        assert_int_equal(ev[n - 1].step, 4999);          /* the newest kept */
        assert_int_equal(ev[0].step, 5000 - (int64_t)n);
        /* it goes on as its own: adds do not reach the original */
        assert_int_equal(phase_stats_add(c, 5000, 9000000000, 5), 0);
        phase_stats_get_summary(p, &a);
        assert_int_equal(a.count, 5000);
        phase_stats_free(c);
    }
    phase_stats_free(p);
}

static void assert_same_summary(const phase_stats *a, const phase_stats *b)
{
    phase_summary x, y;
    phase_stats_get_summary(a, &x);
    phase_stats_get_summary(b, &y);
    assert_memory_equal(&x, &y, sizeof x);
}

/* A node's phase keeps no second copy of its durations while it is exact:
 * they are all among its retained events. Its answers are bit for bit
 * those of a phase that keeps its own copy (a recent cap under its exact
 * cap), before, at and past the end of exact mode, and in its clones;
 * and it costs 4 bytes less an event. */
static void test_exact_from_retained(void **state)
{
    (void)state;
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    phase_stats *ref = phase_stats_new_bounded("Step:ModeKeys.TRAIN", PHASE_STEP,
                                               PHASE_EXACT_CAP, PHASE_EXACT_CAP - 1);
    size_t n = 2 * PHASE_EXACT_CAP, *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    shuffle(idx, PHASE_EXACT_CAP);      /* out of order while exact */
    const size_t check[] = {1, 2, 3, 100, 3000, PHASE_EXACT_CAP - 1, PHASE_EXACT_CAP,
                            PHASE_EXACT_CAP + 1, PHASE_EXACT_CAP + 7, n};
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t j = (int64_t)idx[i];
        /* some durations past 2^24 us: no float holds them */
        int64_t d = j % 97 == 0 ? 20000000 + j : 1000 + (int64_t)(next_u64() % 90000);
        assert_int_equal(phase_stats_add(p, j, 1000000 + j * 200000, d), 0);
        assert_int_equal(phase_stats_add(ref, j, 1000000 + j * 200000, d), 0);
        if (i + 1 != check[k])
            continue;
        k++;
        assert_same_summary(p, ref);
        assert_same_summary(p, ref);    /* the cached answer too */
        if (i + 1 == 3000) {
            size_t mp = phase_stats_memory_bytes(p), mr = phase_stats_memory_bytes(ref);
            print_message("3000 events: %zu bytes, with a copy %zu\n", mp, mr);
            assert_true(mp + 3000 * 4 <= mr);
        }
        if (i + 1 == 3000 || i + 1 == n) {
            /* clones go on as their own, alike: into a writer's bounds
             * (its own copy), into a node's (still none while exact), and
             * into an exact cap below the count (past exact at once) */
            const size_t b[3][2] = {{PHASE_PROC_EXACT_CAP, PHASE_PROC_RECENT_CAP},
                                    {PHASE_EXACT_CAP, PHASE_RECENT_CAP},
                                    {1000, PHASE_RECENT_CAP}};
            for (int m = 0; m < 3; m++) {
                phase_stats *c = phase_stats_clone(p, b[m][0], b[m][1]);
                phase_stats *cr = phase_stats_clone(ref, b[m][0], b[m][1]);
                assert_same_summary(c, cr);
                for (int64_t e = 0; e < 2000; e++) {
                    int64_t d = 500 + (int64_t)(next_u64() % 5000);
                    assert_int_equal(phase_stats_add(c, e, 7 + e, d), 0);
                    assert_int_equal(phase_stats_add(cr, e, 7 + e, d), 0);
                }
                assert_same_summary(c, cr);
                phase_stats_free(c);
                phase_stats_free(cr);
            }
        }
    }
    assert_int_equal(k, sizeof check / sizeof check[0]);
    free(idx);
    phase_stats_free(p);
    phase_stats_free(ref);
}

static void test_classify(void **state)
{
    (void)state;
    assert_int_equal(CL("Step:ModeKeys.TRAIN", "Step:ModeKeys.TRAIN"), PHASE_STEP);
    assert_int_equal(CL("Step:ModeKeys.EVAL", "x"), PHASE_STEP);
    assert_int_equal(CL("Forward", "Forward"), PHASE_FORWARD);
    assert_int_equal(CL("Forward-pass", ""), PHASE_FORWARD);
    assert_int_equal(CL("Backward(post-forward)", "y"), PHASE_BACKWARD);
    assert_int_equal(CL("DataIterator", "anything"), PHASE_DATALOADER);
    assert_int_equal(CL("cpu_functions", "dataset::GetNext"), PHASE_DATALOADER);
    assert_int_equal(CL("", "DataLoaderIter::GetNext"), PHASE_DATALOADER);
    assert_int_equal(CL("", "DataLoaderWorker"), PHASE_DATALOADER);
    assert_int_equal(CL("", "DataLoaderIterInitialize"), PHASE_DATALOADER);
    assert_int_equal(CL("", "IteratorGetNextOp::DoCompute"), PHASE_DATALOADER);
    assert_int_equal(CL("", "MyGetNextThing"), PHASE_DATALOADER);
    assert_int_equal(CL("", "dataloaderworker"), PHASE_OTHER);  /* case-sensitive */
    assert_int_equal(CL("step:ModeKeys.TRAIN", ""), PHASE_OTHER);
    assert_int_equal(CL("gpu_functions-dev:0", "conv2d"), PHASE_OTHER);
    assert_int_equal(phase_classify(NULL, 0, NULL, 0), PHASE_OTHER);
    /* Slices are not NUL-terminated: only len bytes count. */
    assert_int_equal(phase_classify("Step:X", 4, "", 0), PHASE_OTHER);
}

/* Retained events are stored in 16 bytes while each fits (a duration under
 * 2^32 µs, a step number in 32 bits); one that does not re-stores them
 * all in full, and every event reads back as it was added, before and
 * after, in a clone too. */
static void test_recent_wide_events(void **state)
{
    (void)state;
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    phase_event want[300];
    for (int64_t i = 0; i < 300; i++) {
        int64_t step = i == 200 ? (int64_t)1 << 40 : i;         /* past int32 */
        int64_t dur = i == 100 ? (int64_t)5 << 32 : 1000 + i;   /* past uint32 */
        want[i] = (phase_event){step, 1000000 + i * 10000, dur};
        assert_int_equal(phase_stats_add(p, step, want[i].start_us, dur), 0);
        phase_event got[300];
        size_t n = phase_stats_recent(p, got, 300);
        assert_int_equal(n, (size_t)i + 1);
        assert_memory_equal(got, want, n * sizeof *got);
    }
    phase_event got[300];
    /* the long event overlaps everything after its start */
    size_t n = phase_stats_in_range(p, 1000000 + 150 * 10000 + 100, 1000000 + 151 * 10000, got, 300);
    assert_int_equal(n, 2);
    assert_memory_equal(&got[0], &want[100], sizeof *got);
    assert_memory_equal(&got[1], &want[150], sizeof *got);
    phase_stats *c = phase_stats_clone(p, PHASE_PROC_EXACT_CAP, PHASE_PROC_RECENT_CAP);
    assert_non_null(c);
    assert_int_equal(phase_stats_recent(c, got, 300), 300);
    assert_memory_equal(got, want, sizeof want);
    phase_stats_free(c);
    phase_stats_free(p);
}

/* The reference for the retained events: every event inserted by start
 * (after equal starts), one older than all of a full set dropped, the
 * oldest dropped past cap. */
typedef struct ref_recent {
    phase_event *v;
    size_t n, cap;
} ref_recent;

static void ref_put(ref_recent *r, phase_event e)
{
    if (r->n == r->cap && e.start_us < r->v[0].start_us)
        return;
    size_t i = r->n;
    while (i && r->v[i - 1].start_us > e.start_us)
        i--;
    memmove(&r->v[i + 1], &r->v[i], (r->n - i) * sizeof e);
    r->v[i] = e;
    if (++r->n > r->cap) {
        memmove(&r->v[0], &r->v[1], --r->n * sizeof e);
    }
}

/* Adds n events (start from start_of) to a fresh phase and to the
 * reference, and checks after every one that they read back the same,
 * in a clone too at the end. Returns the bytes per event at the end. */
static size_t check_against_ref(size_t cap, size_t n, int64_t (*start_of)(size_t, size_t))
{
    phase_stats *p = phase_stats_new_bounded("Step:ModeKeys.TRAIN", PHASE_STEP, 64, cap);
    ref_recent r = {calloc(cap + 1, sizeof(phase_event)), 0, cap};
    phase_event *got = calloc(cap, sizeof *got);
    for (size_t i = 0; i < n; i++) {
        phase_event e = {(int64_t)i, start_of(i, n), 1000 + (int64_t)(next_u64() % 90000)};
        assert_int_equal(phase_stats_add(p, e.step, e.start_us, e.dur_us), 0);
        ref_put(&r, e);
        assert_int_equal(phase_stats_recent_count(p), r.n);
        if (i % 97 == 0 || i == n - 1) {
            assert_int_equal(phase_stats_recent(p, got, cap), r.n);
            assert_memory_equal(got, r.v, r.n * sizeof *got);
        }
    }
    phase_stats *c = phase_stats_clone(p, 64, cap);
    assert_non_null(c);
    assert_int_equal(phase_stats_recent(c, got, cap), r.n);
    assert_memory_equal(got, r.v, r.n * sizeof *got);
    assert_int_equal(phase_stats_recent_bytes(c), phase_stats_recent_bytes(p));
    size_t bytes = phase_stats_recent_bytes(p);
    phase_stats_free(c);
    phase_stats_free(p);
    free(r.v);
    free(got);
    return bytes;
}

static const int64_t T0 = 1700000000000000;    /* epoch µs, Nov 2023 */

/* A step every 0.3 s for 5 h: in time order, so the base moves on. */
static int64_t in_order(size_t i, size_t n)
{
    (void)n;
    return T0 + (int64_t)i * 300000;
}

/* Files of 1,000 events each, newest file first (the report's backfill). */
static int64_t newest_file_first(size_t i, size_t n)
{
    size_t files = n / 1000, f = files - 1 - i / 1000;
    return T0 + (int64_t)(f * 1000 + i % 1000) * 300000;
}

/* Shuffled within a minute, and now and then an event half an hour old. */
static int64_t jittered(size_t i, size_t n)
{
    (void)n;
    int64_t t = T0 + (int64_t)i * 300000 + (int64_t)(next_u64() % 60000000);
    return i % 500 == 7 ? t - 1800000000LL : t;
}

/* Events 2 s apart: 4,096 of them span 2.3 h, past what 12 bytes hold. */
static int64_t sparse(size_t i, size_t n)
{
    (void)n;
    return T0 + (int64_t)i * 2000000;
}

/* Starts near both ends of int64: no overflow in the base. */
static int64_t extreme(size_t i, size_t n)
{
    return i < n / 2 ? INT64_MIN + (int64_t)i : INT64_MAX - 100000000 + (int64_t)i;
}

/* Retained events take 12 bytes while their starts lie within about an
 * hour; the base that makes that possible moves with the data (time
 * order, files newest first, jitter) and the events always read back as
 * a plain sorted list would hold them. */
static void test_recent_near_events(void **state)
{
    (void)state;
    assert_int_equal(check_against_ref(PHASE_RECENT_CAP, 60000, in_order), 12);
    assert_int_equal(check_against_ref(PHASE_RECENT_CAP, 20000, newest_file_first), 12);
    assert_int_equal(check_against_ref(512, 20000, jittered), 12);
    assert_int_equal(check_against_ref(PHASE_RECENT_CAP, 10000, sparse), 16);
    assert_int_equal(check_against_ref(64, 200, extreme), 16);
    /* A step number past 32 bits: 24 bytes, from 12 directly. */
    phase_stats *p = phase_stats_new("Step:ModeKeys.TRAIN", PHASE_STEP);
    assert_int_equal(phase_stats_add(p, 1, T0, 10), 0);
    assert_int_equal(phase_stats_recent_bytes(p), 12);
    assert_int_equal(phase_stats_add(p, (int64_t)1 << 40, T0 + 5, 10), 0);
    assert_int_equal(phase_stats_recent_bytes(p), 24);
    phase_event got[2];
    assert_int_equal(phase_stats_recent(p, got, 2), 2);
    assert_int_equal(got[0].start_us, T0);
    assert_int_equal(got[1].step, (int64_t)1 << 40);
    phase_stats_free(p);
}

/* The retained events as recent_put keeps them, written the slow way:
 * each inserted after every event starting no later, an event older than
 * every one of a full ring dropped, the oldest evicted past cap. */
typedef struct ref_ring {
    phase_event *v;
    size_t n, cap;
} ref_ring;

static void ref_add(ref_ring *r, phase_event e)
{
    if (r->n == r->cap && e.start_us < r->v[0].start_us)
        return;
    size_t i = r->n;
    while (i && r->v[i - 1].start_us > e.start_us)
        i--;
    memmove(r->v + i + 1, r->v + i, (r->n - i) * sizeof *r->v);
    r->v[i] = e;
    if (++r->n > r->cap) {
        memmove(r->v, r->v + 1, (r->cap) * sizeof *r->v);
        r->n = r->cap;
    }
}

/* A job read newest file first (issue 15): each file's events in time
 * order, the files in reverse, with ties at file edges, an event too wide
 * to pack, and the ring read in between (which joins the events staged so
 * far). The retained events equal the one-by-one inserts', at every read
 * and at the end, past the ring's capacity. */
static void test_recent_files_newest_first(void **state)
{
    (void)state;
    const size_t cap = 600;
    phase_stats *p = phase_stats_new_bounded("Step:ModeKeys.TRAIN", PHASE_STEP, 64, cap);
    ref_ring r = {calloc(cap + 1, sizeof(phase_event)), 0, cap};
    phase_event *got = calloc(cap, sizeof *got);
    assert_non_null(p);
    assert_non_null(r.v);
    int64_t step = 100000;
    for (int f = 40; f >= 0; f--) {
        size_t per = 10 + next_u64() % 40;
        int64_t t0 = 1000000 + (int64_t)f * 100000;
        for (size_t i = 0; i < per; i++) {
            /* Starts 0..2 apart: ties within a file; the last event of a
             * file may tie with the next newer file's first. */
            int64_t start = i + 1 == per ? t0 + 99999 : t0 + (int64_t)i * 2 - (int64_t)(i % 3 == 0);
            int64_t dur = f == 38 && i == 5 ? (int64_t)5 << 32 : 100 + (int64_t)(next_u64() % 50);
            phase_event e = {step--, start, dur};
            assert_int_equal(phase_stats_add(p, e.step, e.start_us, e.dur_us), 0);
            ref_add(&r, e);
            if (next_u64() % 97 == 0) {   /* a reader in the middle of a file */
                assert_int_equal(phase_stats_recent_count(p), r.n);
                assert_int_equal(phase_stats_recent(p, got, cap), r.n);
                assert_memory_equal(got, r.v, r.n * sizeof *got);
            }
        }
        if (f % 7 == 0) {
            size_t upto = 0;
            while (upto < r.n && r.v[upto].start_us <= t0 + 50)
                upto++;
            assert_int_equal(phase_stats_recent_upto(p, t0 + 50), upto);
            assert_int_equal(phase_stats_recent_from(p, 0, got, cap), r.n);
            assert_memory_equal(got, r.v, r.n * sizeof *got);
        }
    }
    phase_stats *c = phase_stats_clone(p, 64, cap);
    assert_non_null(c);
    assert_int_equal(phase_stats_recent_count(p), r.n);
    assert_int_equal(phase_stats_recent(p, got, cap), r.n);
    assert_memory_equal(got, r.v, r.n * sizeof *got);
    assert_int_equal(phase_stats_recent(c, got, cap), r.n);
    assert_memory_equal(got, r.v, r.n * sizeof *got);
    assert_int_equal(r.n, cap);   /* the ring filled: drops were exercised */
    phase_stats_free(c);
    phase_stats_free(p);
    free(got);
    free(r.v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_brute_force),
        cmocka_unit_test(test_recent_out_of_order),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_clone),
        cmocka_unit_test(test_exact_from_retained),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_recent_wide_events),
        cmocka_unit_test(test_recent_near_events),
        cmocka_unit_test(test_recent_files_newest_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
