/* keyname: every key layout of SPEC §1, and keys that must not match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "io/decode/keyname.h"

static key_info parse(const char *key)
{
    key_info ki;
    memset(&ki, 0x5a, sizeof ki);   /* the parser must set every field */
    keyname_parse(key, &ki);
    return ki;
}

static void expect(const char *key, key_kind kind, const char *node, int64_t t)
{
    key_info ki = parse(key);
    if (ki.kind != kind)
        fail_msg("%s: kind %d, want %d", key, ki.kind, kind);
    if (strcmp(ki.node, node) != 0)
        fail_msg("%s: node \"%s\", want \"%s\"", key, ki.node, node);
    if (ki.time_us != t)
        fail_msg("%s: time %lld, want %lld", key, (long long)ki.time_us, (long long)t);
}

static void test_system(void **state)
{
    (void)state;
    expect("system/incremental/2020060900/1591748100.algo-1.json", KEY_SYSTEM, "algo-1",
           1591748100000000LL);
    expect("system/incremental/1591160699.algo-1.json", KEY_SYSTEM, "algo-1",
           1591160699000000LL);
    expect("system/incremental/1591748100.algo-12.json", KEY_SYSTEM, "algo-12",
           1591748100000000LL);
    expect("system/incremental/1591748100.json", KEY_OTHER, "", 0);
    expect("system/incremental/abc.algo-1.json", KEY_OTHER, "", 0);
    expect("system/incremental/1591748100.algo-1.json.tmp", KEY_OTHER, "", 0);
    expect("system/incremental/2020-06-09/1591748100.algo-1.json", KEY_OTHER, "", 0);
    expect("system/incremental/2020060900/x/1591748100.algo-1.json", KEY_OTHER, "", 0);
    expect("system/incremental/1591748100.algo 1.json", KEY_OTHER, "", 0);
}

static void test_traces(void **state)
{
    (void)state;
    const char *p = "framework/pevents/2020051923/";
    char key[256];
    snprintf(key, sizeof key, "%s1589930991000000_4487_0000_pythontimeline.json", p);
    expect(key, KEY_TRACE, "4487_0000", 1589930991000000LL);
    /* <pid>-<host>: the host is the node, the whole part the writer
     * (SPEC §1: the host part is the node system metrics name). */
    snprintf(key, sizeof key, "%s1594662624558411_905-b88ab1bb8259_model_timeline.json", p);
    expect(key, KEY_TRACE, "b88ab1bb8259", 1594662624558411LL);
    assert_string_equal(parse(key).process, "905-b88ab1bb8259");
    assert_int_equal(parse(key).tkind, TRACE_MODEL);
    snprintf(key, sizeof key, "%s1594662624558411_0001_horovod_timeline.json", p);
    expect(key, KEY_TRACE, "0001", 1594662624558411LL);
    assert_int_equal(parse(key).tkind, TRACE_HOROVOD);
    snprintf(key, sizeof key, "%s1594662624558411_1234-algo-1_smdataparallel_timeline.json", p);
    expect(key, KEY_TRACE, "algo-1", 1594662624558411LL);
    assert_string_equal(parse(key).process, "1234-algo-1");
    assert_int_equal(parse(key).tkind, TRACE_SMDP);
    snprintf(key, sizeof key, "%s1594662624558411_0001_horovod_timeline.json", p);
    assert_string_equal(parse(key).process, "0001");
    snprintf(key, sizeof key, "%s1594662624558411_1234-algo-1_gpu_timeline.json", p);
    expect(key, KEY_OTHER, "", 0);
    snprintf(key, sizeof key, "%sx594662624558411_0001_pythontimeline.json", p);
    expect(key, KEY_OTHER, "", 0);
    snprintf(key, sizeof key, "%s1594662624558411__pythontimeline.json", p);
    expect(key, KEY_OTHER, "", 0);
    snprintf(key, sizeof key, "%s1594662624558411_pythontimeline.json", p);
    expect(key, KEY_OTHER, "", 0);
    /* Closed traces belong in pevents/. */
    expect("framework/1594662624558411_0001_pythontimeline.json", KEY_OTHER, "", 0);
}

