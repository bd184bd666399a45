/* jscan: byte-level JSON pieces shared by the hand-written line decoders
 * (sys_decode, trace_decode).
 *
 * Each scanner accepts only a strict subset of JSON whose meaning, and
 * jansson's verdict on it, is certain: strings without escapes, control or
 * non-ASCII bytes; numbers in exact JSON grammar that jansson would not
 * reject (int64 range, finite reals). Anything else returns -1, which the
 * callers read as "hand this line to the jansson reference decoder" — so a
 * fast-path acceptance always means the reference accepts it identically. */
#ifndef SMTOP_JSCAN_H
#define SMTOP_JSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/records.h"

typedef struct jscan {
    const char *p;
    const char *end;
} jscan;

/* A number as written, plus its value the way jansson sees it. */
typedef struct jnum {
    const char *ptr;      /* whole token */
    size_t len;
    int is_int;           /* no fraction, no exponent: jansson integer */
    int64_t i;            /* value when is_int */
    double d;             /* correctly rounded value ((double)i when is_int) */
    int neg;
    const char *ip;       /* integer digits */
    size_t ilen;
    const char *fp;       /* fraction digits (after '.'), flen 0 when none */
    size_t flen;
    int64_t exp;          /* decimal exponent, clamped to ±100000 */
} jnum;

/* JSON whitespace (space, tab, CR, LF) only, as jansson. */
static inline void jscan_ws(jscan *s)
{
    while (s->p < s->end &&
           (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* Bit 7 of each byte of w that ends a fast-path string ('"') or rules it
 * out ('\\', control, non-ASCII). The subtract-borrow trick can also flag
 * bytes above a truly flagged one, never below, so the lowest flag is
 * exact: that is the only one the caller reads. */
static inline uint64_t jscan_swar_stop(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    return (((q - ones) & ~q) | ((b - ones) & ~b) | (w - ones * 0x20) | w) & high;
}

/* At '"': scans a string of printable ASCII without escapes into *out
 * (quotes excluded). -1 (s unchanged) for anything else. Inline: four to
 * ten of these per metrics line, most a few bytes long. */
static inline int jscan_string(jscan *s, sm_str *out)
{
    const char *p = s->p;
    if (p >= s->end || *p != '"')
        return -1;
    const char *start = ++p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Eight bytes per step: the keys and values of a metrics line are
     * 4-20 bytes, so most strings end within one or two words. */
    while ((size_t)(s->end - p) >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t m = jscan_swar_stop(w);
        if (m) {
            p += __builtin_ctzll(m) >> 3;
            break;
        }
        p += 8;
    }
#endif
    while (p < s->end) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            out->ptr = start;
            out->len = (size_t)(p - start);
            s->p = p + 1;
            return 0;
        }
        if (c < 0x20 || c >= 0x80 || c == '\\')
            return -1;
        p++;
    }
    return -1;
}


/* Scans a number; -1 (s unchanged) when not strict JSON or when jansson
 * would reject it (integer outside int64, real overflowing to inf), or on
 * OOM for a very long real. Does not check the delimiter. */
int jscan_number(jscan *s, jnum *n);

/* jscan_number's value alone (n.d), without filling a jnum: the same
 * acceptance and the same double, in fewer instructions for the common
 * shape (a Value of a metrics line). -1 (s unchanged) as jscan_number. */
int jscan_value(jscan *s, double *out);

/* Grammar only: fills the digit fields (not i/d) and advances; -1 (s
 * unchanged) when not strict JSON. Enough for jscan_seconds_to_us, which
 * rejects every number jansson's range checks would. */
int jscan_number_syntax(jscan *s, jnum *n);

/* Scans true/false/null; returns 1, 0 or 2 respectively via *which. */
int jscan_literal(jscan *s, int *which);

/* Exact decimal conversion of a scanned number of seconds to integer
 * microseconds, rounded half away from zero on the 7th fractional digit.
 * -1 when it does not fit int64. */
int jscan_seconds_to_us(const jnum *n, int64_t *out);

/* jscan_number_syntax followed by jscan_seconds_to_us, in one pass for
 * the usual [-]int[.frac] shape. -1 (s unchanged) when either would fail. */
int jscan_seconds(jscan *s, int64_t *out);

/* Strict integer in a string ("12", "-3"): -1 when not all digits or
 * out of int64. */
int jscan_parse_int(const char *p, size_t len, int64_t *out);

#endif
