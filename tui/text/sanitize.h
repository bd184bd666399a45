/* sanitize: every string that came from data (node ids, function names,
 * keys, error text quoting a key) becomes safe terminal text here before a
 * pane draws it.
 *
 * Rules, applied to UTF-8 input of known length:
 *   - an escape sequence (ESC followed by CSI `[`, OSC `]`, DCS `P`, APC `_`,
 *     PM `^`, SOS `X` strings, or a two-byte ESC x) and the C1 controls
 *     U+0080..U+009F (incl. 8-bit CSI/OSC and their payload) are replaced,
 *     as a whole, by one '?';
 *   - the characters model/util/sanitize.h calls unsafe (its one table:
 *     C0 controls incl. TAB, CR, LF, DEL, and the invisible format
 *     characters: bidi controls, zero-width characters, U+180E, BOM, line
 *     and paragraph separators) become '?';
 *   - an invalid, overlong, surrogate or truncated UTF-8 sequence becomes
 *     '?' per offending byte;
 *   - a code point the current locale cannot show (wcwidth < 0 — in a
 *     non-UTF-8 locale that is every non-ASCII one) becomes '?';
 *   - the result is cut, at a character boundary, so that it occupies at
 *     most max_cols terminal columns (wide CJK characters count 2, combining
 *     marks 0); max_cols < 0 means no limit.
 * The output is always NUL-terminated UTF-8 (when cap > 0) and never splits
 * a character. No allocation, no curses; depends on LC_CTYPE only through
 * wcwidth, so callers (and tests) set the locale first. */
#ifndef SMTOP_SANITIZE_H
#define SMTOP_SANITIZE_H

#include <stddef.h>
#include <stdio.h>

/* Sanitizes in[0..len) into out (cap bytes incl. the NUL). Returns the
 * number of bytes written before the NUL. `in` may be NULL when len is 0. */
size_t sanitize_text(const char *in, size_t len, char *out, size_t cap,
                     int max_cols);

/* Same for a NUL-terminated string (NULL is treated as ""). */
size_t sanitize_str(const char *in, char *out, size_t cap, int max_cols);

/* Writes msg (a message that may quote data: an S3 error's Code and
 * Message, a key, a file name) to f sanitized line by line: its newlines
 * are kept, everything else follows the rules above except that
 * printable non-ASCII characters are kept in any locale (the messages'
 * own text, e.g. an em dash, was always printed as is), no column limit.
 * For every message that goes to stdout or stderr. NULL is "". */
void sanitize_fputs(const char *msg, FILE *f);

/* Display columns of already-sanitized text s (NUL-terminated). */
int sanitize_cols(const char *s);

/* Like sanitize_str, but when the text does not fit in max_cols (>= 2) it
 * is cut one column earlier and ends with '~' so the cut is visible. */
size_t sanitize_fit(const char *in, char *out, size_t cap, int max_cols);

#endif
