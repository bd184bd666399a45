/* sys_decode_numbers_like (issue 28): a line taken as "the model line
 * but for its two numbers" decodes to exactly what sys_decode_line_fast
 * gives it — the model's strings, its own time and value — and a line
 * that differs elsewhere is refused. Checked on hand-made variants and on
 * 200k random mutations of smdebug lines (soundness: every acceptance
 * agrees with the full decoder; and lines that differ only in the digits
 * of their numbers are accepted). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "io/decode/sys_decode.h"

static const char *models[] = {
    "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":39.26,"
    "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.1451361}",
    "{\"Type\": \"gpu\", \"Name\":\"gpu0\", \"Dimension\": \"GPUMemoryUtilization\", "
    "\"Value\":0,\"NodeId\":\"algo-1\",\"Timestamp\":1591160699.4570894}",
    "{\"Type\":\"memory\",\"Dimension\":\"MemoryUsedPercent\",\"Value\":-12.5,"
    "\"NodeId\":\"x\",\"Timestamp\":1700000340}",
};

/* If like accepts line, the full decoder agrees on everything. */
static int check_one(const char *model, const sys_spans *sp, sysdec_scratch *a,
                     sysdec_scratch *b, const char *line, size_t len)
{
    int64_t ts;
    double v;
    if (sys_decode_numbers_like(line, len, model, strlen(model), sp, a, &ts, &v) != 0)
        return 0;
    sm_sample full, mod;
    assert_int_equal(sys_decode_line_fast(line, len, &full, b), 0);
    assert_int_equal(sys_decode_line_fast(model, strlen(model), &mod, b), 0);
    assert_int_equal(full.ts_us, ts);
    assert_memory_equal(&full.value, &v, sizeof v);
    assert_true(sm_str_same(full.type, mod.type) && sm_str_same(full.name, mod.name) &&
                sm_str_same(full.dimension, mod.dimension) && sm_str_same(full.node, mod.node));
    assert_int_equal(full.extra.len, 0);
    return 1;
}

static void test_variants(void **state)
{
    (void)state;
    sysdec_scratch a = {0}, b = {0};
    const char *m = models[0];
    sys_spans sp;
    sm_sample s;
    assert_int_equal(sys_decode_line_spans(m, strlen(m), &s, &a, &sp), 0);
    struct {
        const char *line;
        int accepted;
    } v[] = {
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":7,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6451361}", 1},
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":1e3,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6}", 1},
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":-0,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":17e8}", 1},
        {"{\"Type\":\"cpu\",\"Name\":\"cpu1\",\"Dimension\":\"CPUUtilization\",\"Value\":7,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6451361}", 0},   /* another key */
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":7,"
         "\"NodeId\":\"algo-4\",\"Timestamp\":1700000340.6451361}", 0},   /* another node */
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":07,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6451361}", 0},   /* not JSON */
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":7,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6451361,\"x\":1}", 0},
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":7,"
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6451361", 0},    /* cut */
        {"{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\",\"Value\":\"7\","
         "\"NodeId\":\"algo-3\",\"Timestamp\":1700000340.6451361}", 0},   /* a string */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (check_one(m, &sp, &a, &b, v[i].line, strlen(v[i].line)) != v[i].accepted)
            fail_msg("variant %zu: accepted %d, want %d", i, !v[i].accepted, v[i].accepted);
    /* A model with an extra member is no model. */
    const char *x = "{\"Type\":\"cpu\",\"Dimension\":\"d\",\"Value\":1,\"NodeId\":\"n\","
                    "\"Timestamp\":1700000000,\"GPUTemperature\":3}";
    assert_int_equal(sys_decode_line_spans(x, strlen(x), &s, &a, &sp), 1);
    sys_decode_scratch_free(&a);
    sys_decode_scratch_free(&b);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_mutations(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789.-+eE,:\"{} a\\";
    sysdec_scratch a = {0}, b = {0};
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    size_t accepted = 0, digits_only = 0;
    for (size_t mi = 0; mi < sizeof models / sizeof *models; mi++) {
        const char *m = models[mi];
        size_t ml = strlen(m);
        sys_spans sp;
        sm_sample s;
        assert_int_equal(sys_decode_line_spans(m, ml, &s, &a, &sp), 0);
        for (int it = 0; it < 70000; it++) {
            char line[256];
            size_t len = ml;
            memcpy(line, m, ml);
            int edits = 1 + (int)(rng(&seed) % 3), only_digits = (int)(rng(&seed) % 2);
            for (int k = 0; k < edits; k++) {
                if (only_digits) {   /* a digit of one of the numbers */
                    int in_ts = (int)(rng(&seed) % 2);
                    uint32_t from = in_ts ? sp.ts_at : sp.value_at;
                    uint32_t to = in_ts ? sp.ts_end : sp.value_end;
                    size_t at = from + (size_t)(rng(&seed) % (to - from));
                    if (line[at] >= '0' && line[at] <= '9')
                        line[at] = (char)('0' + rng(&seed) % 10);
                    continue;
                }
                size_t at = (size_t)(rng(&seed) % len);
                switch (rng(&seed) % 3) {
                case 0:
                    line[at] = alphabet[rng(&seed) % (sizeof alphabet - 1)];
                    break;
                case 1:
                    if (len < sizeof line - 1) {
                        memmove(line + at + 1, line + at, len - at);
                        line[at] = alphabet[rng(&seed) % (sizeof alphabet - 1)];
                        len++;
                    }
                    break;
                default:
                    memmove(line + at, line + at + 1, len - at - 1);
                    len--;
                }
            }
            int ok = check_one(m, &sp, &a, &b, line, len);
            accepted += (size_t)ok;
            if (only_digits) {
                sm_sample full;
                /* The same bytes but for digits: accepted whenever the
                 * full decoder takes it (a leading zero is not JSON). */
                if (sys_decode_line_fast(line, len, &full, &b) == 0 && !ok)
                    fail_msg("model %zu: a digits-only variant was refused: %.*s", mi,
                             (int)len, line);
                digits_only++;
            }
        }
    }
    if (accepted < 90000 || digits_only < 90000)
        fail_msg("%zu accepted, %zu digits-only variants", accepted, digits_only);
    sys_decode_scratch_free(&a);
    sys_decode_scratch_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
