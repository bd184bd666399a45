/* The marshal reader: every type code, references, limits, errors with
 * byte offsets, truncation of real pstats files at every offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/decode/pstats_marshal.h"

#define B(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static void expect_repr(const uint8_t *data, size_t len, const char *want)
{
    char out[512];
    sm_err err = {0};
    int rc = pstats_marshal_repr(data, len, out, sizeof out, &err);
    if (rc != 0)
        fail_msg("unexpected error: %s", err.msg);
    assert_string_equal(out, want);
}

static void expect_error(const uint8_t *data, size_t len, const char *substr)
{
    char out[64];
    sm_err err = {0};
    assert_int_equal(pstats_marshal_repr(data, len, out, sizeof out, &err), -1);
    if (!strstr(err.msg, substr))
        fail_msg("error '%s' lacks '%s'", err.msg, substr);
}

static void test_singletons_and_ints(void **state)
{
    (void)state;
    expect_repr(B("N"), "None");
    expect_repr(B("T"), "True");
    expect_repr(B("F"), "False");
    expect_repr(B("\xceN"), "None");   /* ref flag on None is ignored */
    expect_repr(B("i\x01\x00\x00\x00"), "1");
    expect_repr(B("i\xfb\xff\xff\xff"), "-5");
    expect_repr(B("\xe9\xff\xff\xff\x7f"), "2147483647");
}

static void test_longs(void **state)
{
    (void)state;
    expect_repr(B("l\x00\x00\x00\x00"), "0");
    /* 2**31 as Python writes it: digits 0, 0, 2 */
    expect_repr(B("\xec\x03\x00\x00\x00\x00\x00\x00\x00\x02\x00"), "2147483648");
    expect_repr(B("l\xfd\xff\xff\xff\x00\x00\x00\x00\x02\x00"), "-2147483648");
    /* 2**63-1 = digits 0x7fff x4 + 0x7 */
    expect_repr(B("l\x05\x00\x00\x00\xff\x7f\xff\x7f\xff\x7f\xff\x7f\x07\x00"),
                "9223372036854775807");
    expect_repr(B("l\xfb\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00"),
                "-9223372036854775808");
    expect_error(B("l\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00"),
                 "exceeds 64 bits at byte offset 0");
    /* 2**70, as marshal.dumps(2**70) */
    expect_error(B("l\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x04"),
                 "exceeds 64 bits");
    expect_error(B("l\x01\x00\x00\x00\x00\x80"), "digit out of range");
    expect_error(B("l\x02\x00\x00\x00\x01\x00\x00\x00"), "unnormalized");
    expect_error(B("l\xff\xff\xff\x7f\x01\x00"), "length larger than the rest");
    expect_error(B("l\x00\x00\x00\x80"), "length larger than the rest");
}

static void test_floats(void **state)
{
    (void)state;
    expect_repr(B("g\x00\x00\x00\x00\x00\x00\xe0?"), "0.5");
    expect_repr(B("\xe7\x9a\x99\x99\x99\x99\x99\xb9?"), "0.1");
    expect_repr(B("g\x00\x00\x00\x00\x00\x00\xf0?"), "1.0");
    expect_error(B("g\x00\x00\x00"), "file ends inside a value at byte offset 0");
}

static void test_strings(void **state)
{
    (void)state;
    expect_repr(B("s\x03\x00\x00\x00" "abc"), "'abc'");
    expect_repr(B("u\x03\x00\x00\x00\xc3\xa9x"), "'\xc3\xa9x'");
    expect_repr(B("t\x01\x00\x00\x00q"), "'q'");
    expect_repr(B("a\x02\x00\x00\x00hi"), "'hi'");
    expect_repr(B("A\x02\x00\x00\x00hi"), "'hi'");
    expect_repr(B("z\x02hi"), "'hi'");
    expect_repr(B("Z\x00"), "''");
    expect_repr(B("u\x02\x00\x00\x00'\n"), "'\\'\\x0a'");
    expect_error(B("u\x05\x00\x00\x00" "abc"), "length larger than the rest of the file at byte offset 0");
    expect_error(B("u\xff\xff\xff\xff"), "length larger");
    expect_error(B("z\x09" "abc"), "length larger");
}

