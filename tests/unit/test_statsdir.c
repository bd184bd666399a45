/* stats_dir names in both namings and key paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "io/decode/statsdir.h"

static void test_current_naming(void **state)
{
    (void)state;
    pystats_window w;
    memset(&w, 0, sizeof w);
    const char *n = "train-9-stepstart-1591748100000000_train-11-stepend-1591748160123456";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_mode, PYMODE_TRAIN);
    assert_int_equal(w.end_mode, PYMODE_TRAIN);
    assert_int_equal(w.start_step, 9);
    assert_int_equal(w.end_step, 11);
    assert_int_equal(w.start_phase, PYPHASE_STEPSTART);
    assert_int_equal(w.end_phase, PYPHASE_STEPEND);
    assert_int_equal(w.start_us, 1591748100000000LL);
    assert_int_equal(w.end_us, 1591748160123456LL);
    assert_int_equal(w.legacy, 0);
    assert_int_equal(pystats_window_jobphase(&w), PYJOB_TRAINING);

    n = "prestepzero-*-start-100_train-0-stepstart-200";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_mode, PYMODE_PRESTEPZERO);
    assert_int_equal(w.start_step, PYSTATS_NO_STEP);
    assert_int_equal(w.start_phase, PYPHASE_START);
    assert_int_equal(w.end_step, 0);
    assert_int_equal(pystats_window_jobphase(&w), PYJOB_BEFORE_STEP0);

    n = "eval-4-forwardpassend-300_posthookclose-*-end-400";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_mode, PYMODE_EVAL);
    assert_int_equal(w.start_phase, PYPHASE_FORWARDPASSEND);
    assert_int_equal(w.end_mode, PYMODE_POSTHOOKCLOSE);
    assert_int_equal(w.end_phase, PYPHASE_END);
    assert_int_equal(pystats_window_jobphase(&w), PYJOB_AFTER_CLOSE);
    n = "global-1-start-1_predict-2-end-2";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_mode, PYMODE_GLOBAL);
    assert_int_equal(w.end_mode, PYMODE_PREDICT);
}

static void test_legacy_naming(void **state)
{
    (void)state;
    pystats_window w;
    memset(&w, 0, sizeof w);
    const char *n = "1591748100000000_1591748160000000_4487-algo-1_-1";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.legacy, 1);
    assert_string_equal(w.node, "algo-1");
    assert_int_equal(w.start_step, PYSTATS_NO_STEP);
    assert_int_equal(w.start_us, 1591748100000000LL);
    assert_int_equal(w.end_us, 1591748160000000LL);
    assert_int_equal(pystats_window_jobphase(&w), PYJOB_BEFORE_STEP0);
    n = "10_20_905-my_host-b88_12";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_string_equal(w.node, "my_host-b88");
    assert_int_equal(w.start_step, 12);
    assert_int_equal(w.end_step, 12);
    assert_int_equal(pystats_window_jobphase(&w), PYJOB_TRAINING);
}

/* smdebug names a stats dir from time.time() * 1e6 printed by Python, so
 * real names carry a fraction of a microsecond (dropped: times are µs). */
static void test_fractional_times(void **state)
{
    (void)state;
    pystats_window w;
    memset(&w, 0, sizeof w);
    const char *n = "train-1-stepstart-1795415008236194.8_train-1-stepend-1795415008242140.8";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_step, 1);
    assert_int_equal(w.end_step, 1);
    assert_int_equal(w.start_us, 1795415008236194LL);
    assert_int_equal(w.end_us, 1795415008242140LL);
    n = "prestepzero-*-start-1596585374963238.25_train-0-stepstart-1596585376008161";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_us, 1596585374963238LL);
    assert_int_equal(w.end_us, 1596585376008161LL);
    /* the older naming carries fractions too, and step -1 before step 0 */
    n = "1596585374963238.0_1596585376008161.0_151-algo-1_-1";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.legacy, 1);
    assert_int_equal(w.start_us, 1596585374963238LL);
    assert_int_equal(w.end_us, 1596585376008161LL);
    assert_string_equal(w.node, "algo-1");
    assert_int_equal(w.start_step, PYSTATS_NO_STEP);
    assert_int_equal(pystats_window_jobphase(&w), PYJOB_BEFORE_STEP0);
    n = "1596585374963238.0_1596585376008161.0_151-algo-1_2";
    assert_int_equal(statsdir_parse_name(n, strlen(n), &w, NULL), 0);
    assert_int_equal(w.start_step, 2);
}