/* smdebug's writers name a file by the end of its last event in epoch µs
 * (16 digits) or, some of them, epoch ns (19 digits; smdebug's own test
 * data has one): both place the file on the same µs clock. */
static void test_ns_end_times(void **state)
{
    (void)state;
    const char *p = "framework/pevents/2020071317/";
    char key[256];
    snprintf(key, sizeof key, "%s1594662624718694123_7-algo-2_horovod_timeline.json", p);
    expect(key, KEY_TRACE, "algo-2", 1594662624718694LL);
    assert_string_equal(parse(key).process, "7-algo-2");
    assert_int_equal(parse(key).tkind, TRACE_HOROVOD);
    snprintf(key, sizeof key, "%s1594662624718694999_0001_pythontimeline.json", p);
    expect(key, KEY_TRACE, "0001", 1594662624718694LL);
    /* 20 digits is neither µs nor ns of any plausible time: not ours. */
    snprintf(key, sizeof key, "%s15946626247186941234_0001_pythontimeline.json", p);
    expect(key, KEY_OTHER, "", 0);
    /* The listing start-after key (16-digit µs) sorts a ns name of the same
     * microsecond after it and one of an earlier microsecond before it. */
    char after[128];
    keyname_trace_after(1594662624718694LL, after, sizeof after);
    assert_true(strcmp(after, "framework/pevents/2020071317/1594662624718694123_1-algo-1_"
                              "pythontimeline.json") < 0);
    assert_true(strcmp(after, "framework/pevents/2020071317/1594662624718693999_1-algo-1_"
                              "pythontimeline.json") > 0);
}

static void test_tmp(void **state)
{
    (void)state;
    expect("framework/1234-algo-1_pythontimeline.json.tmp", KEY_TRACE_TMP, "algo-1", 0);
    assert_string_equal(parse("framework/1234-algo-1_pythontimeline.json.tmp").process,
                        "1234-algo-1");
    expect("framework/4487_0000_pythontimeline.json.tmp", KEY_TRACE_TMP, "4487_0000", 0);
    expect("framework/905-b88ab1bb8259_model_timeline.json.tmp", KEY_TRACE_TMP,
           "b88ab1bb8259", 0);
    assert_int_equal(parse("framework/0001_horovod_timeline.json.tmp").tkind, TRACE_HOROVOD);
    expect("framework/pevents/2020071317/1594662624718694_905-b88ab1bb8259_pythontimeline.json.tmp",
           KEY_TRACE_TMP, "b88ab1bb8259", 0);
    expect("framework/_pythontimeline.json.tmp", KEY_OTHER, "", 0);
    /* Only traces have a writer. */
    assert_string_equal(parse("system/incremental/1591160699.algo-1.json").process, "");
}

