/* Unit tests for io/tf_trace: gzip handling, event decoding, clock placement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "io/decode/decoder.h"
#include "io/decode/tf_trace.h"
#include "io/scan/scan_decode.h"
#include "model/model.h"

typedef struct got {
    int n;
    char name[8][48], phase[8][48], node[8][16];
    int64_t start[8], dur[8], step[8];
} got;

static void sink(void *ud, const sm_event *e)
{
    got *g = ud;
    if (g->n >= 8)
        return;
    snprintf(g->name[g->n], 48, "%.*s", (int)e->name.len, e->name.ptr);
    snprintf(g->phase[g->n], 48, "%.*s", (int)e->phase.len, e->phase.ptr);
    snprintf(g->node[g->n], 16, "%.*s", (int)e->node.len, e->node.ptr);
    g->start[g->n] = e->start_us;
    g->dur[g->n] = e->dur_us;
    g->step[g->n] = e->step;
    g->n++;
}

/* gzip-compresses s into a malloc'd buffer. */
static unsigned char *gz(const char *s, size_t *out_len)
{
    z_stream zs = {0};
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, strlen(s)) + 32;
    unsigned char *b = malloc(cap);
    zs.next_in = (Bytef *)s;
    zs.avail_in = (uInt)strlen(s);
    zs.next_out = b;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return b;
}

static const char *TRACE =
    "{\"displayTimeUnit\":\"ns\",\"metadata\":{\"highres-ticks\":true},\"traceEvents\":["
    "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"/host:CPU\"}},"
    "{\"ph\":\"M\",\"pid\":1,\"tid\":7,\"name\":\"thread_name\",\"args\":{\"name\":\"tf_Compute\"}},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":7,\"ts\":100.4,\"dur\":50.6,\"name\":\"MatMul\"},"
    "{\"ph\":\"B\",\"pid\":2,\"tid\":1,\"ts\":200,\"name\":\"ALLREDUCE\"},"
    "{\"ph\":\"E\",\"pid\":2,\"tid\":1,\"ts\":260},"
    "{\"ph\":\"C\",\"pid\":1,\"ts\":300,\"name\":\"mem\",\"args\":{\"v\":1}},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":7,\"ts\":400,\"dur\":5,\"name\":\"IteratorGetNextOp::DoCompute\","
    "\"args\":{\"step_num\":\"12\"}},"
    "{}]}";

static void test_relative_with_base(void **state)
{
    (void)state;
    size_t n;
    unsigned char *b = gz(TRACE, &n);
    got g = {0};
    sm_err err = {0};
    int rc = tf_trace_load_at(b, n, "algo-1", 11, 1000000, sink, &g, &err);
    assert_int_equal(rc, 3);
    assert_string_equal(g.name[0], "MatMul");
    assert_string_equal(g.phase[0], "/host:CPU");
    assert_string_equal(g.node[0], "algo-1");
    assert_int_equal(g.start[0], 1000100);    /* 100.4 rounds to 100 */
    assert_int_equal(g.dur[0], 51);
    assert_int_equal(g.step[0], 11);          /* from the path */
    assert_string_equal(g.name[1], "ALLREDUCE");  /* E without a name */
    assert_string_equal(g.phase[1], "");          /* pid 2 unnamed */
    assert_int_equal(g.start[1], 1000200);
    assert_int_equal(g.dur[1], 60);
    assert_int_equal(g.step[2], 12);          /* args.step_num wins */
    free(b);
}

static void test_plain_load_keeps_relative(void **state)
{
    (void)state;
    size_t n;
    unsigned char *b = gz(TRACE, &n);
    got g = {0};
    assert_int_equal(tf_trace_load(b, n, "h", 3, sink, &g, NULL), 3);
    assert_int_equal(g.start[0], 100);
    free(b);
}

static void test_no_base_refused(void **state)
{
    (void)state;
    size_t n;
    unsigned char *b = gz(TRACE, &n);
    got g = {0};
    sm_err err = {0};
    assert_int_equal(tf_trace_load_at(b, n, "algo-2", 5, TF_TRACE_NO_BASE, sink, &g, &err), -1);
    assert_int_equal(g.n, 0);
    assert_non_null(strstr(err.msg, "algo-2"));
    assert_non_null(strstr(err.msg, "not known"));
    free(b);
}

static void test_absolute_times_kept(void **state)
{
    (void)state;
    const char *t = "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":0,\"tid\":0,"
                    "\"ts\":1594662614815222,\"dur\":10,\"name\":\"a\"}]}";
    size_t n;
    unsigned char *b = gz(t, &n);
    got g = {0};
    assert_int_equal(tf_trace_load_at(b, n, "x", 1, 555, sink, &g, NULL), 1);
    assert_int_equal(g.start[0], 1594662614815222);
    g.n = 0;
    assert_int_equal(tf_trace_load_at(b, n, "x", 1, TF_TRACE_NO_BASE, sink, &g, NULL), 1);
    free(b);
}

