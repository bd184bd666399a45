/* sys_decode: the fast scanner against the jansson reference, on every real
 * sample line and on synthetic edge lines. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/decode/sys_decode.h"

#define SYS_DIR SMTOP_SAMPLES "/test_traces/system/incremental"

typedef struct pair {
    sysdec_scratch a, b;
    sm_sample fast, ref;
    int rf, rr;
} pair;

static int str_same(sm_str x, sm_str y)
{
    return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}

static int same_record(const sm_sample *x, const sm_sample *y)
{
    return str_same(x->type, y->type) && str_same(x->dimension, y->dimension) &&
           str_same(x->name, y->name) && str_same(x->node, y->node) &&
           str_same(x->extra, y->extra) && x->ts_us == y->ts_us &&
           memcmp(&x->value, &y->value, sizeof x->value) == 0;
}

/* Decodes with both; asserts they agree; returns the common result. */
static int both(pair *p, const char *line)
{
    size_t len = strlen(line);
    p->rf = sys_decode_line(line, len, &p->fast, &p->a);
    p->rr = sys_decode_line_jansson(line, len, &p->ref, &p->b);
    assert_int_equal(p->rf, p->rr);
    if (p->rf == 0 && !same_record(&p->fast, &p->ref)) {
        fail_msg("decoders disagree on: %s (ts %lld vs %lld, value %.17g vs %.17g)", line,
                 (long long)p->fast.ts_us, (long long)p->ref.ts_us, p->fast.value,
                 p->ref.value);
    }
    return p->rf;
}

static void pair_free(pair *p)
{
    sys_decode_scratch_free(&p->a);
    sys_decode_scratch_free(&p->b);
}

static int in_line(sm_str s, const char *line)
{
    return s.ptr >= line && s.ptr + s.len <= line + strlen(line);
}

static void assert_str(sm_str s, const char *want)
{
    if (!sm_str_eq(s, want))
        fail_msg("got \"%.*s\", want \"%s\"", (int)s.len, s.ptr, want);
}

static int decode_file(const char *path, pair *p)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        assert_int_equal(both(p, line), 0);
        /* The real writer's lines must take the fast path: its slices point
         * into the line, the reference's into jansson's strings. */
        assert_true(in_line(p->fast.type, line));
        assert_true(in_line(p->fast.node, line));
        assert_int_equal(p->fast.extra.len, 0);
        n++;
    }
    fclose(f);
    return n;
}

static void test_real_samples(void **state)
{
    (void)state;
    DIR *d = opendir(SYS_DIR);
    if (!d) {
        printf("SKIPPED: ../shared/samples not found\n");
        skip();
    }
    pair p = {0};
    int files = 0, lines = 0;
    struct dirent *de;
    char path[1024];
    while ((de = readdir(d))) {
        if (!strstr(de->d_name, ".json"))
            continue;
        snprintf(path, sizeof path, "%s/%s", SYS_DIR, de->d_name);
        lines += decode_file(path, &p);
        files++;
    }
    closedir(d);
    assert_int_equal(files, 3);
    assert_int_equal(lines, 14 + 32 + 32);
    pair_free(&p);
}

static void test_known_line(void **state)
{
    (void)state;
    pair p = {0};
    assert_int_equal(both(&p, "{\"Type\":\"cpu\",\"Name\":\"cpu5\",\"Dimension\":\"CPUUtilization\","
                              "\"Value\":1.36,\"NodeId\":\"algo-1\",\"Timestamp\":1591748109.2321954}"), 0);
    assert_str(p.fast.type, "cpu");
    assert_str(p.fast.name, "cpu5");
    assert_str(p.fast.dimension, "CPUUtilization");
    assert_str(p.fast.node, "algo-1");
    assert_true(p.fast.value == 1.36);
    assert_int_equal(p.fast.ts_us, 1591748109232195LL);
    assert_int_equal(p.fast.extra.len, 0);
    /* The other writer's spacing, and surrounding whitespace / CR. */
    assert_int_equal(both(&p, " {\"Type\": \"gpu\", \"Name\":\"gpu1\", \"Dimension\": \"GPUUtilization\", "
                              "\"Value\":14.76,\"NodeId\":\"algo-2\",\"Timestamp\":1591160999.6570894}\r"), 0);
    assert_str(p.fast.type, "gpu");
    assert_str(p.fast.node, "algo-2");
    assert_true(p.fast.value == 14.76);
    assert_int_equal(p.fast.ts_us, 1591160999657089LL);
    pair_free(&p);
}

#define HEAD "{\"Type\":\"cpu\",\"Dimension\":\"CPUUtilization\",\"NodeId\":\"algo-1\","

static int64_t ts_of(pair *p, const char *ts)
{
    char line[256];
    snprintf(line, sizeof line, HEAD "\"Value\":1,\"Timestamp\":%s}", ts);
    assert_int_equal(both(p, line), 0);
    return p->fast.ts_us;
}

