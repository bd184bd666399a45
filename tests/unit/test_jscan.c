/* jscan: the one-pass number (and its value-only form, jscan_value) and
 * seconds fast paths and the word-at-a-time string scan, each held to an
 * independent reference (strtod, the general digit-by-digit path, a byte
 * loop) on edge cases and random inputs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "io/decode/jscan.h"

static const char *const numbers[] = {
    "0", "-0", "0.0", "-0.0", "1", "-1", "36.36", "27.5", "0.05", "100.0",
    "9007199254740992", "9007199254740993", "0.9007199254740993",
    "900719925474099.3", "9007199254740992.0", "9007199254740993.0",
    "1.7976931348623157", "123456789012345678", "1234567890123456789",
    "12345678901234567890", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "0.1", "0.2", "0.3",
    "0.30000000000000004", "0.1234567890123456789", "0.0000000000000000000001",
    "0.00000000000000000000001", "1.0000000000000000000001", "5e-324", "1e308",
    "1e309", "-1e309", "2.2250738585072014e-308", "1E5", "1.5e+3", "-2.5E-3",
    "1591751580.1322053", "1591751580.13220535", "1591751580", "1591751580.5",
    "-1591751580.1322055", "0.0000005", "0.0000004999", "0.00000049",
    "999999999999.9999995", "9999999999999.5", "123.", ".5", "-", "01", "1.e5",
    "1e", "1e+", "00.5", "-.5", "4503599627370497.5", "0.000001", "7.0000005",
};

/* The bits strtod gives for the token jscan accepted (C locale). */
static double ref_strtod(const char *p, size_t len)
{
    char buf[128];
    assert_true(len < sizeof buf);
    memcpy(buf, p, len);
    buf[len] = 0;
    return strtod(buf, NULL);
}

/* The number at txt, in a buffer of len bytes (the bytes after the
 * number are its delimiter and what follows, as in a line). */
static void check_number_in(const char *txt, size_t len)
{
    jscan s = {txt, txt + len}, sv = s;
    jnum n;
    const char *before = s.p;
    double v = 0;
    int rv = jscan_value(&sv, &v);
    if (jscan_number(&s, &n) != 0) {
        assert_int_equal(rv, -1);
        assert_ptr_equal(s.p, before);
        assert_ptr_equal(sv.p, before);
        return;
    }
    /* jscan_value: the same acceptance, end and bits. */
    assert_int_equal(rv, 0);
    assert_ptr_equal(sv.p, s.p);
    assert_memory_equal(&v, &n.d, sizeof v);
    assert_ptr_equal(s.p, txt + n.len);
    double want = ref_strtod(txt, n.len);
    if (n.is_int) {   /* jansson's integers: "-0" is 0, not -0.0 */
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)n.len, txt);
        long long v = strtoll(tok, NULL, 10);
        assert_int_equal(n.i, v);
        want = (double)v;
    }
    if (memcmp(&want, &n.d, sizeof want) != 0) {
        fail_msg("%s: jscan %.17g, strtod %.17g", txt, n.d, want);
    }
    /* The grammar fields agree with the general scanner's. */
    jscan t = {txt, txt + len};
    jnum g;
    assert_int_equal(jscan_number_syntax(&t, &g), 0);
    assert_int_equal(g.len, n.len);
    assert_int_equal(g.ilen, n.ilen);
    assert_int_equal(g.flen, n.flen);
    assert_int_equal(g.is_int, n.is_int);
    assert_int_equal(g.neg, n.neg);
    assert_int_equal(g.exp, n.exp);
}

static void check_number(const char *txt)
{
    check_number_in(txt, strlen(txt));
}

static void check_seconds(const char *txt)
{
    jscan s = {txt, txt + strlen(txt)}, t = s;
    jnum n;
    int64_t fast = 0, ref = 0;
    int rf = jscan_seconds(&s, &fast);
    int rr = jscan_number_syntax(&t, &n) == 0 ? jscan_seconds_to_us(&n, &ref) : -1;
    assert_int_equal(rf, rr);
    if (rf == 0) {
        if (fast != ref)
            fail_msg("%s: fast %lld, ref %lld", txt, (long long)fast, (long long)ref);
        assert_ptr_equal(s.p, t.p);
    } else {
        assert_ptr_equal(s.p, txt);
    }
}

static void test_edge_numbers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
        check_number(numbers[i]);
        check_seconds(numbers[i]);
    }
}