static void test_python_stats(void **state)
{
    (void)state;
    const char *sd = "train-0-stepstart-1594662605425850_train-0-forwardpassend-1594662605525850";
    char key[512];
    snprintf(key, sizeof key, "framework/pytorch/cprofile/1234-algo-1/%s/python_stats", sd);
    expect(key, KEY_CPROFILE, "algo-1", 0);
    snprintf(key, sizeof key, "framework/tensorflow/pyinstrument/algo-2/%s/python_stats.json", sd);
    expect(key, KEY_PYINSTRUMENT, "algo-2", 0);
    snprintf(key, sizeof key, "framework/tensorflow/pyinstrument/algo-2/%s/python_stats.html", sd);
    expect(key, KEY_OTHER, "", 0);
    snprintf(key, sizeof key, "framework/mxnet/cprofile/algo-2/%s/python_stats", sd);
    expect(key, KEY_OTHER, "", 0);
    expect("framework/pytorch/cprofile/algo-1/python_stats", KEY_OTHER, "", 0);
    /* real names carry fractions of a microsecond */
    expect("framework/pytorch/cprofile/algo-1/train-1-stepstart-1795415008236194.8_"
           "train-1-stepend-1795415008242140.8/python_stats", KEY_CPROFILE, "algo-1", 0);
    /* the older layout: capital P, no node folder, the node in the name */
    expect("framework/tensorflow/cProfile/1596585374963238.0_1596585376008161.0_151-algo-1_2/"
           "python_stats", KEY_CPROFILE, "algo-1", 0);
    expect("framework/pytorch/cProfile/10_20_905-algo-12_-1/python_stats", KEY_CPROFILE,
           "algo-12", 0);
    expect("framework/pytorch/cProfile/nonsense/python_stats", KEY_OTHER, "", 0);
    expect("framework/pytorch/cProfile/10_20_905-algo-1_2/python_stats.json", KEY_OTHER, "", 0);
    expect("framework/pytorch/cProfile/algo-1/10_20_905-algo-1_2/python_stats", KEY_OTHER, "",
           0);
}

static void test_tf_and_rules(void **state)
{
    (void)state;
    expect("framework/tensorflow/detailed_profiling/2020071317/000000002/plugins/profile/"
           "2020_07_13_17_23_45/ip-10-0-1-2.trace.json.gz", KEY_TF_TRACE, "ip-10-0-1-2", 0);
    expect("framework/tensorflow/detailed_profiling/2020071317/000000002/plugins/profile/"
           "2020_07_13_17_23_45/.trace.json.gz", KEY_OTHER, "", 0);
    /* smdebug's record of the session: in the step directory, named after
     * the writer (<rank or pid>-<host>), its node the writer's host */
    expect("framework/tensorflow/detailed_profiling/2020080520/000000002/"
           "151-algo-1_1596659864545103_1596659864854168.metadata", KEY_TF_META, "algo-1",
           1596659864545103LL);
    expect("framework/tensorflow/detailed_profiling/2020080520/000000002/"
           "algo-2_1596659864545103_1596659864854168.metadata", KEY_TF_META, "algo-2",
           1596659864545103LL);
    expect("framework/tensorflow/detailed_profiling/2020080520/000000002/"
           "_1596659864545103_1596659864854168.metadata", KEY_OTHER, "", 0);
    expect("framework/tensorflow/detailed_profiling/2020080520/000000002/"
           "algo-2_15966598645x5103_1596659864854168.metadata", KEY_OTHER, "", 0);
    expect("framework/tensorflow/detailed_profiling/2020080520/000000002/plugins/"
           "algo-2_1596659864545103_1596659864854168.metadata", KEY_OTHER, "", 0);
    expect("rule-output/ProfilerReport-1594662605/profiler-output/profiler-reports/"
           "CPUBottleneck.json", KEY_RULE_REPORT, "", 0);
    expect("../rule-output/ProfilerReport-1594662605/profiler-output/profiler-reports/"
           "GPUMemoryIncrease.json", KEY_RULE_REPORT, "", 0);
    expect("rule-output/ProfilerReport-1594662605/profiler-output/profiler-report.html",
           KEY_OTHER, "", 0);
    expect("rule-output/Other-1/profiler-output/profiler-reports/X.json", KEY_OTHER, "", 0);
}

