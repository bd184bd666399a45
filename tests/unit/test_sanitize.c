/* sanitize: escape sequences, C0/C1 controls, bad UTF-8, widths. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/text/sanitize.h"

static char out[256];

static const char *san(const char *in, int max_cols)
{
    sanitize_str(in, out, sizeof out, max_cols);
    return out;
}

static void test_plain_text_unchanged(void **s)
{
    (void)s;
    assert_string_equal(san("algo-1", -1), "algo-1");
    assert_string_equal(san("", -1), "");
    assert_string_equal(san(NULL, -1), "");
    assert_string_equal(san("caf\xc3\xa9", -1), "caf\xc3\xa9");
}

static void test_csi_sequence_replaced_whole(void **s)
{
    (void)s;
    assert_string_equal(san("\x1b[31mEVIL", -1), "?EVIL");
    assert_string_equal(san("a\x1b[1;38;2;255;0;0mb\x1b[0m", -1), "a?b?");
    /* cursor movement / clear screen */
    assert_string_equal(san("x\x1b[2J\x1b[H", -1), "x??");
}

static void test_osc_and_string_sequences(void **s)
{
    (void)s;
    /* OSC title set, BEL- and ST-terminated; OSC 52 clipboard write. */
    assert_string_equal(san("\x1b]0;pwned\x07ok", -1), "?ok");
    assert_string_equal(san("\x1b]52;c;ZXZpbA==\x1b\\ok", -1), "?ok");
    assert_string_equal(san("\x1bP+q\x1b\\z", -1), "?z");
    /* unterminated OSC swallows the rest rather than leaking it */
    assert_string_equal(san("a\x1b]0;title", -1), "a?");
    /* two-byte escape (ESC c = reset) */
    assert_string_equal(san("\x1b" "cX", -1), "?X");
    assert_string_equal(san("end\x1b", -1), "end?");
}

static void test_c0_and_c1_controls(void **s)
{
    (void)s;
    assert_string_equal(san("a\tb\nc\rd\x7f" "e\x07", -1), "a?b?c?d?e?");
    /* C1 CSI (U+009B) with parameters, and a lone C1 NEL (U+0085) */
    assert_string_equal(san("x\xc2\x9b" "31mY", -1), "x?Y");
    assert_string_equal(san("x\xc2\x85y", -1), "x?y");
    /* 8-bit OSC terminated by 8-bit ST */
    assert_string_equal(san("\xc2\x9d" "0;t\xc2\x9cok", -1), "?ok");
}

static void test_invalid_utf8(void **s)
{
    (void)s;
    assert_string_equal(san("a\xff" "b", -1), "a?b");
    assert_string_equal(san("\xc3", -1), "?");                    /* truncated */
    assert_string_equal(san("\xc0\xaf", -1), "??");               /* overlong '/' */
    assert_string_equal(san("\xed\xa0\x80", -1), "???");          /* surrogate */
    assert_string_equal(san("\xf4\x90\x80\x80", -1), "????");     /* > U+10FFFF */
    assert_string_equal(san("\xe2\x82", -1), "??");
}

static void test_width_bound_and_wide_chars(void **s)
{
    (void)s;
    assert_string_equal(san("abcdef", 3), "abc");
    assert_int_equal(sanitize_cols("abc"), 3);
    /* U+4E2D U+6587 are two columns each: 3 columns fit only one. */
    assert_string_equal(san("\xe4\xb8\xad\xe6\x96\x87", 3), "\xe4\xb8\xad");
    assert_int_equal(sanitize_cols("\xe4\xb8\xad\xe6\x96\x87"), 4);
    /* combining acute accent adds no column */
    assert_string_equal(san("e\xcc\x81x", 2), "e\xcc\x81x");
    assert_string_equal(san("abc", 0), "");
}

static void test_byte_capacity_never_splits(void **s)
{
    (void)s;
    char small[4];
    size_t n = sanitize_str("\xe4\xb8\xad\xe6\x96\x87", small, sizeof small, -1);
    assert_int_equal(n, 3);
    assert_string_equal(small, "\xe4\xb8\xad");
    n = sanitize_text("abc", 3, small, 1, -1);
    assert_int_equal(n, 0);
    assert_string_equal(small, "");
    /* embedded NUL in a length-delimited input is a control, not an end */
    n = sanitize_text("a\0b", 3, out, sizeof out, -1);
    assert_string_equal(out, "a?b");
}

