/* TF detailed-profiling placement: smdebug's .metadata record in the step
 * directory gives the node (from the writer id) and the session start. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "io/decode/tf_meta.h"

#define STEP "framework/tensorflow/detailed_profiling/2020080520/000000002/"
#define TRACE(host) STEP "plugins/profile/2020_08_05_20_37_44/" host ".trace.json.gz"

static void test_names(void **state)
{
    (void)state;
    tf_meta_name nm;
    const char *n = "151-algo-1_1596659864545103_1596659864854168.metadata";
    assert_int_equal(tf_meta_parse_name(n, strlen(n), &nm), 0);
    assert_string_equal(nm.writer, "151-algo-1");
    assert_string_equal(nm.node, "algo-1");
    assert_int_equal(nm.start_us, 1596659864545103LL);
    assert_int_equal(nm.end_us, 1596659864854168LL);
    n = "my_host_12.5_13.metadata";   /* '_' in the writer, a fraction */
    assert_int_equal(tf_meta_parse_name(n, strlen(n), &nm), 0);
    assert_string_equal(nm.writer, "my_host");
    assert_int_equal(nm.start_us, 12);
    static const char *bad[] = {"algo-1_12_x.metadata", "algo-1_12_13.json", "12_13.metadata",
                                "_12_13.metadata", "a b_12_13.metadata", "a_12_13.metadata.gz",
                                "a_12__13.metadata", ".metadata", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (tf_meta_parse_name(bad[i], strlen(bad[i]), &nm) != -1)
            fail_msg("accepted '%s'", bad[i]);
    assert_int_equal(tf_meta_step_dir_len(TRACE("h")), strlen(STEP));
    assert_int_equal(tf_meta_step_dir_len("x/" STEP "a.metadata"), strlen("x/" STEP));
    assert_int_equal(tf_meta_step_dir_len("framework/tensorflow/detailed_profiling/2020/"), 0);
    assert_int_equal(tf_meta_step_dir_len("framework/pevents/1_a_model_timeline.json"), 0);
}

static void test_place_from_step_dir(void **state)
{
    (void)state;
    tf_meta_book *b = tf_meta_book_new();
    sm_err err = {0};
    tf_place pl;
    /* nothing recorded yet: the message names the step directory */
    assert_int_equal(tf_meta_place(b, TRACE("ip-10-0-209-63.ec2.internal"), &pl, &err), -1);
    assert_int_equal(err.code, SM_ERR_NOTFOUND);
    assert_non_null(strstr(err.msg, "no <writer>_<start_us>_<end_us>.metadata in " STEP));
    /* a record beside the trace is not smdebug's place for it */
    assert_int_equal(tf_meta_book_note(b, STEP "plugins/profile/2020_08_05_20_37_44/"
                                          "151-algo-1_1_2.metadata"), 0);
    assert_int_equal(tf_meta_book_note(b, STEP "151-algo-1_1596659864545103_"
                                          "1596659864854168.metadata"), 1);
    assert_int_equal(tf_meta_book_note(b, STEP "151-algo-1_1596659864545103_"
                                          "1596659864854168.metadata"), 0);   /* known */
    assert_int_equal(tf_meta_place(b, TRACE("ip-10-0-209-63.ec2.internal"), &pl, &err), 0);
    assert_string_equal(pl.node, "algo-1");
    assert_string_equal(pl.writer, "151-algo-1");
    assert_int_equal(pl.base_us, 1596659864545103LL);
    /* another step's record does not place this step's trace */
    assert_int_equal(tf_meta_place(b, "framework/tensorflow/detailed_profiling/2020080520/"
                                      "000000003/plugins/profile/d/h.trace.json.gz", &pl, &err),
                     -1);
    tf_meta_book_free(b);
}

static void test_place_among_several(void **state)
{
    (void)state;
    tf_meta_book *b = tf_meta_book_new();
    sm_err err = {0};
    tf_place pl;
    /* 2020-08-05 20:37:44 UTC = 1596659864 s */
    assert_int_equal(tf_meta_book_note(b, STEP "0-algo-1_1596659800000000_1596659810000000.metadata"), 1);
    assert_int_equal(tf_meta_book_note(b, STEP "1-algo-2_1596659860000000_1596659864500000.metadata"), 1);
    /* the date folder picks the session that spans it */
    assert_int_equal(tf_meta_place(b, TRACE("ip-10-0-1-1"), &pl, &err), 0);
    assert_string_equal(pl.writer, "1-algo-2");
    assert_int_equal(pl.base_us, 1596659860000000LL);
    /* a host that is the writer's host wins */
    assert_int_equal(tf_meta_place(b, TRACE("algo-1"), &pl, &err), 0);
    assert_string_equal(pl.writer, "0-algo-1");
    /* two sessions spanning the date: say so rather than guess */
    assert_int_equal(tf_meta_book_note(b, STEP "2-algo-3_1596659863000000_1596659865000000.metadata"), 1);
    assert_int_equal(tf_meta_place(b, TRACE("ip-10-0-1-1"), &pl, &err), -1);
    assert_int_equal(err.code, SM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "3 .metadata files in " STEP));
    assert_non_null(strstr(err.msg, "'ip-10-0-1-1'"));
    tf_meta_book_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_place_from_step_dir),
        cmocka_unit_test(test_place_among_several),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
