/* The scanner's fetch-ahead thread (scan_fetch + predec_decode) against the
 * sequential path: the same directory scanned both ways must give the same
 * model (every series' summary and chart bins), counters and messages —
 * including lines the decoder hands to jansson (escapes, extra members),
 * corrupt lines, CRLF and trailing blanks, empty lines, a partial last line
 * and a file that grows between two passes; and a synthetic job's
 * framework traces (phase statistics and recent events). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpdir.h"
#include "io/scan/scanner.h"
#include "io/source/source.h"
#include "io/synth/synth.h"

#define T0 1591748100LL

static char dir[256];

static void mkdirs(const char *path)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    mkdir(tmp, 0755);
}

static FILE *open_minute(int node, int64_t minute, const char *mode)
{
    char path[512];
    snprintf(path, sizeof path, "%s/system/incremental/2020061000", dir);
    mkdirs(path);
    snprintf(path, sizeof path, "%s/system/incremental/2020061000/%lld.algo-%d.json", dir,
             (long long)(T0 + minute * 60), node);
    FILE *f = fopen(path, mode);
    assert_non_null(f);
    return f;
}

/* One minute of one node: 4 cores, 2 GPUs, memory at 500 ms, with a few
 * unusual lines sprinkled in (deterministically). */
static void write_minute(int node, int64_t minute, int with_partial)
{
    FILE *f = open_minute(node, minute, "w");
    for (int tick = 0; tick < 120; tick++) {
        double ts = (double)(T0 + minute * 60) + tick * 0.5 + 0.1234567;
        for (int c = 0; c < 4; c++) {
            double v = fmod(node * 7.3 + minute * 3.1 + tick * 1.7 + c * 11.9, 100.0);
            if ((tick + c) % 53 == 0)   /* an escape: the jansson path */
                fprintf(f, "{\"Type\":\"cpu\",\"Name\":\"cpu\\u0030%d\",\"Dimension\":"
                           "\"CPUUtilization\",\"Value\":%.2f,\"NodeId\":\"algo-%d\","
                           "\"Timestamp\":%.7f}\n", c, v, node, ts);
            else if ((tick + c) % 41 == 0)   /* an extra member */
                fprintf(f, "{\"Type\":\"cpu\",\"Name\":\"cpu%d\",\"Dimension\":"
                           "\"CPUUtilization\",\"Value\":%.2f,\"NodeId\":\"algo-%d\","
                           "\"Timestamp\":%.7f,\"Unit\":\"Percent\"}\n", c, v, node, ts);
            else if ((tick + c) % 37 == 0)   /* CRLF and trailing blanks */
                fprintf(f, "{\"Type\":\"cpu\",\"Name\":\"cpu%d\",\"Dimension\":"
                           "\"CPUUtilization\",\"Value\":%.2f,\"NodeId\":\"algo-%d\","
                           "\"Timestamp\":%.7f} \t\r\n", c, v, node, ts);
            else
                fprintf(f, "{\"Type\":\"cpu\",\"Name\":\"cpu%d\",\"Dimension\":"
                           "\"CPUUtilization\",\"Value\":%.2f,\"NodeId\":\"algo-%d\","
                           "\"Timestamp\":%.7f}\n", c, v, node, ts);
        }
        for (int g = 0; g < 2; g++)
            fprintf(f, "{\"Type\":\"gpu\",\"Name\":\"gpu%d\",\"Dimension\":\"GPUUtilization\","
                       "\"Value\":%d,\"NodeId\":\"algo-%d\",\"Timestamp\":%.7f}\n",
                    g, (tick * 13 + g * 29 + node) % 101, node, ts);
        fprintf(f, "{\"Type\":\"memory\",\"Name\":\"MemoryUsedPercent\",\"Dimension\":"
                   "\"MemoryUsedPercent\",\"Value\":%.3f,\"NodeId\":\"algo-%d\","
                   "\"Timestamp\":%.7f}\n", 40 + tick * 0.01, node, ts);
        if (tick == 60)
            fputs("{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dim\n\n", f);   /* corrupt */
    }
    if (with_partial)
        fprintf(f, "{\"Type\":\"memory\",\"Name\":\"MemoryUsedPercent\",\"Dimension\":"
                   "\"MemoryUsedPercent\",\"Value\":1,\"NodeId\":\"algo-%d\",\"Timest", node);
    fclose(f);
}

