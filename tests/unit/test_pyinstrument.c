/* pyinstrument python_stats.json: per-frame records (self, total without
 * recursion double counting, parent as caller), failed sessions, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "io/decode/pyinstrument.h"
#include "decode_file.h"

typedef struct got {
    int n;
    char line[8][160];
} got;

static int collect(void *ud, const pystats_func_rec *f, sm_err *err)
{
    (void)err;
    got *g = ud;
    if (g->n < 8) {
        int k = snprintf(g->line[g->n], sizeof g->line[0], "%.*s:%lld %.*s self=%g total=%g",
                         (int)f->file.len, f->file.ptr, (long long)f->line, (int)f->name.len,
                         f->name.ptr, f->c.tottime, f->c.cumtime);
        if (f->ncallers && k > 0)
            snprintf(g->line[g->n] + k, sizeof g->line[0] - (size_t)k, " <- %.*s",
                     (int)f->callers[0].name.len, f->callers[0].name.ptr);
    }
    g->n++;
    return 0;
}

#define JS(s) s, sizeof(s) - 1

static void test_tree(void **state)
{
    (void)state;
    got g = {0};
    sm_err err = {0};
    const char doc[] =
        "{\"root_frame\": {\"function\": \"main\", \"file_path_short\": \"m.py\", \"line_no\": 1,"
        " \"time\": 10, \"children\": [{\"function\": \"f\", \"file_path\": \"/a/f.py\","
        " \"line_no\": 2, \"time\": 6, \"children\": [{\"function\": \"f\", \"file_path\":"
        " \"/a/f.py\", \"line_no\": 2, \"time\": 2.5}]}]}}";
    assert_int_equal(pyinstrument_parse(JS(doc), collect, &g, &err), 0);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.line[0], "m.py:1 main self=4 total=10");
    assert_string_equal(g.line[1], "/a/f.py:2 f self=3.5 total=6 <- main");
    assert_string_equal(g.line[2], "/a/f.py:2 f self=2.5 total=0 <- f");  /* nested: not twice */
}

static void test_failed_and_errors(void **state)
{
    (void)state;
    got g = {0};
    sm_err err = {0};
    assert_int_equal(pyinstrument_parse(JS("{\"root_frame\": null}"), collect, &g, &err), 1);
    assert_int_equal(g.n, 0);
    static const struct { const char *doc, *msg; } bad[] = {
        {"", "pyinstrument JSON"},
        {"{\"root_frame\": {\"function\": \"f\"", "pyinstrument JSON"},
        {"[1]", "no \"root_frame\""},
        {"{\"x\": 1}", "no \"root_frame\""},
        {"{\"root_frame\": {\"time\": 1}}", "frame #1 (depth 0): needs a \"function\""},
        {"{\"root_frame\": {\"function\": \"f\", \"time\": \"1\"}}", "needs a \"function\""},
        {"{\"root_frame\": {\"function\": \"f\", \"time\": 1, \"children\": 3}}", "not a list"},
        {"{\"root_frame\": {\"function\": \"f\", \"time\": 1, \"children\": [7]}}", "frame #2 (depth 1)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(pyinstrument_parse(bad[i].doc, strlen(bad[i].doc), collect, &g, &err), -1);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
    }
}

static void test_load_into_store(void **state)
{
    (void)state;
    pystats_store *s = pystats_store_new();
    sm_err err = {0};
    const char *key = "framework/tensorflow/pyinstrument/algo-1/"
                      "train-9-stepstart-1_train-11-stepend-2/python_stats.json";
    const char doc[] = "{\"root_frame\": {\"function\": \"f\", \"time\": 1}}";
    assert_int_equal(decode_pystats(s, key, JS(doc), &err), 0);
    const char *failed_key = "framework/tensorflow/pyinstrument/algo-1/"
                             "train-20-stepstart-3_train-22-stepend-4/python_stats.json";
    assert_int_equal(decode_pystats(s, failed_key, JS("{\"root_frame\": null}"), &err), 0);
    assert_int_equal(pystats_store_window_count(s), 2);
    int failed;
    assert_non_null(pystats_store_window_at(s, 1, &failed, NULL));
    assert_int_equal(failed, 1);
    /* a cProfile file under a pyinstrument directory, or a bad path */
    assert_int_equal(decode_pystats(s, "framework/tensorflow/pyinstrument/algo-1/"
                                       "train-9-stepstart-1_train-11-stepend-2/python_stats",
                                       JS("{0"), &err), -1);
    assert_non_null(strstr(err.msg, "cProfile file under a pyinstrument directory"));
    assert_int_equal(decode_pystats(s, "framework/python_stats.json", JS(doc), &err), -1);
    assert_int_equal(pystats_store_window_count(s), 2);
    pystats_store_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_failed_and_errors),
        cmocka_unit_test(test_load_into_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