static void test_containers(void **state)
{
    (void)state;
    expect_repr(B("(\x00\x00\x00\x00"), "()");
    expect_repr(B(")\x01N"), "(None,)");
    expect_repr(B(")\x02TF"), "(True, False)");
    expect_repr(B("{0"), "{}");
    expect_repr(B("{z\x01ki\x02\x00\x00\x00" "0"), "{'k': 2}");
    /* a '0' in value position ends the dict and drops the key, as marshal.c */
    expect_repr(B("{z\x01k0"), "{}");
    expect_error(B("(\xff\xff\xff\x7f"), "length larger than the rest");
    expect_error(B("(\x02\x00\x00\x00)\x00"), "file ends inside a value at byte offset 7");
    expect_error(B("(\x02\x00\x00\x00N"), "length larger than the rest");
    expect_error(B("{z\x01k"), "file ends inside a value at byte offset 4");
    expect_error(B("0"), "unexpected end-of-dict marker at byte offset 0");
}

static void test_refs(void **state)
{
    (void)state;
    /* ('a', 'a') with the second a back-reference */
    expect_repr(B(")\x02\xfa\x01" "ar\x00\x00\x00\x00"), "('a', 'a')");
    /* the tuple itself is ref 0 and 'a' ref 1 */
    expect_repr(B("\xa9\x02\xfa\x01" "ar\x01\x00\x00\x00"), "('a', 'a')");
    expect_error(B(")\x02\xfa\x01" "ar\x01\x00\x00\x00"),
                 "reference to an unknown object at byte offset 5");
    /* a tuple containing itself: refused, no cycle */
    expect_error(B("\xa9\x01r\x00\x00\x00\x00"), "still being read at byte offset 2");
    expect_error(B("r\x00\x00"), "file ends inside a value");
}

static void test_bad_codes_and_depth(void **state)
{
    (void)state;
    expect_error(B("c"), "unsupported type code 0x63 at byte offset 0");
    expect_error(B(")\x02N["), "unsupported type code 0x5b at byte offset 3");
    expect_error(B("f\x031.5"), "unsupported type code 0x66");
    expect_error(B(""), "empty file");
    uint8_t deep[400];
    for (size_t i = 0; i < sizeof deep; i += 2) {
        deep[i] = ')';
        deep[i + 1] = 1;
    }
    expect_error(deep, sizeof deep, "nesting too deep");
}

/* ---- pstats shape ---- */

typedef struct got {
    int n;
    pystats_func_rec f[4];
    pystats_caller_rec c[4];
    char names[4][32];
} got;

static int collect(void *ud, const pystats_func_rec *f, sm_err *err)
{
    (void)err;
    got *g = ud;
    if (g->n < 4) {
        g->f[g->n] = *f;
        snprintf(g->names[g->n], sizeof g->names[0], "%.*s:%lld(%.*s)", (int)f->file.len,
                 f->file.ptr, (long long)f->line, (int)f->name.len, f->name.ptr);
        if (f->ncallers)
            g->c[g->n] = f->callers[0];
    }
    g->n++;
    return 0;
}

/* marshal.dumps({('a.py',1,'f'): (1,2,0.5,0.25,{('b.py',2,'g'): (1,1,0.1,0.2)})}, v) */
static const char v2[] =
    "{(\x03\x00\x00\x00u\x04\x00\x00\x00" "a.pyi\x01\x00\x00\x00u\x01\x00\x00\x00"
    "f(\x05\x00\x00\x00i\x01\x00\x00\x00i\x02\x00\x00\x00g\x00\x00\x00\x00\x00\x00"
    "\xe0?g\x00\x00\x00\x00\x00\x00\xd0?{(\x03\x00\x00\x00u\x04\x00\x00\x00" "b.pyi"
    "\x02\x00\x00\x00u\x01\x00\x00\x00g(\x04\x00\x00\x00i\x01\x00\x00\x00i\x01\x00"
    "\x00\x00g\x9a\x99\x99\x99\x99\x99\xb9?g\x9a\x99\x99\x99\x99\x99\xc9?00";
static const char v3[] =
    "\xfb\xa8\x03\x00\x00\x00\xf5\x04\x00\x00\x00" "a.py\xe9\x01\x00\x00\x00\xf4\x01"
    "\x00\x00\x00" "f(\x05\x00\x00\x00r\x03\x00\x00\x00\xe9\x02\x00\x00\x00\xe7\x00"
    "\x00\x00\x00\x00\x00\xe0?\xe7\x00\x00\x00\x00\x00\x00\xd0?{\xa8\x03\x00\x00\x00"
    "\xf5\x04\x00\x00\x00" "b.pyr\x05\x00\x00\x00\xf4\x01\x00\x00\x00g\xa8\x04\x00\x00"
    "\x00r\x03\x00\x00\x00r\x03\x00\x00\x00\xe7\x9a\x99\x99\x99\x99\x99\xb9?\xe7\x9a"
    "\x99\x99\x99\x99\x99\xc9?00";
