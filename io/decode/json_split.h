/* json_split: the elements of one top-level JSON array, streamed.
 *
 * smdebug's trace files are a JSON array written one event per line, and
 * smtop reads them line by line (the fast path). But a closed file is plain
 * JSON, and smdebug's own readers json.load it, so any layout is valid: the
 * whole array on one line, or pretty-printed over many. This splitter finds
 * each element of the array in bytes fed in pieces of any size, tracking
 * only nesting depth and strings — it does not parse — and hands each
 * element's bytes to a callback for the usual decoder. It keeps at most one
 * element (up to a bound), so memory does not grow with the file: a
 * 100 MB single-line file costs what its largest event costs.
 *
 * Hand-written because jansson (and every C JSON library on this machine)
 * parses a whole document into a tree: the tree of a large trace file is
 * many times its size, which is what this exists to avoid. */
#ifndef SMTOP_JSON_SPLIT_H
#define SMTOP_JSON_SPLIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct jsplit jsplit;

/* Called once per element: p[0..n) its bytes, valid only during the call.
 * p is NULL (n 0) for an element dropped because it grew past the bound,
 * and for bytes that are not an array at all (before its '[' or after its
 * ']'), once per such stretch: both are corrupt data to count. */
typedef void (*jsplit_cb)(void *ud, const char *p, size_t n);

/* A splitter that keeps at most max_elem bytes of one element. NULL on OOM. */
jsplit *json_split_new(size_t max_elem);
void json_split_free(jsplit *s);

/* Feeds the next n bytes of the document. 0, or -1 on OOM (the element in
 * progress is then dropped as if too long; the splitter stays usable). */
int json_split_feed(jsplit *s, const char *p, size_t n, jsplit_cb cb, void *ud);

/* The document ended: 1 when an element was still incomplete (it is
 * dropped; a closed file cut mid-event), else 0. An array never closed by
 * ']' is not an error: smdebug's open .tmp file reads that way. */
int json_split_finish(jsplit *s);

/* Bytes held for the element in progress (for tests of the bound). */
size_t json_split_held(const jsplit *s);

/* Whether the document that starts with p[0..n) is laid out one array
 * element per line, judged from its first element: 1 when it is (or when
 * p is too short to tell, or not an array: the line reader handles those
 * as before), 0 when the first element spans lines or shares its line
 * with the next — then only this splitter gives its events. Reads no
 * further than the end of the first element. */
int json_split_one_per_line(const char *p, size_t n);

#endif
