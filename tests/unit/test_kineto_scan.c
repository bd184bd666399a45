/* kineto_scan: the vector scans of the Kineto decoder (kineto_parse.h:
 * string ends, whitespace, digit runs) against byte-at-a-time reference
 * loops, with the thing sought at every place in a 16-byte load and the
 * buffer ending at every place after it (where the vector loop must hand
 * over to the scalar one), and the three integer rules on numbers of
 * every length laid at every distance from the buffer's end. Each buffer
 * is a heap copy of exactly its bytes, so ASan sees an over-read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/decode/kineto_parse.h"

/* n bytes of s in a buffer of exactly n bytes. */
static char *exact(const char *s, size_t n)
{
    char *b = malloc(n ? n : 1);
    assert_non_null(b);
    memcpy(b, s, n);
    return b;
}

static const char *ref_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

static void test_ws(void **state)
{
    (void)state;
    static const char ws[] = " \n\t\r";
    char text[64];
    for (size_t run = 0; run < 40; run++) {
        for (size_t i = 0; i < run; i++)
            text[i] = ws[(i * 7 + run) % 4];
        text[run] = 'x';
        for (size_t n = 0; n <= run + 1; n++) {
            char *b = exact(text, n);
            assert_ptr_equal(kineto_parse_ws(b, b + n), ref_ws(b, b + n));
            free(b);
        }
    }
}

static const char *ref_str_end(const char *p, const char *end, int *esc)
{
    *esc = 0;
    for (p++; p < end; p++) {
        if (*p == '"')
            return p;
        if (*p == '\\') {
            *esc = 1;
            if (++p >= end)
                return NULL;
        }
    }
    return NULL;
}

static void test_str_end(void **state)
{
    (void)state;
    char text[80];
    for (size_t len = 0; len < 48; len++) {
        for (int bs = -1; bs < (int)len; bs += len > 8 ? 5 : 1) {
            /* a string body of len bytes, a backslash pair at bs */
            text[0] = '"';
            for (size_t i = 0; i < len; i++)
                text[1 + i] = (char)('a' + i % 26);
            if (bs >= 0 && (size_t)bs + 1 < len) {
                text[1 + bs] = '\\';
                text[2 + bs] = '"';
            }
            text[1 + len] = '"';
            text[2 + len] = ',';
            for (size_t n = 1; n <= len + 3; n++) {
                char *b = exact(text, n);
                int e1, e2;
                const char *want = ref_str_end(b, b + n, &e1);
                const char *got = kineto_parse_str_end(b, b + n, &e2);
                assert_ptr_equal(got, want);
                if (want)
                    assert_int_equal(e1, e2);
                free(b);
            }
        }
    }
}

static void test_digits(void **state)
{
    (void)state;
    char text[40];
    for (size_t run = 0; run <= 20; run++) {
        for (size_t i = 0; i < run; i++)
            text[i] = (char)('0' + (i * 3 + run) % 10);
        text[run] = run % 2 ? '.' : '/';   /* '/' and ':' border the digits */
        text[run + 1] = ':';
        for (size_t n = 0; n <= run + 2; n++) {
            char *b = exact(text, n);
            size_t want = 0;
            while (want < 16 && want < n && b[want] >= '0' && b[want] <= '9')
                want++;
            assert_int_equal(kineto_parse_digits(b, b + n), want);
            free(b);
        }
    }
}

/* The ns rule by hand: [-]I[.F] with F of at most 3 digits, ×1000. */
static int64_t ref_ns(const char *s)
{
    int neg = *s == '-';
    s += neg;
    int64_t v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    int f = 0;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, f++)
            v = v * 10 + (*s - '0');
    for (; f < 3; f++)
        v *= 10;
    return neg ? -v : v;
}

/* Every length of integer part (1-18 digits) with and without a fraction
 * and a sign, at every distance from the end of the buffer: the value the
 * rules give must be the reference's, and the end the same. */
static void test_int_rules(void **state)
{
    (void)state;
    char num[64], text[96];
    for (int len = 1; len <= 18; len++) {
        for (int shape = 0; shape < 4; shape++) {
            int neg = shape & 1, frac = shape & 2;
            size_t k = 0;
            if (neg)
                num[k++] = '-';
            for (int i = 0; i < len; i++)
                num[k++] = (char)('1' + (i * 7 + len) % 9);
            if (frac) {
                num[k++] = '.';
                num[k++] = '2';
                num[k++] = '5';
            }
            num[k] = '\0';
            for (size_t pad = 0; pad < 20; pad++) {
                int n = snprintf(text, sizeof text, "%s,%*s", num, (int)pad, "");
                char *b = exact(text, (size_t)n);
                int64_t v = 0;
                const char *q = kineto_parse_int(b, b + n, KR_NS, &v);
                assert_non_null(q);
                assert_ptr_equal(q, b + k);
                if (len <= 15)
                    assert_int_equal(v, ref_ns(num));
                if (!frac) {
                    assert_non_null(q = kineto_parse_int(b, b + n, KR_VAL, &v));
                    assert_int_equal(v, strtoll(num, NULL, 10));
                    assert_non_null(q = kineto_parse_int(b, b + n, KR_ID, &v));
                    assert_int_equal(v, strtoll(num, NULL, 10));
                } else {
                    assert_non_null(q = kineto_parse_int(b, b + n, KR_VAL, &v));
                    assert_int_equal(v, SM_KEV_NONE);   /* not an integer */
                }
                assert_ptr_equal(q, b + k);
                /* skipped as a value: the same end */
                assert_ptr_equal(kineto_parse_skip(b, b + n), b + k);
                free(b);
            }
            /* the buffer ends inside the number: not a number yet */
            for (size_t cut = 1; cut <= k; cut++) {
                char *b = exact(num, cut);
                int64_t v;
                assert_null(kineto_parse_int(b, b + cut, KR_NS, &v));
                assert_null(kineto_parse_skip(b, b + cut));
                free(b);
            }
        }
    }
    /* a leading zero, a bad digit run, exponents: the full grammar's call */
    static const struct {
        const char *s;
        int ok;
        int64_t ns;
    } cases[] = {
        {"0,", 1, 0}, {"01,", 0, 0}, {"-0.5,", 1, -500}, {"1e3,", 1, 1000000},
        {"12.3456,", 1, 12346}, {"1.,", 0, 0}, {"-,", 0, 0},
        {"123456789012345678901,", 1, SM_KEV_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = strlen(cases[i].s);
        for (size_t pad = 0; pad < 20; pad++) {
            snprintf(text, sizeof text, "%s%*s", cases[i].s, (int)pad, "");
            char *b = exact(text, n + pad);
            int64_t v = 0;
            const char *q = kineto_parse_int(b, b + n + pad, KR_NS, &v);
            if (cases[i].ok) {
                assert_ptr_equal(q, b + n - 1);
                assert_int_equal(v, cases[i].ns);
            } else {
                assert_null(q);
            }
            free(b);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ws),
        cmocka_unit_test(test_str_end),
        cmocka_unit_test(test_digits),
        cmocka_unit_test(test_int_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
