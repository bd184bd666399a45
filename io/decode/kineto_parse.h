/* kineto_parse: the in-buffer pieces of the Kineto decoder (internal to
 * io/decode/kineto_*.c): one traceEvents element, one value skipped, the
 * number rules of kineto_decode.h.
 *
 * Every function here reads a complete buffer [p, end) and fails (NULL or
 * -1) both when the JSON is bad and when the buffer ends first: the
 * streaming layer cannot tell those apart from here, so on failure it
 * gathers the element with its own bounded scanner (kineto_decode.c) and
 * parses the complete element again, where a failure is then bad JSON.
 *
 * Hand-written, not jansson: jansson builds a tree of every event (args
 * with their Input Dims arrays and all) only to read a dozen fields of
 * it; this reads those fields in place and steps over the rest. */
#ifndef SMTOP_KINETO_PARSE_H
#define SMTOP_KINETO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"

enum kineto_parse_kind {
    KP_EVENT = 1,    /* *ev is an event to give */
    KP_SKIPPED = 2,  /* a python_function event, not kept */
    KP_BAD = 3       /* valid JSON but not an event (meta.bad_events) */
};

/* Byte classes outside strings, for the structural scanners. */
enum { KC_BAD = 0, KC_WS, KC_PLAIN, KC_QUOTE, KC_OPEN, KC_CLOSE, KC_COMMA, KC_COLON };
extern const unsigned char kineto_parse_class[256];

/* The structural scans run 16 bytes a step with SSE2 (every x86-64 has
 * it, so no runtime choice is needed); elsewhere the portable loops. Why
 * vectors (issue 35, callgrind over two 19 MB synth traces): the string
 * ends, the whitespace and the digit runs were 60 % of the decoder's
 * instructions, a few bytes at a time. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define KPARSE_SSE2 1
#endif

/* Past JSON whitespace: most values are one space or none past a
 * delimiter (tested first), a new line's indentation is several. */
static inline const char *kineto_parse_ws(const char *p, const char *end)
{
    if (p >= end || kineto_parse_class[(unsigned char)*p] != KC_WS)
        return p;
    if (end - p > 1 && kineto_parse_class[(unsigned char)p[1]] != KC_WS)
        return p + 1;
#ifdef KPARSE_SSE2
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i w = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
        w = _mm_or_si128(w, _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
        w = _mm_or_si128(w, _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
        unsigned m = (unsigned)_mm_movemask_epi8(w) ^ 0xffffu;
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
    }
#endif
    while (p < end && kineto_parse_class[(unsigned char)*p] == KC_WS)
        p++;
    return p;
}

/* At '"': the closing quote's position, *esc set when the body has a
 * backslash; NULL when the buffer ends first. */
static inline const char *kineto_parse_str_end(const char *p, const char *end, int *esc)
{
    p++;
    *esc = 0;
    for (;;) {
#ifdef KPARSE_SSE2
        while (end - p >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
            unsigned m = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
            if (m) {
                p += __builtin_ctz(m);
                break;
            }
            p += 16;
        }
#endif
        while (p < end && *p != '"' && *p != '\\')
            p++;
        if (p >= end)
            return NULL;
        if (*p == '"')
            return p;
        *esc = 1;
        p += 2;          /* the escaped byte can be neither end nor quote */
        if (p >= end)
            return NULL;
    }
}

/* How many of the bytes at p (at most 16, fewer when the buffer ends
 * first) are decimal digits in a row. */
static inline unsigned kineto_parse_digits(const char *p, const char *end)
{
#ifdef KPARSE_SSE2
    if (end - p >= 16) {
        __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p),
                                 _mm_set1_epi8('0'));
        __m128i is = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
        return (unsigned)__builtin_ctz(~(unsigned)_mm_movemask_epi8(is));
    }
#endif
    unsigned n = 0;
    while (n < 16 && p + n < end && (unsigned)(p[n] - '0') < 10)
        n++;
    return n;
}

/* Parses the element at p (leading whitespace allowed); returns the end of
 * the element, with *kind (and *ev for KP_EVENT) set, or NULL. */
const char *kineto_parse_event(const char *p, const char *end, int keep_python,
                         sm_kevent *ev, int *kind);

/* Parses one deviceProperties[] element: its end, *total_mem its
 * totalGlobalMem (SM_KEV_NONE when absent or not an object). */
const char *kineto_parse_device(const char *p, const char *end, int64_t *total_mem);

/* Steps over one JSON value at p; its end, or NULL. */
const char *kineto_parse_skip(const char *p, const char *end);

/* Steps over the rest of an object whose '{' is behind p: the end after
 * its closing brace, or NULL. */
const char *kineto_parse_skip_rest(const char *p, const char *end);

/* Parses the number at p (after whitespace) under one of the rules;
 * returns its end and sets *out (SM_KEV_NONE when the rule rejects the
 * value) — or, at a string/literal/container, steps over it and sets
 * SM_KEV_NONE. NULL on bad JSON or buffer end. */
enum kineto_parse_rule { KR_NS, KR_ID, KR_VAL };
const char *kineto_parse_int(const char *p, const char *end, int rule, int64_t *out);

/* A string's body unescaped into out[0..cap) (no NUL): its length, or
 * (size_t)-1 when it does not fit. For keys and short enum strings. */
size_t kineto_parse_unescape_small(const char *p, size_t n, char *out, size_t cap);

/* The folded category of a cat string (unescaped), KCAT_OTHER when none. */
int kineto_parse_cat(const char *p, size_t n);

#endif
