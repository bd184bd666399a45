/* kineto_file: a PyTorch profiler trace file's bytes as JSON text, in
 * chunks, and whether a file is a Kineto trace at all (SPEC §1b).
 *
 * A .gz is written in place by tensorboard_trace_handler, so a reader can
 * find half of one: a gzip stream that ends before its trailer is
 * "incomplete" (the caller keeps nothing of it and reads it again once it
 * changes), told apart from corrupt data. A plain trace goes through a
 * .tmp and a rename, so a plain file that does not end in '}' was cut
 * short by something else, and is named so. */
#ifndef SMTOP_KINETO_FILE_H
#define SMTOP_KINETO_FILE_H

#include <stddef.h>

#include "model/util/sm_err.h"

/* The JSON text handed to a feed at most this much at a time: memory does
 * not grow with a trace's inflated size. */
#define KINETO_FILE_CHUNK ((size_t)1 << 20)

/* Receives the next n bytes of text. 0 to go on, or -1 with err to stop. */
typedef int (*kineto_file_feed)(void *ud, const char *p, size_t n, sm_err *err);

/* Streams data (gzip-inflated when it starts with gzip's magic, all
 * members) to feed. 0 when the whole text was fed; -1 with err otherwise:
 * *incomplete = 1 when the data ends early (a gzip stream without its
 * end, plain JSON not ending in '}'), else 0 (corrupt gzip, feed's own
 * error, OOM). */
int kineto_file_stream(const void *data, size_t len, kineto_file_feed feed, void *ud,
                       int *incomplete, sm_err *err);

/* Whether the text starting a file (head, n bytes, at least the first
 * 64 KB when the file is longer) is a Kineto trace: a JSON object with
 * "traceEvents" and "schemaVersion", "deviceProperties" or
 * "distributedInfo", or whose first events carry Kineto's categories.
 * 1 yes, 0 no. */
int kineto_file_sniff(const char *head, size_t n);

#endif
