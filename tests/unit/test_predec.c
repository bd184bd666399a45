/* predec: lines decoded ahead, checked line by line against the decoders
 * the consumer would run itself (predec.h: results cannot change, only
 * where the work runs). A record is offered only for exactly its line;
 * its sample (the key's strings with its own time and value) and its
 * event are the decoder's; lines the fast path cannot give a record for
 * (escapes, extra members, corrupt, past the key limit) are left to the
 * consumer; one buffer reused for system, trace and system bytes again
 * stays right; records are sized to the file (issue 15). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/sys_decode.h"
#include "io/decode/trace_decode.h"
#include "io/decode/trace_line.h"
#include "io/decode/predec.h"

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[512];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof line);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
    memcpy(t->p + t->len, line, (size_t)n + 1);
    t->len += (size_t)n;
}

static void add_sample(text *t, const char *name, double v, double ts, const char *tail)
{
    add(t, "{\"Type\":\"cpu\",\"Name\":\"%s\",\"Dimension\":\"CPUUtilization\",\"Value\":%.2f,"
           "\"NodeId\":\"algo-1\",\"Timestamp\":%.7f}%s",
        name, v, ts, tail);
}

static void same_str(sm_str a, sm_str b)
{
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.ptr, b.ptr, a.len);
}

/* Walks data's lines as scan_ingest does and checks each record against
 * the decoder; returns how many lines got one. */
static size_t check_system(const predec_buf *b, const char *data, size_t len)
{
    predec pre = predec_view(b);
    sysdec_scratch sc = {0};
    size_t taken = 0;
    for (const char *p = data, *end = data + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;   /* a partial last line: never a record */
        const predec_rec *at = predec_at(&pre, p);
        size_t n = (size_t)(nl - p);
        while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (at) {
            assert_ptr_equal(predec_nl(&pre, at), nl);
            assert_int_equal(at->len, n);
        }
        sm_sample want;
        int fast = n && sys_decode_line_fast(p, n, &want, &sc) == 0 && want.extra.len == 0;
        const predec_rec *r = n ? predec_take(&pre, p, n, PREDEC_SYSTEM) : NULL;
        if (r) {
            assert_true(fast);
            sm_sample got;
            predec_sample(&pre, r, &got);
            same_str(got.type, want.type);
            same_str(got.dimension, want.dimension);
            same_str(got.name, want.name);
            same_str(got.node, want.node);
            assert_int_equal(got.extra.len, 0);
            assert_int_equal(got.ts_us, want.ts_us);
            assert_memory_equal(&got.value, &want.value, sizeof got.value);
            assert_true(r->key < pre.nkeys);
            /* The key's chain runs forward through samples of that key. */
            if (r->next_same != PREDEC_NO_KEY) {
                assert_true(r->next_same > (uint32_t)(r - pre.v));
                sm_sample next;
                predec_sample(&pre, &pre.v[r->next_same], &next);
                same_str(next.name, want.name);
            }
            taken++;
        }
        p = nl + 1;
    }
    sys_decode_scratch_free(&sc);
    return taken;
}

static void test_system_lines(void **state)
{
    (void)state;
    text t = {0};
    const char *names[] = {"cpu0", "cpu1", "cpu2"};
    for (int tick = 0; tick < 50; tick++) {
        double ts = 1591748100.0 + tick * 0.5 + 0.1234567;
        for (int c = 0; c < 3; c++)
            add_sample(&t, names[c], tick * 1.5 + c, ts, "\n");
    }
    add_sample(&t, "cpu1", 7, 1591748200.5, " \t\r\n");   /* trailing blanks */
    add(&t, "\n   \n");                                   /* blank lines */
    add(&t, "{\"Type\":\"cpu\",\"Name\":\"cpu\\u0030\",\"Dimension\":\"CPUUtilization\","
            "\"Value\":1,\"NodeId\":\"algo-1\",\"Timestamp\":1591748201}\n");   /* escape */
    add(&t, "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dimension\":\"CPUUtilization\","
            "\"Value\":1,\"NodeId\":\"algo-1\",\"Timestamp\":1591748201,\"Unit\":\"%%\"}\n");
    add(&t, "{\"Type\":\"cpu\",\"Name\":\"cpu0\",\"Dim\n");   /* corrupt */
    add_sample(&t, "cpu2", 9, 1591748202.0, "\n");
    add_sample(&t, "cpu2", 10, 1591748203.0, "");   /* no newline: not a line yet */

    predec_buf b = {0};
    sysdec_scratch sc = {0};
    predec_decode(&b, &sc, t.p, t.len, PREDEC_SYSTEM);
    assert_int_equal(b.nkeys, 3);
    assert_int_equal(check_system(&b, t.p, t.len), 150 + 1 + 1);
    predec pre = predec_view(&b);
    /* A line elsewhere (a held partial line) is not matched, nor one of
     * another length, nor as the other kind. */
    assert_null(predec_take(&pre, "{}", 2, PREDEC_SYSTEM));
    pre.at = 0;
    assert_null(predec_take(&pre, t.p, pre.v[0].len - 1, PREDEC_SYSTEM));
    pre.at = 0;
    assert_null(predec_take(&pre, t.p, pre.v[0].len, PREDEC_TRACE));
    predec_buf_free(&b);
    sys_decode_scratch_free(&sc);
    free(t.p);
}

