/* report_stream_par: a streamed array's parts built and laid out on
 * several threads, written in order (issue 28: the report's JSON was a
 * serial stage after a parallel pass). Internal to report_stream.c. */
#ifndef SMTOP_REPORT_STREAM_PAR_H
#define SMTOP_REPORT_STREAM_PAR_H

#include <jansson.h>
#include <stddef.h>

#include "tui/report/report_stream.h"

/* Text built in memory. */
typedef struct report_text {
    char *p;
    size_t len, cap;
} report_text;

/* Appends len bytes; 0, or -1 on OOM (t unchanged). */
int report_text_add(report_text *t, const char *s, size_t len);

/* Appends v laid out as report_stream_dump lays out a value at depth
 * (report_stream.c). 0, or -1 on OOM. */
int report_text_dump(report_text *t, const json_t *v, size_t flags, size_t depth);

/* Writes one element laid out at depth, the done-th of its array. */
typedef int (*report_item_fn)(void *ud, const char *text, size_t len, size_t depth,
                              size_t done);

/* Parts 0..n-1 of fn, built and laid out at depth on up to `threads`
 * threads (this one among them), a few parts ahead of the writing, and
 * handed to put element by element in part order, so the bytes are the
 * serial ones. fn must be safe to run at once for distinct parts. *done:
 * the elements put. 0, or -1 (OOM, or put's failure; nothing more put). */
int report_parts_par(report_part_fn fn, const void *ctx, size_t n, size_t threads,
                     size_t flags, size_t depth, report_item_fn put, void *ud, size_t *done);

#endif