typedef struct run {
    source *src;
    model *m;
    scanner *sc;
} run;

static void run_open(run *r, int sequential)
{
    sm_err err = {0};
    r->src = source_local_open(dir, &err);
    assert_non_null(r->src);
    r->m = model_new(NULL);
    assert_non_null(r->m);
    scanner_opts o = {.sequential = sequential, .batch = 5};
    r->sc = scanner_new(r->src, "", r->m, &o, &err);
    assert_non_null(r->sc);
}

static void run_scan(run *r)
{
    sm_err err = {0};
    assert_int_equal(scanner_scan(r->sc, &err), 0);
}

static void run_close(run *r)
{
    scanner_free(r->sc);
    model_free(r->m);
    source_free(r->src);
}

static void same_double(double a, double b)
{
    if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b)))
        fail_msg("%.17g != %.17g", a, b);
}

static void same_model(const model *a, const model *b)
{
    assert_int_equal(model_node_count(a), model_node_count(b));
    for (size_t i = 0; i < model_node_count(a); i++) {
        const model_node *na = model_node_at(a, i), *nb = model_node_at(b, i);
        assert_int_equal(model_node_series_count(na), model_node_series_count(nb));
        for (size_t k = 0; k < model_node_series_count(na); k++) {
            const series *sa = model_node_series_at(na, k), *sb = model_node_series_at(nb, k);
            assert_string_equal(series_name(sa), series_name(sb));
            assert_string_equal(series_dimension(sa), series_dimension(sb));
            series_summary x, y;
            series_get_summary(sa, &x);
            series_get_summary(sb, &y);
            assert_int_equal(x.count, y.count);
            assert_int_equal(x.first_us, y.first_us);
            assert_int_equal(x.last_us, y.last_us);
            same_double(x.min, y.min);
            same_double(x.max, y.max);
            same_double(x.mean, y.mean);
            same_double(x.p50, y.p50);
            same_double(x.p99, y.p99);
            same_double(x.last_value, y.last_value);
            series_bin ba[97], bb[97];
            series_query(sa, T0 * 1000000, (T0 + 3600) * 1000000, 97, ba);
            series_query(sb, T0 * 1000000, (T0 + 3600) * 1000000, 97, bb);
            for (size_t j = 0; j < 97; j++) {
                assert_int_equal(ba[j].count, bb[j].count);
                same_double(ba[j].min, bb[j].min);
                same_double(ba[j].mean, bb[j].mean);
                same_double(ba[j].max, bb[j].max);
            }
        }
    }
}

static void same_stats(run *a, run *b)
{
    scan_stats x, y;
    scanner_get_stats(a->sc, &x);
    scanner_get_stats(b->sc, &y);
    assert_int_equal(x.lines, y.lines);
    assert_int_equal(x.corrupt_lines, y.corrupt_lines);
    assert_int_equal(x.partial_lines, y.partial_lines);
    assert_int_equal(x.bytes_read, y.bytes_read);
    assert_int_equal(x.skipped_files, y.skipped_files);
    static char ma[SCANNER_MSG_MAX][SCANNER_MSG_LEN], mb[SCANNER_MSG_MAX][SCANNER_MSG_LEN];
    size_t n = scanner_messages(a->sc, ma, SCANNER_MSG_MAX);
    assert_int_equal(n, scanner_messages(b->sc, mb, SCANNER_MSG_MAX));
    for (size_t i = 0; i < n; i++)
        assert_string_equal(ma[i], mb[i]);
}