static void test_bad_names(void **state)
{
    (void)state;
    static const char *bad[] = {
        "", "train-9-stepstart-1", "train-9-stepstart-1_", "train-x-stepstart-1_train-1-end-2",
        "walk-9-stepstart-1_train-1-end-2", "train-9-run-1_train-1-end-2",
        "train-9-stepstart-1_train-1-end-2x", "train-9-stepstart-_train-1-end-2",
        "train-9-stepstart-99999999999999999999_train-1-end-2", "10_20", "10_20_x-node_1",
        "10_20_905node_1", "10_20_905-_1", "10_20_905-n_", "10_x_905-n_1", "10_20_905-a b_1",
        "10_20_905-a\x01b_1",
        "train-1-stepstart-1._train-1-stepend-2", "train-1-stepstart-.5_train-1-stepend-2",
        "train-1-stepstart-1.5.5_train-1-stepend-2", "train-1-stepstart-1e5_train-1-stepend-2",
        "train-1-stepstart-1.x_train-1-stepend-2", "10.5x_20_905-n_1", "-10_20_905-n_1",
        "train-1-stepstart-9223372036854775808.0_train-1-stepend-2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pystats_window w, before;
        memset(&w, 0x5a, sizeof w);
        before = w;
        sm_err err = {0};
        if (statsdir_parse_name(bad[i], strlen(bad[i]), &w, &err) != -1)
            fail_msg("accepted '%s'", bad[i]);
        assert_int_equal(err.code, SM_ERR_FORMAT);
        assert_memory_equal(&w, &before, sizeof w);
    }
}

static void test_keys(void **state)
{
    (void)state;
    pystats_window w;
    sm_err err = {0};
    assert_int_equal(statsdir_parse_key("framework/pytorch/cprofile/algo-2/"
                                        "train-9-stepstart-1_train-11-stepend-2/python_stats",
                                        &w, &err), 0);
    assert_string_equal(w.framework, "pytorch");
    assert_int_equal(w.profiler, PYPROF_CPROFILE);
    assert_string_equal(w.node, "algo-2");
    assert_int_equal(w.end_step, 11);
    assert_int_equal(statsdir_parse_key("profiler-output/framework/tensorflow/pyinstrument/"
                                        "algo-1/10_20_905-algo-7_3/python_stats.json",
                                        &w, &err), 0);
    assert_string_equal(w.framework, "tensorflow");
    assert_int_equal(w.profiler, PYPROF_PYINSTRUMENT);
    assert_string_equal(w.node, "algo-1");   /* the path's node */
    assert_int_equal(w.legacy, 1);
    assert_int_equal(statsdir_parse_key("framework/pytorch/yappi/algo-1/"
                                        "train-9-stepstart-1_train-11-stepend-2/python_stats",
                                        &w, &err), -1);
    assert_non_null(strstr(err.msg, "unknown Python profiler 'yappi'"));
    assert_int_equal(statsdir_parse_key("cprofile/algo-1/x/python_stats", &w, &err), -1);
    assert_int_equal(statsdir_parse_key("system/pytorch/cprofile/algo-1/"
                                        "train-9-stepstart-1_train-11-stepend-2/python_stats",
                                        &w, &err), -1);
    assert_int_equal(statsdir_parse_key("framework/pytorch/cprofile/algo-1/nope/python_stats",
                                        &w, &err), -1);
    assert_non_null(strstr(err.msg, "unrecognised Python stats directory name 'nope'"));
}

/* The older layout: framework/<fw>/cProfile/<start>_<end>_<pid>-<node>_<step>/
 * python_stats — capital P, no node folder: the node is the name's. */
static void test_legacy_key(void **state)
{
    (void)state;
    pystats_window w;
    sm_err err = {0};
    assert_int_equal(statsdir_parse_key("framework/tensorflow/cProfile/"
                                        "1596585374963238.0_1596585376008161.0_151-algo-1_2/"
                                        "python_stats", &w, &err), 0);
    assert_string_equal(w.framework, "tensorflow");
    assert_int_equal(w.profiler, PYPROF_CPROFILE);
    assert_string_equal(w.node, "algo-1");
    assert_int_equal(w.legacy, 1);
    assert_int_equal(w.start_step, 2);
    assert_int_equal(w.start_us, 1596585374963238LL);
    assert_int_equal(statsdir_parse_key("profiler-output/framework/pytorch/cProfile/"
                                        "10_20_905-algo-3_-1/python_stats", &w, &err), 0);
    assert_string_equal(w.node, "algo-3");
    assert_int_equal(w.start_step, PYSTATS_NO_STEP);
    /* the current naming has no node of its own: not valid without a node folder */
    assert_int_equal(statsdir_parse_key("framework/pytorch/cProfile/"
                                        "train-9-stepstart-1_train-11-stepend-2/python_stats",
                                        &w, &err), -1);
    assert_int_equal(statsdir_parse_key("framework/pytorch/cProfile/10_20_905-algo-3_1/"
                                        "python_stats.json", &w, &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_current_naming),
        cmocka_unit_test(test_legacy_naming),
        cmocka_unit_test(test_fractional_times),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_legacy_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