/* xorshift: deterministic, independent of libc rand. */
static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void random_number(uint64_t *rng, char *buf)
{
    size_t at = 0;
    if (next_rand(rng) % 4 == 0)
        buf[at++] = '-';
    int ilen = 1 + (int)(next_rand(rng) % 14);
    int flen = (int)(next_rand(rng) % 12);
    for (int k = 0; k < ilen; k++)
        buf[at++] = (char)('0' + next_rand(rng) % 10);
    if (buf[at - ilen] == '0' && ilen > 1)
        buf[at - ilen] = '7';
    if (flen) {
        buf[at++] = '.';
        for (int k = 0; k < flen; k++)
            buf[at++] = (char)('0' + next_rand(rng) % 10);
    }
    if (next_rand(rng) % 8 == 0)
        at += (size_t)sprintf(buf + at, "e%d", (int)(next_rand(rng) % 40) - 20);
    buf[at] = 0;
}

static void test_random_numbers(void **state)
{
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    char buf[64];
    for (int i = 0; i < 200000; i++) {
        random_number(&rng, buf);
        check_number(buf);
        check_seconds(buf);
    }
}

/* Numbers of 1-21 integer and 0-21 fraction digits (the eight-byte
 * steps' every run length and boundary), each followed by bytes a line
 * may hold after it or none (the buffer's end), among them bytes of
 * 0xfa-0xff whose +6 carries into the next byte, and digits after a
 * stop byte: the scan must stop at the first non-digit. Held to strtod
 * and the general scanner as above. */
static void test_numbers_in_lines(void **state)
{
    (void)state;
    static const char tails[] = ",}. eE+-x:\"/\xfa\xff\xfe\x80\x00\x2f\x3a\x29";
    uint64_t rng = 0x2545f4914f6cdd1dULL;
    char buf[96];
    for (int i = 0; i < 300000; i++) {
        size_t at = 0;
        if (next_rand(&rng) % 4 == 0)
            buf[at++] = '-';
        int ilen = 1 + (int)(next_rand(&rng) % 21);
        int flen = (int)(next_rand(&rng) % 22);
        if (next_rand(&rng) % 2)   /* the common shape: 1-3 and 0-2 digits */
            ilen = 1 + (int)(next_rand(&rng) % 3), flen = (int)(next_rand(&rng) % 3);
        for (int k = 0; k < ilen; k++)
            buf[at++] = (char)('0' + next_rand(&rng) % 10);
        if (flen) {
            buf[at++] = '.';
            for (int k = 0; k < flen; k++)
                buf[at++] = (char)('0' + next_rand(&rng) % 10);
        }
        size_t tail = next_rand(&rng) % 12;
        for (size_t k = 0; k < tail; k++) {
            uint64_t r = next_rand(&rng);
            buf[at++] = r % 3 ? tails[(r >> 8) % (sizeof tails - 1)]
                              : (char)('0' + (r >> 8) % 10);
        }
        check_number_in(buf, at);
    }
}

/* A byte loop with the documented acceptance rule. */
static int ref_string(const char *p, size_t len, size_t *out_len)
{
    if (len == 0 || p[0] != '"')
        return -1;
    for (size_t k = 1; k < len; k++) {
        unsigned char c = (unsigned char)p[k];
        if (c == '"') {
            *out_len = k - 1;
            return 0;
        }
        if (c < 0x20 || c >= 0x80 || c == '\\')
            return -1;
    }
    return -1;
}

static void test_strings(void **state)
{
    (void)state;
    /* Every stop byte at every offset of the word-at-a-time loop, plus
     * random mixes of printable and stop bytes. */
    const unsigned char stops[] = {'"', '\\', 0x00, 0x1f, 0x80, 0xff, 0x7f, 0x20};
    char buf[40];
    uint64_t rng = 12345;
    for (int round = 0; round < 100000; round++) {
        size_t len = 1 + next_rand(&rng) % (sizeof buf - 1);
        buf[0] = '"';
        for (size_t k = 1; k < len; k++) {
            uint64_t r = next_rand(&rng);
            buf[k] = (char)(r % 5 == 0 ? stops[(r >> 8) % sizeof stops]
                                       : 'a' + (char)((r >> 8) % 26));
        }
        size_t want_len = 0;
        int want = ref_string(buf, len, &want_len);
        jscan s = {buf, buf + len};
        sm_str out;
        int got = jscan_string(&s, &out);
        assert_int_equal(got, want);
        if (got == 0) {
            assert_ptr_equal(out.ptr, buf + 1);
            assert_int_equal(out.len, want_len);
            assert_ptr_equal(s.p, buf + want_len + 2);
        } else {
            assert_ptr_equal(s.p, buf);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_numbers),
        cmocka_unit_test(test_random_numbers),
        cmocka_unit_test(test_numbers_in_lines),
        cmocka_unit_test(test_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