static void test_ahead_matches_sequential(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/smtop-ahead-XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (int node = 1; node <= 3; node++)
        for (int64_t minute = 0; minute < 25; minute++)
            write_minute(node, minute, minute == 24 && node == 2);

    run seq, par;
    run_open(&seq, 1);
    run_open(&par, 0);
    run_scan(&seq);
    run_scan(&par);
    same_model(seq.m, par.m);
    same_stats(&seq, &par);

    /* Growth: the partial line completes and more minutes arrive. */
    FILE *f = open_minute(2, 24, "a");
    fputs("amp\":1591749540.5}\n", f);
    fclose(f);
    for (int node = 1; node <= 3; node++)
        write_minute(node, 25, 0);
    run_scan(&seq);
    run_scan(&par);
    scanner_finish(seq.sc);
    scanner_finish(par.sc);
    same_model(seq.m, par.m);
    same_stats(&seq, &par);

    scan_stats st;
    scanner_get_stats(par.sc, &st);
    assert_true(st.lines > 3 * 25 * 120 * 7);
    assert_true(st.corrupt_lines > 0);
    run_close(&seq);
    run_close(&par);
    assert_int_equal(tmpdir_remove(dir), 0);
}

static void same_phases(const model *a, const model *b)
{
    for (size_t i = 0; i < model_node_count(a); i++) {
        const model_node *na = model_node_at(a, i), *nb = model_node_at(b, i);
        assert_int_equal(model_node_phase_count(na), model_node_phase_count(nb));
        for (size_t k = 0; k < model_node_phase_count(na); k++) {
            const phase_stats *pa = model_node_phase_at(na, k), *pb = model_node_phase_at(nb, k);
            assert_string_equal(phase_stats_label(pa), phase_stats_label(pb));
            phase_summary x, y;
            phase_stats_get_summary(pa, &x);
            phase_stats_get_summary(pb, &y);
            assert_int_equal(x.count, y.count);
            assert_int_equal(x.min_us, y.min_us);
            assert_int_equal(x.max_us, y.max_us);
            assert_int_equal(x.first_start_us, y.first_start_us);
            assert_int_equal(x.last_end_us, y.last_end_us);
            same_double(x.mean_us, y.mean_us);
            same_double(x.p50_us, y.p50_us);
            same_double(x.p99_us, y.p99_us);
            phase_event ea[64], eb[64];
            size_t n = phase_stats_recent(pa, ea, 64);
            assert_int_equal(n, phase_stats_recent(pb, eb, 64));
            for (size_t j = 0; j < n; j++) {
                assert_int_equal(ea[j].start_us, eb[j].start_us);
                assert_int_equal(ea[j].dur_us, eb[j].dur_us);
                assert_int_equal(ea[j].step, eb[j].step);
            }
        }
    }
}

/* A synthetic job with framework traces: trace lines are read ahead too. */
static void test_ahead_traces(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/smtop-ahead-XXXXXX");
    assert_non_null(mkdtemp(dir));
    synth_opts o;
    synth_opts_init(&o);
    o.out = dir;
    o.nodes = 2;
    o.minutes = 4;
    o.start_us = T0 * 1000000;
    sm_err err = {0};
    assert_int_equal(synth_run(&o, NULL, &err), 0);
    run seq, par;
    run_open(&seq, 1);
    run_open(&par, 0);
    run_scan(&seq);
    run_scan(&par);
    scanner_finish(seq.sc);
    scanner_finish(par.sc);
    same_model(seq.m, par.m);
    same_phases(seq.m, par.m);
    same_stats(&seq, &par);
    assert_true(model_node_phase_count(model_node_at(par.m, 0)) > 0);
    run_close(&seq);
    run_close(&par);
    assert_int_equal(tmpdir_remove(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ahead_matches_sequential),
        cmocka_unit_test(test_ahead_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