static void test_hostile(void **state)
{
    (void)state;
    char big[8192];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    expect(big, KEY_OTHER, "", 0);
    /* A node part longer than the node field: rejected, not truncated. */
    char key[1024];
    snprintf(key, sizeof key, "system/incremental/1591748100.%.*s.json", 300, big);
    expect(key, KEY_OTHER, "", 0);
    snprintf(key, sizeof key, "framework/pevents/2020071317/1_%.*s_pythontimeline.json", 200, big);
    expect(key, KEY_OTHER, "", 0);
    const char *odd[] = {
        "", "/", "//", "system", "system/", "system/incremental/",
        "system/incremental/../1591748100.algo-1.json",
        "system/incremental/./1591748100.algo-1.json",
        "/system/incremental/1591748100.algo-1.json",
        "system//incremental/1591748100.algo-1.json",
        "framework/pevents/2020071317/..",
        "framework/pevents/2020071317/1594662624718694_905_pythontimeline",
        "framework/pevents/../../etc/1_a_pythontimeline.json",
        "../framework/pevents/2020071317/1_a_pythontimeline.json",
        "framework/tensorflow/detailed_profiling", "README", "x/y/z/w/v",
    };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        expect(odd[i], KEY_OTHER, "", 0);
    keyname_parse(NULL, &(key_info){0});
}

static void test_node_from_part(void **state)
{
    (void)state;
    char out[16];
    keyname_node_from_part("1234-algo-1", 11, out, sizeof out);
    assert_string_equal(out, "algo-1");
    keyname_node_from_part("4487_0000", 9, out, sizeof out);
    assert_string_equal(out, "4487_0000");
    keyname_node_from_part("algo-3", 6, out, sizeof out);
    assert_string_equal(out, "algo-3");
    keyname_node_from_part("xalgo-3", 7, out, sizeof out);
    assert_string_equal(out, "xalgo-3");
    /* <rank or pid>-<host>: the host, whatever it is called. */
    keyname_node_from_part("1-algo-x", 8, out, sizeof out);
    assert_string_equal(out, "algo-x");
    keyname_node_from_part("905-b88ab1bb8259", 16, out, sizeof out);
    assert_string_equal(out, "b88ab1bb8259");
    keyname_node_from_part("905-10-0-0-1", 12, out, sizeof out);
    assert_string_equal(out, "10-0-0-1");
    keyname_node_from_part("905-", 4, out, sizeof out);
    assert_string_equal(out, "905-");              /* no host: the whole part */
    keyname_node_from_part("ip-10-0-1-2", 11, out, sizeof out);
    assert_string_equal(out, "ip-10-0-1-2");       /* a host alone */
    keyname_node_from_part("0123456789abcdefghij", 20, out, sizeof out);
    assert_string_equal(out, "0123456789abcde");   /* bounded */
    keyname_node_from_part("1234-algo-1", 4, out, sizeof out);
    assert_string_equal(out, "1234");              /* only len bytes read */
}

static void test_after_keys(void **state)
{
    (void)state;
    char out[128];
    /* 2020-06-10 00:15:09 UTC */
    assert_string_equal(keyname_system_after(1591748109232195LL, 1, out, sizeof out),
                        "system/incremental/2020061000/1591748109");
    assert_string_equal(keyname_system_after(1591748109232195LL, 0, out, sizeof out),
                        "system/incremental/1591748109");
    assert_string_equal(keyname_trace_after(1594662624718694LL, out, sizeof out),
                        "framework/pevents/2020071317/1594662624718694");
    assert_string_equal(keyname_trace_after(5, out, sizeof out),
                        "framework/pevents/1970010100/0000000000000005");
    char tiny[8];
    assert_ptr_equal(keyname_trace_after(1594662624718694LL, tiny, sizeof tiny), tiny);
    assert_string_equal(tiny, "framewo");
    /* The after-key sorts just before the file it was made from. */
    keyname_system_after(1591748100000000LL, 1, out, sizeof out);
    assert_true(strcmp(out, "system/incremental/2020061000/1591748100.algo-1.json") < 0);
    assert_true(strcmp(out, "system/incremental/2020061000/1591748099.algo-1.json") > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system),
        cmocka_unit_test(test_traces),
        cmocka_unit_test(test_ns_end_times),
        cmocka_unit_test(test_tmp),
        cmocka_unit_test(test_python_stats),
        cmocka_unit_test(test_tf_and_rules),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_node_from_part),
        cmocka_unit_test(test_after_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
