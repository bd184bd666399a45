/* sanitize: the one rule for which characters of data may reach a
 * terminal, and the cleaning that applies it once, when a name from data
 * is kept at ingest (a Kineto trace's kernel, op and host names).
 *
 * Unsafe: the C0 controls (TAB, CR and LF included), DEL, the C1 controls
 * U+0080..U+009F, and the format characters that print nothing yet change
 * what the text around them looks like: bidi embeddings, overrides and
 * isolates (U+202A..202E, U+2066..2069, U+061C; "\u202Egpj.exe" shows as
 * "exe.jpg"), zero-width spaces and joiners (U+200B..200F, U+2060..2064),
 * the Mongolian vowel separator U+180E, the BOM U+FEFF, line and paragraph
 * separators (U+2028, U+2029). tui/text/sanitize applies the same table
 * at draw time, and adds what only a terminal needs (an escape sequence
 * as a whole, the locale's widths, columns). No allocation, no locale. */
#ifndef SMTOP_UTIL_SANITIZE_H
#define SMTOP_UTIL_SANITIZE_H

#include <stddef.h>
#include <stdint.h>

/* 1 when code point cp must not reach a terminal (see above), else 0. */
int sanitize_cp_unsafe(uint32_t cp);

/* Decodes one UTF-8 character at s[0..n) (n >= 1): its length (1..4) with
 * *cp set, or 0 when the bytes are not a valid shortest-form sequence
 * (overlong, surrogate, past U+10FFFF, truncated, a stray continuation). */
size_t sanitize_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Cleans s[0..n) in place: every unsafe character (sanitize_cp_unsafe)
 * and every byte that is not part of a valid UTF-8 sequence becomes one
 * '?'. Returns the new length (<= n) and NUL-terminates s there, so s
 * must have room for n + 1 bytes. */
size_t sanitize_clean(char *s, size_t n);

/* The length of s[0..n) cut to at most max bytes without splitting a
 * UTF-8 character (s valid UTF-8, as sanitize_clean leaves it). */
size_t sanitize_cut(const char *s, size_t n, size_t max);

#endif