/* More series in one file than keys are numbered for: the rest are left
 * to the consumer, whose own decode gives the same samples. */
static void test_keys_past_limit(void **state)
{
    (void)state;
    text t = {0};
    for (int i = 0; i < 5000; i++) {
        char name[32];
        snprintf(name, sizeof name, "s%d", i);
        add_sample(&t, name, i, 1591748100.5, "\n");
    }
    predec_buf b = {0};
    sysdec_scratch sc = {0};
    predec_decode(&b, &sc, t.p, t.len, PREDEC_SYSTEM);
    size_t taken = check_system(&b, t.p, t.len);
    assert_true(taken >= 4000 && taken < 5000);
    assert_int_equal(taken, b.nkeys);
    predec_buf_free(&b);
    sys_decode_scratch_free(&sc);
    free(t.p);
}

static void check_trace(const predec_buf *b, const char *data, size_t len)
{
    predec pre = predec_view(b);
    size_t taken = 0;
    for (const char *p = data, *end = data + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)(nl - p);
        tl_event want;
        int fast = trace_decode_parse(p, n, &want) == 1;
        const predec_rec *r = predec_take(&pre, p, n, PREDEC_TRACE);
        assert_int_equal(r != NULL, fast);
        if (r) {
            const tl_event *got = predec_event(&pre, r);
            same_str(got->name, want.name);
            same_str(got->ph, want.ph);
            assert_int_equal(got->ts, want.ts);
            assert_int_equal(got->dur, want.dur);
            assert_int_equal(got->pid, want.pid);
            assert_int_equal(got->step, want.step);
            taken++;
        }
        p = nl + 1;
    }
    assert_true(taken > 0);
}

/* One buffer, as a ring slot uses it: system bytes, a trace, system
 * bytes again. */
static void test_reuse_across_kinds(void **state)
{
    (void)state;
    text s1 = {0}, tr = {0}, s2 = {0};
    for (int i = 0; i < 300; i++)
        add_sample(&s1, i % 2 ? "cpu0" : "cpu1", i, 1591748100.0 + i, "\n");
    add(&tr, "[\n");
    for (int i = 0; i < 2000; i++)
        add(&tr, "{\"name\":\"Step:%d\",\"ph\":\"X\",\"ts\":%d,\"dur\":%d,\"pid\":1,\"tid\":2,"
                 "\"args\":{\"step_num\":%d}},\n",
            i, 1000 + i * 10, 5 + i % 7, i);
    for (int i = 0; i < 20; i++)
        add_sample(&s2, "gpu0", i, 1591748500.0 + i, "\n");
    predec_buf b = {0};
    sysdec_scratch sc = {0};
    predec_decode(&b, &sc, s1.p, s1.len, PREDEC_SYSTEM);
    assert_int_equal(check_system(&b, s1.p, s1.len), 300);
    predec_decode(&b, &sc, tr.p, tr.len, PREDEC_TRACE);
    check_trace(&b, tr.p, tr.len);
    predec_decode(&b, &sc, s2.p, s2.len, PREDEC_SYSTEM);
    assert_int_equal(b.nkeys, 1);
    assert_int_equal(check_system(&b, s2.p, s2.len), 20);
    predec_buf_free(&b);
    sys_decode_scratch_free(&sc);
    free(s1.p);
    free(tr.p);
    free(s2.p);
}

/* Records fit the file (a ring slot holds them while others fill): not
 * the next power of two, even when the first lines mislead the guess. */
static void test_sized_to_need(void **state)
{
    (void)state;
    text t = {0}, odd = {0};
    for (int i = 0; i < 6700; i++)
        add_sample(&t, i % 56 < 10 ? "cpu0" : "gpu7", i % 100, 1591748100.0 + i / 56, "\n");
    for (int i = 0; i < 2000; i++)   /* long lines first, then short */
        add_sample(&odd, i < 100 ? "a_very_long_name_of_a_series_indeed_xxxxxxxxxxxxxxxxxxxxxxxx"
                                 : "c",
                   1, 1591748100.0 + i, "\n");
    predec_buf b = {0};
    sysdec_scratch sc = {0};
    predec_decode(&b, &sc, t.p, t.len, PREDEC_SYSTEM);
    assert_int_equal(b.n, 6700);
    assert_true(b.cap < 6700 + 6700 / 8 + 128);
    predec_buf_free(&b);
    predec_decode(&b, &sc, odd.p, odd.len, PREDEC_SYSTEM);
    assert_int_equal(check_system(&b, odd.p, odd.len), 2000);
    predec_buf_free(&b);
    sys_decode_scratch_free(&sc);
    free(t.p);
    free(odd.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system_lines),
        cmocka_unit_test(test_keys_past_limit),
        cmocka_unit_test(test_reuse_across_kinds),
        cmocka_unit_test(test_sized_to_need),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
