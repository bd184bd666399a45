/* Values the data can hold but the model must not believe, through the
 * real scanner (issue 12, findings 6, 8 and 11): a millisecond timestamp
 * read as seconds (year 58864) or a trace time near INT64_MAX must not
 * move the live window or the job's phases, and must be named in the
 * warnings; a duration near INT64_MAX must not overflow; a file with more
 * distinct metric names than the model keeps must cost bounded memory and
 * say what it dropped. */
#include "scan_fixture.h"

static FILE *create(fixture *f, const char *rel)
{
    char path[512];
    fixture_mkdirs(f->dir, rel);
    snprintf(path, sizeof path, "%s/%s", f->dir, rel);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    return fp;
}

static void scan_all(fixture *f)
{
    fixture_open(f, NULL);
    fixture_scan(f);
    scanner_finish(f->sc);
}

/* The warning that names `file` and contains `what`, or NULL. */
static const char *warning(fixture *f, const char *file, const char *what)
{
    static char msgs[SCANNER_MSG_MAX][SCANNER_MSG_LEN];
    size_t n = scanner_messages(f->sc, msgs, SCANNER_MSG_MAX);
    for (size_t i = 0; i < n; i++) {
        print_message("warning: %s\n", msgs[i]);
        if (strstr(msgs[i], file) && strstr(msgs[i], what))
            return msgs[i];
    }
    return NULL;
}

#define SYS "system/incremental/2020060923/1591748100.algo-1.json"
#define TRACE "framework/pevents/2020071317/1594662674000000_1234-algo-1_pythontimeline.json"
#define T_LINE "{\"Type\":\"memory\",\"Name\":\"MemoryUsedPercent\",\"Dimension\":\"MemoryUtilization\"," \
               "\"Value\":%d,\"NodeId\":\"algo-1\",\"Timestamp\":%s}\n"

static void test_millisecond_timestamp_quarantined(void **state)
{
    fixture *f = *state;
    FILE *fp = create(f, SYS);
    fprintf(fp, T_LINE, 10, "1591748101.5");
    fprintf(fp, T_LINE, 30, "1591748102.5");
    fprintf(fp, T_LINE, 99, "1795415008236.2");   /* ms written as s: year 58864 */
    fseek(fp, -1, SEEK_CUR);                       /* the last line, without its \n */
    fputc(' ', fp);
    fclose(fp);
    scan_all(f);
    const series *s = model_node_host_mem(model_find_node(f->m, "algo-1"));
    series_summary sum;
    series_get_summary(s, &sum);
    assert_int_equal(sum.count, 2);
    assert_float_equal(sum.max, 30, 0);
    assert_int_equal(model_last_sample_us(f->m), 1591748102500000LL);
    assert_int_equal(model_last_us(f->m), 1591748102500000LL);
    assert_non_null(warning(f, "1591748100.algo-1.json", "outside 2000-2100"));
}