static void test_bad_gzip(void **state)
{
    (void)state;
    size_t n;
    unsigned char *b = gz(TRACE, &n);
    got g = {0};
    sm_err err = {0};
    assert_int_equal(tf_trace_load(b, n - 10, "h", 0, sink, &g, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    b[12] ^= 0xff;
    b[13] ^= 0x55;
    assert_int_equal(tf_trace_load(b, n, "h", 0, sink, &g, &err), -1);
    assert_int_equal(err.code, SM_ERR_FORMAT);
    assert_int_equal(tf_trace_load("plain text, not gzip at all", 27, "h", 0, sink, &g, &err), -1);
    assert_int_equal(tf_trace_load("x", 1, "h", 0, sink, &g, &err), -1);
    assert_int_equal(g.n, 0);
    free(b);
}

static void test_bad_json(void **state)
{
    (void)state;
    const char *cases[] = {"{\"traceEvents\":[", "[1,2]", "{\"traceEvents\":{}}", "{}"};
    for (size_t i = 0; i < 4; i++) {
        size_t n;
        unsigned char *b = gz(cases[i], &n);
        sm_err err = {0};
        got g = {0};
        assert_int_equal(tf_trace_load(b, n, "h", 0, sink, &g, &err), -1);
        assert_int_equal(err.code, SM_ERR_FORMAT);
        free(b);
    }
}

static void test_gunzip_bound_and_members(void **state)
{
    (void)state;
    char big[4096];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    size_t n;
    unsigned char *b = gz(big, &n);
    char *out;
    size_t on;
    sm_err err = {0};
    assert_int_equal(tf_trace_gunzip(b, n, 1000, &out, &on, &err), -1);
    assert_non_null(strstr(err.msg, "more than"));
    /* two concatenated members inflate to both texts */
    unsigned char *two = malloc(2 * n);
    memcpy(two, b, n);
    memcpy(two + n, b, n);
    assert_int_equal(tf_trace_gunzip(two, 2 * n, 1 << 20, &out, &on, &err), 0);
    assert_int_equal(on, 2 * (sizeof big - 1));
    assert_int_equal(out[on], '\0');
    free(out);
    free(two);
    free(b);
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(tf_trace_step_from_key(
        "framework/tensorflow/detailed_profiling/2020071317/000000012/plugins/profile/"
        "2020_07_13_17_01_02/algo-1.trace.json.gz"), 12);
    assert_int_equal(tf_trace_step_from_key("framework/pevents/x.json"), -1);
}

static int to_model(void *ud, const sm_event *e)
{
    return model_add_event(ud, e);
}

/* The tf-trace decoder as the scanner runs it on a trace without
 * smdebug's record: anchored at the same step's start on the node. */
static int ingest(model *m, const char *key, const void *gz, size_t n, sm_err *err)
{
    key_info ki = {.kind = KEY_TF_TRACE, .node = "algo-1"};
    int64_t t = scan_decode_step_start(m, "algo-1", tf_trace_step_from_key(key));
    ki.time_us = t == TF_TRACE_NO_BASE ? 0 : t;
    rec_sink out = {.ud = m, .event = to_model};
    return decoder_read_whole(decoder_for(&ki), &ki, key, gz, n, &out, err);
}

static void test_ingest_anchors_to_step(void **state)
{
    (void)state;
    model *m = model_new(NULL);
    sm_event st = {.node = sm_str_c("algo-1"), .phase = sm_str_c("Step:ModeKeys.TRAIN"),
                   .name = sm_str_c("Step"), .start_us = 1594662614000000,
                   .dur_us = 100000, .step = 12};
    assert_int_equal(model_add_event(m, &st), 0);
    assert_int_equal(scan_decode_step_start(m, "algo-1", 12), 1594662614000000);
    assert_int_equal(scan_decode_step_start(m, "algo-1", 13), TF_TRACE_NO_BASE);
    assert_int_equal(scan_decode_step_start(m, "algo-9", 12), TF_TRACE_NO_BASE);
    size_t n;
    unsigned char *b = gz(TRACE, &n);
    const char *key = "framework/tensorflow/detailed_profiling/2020071317/000000012/"
                      "plugins/profile/d/algo-1.trace.json.gz";
    sm_err err = {0};
    assert_int_equal(ingest(m, key, b, n, &err), 0);
    const model_node *nd = model_find_node(m, "algo-1");
    const phase_stats *p = model_node_find_phase(nd, "/host:CPU");
    assert_non_null(p);
    phase_summary sum;
    phase_stats_get_summary(p, &sum);
    assert_int_equal(sum.first_start_us, 1594662614000100);
    /* step 99 is unknown: refused with a message, model unchanged */
    const char *key99 = "framework/tensorflow/detailed_profiling/2020071317/000000099/"
                        "plugins/profile/d/algo-1.trace.json.gz";
    uint64_t gen = model_generation(m);
    assert_int_equal(ingest(m, key99, b, n, &err), -1);
    assert_int_equal(err.code, SM_ERR_NOTFOUND);
    assert_int_equal(model_generation(m), gen);
    free(b);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relative_with_base),
        cmocka_unit_test(test_plain_load_keeps_relative),
        cmocka_unit_test(test_no_base_refused),
        cmocka_unit_test(test_absolute_times_kept),
        cmocka_unit_test(test_bad_gzip),
        cmocka_unit_test(test_bad_json),
        cmocka_unit_test(test_gunzip_bound_and_members),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_ingest_anchors_to_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