static void test_timestamp_rounding(void **state)
{
    (void)state;
    pair p = {0};
    assert_int_equal(ts_of(&p, "1591748109.2321954"), 1591748109232195LL);
    assert_int_equal(ts_of(&p, "1591748109.2321955"), 1591748109232196LL);  /* half up */
    assert_int_equal(ts_of(&p, "1591748109.2321949999"), 1591748109232195LL);
    assert_int_equal(ts_of(&p, "1591748109.9999995"), 1591748110000000LL);
    assert_int_equal(ts_of(&p, "1591748109"), 1591748109000000LL);
    assert_int_equal(ts_of(&p, "1.5917481092321955e9"), 1591748109232196LL);
    assert_int_equal(ts_of(&p, "15917481092321955E-7"), 1591748109232196LL);
    assert_int_equal(ts_of(&p, "0.0000005"), 1);
    assert_int_equal(ts_of(&p, "-0.0000015"), -2);   /* half away from zero */
    assert_int_equal(ts_of(&p, "0e99999999"), 0);
    char line[256];
    snprintf(line, sizeof line, HEAD "\"Value\":1,\"Timestamp\":1e20}");
    assert_int_equal(both(&p, line), -1);   /* µs do not fit int64 */
    pair_free(&p);
}

static double value_of(pair *p, const char *v)
{
    char line[256];
    snprintf(line, sizeof line, HEAD "\"Value\":%s,\"Timestamp\":1591748109.5}", v);
    if (both(p, line) != 0)
        return NAN;
    return p->fast.value;
}

static void test_values(void **state)
{
    (void)state;
    pair p = {0};
    assert_true(value_of(&p, "-3.5") == -3.5);
    assert_true(value_of(&p, "1.5e2") == 150.0);
    assert_true(value_of(&p, "15E-1") == 1.5);
    assert_true(value_of(&p, "0.1000000000000000055511151231257827") == 0.1);
    assert_true(value_of(&p, "1.7976931348623157e308") == 1.7976931348623157e308);
    assert_true(value_of(&p, "123456789012345678") == 123456789012345678.0);
    assert_true(value_of(&p, "4.9e-324") > 0);
    assert_true(value_of(&p, "1e-400") == 0.0);
    assert_false(signbit(value_of(&p, "-0")));   /* jansson reads an integer 0 */
    assert_true(signbit(value_of(&p, "-0.0")));
    /* Rejected as jansson rejects them: overflow, not JSON, not a number. */
    assert_true(isnan(value_of(&p, "1e400")));
    assert_true(isnan(value_of(&p, "123456789012345678901234567890")));
    assert_true(isnan(value_of(&p, "01")));
    assert_true(isnan(value_of(&p, "1.")));
    assert_true(isnan(value_of(&p, ".5")));
    assert_true(isnan(value_of(&p, "+1")));
    assert_true(isnan(value_of(&p, "NaN")));
    assert_true(isnan(value_of(&p, "\"1.36\"")));
    assert_true(isnan(value_of(&p, "null")));
    assert_true(isnan(value_of(&p, "[1]")));
    pair_free(&p);
}

static void test_optional_and_extra(void **state)
{
    (void)state;
    pair p = {0};
    assert_int_equal(both(&p, HEAD "\"Value\":2,\"Timestamp\":1}"), 0);
    assert_int_equal(p.fast.name.len, 0);
    assert_int_equal(both(&p, HEAD "\"Name\":null,\"Value\":2,\"Timestamp\":1}"), 0);
    assert_int_equal(p.fast.name.len, 0);
    assert_int_equal(both(&p, HEAD "\"GPUTemperature\":55,\"Value\":2,\"Timestamp\":1}"), 0);
    assert_str(p.fast.extra, "\"GPUTemperature\":55");
    assert_int_equal(both(&p, "{\"a\" : \"x/y\", \"Type\":\"t\",\"Dimension\":\"d\",\"Value\":1,"
                              "\"b\":true,\"NodeId\":\"n\",\"Timestamp\":1,\"c\":null}"), 0);
    assert_str(p.fast.extra, "\"a\":\"x/y\",\"b\":true,\"c\":null");
    /* Values the fast path hands over still come back re-serialised. */
    assert_int_equal(both(&p, HEAD "\"Info\": {\"k\": [1, 2.5, \"s\"]},\"Value\":2,\"Timestamp\":1}"), 0);
    assert_str(p.fast.extra, "\"Info\":{\"k\":[1,2.5,\"s\"]}");
    assert_int_equal(both(&p, HEAD "\"t\\u00e9\":\"\\n\",\"Value\":2,\"Timestamp\":1}"), 0);
    assert_str(p.fast.extra, "\"t\xc3\xa9\":\"\\n\"");
    /* Unknown Type/Dimension are carried, not rejected. */
    assert_int_equal(both(&p, "{\"Type\":\"fpga\",\"Dimension\":\"Algorithm\",\"Value\":-7,"
                              "\"NodeId\":\"algo-3\",\"Timestamp\":5}"), 0);
    assert_str(p.fast.type, "fpga");
    assert_true(p.fast.value == -7);
    pair_free(&p);
}

