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

#include "../model/records.h"

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

/* At '"': scans a string of printable ASCII without escapes into *out
 * (quotes excluded). -1 (s unchanged) for anything else. */
int jscan_string(jscan *s, sm_str *out);

/* Scans a number; -1 (s unchanged) when not strict JSON or when jansson
 * would reject it (integer outside int64, real overflowing to inf), or on
 * OOM for a very long real. Does not check the delimiter. */
int jscan_number(jscan *s, jnum *n);

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
