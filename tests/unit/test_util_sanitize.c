/* model/util/sanitize: the one table of characters that must not reach a
 * terminal, the cleaning a name gets once at ingest, and the cut at a
 * character boundary; and that the draw-time sanitizer (tui/text) and
 * the Kineto decoder's agree with it on every code point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <locale.h>

#include "io/decode/kineto_decode.h"
#include "model/util/sanitize.h"
#include "tui/text/sanitize.h"

static size_t clean(const char *in, char *out, size_t cap)
{
    snprintf(out, cap, "%s", in);
    return sanitize_clean(out, strlen(out));
}

static void test_clean(void **state)
{
    (void)state;
    char b[64];
    assert_int_equal(clean("aten::mm", b, sizeof b), 8);
    assert_string_equal(b, "aten::mm");
    clean("a\tb\x1b[31mc\x7f", b, sizeof b);
    assert_string_equal(b, "a?b?[31mc?");             /* C0, ESC, DEL */
    clean("x\xc2\x9b" "1m", b, sizeof b);
    assert_string_equal(b, "x?1m");                   /* C1 (8-bit CSI) */
    clean("gpj\xe2\x80\xae.exe|\xe1\xa0\x8e|\xef\xbb\xbf", b, sizeof b);
    assert_string_equal(b, "gpj?.exe|?|?");          /* RLO, U+180E, BOM */
    clean("\xff\xc3(\xc0\xaf\xed\xa0\x80", b, sizeof b);
    assert_string_equal(b, "??" "(?????");           /* invalid, overlong, surrogate */
    clean("caf\xc3\xa9 \xe4\xb8\xad", b, sizeof b);
    assert_string_equal(b, "caf\xc3\xa9 \xe4\xb8\xad"); /* printable non-ASCII kept */
}

static void test_cut(void **state)
{
    (void)state;
    const char *s = "ab\xc3\xa9" "cd";   /* "abécd", é at bytes 2-3 */
    assert_int_equal(sanitize_cut(s, 6, 10), 6);
    assert_int_equal(sanitize_cut(s, 6, 4), 4);
    assert_int_equal(sanitize_cut(s, 6, 3), 2);  /* never half of é */
    assert_int_equal(sanitize_cut(s, 6, 2), 2);
    assert_int_equal(sanitize_cut(s, 6, 0), 0);
}

/* Every code point: unsafe by the table exactly when the draw-time
 * sanitizer and the Kineto decoder's make it '?' (C1 aside, which the
 * draw-time one drops with its escape sequence). */
static void test_one_table(void **state)
{
    (void)state;
    setlocale(LC_CTYPE, "C.UTF-8");
    for (uint32_t cp = 1; cp < 0x30000; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        char in[8], out[16], raw[8];
        size_t n;
        if (cp < 0x80) {
            in[0] = (char)cp, n = 1;
        } else if (cp < 0x800) {
            in[0] = (char)(0xC0 | cp >> 6), in[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
        } else if (cp < 0x10000) {
            in[0] = (char)(0xE0 | cp >> 12), in[1] = (char)(0x80 | (cp >> 6 & 0x3F));
            in[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
        } else {
            in[0] = (char)(0xF0 | cp >> 18), in[1] = (char)(0x80 | (cp >> 12 & 0x3F));
            in[2] = (char)(0x80 | (cp >> 6 & 0x3F)), in[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
        }
        int unsafe = sanitize_cp_unsafe(cp);
        memcpy(raw, in, n);
        raw[n] = '\0';
        if (cp == '\\' || cp == '"' || cp == '?')
            continue;   /* JSON syntax in a raw body, and the mark itself */
        kineto_str_sanitize((sm_str){raw, n}, out, sizeof out);
        if (unsafe != !strcmp(out, "?"))
            fail_msg("U+%04X: table %d, Kineto's \"%s\"", cp, unsafe, out);
        if (cp == 0x1B || (cp >= 0x80 && cp <= 0x9F))
            continue;
        sanitize_text(in, n, out, sizeof out, -1);
        if (unsafe && strcmp(out, "?"))
            fail_msg("U+%04X: unsafe, the terminal's \"%s\"", cp, out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_one_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
