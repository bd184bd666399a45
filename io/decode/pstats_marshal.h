/* pstats_marshal: reads cProfile's `python_stats` — Python's marshal format
 * (versions 2 to 4, as Python 3.7 and later write it) holding the pstats
 * dict {(file, line, func): (pcalls, ncalls, tottime, cumtime,
 * {caller: (pcalls, ncalls, tottime, cumtime)})}.
 *
 * Supported codes: 'N' 'T' 'F', 'i' (int32), 'l' (15-bit digit longs),
 * 'g' (binary double), 's' 'u' 't' 'a' 'A' (4-byte length strings), 'z' 'Z'
 * (1-byte length), '(' and ')' tuples, '{' dicts ending in '0', the 0x80
 * reference flag and 'r' back-references. Anything else is an error that
 * names the byte offset. Limits, checked before any allocation: lengths
 * must fit in the bytes left, nesting is at most PSTATS_MAX_DEPTH, a
 * reference must name an object already complete (so no cycles).
 *
 * Decisions: a long outside the int64 range is an error ("exceeds 64
 * bits"), never clamped, because a silently wrong count is worse than a
 * skipped file; ints are accepted where pstats has floats (times) and vice
 * versa floats are rejected where counts belong; bytes after the top-level
 * object are ignored, as marshal.load ignores them; callers given as a
 * plain int (the old `profile` module's format) count as ncalls = pcalls
 * with zero times; a key repeated inside one dict (pstats never writes
 * one) is delivered twice and so summed, where marshal.load would keep the
 * last. Strings are passed on as raw bytes (UTF-8 as written). */
#ifndef SMTOP_PSTATS_MARSHAL_H
#define SMTOP_PSTATS_MARSHAL_H

#include <stddef.h>

#include "model/pystats/pystats.h"
#include "model/util/sm_err.h"

#define PSTATS_MAX_DEPTH 64

/* Called once per function, in file order; f and its strings are valid
 * only during the call. Return 0, or -1 with err set to stop. */
typedef int (*pstats_func_cb)(void *ud, const pystats_func_rec *f, sm_err *err);

/* Decodes data[0..len) and calls cb per function. Returns 0, or -1 with
 * err (SM_ERR_FORMAT "… at byte offset N", SM_ERR_NOMEM, or the callback's
 * error). Never reads outside the buffer. */
int pstats_marshal_parse(const void *data, size_t len, pstats_func_cb cb, void *ud,
                         sm_err *err);

/* Decodes any one supported marshal value and writes it like Python's
 * repr() into out (truncated to cap, always NUL-terminated): for tests
 * and debugging. Returns 0 or -1 with err. */
int pstats_marshal_repr(const void *data, size_t len, char *out, size_t cap, sm_err *err);

#endif