static void test_fit_marks_the_cut(void **s)
{
    (void)s;
    sanitize_fit("algo-12345", out, sizeof out, 6);
    assert_string_equal(out, "algo-~");
    sanitize_fit("algo-1", out, sizeof out, 6);
    assert_string_equal(out, "algo-1");
}

static void test_ascii_locale_replaces_non_ascii(void **s)
{
    (void)s;
    setlocale(LC_ALL, "C");
    assert_string_equal(san("caf\xc3\xa9", -1), "caf?");
    setlocale(LC_ALL, "C.UTF-8");
}

/* Bidi overrides, isolates, zero-width characters and the BOM print
 * nothing but reorder or hide what is around them: a node or function
 * name must not spoof another. */
static void test_invisible_format_characters(void **s)
{
    (void)s;
    assert_string_equal(san("gpj\xe2\x80\xae.exe", -1), "gpj?.exe");          /* RLO */
    for (unsigned c = 0x202A; c <= 0x202E; c++) {
        char in[8] = {'a', (char)0xE2, (char)0x80, (char)(0x80 | (c & 0x3F)), 'b', 0};
        assert_string_equal(san(in, -1), "a?b");
    }
    for (unsigned c = 0x2066; c <= 0x2069; c++) {                          /* isolates */
        char in[8] = {'a', (char)0xE2, (char)0x81, (char)(0x80 | (c & 0x3F)), 'b', 0};
        assert_string_equal(san(in, -1), "a?b");
    }
    for (unsigned c = 0x200B; c <= 0x200F; c++) {                          /* ZW*, LRM, RLM */
        char in[8] = {'a', (char)0xE2, (char)0x80, (char)(0x80 | (c & 0x3F)), 'b', 0};
        assert_string_equal(san(in, -1), "a?b");
    }
    assert_string_equal(san("a\xe2\x81\xa0" "b", -1), "a?b");                   /* WJ */
    assert_string_equal(san("\xef\xbb\xbf" "algo-1", -1), "?algo-1");       /* BOM */
    assert_string_equal(san("a\xe2\x80\xa8" "b\xe2\x80\xa9", -1), "a?b?");  /* LS, PS */
    /* Neighbours that are ordinary text stay: en dash, em dash, ellipsis. */
    assert_string_equal(san("a\xe2\x80\x93" "b\xe2\x80\x94" "c\xe2\x80\xa6", -1),
                        "a\xe2\x80\x93" "b\xe2\x80\x94" "c\xe2\x80\xa6");
}

/* Messages keep their newlines and their own UTF-8 in any locale; what
 * a server put in them (escapes, C1, bidi) does not pass. */
static void test_fputs_message(void **s)
{
    (void)s;
    char buf[256] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    sanitize_fputs("403 Denied\x1b]52;c;cHduZWQ=\x07\x1b[2J \xe2\x80\xae" "x\xc2\x85"
                   "\n\xe2\x80\x94 check the policy", f);
    fclose(f);
    assert_string_equal(buf, "403 Denied?? ?x?\n\xe2\x80\x94 check the policy");
    setlocale(LC_ALL, "C");
    f = fmemopen(buf, sizeof buf, "w");
    sanitize_fputs("a \xe2\x80\x94 b\x1b[31m", f);
    fclose(f);
    assert_string_equal(buf, "a \xe2\x80\x94 b?");
    setlocale(LC_ALL, "C.UTF-8");
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8")) {
        print_message("SKIPPED: no C.UTF-8 locale\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_text_unchanged),
        cmocka_unit_test(test_invisible_format_characters),
        cmocka_unit_test(test_fputs_message),
        cmocka_unit_test(test_csi_sequence_replaced_whole),
        cmocka_unit_test(test_osc_and_string_sequences),
        cmocka_unit_test(test_c0_and_c1_controls),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_width_bound_and_wide_chars),
        cmocka_unit_test(test_byte_capacity_never_splits),
        cmocka_unit_test(test_fit_marks_the_cut),
        cmocka_unit_test(test_ascii_locale_replaces_non_ascii),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
