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

/* Past JSON whitespace. (A table loop: an 8-spaces-at-a-time variant
 * for the indentation of pretty-printed traces ran 5 % more instructions
 * on nccl_data, whose members mostly share a line, one space apart.) */
static inline const char *kineto_parse_ws(const char *p, const char *end)
{
    while (p < end && kineto_parse_class[(unsigned char)*p] == KC_WS)
        p++;
    return p;
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

/* At '"': the closing quote's position, *esc set when the body has a
 * backslash; NULL when the buffer ends first. */
const char *kineto_parse_str_end(const char *p, const char *end, int *esc);

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
