/* series_add_block (issue 28): a block of samples must leave a series
 * exactly as the same samples added one by one with series_add, to the
 * last bit of every figure a report prints: the summary (mean from the
 * exact sum, percentiles from the exact buffer or the sketch), the band
 * counts, every tier's bins and the generation. Blocks of
 * random lengths over files read newest first or shuffled, for a
 * utilization (linear histogram), a throughput (log sketch, values of
 * every magnitude and sign), lean cores and series with bands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/series/series.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const int64_t T0 = 1700000000000000LL;

enum { VAL_UTIL, VAL_WIDE, VAL_FEW, VAL_MB };

/* A value of kind k: hundredths in 0..100 (how smdebug writes a
 * utilization), any magnitude and sign with zeros (outside the sums'
 * fast range and the histogram), a handful of repeated values, or a
 * throughput in hundredths up to 500 (the log sketch's usual case). */
static double make_value(int k)
{
    if (k == VAL_MB)
        return (double)(next_u64() % 50000) / 100.0;
    if (k == VAL_UTIL)
        return (double)(next_u64() % 10001) / 100.0;
    if (k == VAL_FEW)
        return (double)(next_u64() % 4) * 25.0;
    uint64_t r = next_u64();
    if (r % 17 == 0)
        return 0.0;
    double m = (double)(r >> 11) / 9007199254740992.0;
    return (r & 1 ? -m : m) * pow(10, (int)(next_u64() % 40) - 20);
}

typedef struct job {
    int64_t *ts;
    double *v;
    size_t n;
} job;

/* `minutes` files of samples every step_us, in the order a scanner reads
 * them (newest first, or shuffled), ascending inside each file. */
static job make_job(int minutes, int64_t step_us, int kind, int shuffled)
{
    size_t per = (size_t)(60000000 / step_us);
    job j = {malloc(per * minutes * sizeof(int64_t)), malloc(per * minutes * sizeof(double)), 0};
    int *order = malloc(minutes * sizeof *order);
    for (int i = 0; i < minutes; i++)
        order[i] = minutes - 1 - i;
    for (int i = minutes; shuffled && i > 1; i--) {
        int k = (int)(next_u64() % (uint64_t)i), t = order[i - 1];
        order[i - 1] = order[k];
        order[k] = t;
    }
    for (int f = 0; f < minutes; f++)
        for (size_t i = 0; i < per; i++) {
            j.ts[j.n] = T0 + (int64_t)order[f] * 60000000 + (int64_t)i * step_us + 145136;
            j.v[j.n++] = make_value(kind);
        }
    free(order);
    return j;
}

static series *new_series(const char *dim, int lean, int bands)
{
    series *s = series_new("cpu", dim, "cpu0");
    assert_non_null(s);
    if (bands)
        series_count_bands(s, 20, 80);
    if (lean)
        assert_int_equal(series_make_lean(s), 0);
    return s;
}

static void assert_same_bits(const void *a, const void *b, size_t n)
{
    assert_memory_equal(a, b, n);
}

/* Every figure a reader can take, compared bit for bit. */
static void assert_same_series(const series *a, const series *b, const job *j)
{
    series_summary sa, sb;
    series_get_summary(a, &sa);
    series_get_summary(b, &sb);
    assert_int_equal(sa.count, sb.count);
    assert_same_bits(&sa, &sb, sizeof sa);
    int64_t ba[3], bb[3];
    assert_int_equal(series_band_counts(a, ba), series_band_counts(b, bb));
    assert_same_bits(ba, bb, sizeof ba);
    assert_int_equal(series_generation(a), series_generation(b));
    /* Not equal: the fixed-point sum holds most values, so its partials
     * (the others') may need a heap of another size than the value-by-
     * value sum's: at most 255 doubles (FSUM_MAX) either way. */
    assert_true(series_memory_bytes(b) <= series_memory_bytes(a) + 255 * sizeof(double));
    int64_t lo = T0 - 60000000, hi = T0 + (int64_t)(j->n / 2 + 120) * 1000000;
    static const size_t nbins[] = {1, 7, 60, 500, 4000};
    for (size_t k = 0; k < sizeof nbins / sizeof nbins[0]; k++) {
        series_bin *qa = calloc(nbins[k], sizeof *qa), *qb = calloc(nbins[k], sizeof *qb);
        series_query(a, lo, hi, nbins[k], qa);
        series_query(b, lo, hi, nbins[k], qb);
        assert_same_bits(qa, qb, nbins[k] * sizeof *qa);
        free(qa);
        free(qb);
    }
    series_range_summary(a, lo + 600000000, hi, &sa);
    series_range_summary(b, lo + 600000000, hi, &sb);
    assert_same_bits(&sa, &sb, sizeof sa);
}

