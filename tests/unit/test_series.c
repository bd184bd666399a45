/* Unit tests for model/series: tiers under out-of-order ingest, queries
 * against brute-force aggregates, summary, memory bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/series/series.h"
#include "model/series/series_iter.h"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

typedef struct pt {
    int64_t ts;
    double v;
} pt;

static uint64_t rng = 0x1234567887654321ULL;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const int64_t T0 = 1591748100000000LL;   /* a whole 5 minutes */

/* n samples every step_us, values pseudo-random in [0, 100). */
static pt *make_points(size_t n, int64_t step_us)
{
    pt *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) {
        p[i].ts = T0 + (int64_t)i * step_us + (int64_t)(next_u64() % 1000);
        p[i].v = (double)(next_u64() % 100000) / 1000.0;
    }
    return p;
}

/* Adds the points one minute-file at a time: chunk order given by `order`
 * (newest first, or shuffled), ascending inside each chunk. */
static void ingest_chunks(series *s, const pt *p, size_t n, int shuffled)
{
    int64_t first_min = p[0].ts / 60000000, last_min = p[n - 1].ts / 60000000;
    size_t nch = (size_t)(last_min - first_min + 1);
    int64_t *order = malloc(nch * sizeof *order);
    for (size_t i = 0; i < nch; i++)
        order[i] = last_min - (int64_t)i;
    for (size_t i = nch; shuffled && i > 1; i--) {
        size_t j = next_u64() % i;
        int64_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (size_t c = 0; c < nch; c++)
        for (size_t i = 0; i < n; i++)
            if (p[i].ts / 60000000 == order[c])
                assert_int_equal(series_add(s, p[i].ts, p[i].v), 0);
    free(order);
}

static void check_summary(const series *s, const pt *p, size_t n)
{
    series_summary sum;
    series_get_summary(s, &sum);
    double mn = INFINITY, mx = -INFINITY, tot = 0;
    for (size_t i = 0; i < n; i++) {
        mn = fmin(mn, p[i].v);
        mx = fmax(mx, p[i].v);
        tot += p[i].v;
    }
    assert_int_equal(sum.count, (int64_t)n);
    assert_close(sum.min, mn, 0);
    assert_close(sum.max, mx, 0);
    assert_close(sum.mean, tot / (double)n, 1e-9);
    assert_int_equal(sum.first_us, p[0].ts);
    assert_int_equal(sum.last_us, p[n - 1].ts);
    assert_close(sum.last_value, p[n - 1].v, 0);
    assert_int_equal(sum.exact, n <= 1024);
    assert_true(sum.p5 <= sum.p50 && sum.p50 <= sum.p95 && sum.p95 <= sum.p99);
}

/* Compares series_query over [t0, t1) with a brute-force aggregate of the
 * points, using series.h's bin definition. */
/* exact: bins align with the tier's buckets, so each bin must equal the
 * brute-force aggregate; else a bucket wider than a bin feeds every bin it
 * overlaps, so a bin covers at least the samples inside it. */
static void check_bins_mode(const series *s, const pt *p, size_t n, int64_t t0, int64_t t1,
                            size_t nbins, int exact)
{
    series_bin *got = calloc(nbins, sizeof *got);
    series_query(s, t0, t1, nbins, got);
    for (size_t b = 0; b < nbins; b++) {
        int64_t lo = t0 + (int64_t)((__int128)(t1 - t0) * b / nbins);
        int64_t hi = t0 + (int64_t)((__int128)(t1 - t0) * (b + 1) / nbins);
        double mn = INFINITY, mx = -INFINITY, tot = 0;
        int64_t c = 0;
        for (size_t i = 0; i < n; i++)
            if (p[i].ts >= lo && p[i].ts < hi) {
                mn = fmin(mn, p[i].v);
                mx = fmax(mx, p[i].v);
                tot += p[i].v;
                c++;
            }
        if (!exact) {
            assert_true(got[b].count >= c);
            assert_true(!c || (got[b].min <= mn && got[b].max >= mx));
            assert_true(!got[b].count || (got[b].min <= got[b].mean && got[b].mean <= got[b].max));
            continue;
        }
        assert_int_equal(got[b].count, c);
        if (c) {
            assert_close(got[b].min, mn, 0);
            assert_close(got[b].max, mx, 0);
            assert_close(got[b].mean, tot / (double)c, 1e-9);
        }
    }
    free(got);
}

static void check_bins(const series *s, const pt *p, size_t n, int64_t t0, int64_t t1,
                       size_t nbins)
{
    check_bins_mode(s, p, n, t0, t1, nbins, 1);
}

static int64_t floor_to(int64_t t, int64_t w)
{
    return t / w * w;
}

/* 10k samples at 500 ms arriving newest minute first: raw + tier 1. */
static void test_cascade_raw_t1(void **state)
{
    (void)state;
    size_t n = 10000;
    pt *p = make_points(n, 500000);
    series *s = series_new("cpu", "CPUUtilization", "cpu3");
    ingest_chunks(s, p, n, 0);
    check_summary(s, p, n);
    int64_t raw_oldest = p[n - SERIES_RAW_CAP].ts;
    int64_t raw_t0 = floor_to(raw_oldest, SERIES_T1_WIDTH_US) + SERIES_T1_WIDTH_US;
    check_bins(s, p, n, raw_t0, p[n - 1].ts + 1, 200);    /* raw: exact */
    check_bins(s, p, n, raw_t0 + 12345, p[n - 1].ts - 999, 77);
    int64_t old_t1 = floor_to(raw_oldest, SERIES_T1_WIDTH_US);
    size_t nb = (size_t)((old_t1 - T0) / SERIES_T1_WIDTH_US);
    check_bins(s, p, n, T0, old_t1, nb);                  /* 10 s buckets */
    check_bins_mode(s, p, n, T0 - 10 * SERIES_T1_WIDTH_US, old_t1, nb / 5 + 10, 0);
    check_bins_mode(s, p, n, T0 + 3333333, old_t1 - 10, nb * 3 + 1, 0);
    series_free(s);
    free(p);
}

/* 10k samples at 5 s in shuffled minute order: all three tiers. */
static void test_cascade_all_tiers(void **state)
{
    (void)state;
    size_t n = 10000;
    pt *p = make_points(n, 5000000);
    series *s = series_new("gpu", "GPUUtilization", "gpu0");
    ingest_chunks(s, p, n, 1);
    check_summary(s, p, n);
    int64_t raw_oldest = p[n - SERIES_RAW_CAP].ts;
    int64_t raw_t0 = floor_to(raw_oldest, SERIES_T1_WIDTH_US) + SERIES_T1_WIDTH_US;
    check_bins(s, p, n, raw_t0, p[n - 1].ts + 1, 200);
    /* Tier 1 keeps the newest SERIES_T1_CAP 10 s keys of the older samples
     * (one sample per 5 s: two per key). */
    int64_t raw_key = raw_oldest / SERIES_T1_WIDTH_US;
    int64_t t1_oldest_key = raw_key - SERIES_T1_CAP + 1;
    int64_t t1_lo = t1_oldest_key * SERIES_T1_WIDTH_US, t1_hi = raw_key * SERIES_T1_WIDTH_US;
    check_bins(s, p, n, t1_lo, t1_hi, (size_t)(raw_key - t1_oldest_key));
    /* Tier 2: 5 min buckets, up to the tier-1 start. */
    int64_t t2_hi = floor_to(t1_lo, SERIES_T2_WIDTH_US);
    check_bins(s, p, n, T0, t2_hi, (size_t)((t2_hi - T0) / SERIES_T2_WIDTH_US));
    /* Range summary over raw data is exact. */
    series_summary rs;
    series_range_summary(s, raw_t0, INT64_MAX, &rs);
    int64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += p[i].ts >= raw_t0;
    assert_int_equal(rs.count, c);
    assert_int_equal(rs.last_us, p[n - 1].ts);
    series_range_summary(s, 0, INT64_MAX, &rs);
    assert_int_equal(rs.count, (int64_t)n);
    series_free(s);
    free(p);
}

static void test_duplicates_and_bad_values(void **state)
{
    (void)state;
    series *s = series_new("memory", "MemoryUtilization", NULL);
    assert_string_equal(series_name(s), "");
    assert_int_equal(series_add(s, 1000, 1.0), 0);
    assert_int_equal(series_add(s, 1000, 3.0), 0);
    uint64_t g = series_generation(s);
    assert_int_equal(series_add(s, 2000, NAN), -1);
    assert_int_equal(series_add(s, 2000, INFINITY), -1);
    assert_int_equal(series_generation(s), g);
    series_bin b;
    series_query(s, 0, 10000, 1, &b);
    assert_int_equal(b.count, 2);
    assert_close(b.mean, 2.0, 0);
    series_summary sum;
    series_get_summary(s, &sum);
    assert_int_equal(sum.count, 2);
    assert_close(sum.p50, 2.0, 0);
    assert_close(sum.last_value, 3.0, 0);   /* later arrival wins a tie */
    series_query(s, 5000, 10000, 1, &b);
    assert_int_equal(b.count, 0);
    series_free(s);
}

static void test_memory_bounds(void **state)
{
    (void)state;
    series *small = series_new("cpu", "CPUUtilization", "cpu0");
    for (int i = 0; i < 30; i++)
        series_add(small, T0 + i * 500000LL, i);
    assert_true(series_memory_bytes(small) < 2048);
    series_free(small);

    series *big = series_new("cpu", "CPUUtilization", "cpu0");
    for (int64_t i = 0; i < 1000000; i++)
        assert_int_equal(series_add(big, T0 + i * 1000000LL, (double)(i % 977)), 0);
    size_t bytes = series_memory_bytes(big);
    assert_true(bytes < 400 * 1024);
    series_summary sum;
    series_get_summary(big, &sum);
    assert_int_equal(sum.count, 1000000);
    assert_false(sum.exact);
    assert_true(fabs(sum.p50 - 488) <= 0.01 * 488 + 1);
    series_free(big);
}

/* A lean series (a CPU core on a node with many) keeps the same summary
 * and per-sample usage bands as a full one, answers queries from 10 s
 * buckets (the newest SERIES_LEAN_T1_CAP of them, then 5 min), and costs
 * a fraction. */
static void test_lean_series(void **state)
{
    (void)state;
    size_t n = 7200 * 3;    /* 3 h at 500 ms */
    pt *p = make_points(n, 500000);
    series *full = series_new("cpu", "CPUUtilization", "cpu0");
    series *lean = series_new("cpu", "CPUUtilization", "cpu0");
    series_count_bands(full, 10, 90);
    series_count_bands(lean, 10, 90);
    /* made lean after some samples: those roll up, none is lost */
    ingest_chunks(lean, p + n - 1000, 1000, 0);
    assert_false(series_is_lean(lean));
    assert_int_equal(series_make_lean(lean), 0);
    assert_true(series_is_lean(lean));
    ingest_chunks(lean, p, n - 1000, 1);
    ingest_chunks(full, p, n, 1);
    check_summary(lean, p, n);
    series_summary a, b;
    series_get_summary(full, &a);
    series_get_summary(lean, &b);
    assert_true(a.p5 == b.p5 && a.p50 == b.p50 && a.p95 == b.p95 && a.p99 == b.p99);
    assert_true(a.mean == b.mean && a.min == b.min && a.max == b.max);
    int64_t bf[3], bl[3], want[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        want[p[i].v < 10 ? 0 : p[i].v > 90 ? 2 : 1]++;
    assert_true(series_band_counts(full, bf) && series_band_counts(lean, bl));
    for (int k = 0; k < 3; k++)
        assert_true(bf[k] == want[k] && bl[k] == want[k]);
    int64_t none[3];
    series *plain = series_new("gpu", "GPUUtilization", "gpu0");
    assert_false(series_band_counts(plain, none));
    series_free(plain);
    /* the newest 10 s buckets: exact over bucket-aligned bins */
    int64_t end = floor_to(p[n - 1].ts, SERIES_T1_WIDTH_US) + SERIES_T1_WIDTH_US;
    int64_t span = SERIES_LEAN_T1_CAP * SERIES_T1_WIDTH_US;
    check_bins(lean, p, n, end - span + SERIES_T1_WIDTH_US, end, SERIES_LEAN_T1_CAP - 1);
    /* older in 5 min buckets */
    int64_t t2end = floor_to(end - span, SERIES_T2_WIDTH_US);
    check_bins(lean, p, n, floor_to(p[0].ts, SERIES_T2_WIDTH_US), t2end,
               (size_t)((t2end - floor_to(p[0].ts, SERIES_T2_WIDTH_US)) / SERIES_T2_WIDTH_US));
    size_t lb = series_memory_bytes(lean), fb = series_memory_bytes(full);
    print_message("3 h at 500 ms: lean %zu bytes, full %zu bytes\n", lb, fb);
    assert_true(lb * 4 < fb);
    series_free(full);
    series_free(lean);
    free(p);
}

/* series_visit's raw points (width 0), collected oldest first. */
typedef struct raw_seen {
    pt *p;
    size_t n, cap;
    int64_t counted;
} raw_seen;

static int see_point(void *ud, const series_point *q)
{
    raw_seen *r = ud;
    r->counted += q->count;
    if (q->width_us == 0) {
        if (r->n == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 256;
            r->p = realloc(r->p, r->cap * sizeof *r->p);
        }
        r->p[r->n++] = (pt){q->t_us, q->mean};
    }
    return 0;
}

static int cmp_ts(const void *a, const void *b)
{
    int64_t x = ((const pt *)a)->ts, y = ((const pt *)b)->ts;
    return (x > y) - (x < y);
}

/* Ingests p (newest minute first, shuffled, or in time order as a tail
 * reads it: order 0, 1, 2) and checks that the raw
 * tier reads back the newest SERIES_RAW_CAP samples bit for bit, whatever
 * form it stored them in, and that no sample is lost. Returns the bytes
 * the series holds. */
static size_t check_raw_exact(const pt *p, size_t n, int order)
{
    series *s = series_new("gpu", "GPUUtilization", "gpu0");
    if (order == 2)
        for (size_t i = 0; i < n; i++)
            assert_int_equal(series_add(s, p[i].ts, p[i].v), 0);
    else
        ingest_chunks(s, p, n, order);
    raw_seen r = {0};
    series_visit(s, INT64_MIN, INT64_MAX, see_point, &r);
    assert_int_equal(r.counted, (int64_t)n);
    size_t want = n < SERIES_RAW_CAP ? n : SERIES_RAW_CAP;
    assert_int_equal(r.n, want);
    pt *sorted = malloc(n * sizeof *sorted);
    memcpy(sorted, p, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_ts);
    for (size_t i = 0; i < want; i++) {
        assert_int_equal(r.p[i].ts, sorted[n - want + i].ts);
        assert_memory_equal(&r.p[i].v, &sorted[n - want + i].v, sizeof(double));
    }
    check_summary(s, sorted, n);
    /* samples rolled up from raw (after any change of base) sit in the
     * 10 s buckets of their own time: exact over aligned bins */
    int64_t t0 = floor_to(sorted[0].ts, SERIES_T1_WIDTH_US);
    int64_t t1 = floor_to(sorted[n - 1].ts, SERIES_T1_WIDTH_US) + SERIES_T1_WIDTH_US;
    if (t1 - t0 < 5 * 3600000000LL)
        check_bins(s, sorted, n, t0, t1, (size_t)((t1 - t0) / SERIES_T1_WIDTH_US));
    size_t bytes = series_memory_bytes(s);
    free(sorted);
    free(r.p);
    series_free(s);
    return bytes;
}

/* The raw tier stores a sample in 8 bytes while its value is a float or
 * a number of hundredths and the tier spans under 35 min; any other
 * sample turns it to 16-byte samples. Either way every sample reads back
 * exactly as added. */
static void test_compact_raw_exact(void **state)
{
    (void)state;
    size_t n = 7200 * 3;    /* 3 h at 500 ms: the base moves many times */
    pt *p = make_points(n, 500000);
    for (size_t i = 0; i < n; i++)      /* hundredths, as system metrics */
        p[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    check_raw_exact(p, n, 0);
    check_raw_exact(p, n, 1);
    check_raw_exact(p, n, 2);           /* the window slides: new bases */
    for (size_t i = 0; i < n; i++)      /* binary fractions: float form */
        p[i].v = (double)(next_u64() % 100000) / 1024.0;
    check_raw_exact(p, n, 0);
    for (size_t i = 0; i < n; i++)      /* large integers fit no 4 bytes */
        p[i].v = 3e9 + (double)(next_u64() % 1000003);
    check_raw_exact(p, n, 1);
    for (size_t i = 0; i < n; i++)      /* one third of a percent: neither */
        p[i].v = (i == n - 100) ? 1.0 / 3 : (double)(next_u64() % 10001) / 100.0;
    check_raw_exact(p, n, 0);
    for (size_t i = 0; i < n; i++)      /* quarters fit both forms... */
        p[i].v = (double)(next_u64() % 400) / 4.0;
    p[n - 1000].v = 1.0 / 1024;         /* ...until one needs the float, */
    check_raw_exact(p, n, 0);           /* met while an older file stages */
    p[0].v = -0.0;                      /* sorts and prints as -0.0 */
    check_raw_exact(p, 10, 0);
    free(p);
    /* 2,048 samples a minute apart span 34 h: no 32-bit offset holds them */
    pt *slow = make_points(3000, 60000000);
    for (size_t i = 0; i < 3000; i++)
        slow[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    check_raw_exact(slow, 3000, 1);
    free(slow);
    /* a sample far in the past or future of the rest */
    pt odd[3] = {{T0, 1.5}, {T0 + 1000000, 2.25}, {T0 + 5000000000000LL, 3.75}};
    check_raw_exact(odd, 3, 0);
    /* compact costs half: 2,048 hundredths vs 2,048 thirds */
    pt *q = make_points(SERIES_RAW_CAP, 500000);
    for (size_t i = 0; i < SERIES_RAW_CAP; i++)
        q[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    size_t narrow = check_raw_exact(q, SERIES_RAW_CAP, 0);
    for (size_t i = 0; i < SERIES_RAW_CAP; i++)
        q[i].v = (double)(next_u64() % 10001) / 3.0;
    size_t wide = check_raw_exact(q, SERIES_RAW_CAP, 0);
    print_message("2048 samples: %zu bytes compact, %zu wide\n", narrow, wide);
    assert_true(narrow * 10 < wide * 6);
    /* a raw sample of a utilization (hundredths in 0..655.35) takes 6
     * bytes, of other hundredths 8: the series under 85 % */
    for (size_t i = 0; i < SERIES_RAW_CAP; i++)
        q[i].v = 1000 + (double)(int64_t)(next_u64() % 10001) / 100.0;
    size_t dec2 = check_raw_exact(q, SERIES_RAW_CAP, 0);
    print_message("2048 samples: %zu bytes utilization, %zu other hundredths\n", narrow, dec2);
    assert_true(narrow * 100 < dec2 * 85);
    free(q);
}

/* Utilizations start in 6-byte samples; a value out of that form widens
 * every sample already held, raw and staged, without changing one. */
static void test_raw_h16_widens_exact(void **state)
{
    (void)state;
    size_t n = 3000;
    pt *p = make_points(n, 500000);
    const double odd[] = {655.36, 1000.25, -1.5, 1.0 / 1024, 1.0 / 3, 123456.789, -0.0, 655.35};
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        for (size_t i = 0; i < n; i++)
            p[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
        p[n - 1500 + k].v = odd[k];     /* met while an older file stages */
        for (int order = 0; order < 3; order++)
            check_raw_exact(p, n, order);
        for (size_t i = 0; i < n; i++)  /* quarters: H16, then F32 */
            p[i].v = (double)(next_u64() % 400) / 4.0;
        p[n - 10].v = odd[k];
        check_raw_exact(p, n, 0);
    }
    free(p);
}

static void assert_same_percentiles(const series *a, const series *b)
{
    series_summary x, y;
    series_get_summary(a, &x);
    series_get_summary(b, &y);
    assert_int_equal(x.count, y.count);
    assert_int_equal(x.exact, y.exact);
    const double xa[] = {x.p5, x.p50, x.p95, x.p99, x.err_abs, x.err_rel, x.min, x.max};
    const double ya[] = {y.p5, y.p50, y.p95, y.p99, y.err_abs, y.err_rel, y.min, y.max};
    assert_memory_equal(xa, ya, sizeof xa);
}

/* A series keeps no second copy of its first 1,024 values: they are all
 * raw samples, and its exact percentiles come from there. Its answers
 * are bit for bit those of a series that keeps the copy (a lean one: no
 * raw tier), before, at and past the end of exact mode, and after going
 * lean itself; it costs 4 bytes a sample less. Newest minute first, in
 * minute files, as the scanner reads. */
static void test_exact_from_raw(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 2, 1000, 1024, 1025, 3000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        pt *p = make_points(n, 500000);
        for (size_t i = 0; i < n; i++)  /* utilization, and a few past 655.35 */
            p[i].v = i % 101 == 3 ? 700.25 : (double)(int64_t)(next_u64() % 10001) / 100.0;
        series *a = series_new("gpu", "GPUUtilization", "gpu0");
        series *b = series_new("gpu", "GPUUtilization", "gpu0");
        series *c = series_new("gpu", "GPUUtilization", "gpu0");
        assert_int_equal(series_make_lean(b), 0);
        ingest_chunks(a, p, n, 0);
        ingest_chunks(b, p, n, 0);
        for (size_t i = 0; i < n; i++) {
            if (i == n / 2)
                assert_int_equal(series_make_lean(c), 0);
            assert_int_equal(series_add(c, p[i].ts, p[i].v), 0);
        }
        assert_same_percentiles(a, b);
        assert_same_percentiles(a, b);  /* the cached answer too */
        assert_same_percentiles(c, b);
        if (n == 1000) {
            /* 1,000 samples: 8 bytes each raw (some past 655.35), and no
             * 4-byte copy */
            size_t bytes = series_memory_bytes(a);
            print_message("1000 samples: %zu bytes\n", bytes);
            assert_true(bytes < 1000 * 8 + 3000);
        }
        series_free(a);
        series_free(b);
        series_free(c);
        free(p);
    }
}

/* series_visit's buckets (width > 0), keyed by floor(start / width). */
typedef struct bucket_seen {
    series_point *p;
    int64_t *key;
    size_t n, cap;
} bucket_seen;

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int see_bucket(void *ud, const series_point *q)
{
    bucket_seen *r = ud;
    if (q->width_us == 0)
        return 0;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 256;
        r->p = realloc(r->p, r->cap * sizeof *r->p);
        r->key = realloc(r->key, r->cap * sizeof *r->key);
    }
    /* a start clamped to the first sample stays in its bucket */
    r->key[r->n] = floordiv(q->t_us, q->width_us);
    r->p[r->n++] = *q;
    return 0;
}

/* Index of the bucket of width w and key k in `seen`, or -1. It lists
 * the 5 min buckets, then the 10 s ones, each in key order. */
static ptrdiff_t find_bucket(const bucket_seen *b, int64_t w, int64_t k)
{
    size_t n2 = 0;
    while (n2 < b->n && b->p[n2].width_us == SERIES_T2_WIDTH_US)
        n2++;   /* a handful */
    size_t lo = w == SERIES_T2_WIDTH_US ? 0 : n2, hi = w == SERIES_T2_WIDTH_US ? n2 : b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->key[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->n && b->p[lo].width_us == w && b->key[lo] == k ? (ptrdiff_t)lo : -1;
}

/* The bucket of `seen` holding the sample at ts: its 10 s bucket when the
 * 10 s tier has one for that key (a tier only passes on keys older than
 * all it keeps), else its 5 min bucket. -1 when none. */
static ptrdiff_t bucket_of(const bucket_seen *b, int64_t ts)
{
    ptrdiff_t j = find_bucket(b, SERIES_T1_WIDTH_US, floordiv(ts, SERIES_T1_WIDTH_US));
    return j >= 0 ? j : find_bucket(b, SERIES_T2_WIDTH_US, floordiv(ts, SERIES_T2_WIDTH_US));
}

/* Ingests p as check_raw_exact does (lean: with no raw tier) and checks
 * every 10 s and 5 min bucket against brute force, bit for bit: min, max
 * and count always; the mean (sum / count) when the sum's order is
 * known: every value an integer (any order gives the same sum), or added
 * in time order (a 10 s bucket sums its samples oldest first, a 5 min
 * bucket the sums of the 10 s buckets it took, oldest first), or no
 * 5 min buckets (a 10 s bucket's samples come from one minute file,
 * oldest first). Returns the bytes the series holds. */
static size_t check_buckets_exact(const pt *p, size_t n, int order, int lean)
{
    series *s = series_new("gpu", "GPUUtilization", "gpu0");
    if (lean)
        assert_int_equal(series_make_lean(s), 0);
    if (order == 2)
        for (size_t i = 0; i < n; i++)
            assert_int_equal(series_add(s, p[i].ts, p[i].v), 0);
    else
        ingest_chunks(s, p, n, order);
    bucket_seen b = {0};
    series_visit(s, INT64_MIN, INT64_MAX, see_bucket, &b);
    pt *sorted = malloc(n * sizeof *sorted);
    memcpy(sorted, p, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_ts);
    size_t nraw = lean ? 0 : n < SERIES_RAW_CAP ? n : SERIES_RAW_CAP;
    double *mn = malloc(b.n * sizeof *mn), *mx = malloc(b.n * sizeof *mx);
    double *sum = calloc(b.n, sizeof *sum), *s10 = calloc(b.n, sizeof *s10);
    int64_t *cnt = calloc(b.n, sizeof *cnt), *k10 = malloc(b.n * sizeof *k10);
    int64_t *n10 = calloc(b.n, sizeof *n10);
    int integers = 1, has_t2 = 0;
    for (size_t i = 0; i < b.n; i++)
        has_t2 |= b.p[i].width_us == SERIES_T2_WIDTH_US;
    for (size_t i = 0; i < n - nraw; i++) {
        const pt *q = &sorted[i];
        ptrdiff_t j = bucket_of(&b, q->ts);
        assert_true(j >= 0);
        integers &= q->v == floor(q->v);
        if (cnt[j] == 0 || q->v < mn[j])  /* the first of equal ones: -0.0 == 0.0 */
            mn[j] = q->v;
        if (cnt[j] == 0 || q->v > mx[j])
            mx[j] = q->v;
        cnt[j]++;
        /* time-ordered sums: per 10 s key, folded into the bucket when
         * the key changes (a 5 min bucket adds whole 10 s sums) */
        int64_t k = floordiv(q->ts, SERIES_T1_WIDTH_US);
        if (n10[j] && k10[j] != k) {
            sum[j] = cnt[j] - 1 == n10[j] ? s10[j] : sum[j] + s10[j];
            n10[j] = 0;
        }
        s10[j] = n10[j]++ ? s10[j] + q->v : q->v;
        k10[j] = k;
    }
    int64_t counted = 0;
    for (size_t j = 0; j < b.n; j++) {
        double total = cnt[j] == n10[j] ? s10[j] : sum[j] + s10[j];
        double mean = total / (double)cnt[j];
        assert_int_equal(b.p[j].count, cnt[j]);
        assert_memory_equal(&b.p[j].min, &mn[j], sizeof(double));
        assert_memory_equal(&b.p[j].max, &mx[j], sizeof(double));
        if (integers || order == 2 || !has_t2)
            assert_memory_equal(&b.p[j].mean, &mean, sizeof(double));
        else
            assert_true(fabs(b.p[j].mean - mean) <= 1e-12 * fabs(mean));
        counted += b.p[j].count;
    }
    assert_int_equal(counted, (int64_t)(n - nraw));
    size_t bytes = series_memory_bytes(s);
    free(mn);
    free(mx);
    free(sum);
    free(s10);
    free(cnt);
    free(k10);
    free(n10);
    free(b.p);
    free(b.key);
    free(sorted);
    series_free(s);
    return bytes;
}

static void check_buckets_all(const pt *p, size_t n)
{
    for (int order = 0; order < 3; order++) {
        check_buckets_exact(p, n, order, 0);
        check_buckets_exact(p, n, order, 1);
    }
}

/* Buckets store their key in 32 bits and min and max in 4 bytes while
 * every bucket of the tier fits (a float or hundredths, model/series/narrow.h);
 * any other bucket turns the tier to 40-byte buckets. Either way each
 * bucket reads back exactly what its samples make. 8 h at 500 ms fills
 * the 10 s tier and spills 2.3 h into 5 min buckets. */
static void test_compact_buckets_exact(void **state)
{
    (void)state;
    size_t n = 7200 * 8;
    pt *p = make_points(n, 500000);
    for (size_t i = 0; i < n; i++)      /* hundredths, as system metrics */
        p[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    check_buckets_all(p, n);
    for (size_t i = 0; i < n; i++)      /* binary fractions: float form */
        p[i].v = (double)(next_u64() % 100000) / 1024.0;
    check_buckets_all(p, n);
    for (size_t i = 0; i < n; i++)      /* integers: any order sums alike */
        p[i].v = (double)(next_u64() % 101);
    check_buckets_all(p, n);
    for (size_t i = 0; i < n; i++)      /* large integers fit no 4 bytes */
        p[i].v = 3e9 + (double)(next_u64() % 1000003);
    check_buckets_all(p, n);
    for (size_t i = 0; i < n; i++)      /* quarters fit both forms... */
        p[i].v = (double)(next_u64() % 400) / 4.0;
    p[n / 2 + 7].v = 1.0 / 1024;        /* ...until one needs the float */
    p[n / 5 + 3].v = 7.0 / 1024;        /* (in the 5 min tier too) */
    check_buckets_all(p, n);
    for (size_t i = 0; i < n; i++)      /* hundredths and one binary */
        p[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    p[n / 2 + 7].v = 1.0 / 1024;        /* fraction: no 4-byte form holds both */
    check_buckets_all(p, n);
    p[n / 2 + 7].v = 1.0 / 3;           /* one third of a percent: neither */
    p[n / 5 + 3].v = 2.0 / 3;
    check_buckets_all(p, n);
    for (size_t i = 0; i < n; i++)      /* -0.0 reads back as -0.0; no */
        p[i].v = (double)(int64_t)(1 + next_u64() % 10000) / 100.0;
    p[n / 2 + 7].v = -0.0;              /* other zero shares its 5 min */
    p[n / 2 + 8].v = 0.0;               /* bucket, whose order of merging */
    p[n / 5 + 3].v = -0.0;              /* depends on the files' order */
    check_buckets_all(p, n);
    /* a sample far in the past: a 10 s key beyond 32 bits */
    pt *q = make_points(3000, 500000);
    for (size_t i = 0; i < 3000; i++)
        q[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    q[0].ts = -30000000000000000LL;     /* (in time order: minute files */
    check_buckets_exact(q, 3000, 2, 0); /* from there to now are too many) */
    check_buckets_exact(q, 3000, 2, 1);
    q[0].ts = -30000000000000LL;        /* and one a 32-bit key still holds */
    check_buckets_exact(q, 3000, 2, 0);
    check_buckets_exact(q, 3000, 2, 1);
    free(q);
    /* compact costs 0.6 of wide: 8 h of hundredths vs 8 h of thirds */
    for (size_t i = 0; i < n; i++)
        p[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    size_t narrow = check_buckets_exact(p, n, 2, 1);
    for (size_t i = 0; i < n; i++)
        p[i].v = (double)(next_u64() % 10001) / 3.0;
    size_t wide = check_buckets_exact(p, n, 2, 1);
    print_message("8 h lean: %zu bytes compact, %zu wide\n", narrow, wide);
    assert_true(narrow * 10 < wide * 7);
    /* utilization buckets take 18 bytes, other hundredths' 24 (and raw
     * samples 6 and 8): 8 h of a full series */
    for (size_t i = 0; i < n; i++)
        p[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    size_t util = check_buckets_exact(p, n, 2, 0);
    for (size_t i = 0; i < n; i++)
        p[i].v = 1000 + (double)(int64_t)(next_u64() % 10001) / 100.0;
    size_t dec2 = check_buckets_exact(p, n, 2, 0);
    print_message("8 h: %zu bytes utilization, %zu other hundredths\n", util, dec2);
    assert_true(util * 100 < dec2 * 82);
    free(p);
    /* 70,000 samples in 10 s (one every 100 us), more than a 2-byte
     * count holds: the 10 s bucket widens, and counts every sample */
    size_t m = 70000;
    pt *dense = make_points(m, 100);
    for (size_t i = 0; i < m; i++) {
        dense[i].ts = T0 + (int64_t)i * 100;    /* in time order: no jitter */
        dense[i].v = (double)(int64_t)(next_u64() % 10001) / 100.0;
    }
    check_buckets_exact(dense, m, 2, 1);
    check_buckets_exact(dense, m, 0, 1);
    check_buckets_exact(dense, m, 2, 0);
    free(dense);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cascade_raw_t1),
        cmocka_unit_test(test_cascade_all_tiers),
        cmocka_unit_test(test_duplicates_and_bad_values),
        cmocka_unit_test(test_memory_bounds),
        cmocka_unit_test(test_lean_series),
        cmocka_unit_test(test_compact_raw_exact),
        cmocka_unit_test(test_raw_h16_widens_exact),
        cmocka_unit_test(test_exact_from_raw),
        cmocka_unit_test(test_compact_buckets_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