#define HEAD "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": " \
             "{\"start_time_since_epoch_in_micros\": 1594662600000000}},\n" \
             "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": " \
             "{\"name\": \"Step:ModeKeys.TRAIN\"}},\n"
#define STEP "{\"name\": \"Step:ModeKeys.TRAIN\", \"pid\": 1, \"ph\": \"X\", \"ts\": %lld, " \
             "\"dur\": %lld, \"args\": {\"step_num\": \"%d\"}},\n"

/* A trace time near INT64_MAX once gave a training phase of 106 million
 * days. */
static void test_trace_time_near_int64_max_quarantined(void **state)
{
    fixture *f = *state;
    FILE *fp = create(f, TRACE);
    fputs(HEAD, fp);
    fprintf(fp, STEP, 1000LL, 1000LL, 1);
    fprintf(fp, STEP, 9223372036854775000LL - 1594662600000000LL, 10LL, 2);
    fprintf(fp, STEP, 3000LL, 1000LL, 3);
    fputs("]\n", fp);
    fclose(fp);
    scan_all(f);
    assert_int_equal(fixture_train_steps(f->m), 2);
    job_phases jp;
    model_get_job_phases(f->m, &jp);
    assert_int_equal(jp.training_us, 3000);
    assert_non_null(warning(f, "1594662674000000_1234-algo-1_pythontimeline.json",
                            "outside 2000-2100"));
}

/* start + dur overflowed int64 in the scanner (the sanitizer build
 * aborted; a release build dropped the event without a word). */
static void test_duration_near_int64_max_no_overflow(void **state)
{
    fixture *f = *state;
    FILE *fp = create(f, TRACE);
    fputs(HEAD, fp);
    fprintf(fp, STEP, 1000LL, 1000LL, 1);
    fprintf(fp, STEP, 2000LL, 9223372036854775000LL, 2);
    fprintf(fp, STEP, 3000LL, 1000LL, 3);
    fputs("]\n", fp);
    fclose(fp);
    scan_all(f);
    assert_int_equal(fixture_train_steps(f->m), 2);
    assert_non_null(warning(f, "1594662674000000_1234-algo-1_pythontimeline.json",
                            "outside 2000-2100"));
}

/* 10^6 distinct metric names once took 5 GB in `report`. */
static void test_series_per_node_capped_and_counted(void **state)
{
    fixture *f = *state;
    FILE *fp = create(f, SYS);
    for (int i = 0; i < MODEL_NODE_SERIES_MAX + 100; i++)
        fprintf(fp, "{\"Type\":\"custom\",\"Name\":\"m%d\",\"Dimension\":\"Algorithm\","
                    "\"Value\":1,\"NodeId\":\"algo-1\",\"Timestamp\":1591748101.5}\n", i);
    fclose(fp);
    scan_all(f);
    assert_int_equal(model_node_series_count(model_find_node(f->m, "algo-1")), MODEL_NODE_SERIES_MAX);
    model_drops d;
    model_get_drops(f->m, &d);
    assert_int_equal(d.series_cap, 100);
    assert_non_null(warning(f, "1591748100.algo-1.json", "100 samples dropped"));
}

static void test_nodes_capped_and_counted(void **state)
{
    fixture *f = *state;
    FILE *fp = create(f, SYS);
    for (int i = 0; i < MODEL_NODE_MAX + 10; i++)
        fprintf(fp, "{\"Type\":\"memory\",\"Name\":\"MemoryUsedPercent\",\"Dimension\":"
                    "\"MemoryUtilization\",\"Value\":1,\"NodeId\":\"n%d\","
                    "\"Timestamp\":1591748101.5}\n", i);
    fclose(fp);
    scan_all(f);
    assert_int_equal(model_node_count(f->m), MODEL_NODE_MAX);
    model_drops d;
    model_get_drops(f->m, &d);
    assert_int_equal(d.node_cap, 10);
    assert_non_null(warning(f, "1591748100.algo-1.json", "10 records dropped"));
}

/* Spread over nodes, the names must still stop at the total cap: the
 * per-node cap alone would allow 16384 x 4096 series. */
static void test_series_total_capped(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    char name[32], node[32];
    int64_t added = 0, total = MODEL_SERIES_MAX + 100;
    for (int64_t i = 0; i < total; i++) {
        snprintf(name, sizeof name, "m%lld", (long long)i);
        snprintf(node, sizeof node, "n%lld", (long long)(i / MODEL_NODE_SERIES_MAX));
        sm_sample s = {.type = sm_str_c("custom"), .dimension = sm_str_c("Algorithm"),
                       .name = sm_str_c(name), .node = sm_str_c(node), .value = 1,
                       .ts_us = 1591748101500000LL};
        added += model_add_sample(m, &s) == 0;
    }
    size_t series = 0;
    for (size_t i = 0; i < model_node_count(m); i++)
        series += model_node_series_count(model_node_at(m, i));
    model_drops d;
    model_get_drops(m, &d);
    assert_int_equal(series, MODEL_SERIES_MAX);
    assert_int_equal(added, MODEL_SERIES_MAX);
    assert_int_equal(d.series_cap, 100);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        FIXTURE_TEST(test_millisecond_timestamp_quarantined),
        FIXTURE_TEST(test_trace_time_near_int64_max_quarantined),
        FIXTURE_TEST(test_duration_near_int64_max_no_overflow),
        FIXTURE_TEST(test_series_per_node_capped_and_counted),
        FIXTURE_TEST(test_nodes_capped_and_counted),
        cmocka_unit_test(test_series_total_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