/* j into a one sample at a time and into b in blocks of 1..max. */
static void add_both(series *a, series *b, const job *j, size_t max)
{
    for (size_t i = 0; i < j->n; i++)
        assert_int_equal(series_add(a, j->ts[i], j->v[i]), 0);
    for (size_t i = 0; i < j->n;) {
        size_t k = 1 + (size_t)(next_u64() % max);
        if (k > j->n - i)
            k = j->n - i;
        assert_int_equal(series_add_block(b, j->ts + i, j->v + i, k), k);
        i += k;
    }
}

static void check_shape(const char *dim, int kind, int lean, int bands, int minutes,
                        int64_t step_us, int shuffled)
{
    job j = make_job(minutes, step_us, kind, shuffled);
    series *a = new_series(dim, lean, bands), *b = new_series(dim, lean, bands);
    add_both(a, b, &j, 256);
    assert_same_series(a, b, &j);
    series_free(a);
    series_free(b);
    free(j.ts);
    free(j.v);
}

static void test_utilization(void **state)
{
    (void)state;
    /* 10 min: all raw, the exact buffer's end; 60 min: past raw, the
     * histogram; 1 s samples: past the 35-minute raw base */
    check_shape("CPUUtilization", VAL_UTIL, 0, 0, 10, 500000, 0);
    check_shape("GPUUtilization", VAL_UTIL, 0, 0, 60, 500000, 0);
    check_shape("GPUUtilization", VAL_UTIL, 0, 0, 90, 1000000, 1);
    check_shape("MemoryUsedPercent", VAL_FEW, 0, 0, 30, 500000, 1);
}

static void test_wide_values(void **state)
{
    (void)state;
    check_shape("ReadThroughputMB", VAL_MB, 0, 0, 60, 500000, 0);
    check_shape("SentMBps", VAL_MB, 0, 0, 20, 500000, 1);
    check_shape("ReadThroughputMB", VAL_WIDE, 0, 0, 10, 500000, 0);
    check_shape("ReadThroughputMB", VAL_WIDE, 0, 0, 60, 500000, 1);
    check_shape("CPUUtilization", VAL_WIDE, 0, 0, 40, 500000, 0);
}

static void test_lean_and_bands(void **state)
{
    (void)state;
    check_shape("CPUUtilization", VAL_UTIL, 1, 1, 10, 500000, 0);
    check_shape("CPUUtilization", VAL_UTIL, 1, 1, 60, 500000, 0);
    check_shape("CPUUtilization", VAL_UTIL, 1, 1, 30, 500000, 1);
    check_shape("CPUUtilization", VAL_UTIL, 0, 1, 30, 500000, 1);
}

/* A non-finite value stops the block where series_add refuses it, with
 * the series unchanged by it; the rest then goes in as usual. */
static void test_stops_at_refused(void **state)
{
    (void)state;
    job j = make_job(3, 500000, VAL_UTIL, 0);
    j.v[100] = NAN;
    j.v[250] = INFINITY;
    series *a = new_series("CPUUtilization", 0, 0), *b = new_series("CPUUtilization", 0, 0);
    for (size_t i = 0; i < j.n; i++)
        assert_int_equal(series_add(a, j.ts[i], j.v[i]), isfinite(j.v[i]) ? 0 : -1);
    assert_int_equal(series_add_block(b, j.ts, j.v, j.n), 100);
    assert_int_equal(series_add_block(b, j.ts + 101, j.v + 101, j.n - 101), 149);
    assert_int_equal(series_add_block(b, j.ts + 251, j.v + 251, j.n - 251), j.n - 251);
    assert_same_series(a, b, &j);
    series_free(a);
    series_free(b);
    free(j.ts);
    free(j.v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utilization),
        cmocka_unit_test(test_wide_values),
        cmocka_unit_test(test_lean_and_bands),
        cmocka_unit_test(test_stops_at_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