static const char v4[] =
    "\xfb\xa9\x03\xfa\x04" "a.py\xe9\x01\x00\x00\x00\xda\x01" "f)\x05r\x03\x00\x00\x00"
    "\xe9\x02\x00\x00\x00\xe7\x00\x00\x00\x00\x00\x00\xe0?\xe7\x00\x00\x00\x00\x00\x00"
    "\xd0?{\xa9\x03\xfa\x04" "b.pyr\x05\x00\x00\x00\xda\x01g\xa9\x04r\x03\x00\x00\x00r"
    "\x03\x00\x00\x00\xe7\x9a\x99\x99\x99\x99\x99\xb9?\xe7\x9a\x99\x99\x99\x99\x99\xc9?00";

static void check_versions(const char *data, size_t len)
{
    got g = {0};
    sm_err err = {0};
    if (pstats_marshal_parse(data, len, collect, &g, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.names[0], "a.py:1(f)");
    assert_int_equal(g.f[0].c.pcalls, 1);
    assert_int_equal(g.f[0].c.ncalls, 2);
    assert_true(g.f[0].c.tottime == 0.5 && g.f[0].c.cumtime == 0.25);
    assert_int_equal(g.f[0].ncallers, 1);
    assert_true(sm_str_eq(g.c[0].file, "b.py") && g.c[0].line == 2 && sm_str_eq(g.c[0].name, "g"));
    assert_int_equal(g.c[0].c.pcalls, 1);
    assert_true(g.c[0].c.tottime == 0.1 && g.c[0].c.cumtime == 0.2);
    /* Truncated anywhere: an error, never a crash or an overread (ASan). */
    for (size_t cut = 0; cut < len; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, data, cut);
        g.n = 0;
        assert_int_equal(pstats_marshal_parse(copy, cut, collect, &g, &err), -1);
        assert_int_equal(err.code, SM_ERR_FORMAT);
        free(copy);
    }
}

static void test_pstats_versions(void **state)
{
    (void)state;
    check_versions(v2, sizeof v2 - 1);
    check_versions(v3, sizeof v3 - 1);
    check_versions(v4, sizeof v4 - 1);
}

static void test_pstats_shape_errors(void **state)
{
    (void)state;
    got g = {0};
    sm_err err = {0};
    assert_int_equal(pstats_marshal_parse(B(")\x00"), collect, &g, &err), -1);
    assert_non_null(strstr(err.msg, "top level is not a dict at byte offset 0"));
    /* key ('a', 1) lacks the name */
    assert_int_equal(pstats_marshal_parse(B("{)\x02z\x01" "ai\x01\x00\x00\x00N0"), collect, &g, &err), -1);
    assert_non_null(strstr(err.msg, "(file, line, name) tuple at byte offset 1"));
    /* value is not a 5-tuple */
    assert_int_equal(pstats_marshal_parse(B("{)\x03z\x01" "ai\x01\x00\x00\x00z\x01" "f)\x01N0"),
                                          collect, &g, &err), -1);
    assert_non_null(strstr(err.msg, "not a 5-tuple at byte offset 14"));
    /* a float where a count belongs */
    assert_int_equal(pstats_marshal_parse(B("{)\x03z\x01" "ai\x01\x00\x00\x00z\x01" "f)\x05"
                                            "g\x00\x00\x00\x00\x00\x00\xe0?NNN{00"),
                                          collect, &g, &err), -1);
    assert_non_null(strstr(err.msg, "non-number"));
}

/* A real cProfile dump made by this machine's python3, truncated at every
 * byte offset. */
static void test_real_file_truncation(void **state)
{
    (void)state;
    char path[] = "/tmp/smtop_pstats_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import cProfile,sys\n"
             "def fib(n): return n if n < 2 else fib(n-1) + fib(n-2)\n"
             "p = cProfile.Profile(); p.enable(); fib(12); sorted([3,1,2]); p.disable()\n"
             "p.dump_stats(sys.argv[1])' %s", path);
    if (system(cmd) != 0) {
        unlink(path);
        skip();
    }
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    unlink(path);
    got g = {0};
    sm_err err = {0};
    if (pstats_marshal_parse(buf, len, collect, &g, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(g.n >= 3);
    for (size_t cut = 0; cut < len; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, buf, cut);
        assert_int_equal(pstats_marshal_parse(copy, cut, collect, &g, &err), -1);
        free(copy);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_singletons_and_ints),
        cmocka_unit_test(test_longs),
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_containers),
        cmocka_unit_test(test_refs),
        cmocka_unit_test(test_bad_codes_and_depth),
        cmocka_unit_test(test_pstats_versions),
        cmocka_unit_test(test_pstats_shape_errors),
        cmocka_unit_test(test_real_file_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