static void test_escapes_fall_back(void **state)
{
    (void)state;
    pair p = {0};
    const char *plain = "{\"Type\":\"cpu\",\"Name\":\"cpu/0\",\"Dimension\":\"CPUUtilization\","
                        "\"Value\":3.25,\"NodeId\":\"algo-1\",\"Timestamp\":1591748109.25}";
    const char *esc = "{\"T\\u0079pe\":\"c\\u0070u\",\"Name\":\"cpu\\/0\",\"Dimension\":"
                      "\"CPUUtilization\",\"Value\":3.25,\"NodeId\":\"algo\\u002d1\","
                      "\"Timestamp\":1591748109.25}";
    assert_int_equal(both(&p, plain), 0);
    sm_sample a = p.fast;
    pair q = {0};
    assert_int_equal(both(&q, esc), 0);
    assert_true(same_record(&a, &q.fast));
    /* Non-ASCII text goes to the reference too, and survives. */
    assert_int_equal(both(&p, HEAD "\"Name\":\"g\xc3\xa9\",\"Value\":1,\"Timestamp\":1}"), 0);
    assert_str(p.fast.name, "g\xc3\xa9");
    pair_free(&p);
    pair_free(&q);
}

static void test_corrupt(void **state)
{
    (void)state;
    pair p = {0};
    const char *good = HEAD "\"Name\":\"cpu1\",\"Value\":1.5,\"Timestamp\":1591748109.2321954}";
    char buf[512];
    size_t n = strlen(good);
    /* Every partial line (the file tail while the minute is written). */
    for (size_t cut = 0; cut < n; cut++) {
        memcpy(buf, good, cut);
        buf[cut] = '\0';
        assert_int_equal(both(&p, buf), -1);
    }
    const char *bad[] = {
        "", "   ", "[]", "{}", "null", good + 1,
        HEAD "\"Value\":1}",                                       /* no Timestamp */
        "{\"Type\":\"cpu\",\"Dimension\":\"d\",\"Value\":1,\"Timestamp\":1}", /* no NodeId */
        HEAD "\"Value\":1,\"Timestamp\":\"1591748109\"}",
        HEAD "\"Value\":1,\"Value\":2,\"Timestamp\":1}",           /* duplicate */
        HEAD "\"x\":1,\"x\":1,\"Value\":1,\"Timestamp\":1}",
        HEAD "\"Name\":5,\"Value\":1,\"Timestamp\":1}",
        HEAD "\"Value\":1,\"Timestamp\":1}}",
        HEAD "\"Value\":1,\"Timestamp\":1} x",
        HEAD "\"Value\":1,\"Timestamp\":1,}",
        HEAD "\"Value\":1 \"Timestamp\":1}",
        HEAD "\"Value\":1,\"Timestamp\":1}\xc2\xa0",               /* NBSP is not JSON space */
        "{\"Type\":\"c\x01u\",\"Dimension\":\"d\",\"NodeId\":\"n\",\"Value\":1,\"Timestamp\":1}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (both(&p, bad[i]) != -1)
            fail_msg("accepted corrupt line: %s", bad[i]);
    pair_free(&p);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random sample-shaped lines: the two decoders must agree bit for bit. */
static void test_differential_synthetic(void **state)
{
    (void)state;
    pair p = {0};
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    char line[512];
    for (int i = 0; i < 20000; i++) {
        unsigned fd = (unsigned)(rng(&seed) % 10);   /* fraction digits */
        unsigned long long frac = rng(&seed) % 10000000000ull;
        char tsfrac[16];
        snprintf(tsfrac, sizeof tsfrac, "%010llu", frac);
        tsfrac[fd] = '\0';
        double v = (double)(rng(&seed) % 2000000) / (double)(1 + rng(&seed) % 1000);
        const char *sp = (i & 1) ? " " : "";
        snprintf(line, sizeof line,
                 "{\"Type\":%s\"cpu\",%s\"Name\":\"cpu%d\",\"Dimension\":%s\"CPUUtilization\","
                 "\"Value\":%.*g,\"NodeId\":\"algo-1\",\"Timestamp\":15917%05u%s%s}",
                 sp, sp, i % 96, sp, 1 + (int)(rng(&seed) % 17), (i & 2) ? -v : v,
                 (unsigned)(rng(&seed) % 100000), fd ? "." : "", tsfrac);
        assert_int_equal(both(&p, line), 0);
    }
    pair_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_samples),
        cmocka_unit_test(test_known_line),
        cmocka_unit_test(test_timestamp_rounding),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_optional_and_extra),
        cmocka_unit_test(test_escapes_fall_back),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_differential_synthetic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
