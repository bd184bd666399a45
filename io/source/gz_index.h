/* gz_index: random access into a gzip stream without unpacking it (for
 * output.tar.gz read in place, io/source/source_tar.h).
 *
 * One pass over the compressed bytes (gz_index_feed) inflates them in
 * order for the caller and keeps an access point every GZ_INDEX_SPAN
 * bytes of output, at a deflate block boundary: the compressed offset,
 * its bit, and the 32 KiB of output before it (the dictionary the next
 * block may refer back into) — zlib's zran technique. A reader
 * (gz_reader) then starts at the point before any output offset, so
 * reading a member of the archive costs at most one span of inflating
 * beyond its own bytes, and the compressed bytes from that point on.
 * Streams of several gzip members one after another are one stream;
 * bytes after the last member that are not another member (zero
 * padding) end it. Pure: bytes in, bytes out, no I/O. */
#ifndef SMTOP_GZ_INDEX_H
#define SMTOP_GZ_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

#define GZ_INDEX_SPAN ((int64_t)8 << 20)   /* output bytes between access points */

typedef struct gz_index gz_index;
typedef struct gz_reader gz_reader;

/* Receives output bytes in order; nonzero stops (gz_*_feed returns 1). */
typedef int (*gz_out_fn)(void *ud, const void *p, size_t n);

/* span: output bytes between access points (0: GZ_INDEX_SPAN). NULL on OOM. */
gz_index *gz_index_new(int64_t span);
void gz_index_free(gz_index *x);

/* The next n compressed bytes, in order from the stream's first: their
 * output goes to out (may be NULL). 0 more wanted, 1 the stream ended
 * (or out stopped), -1 with err (not gzip, corrupt, out of memory). */
int gz_index_feed(gz_index *x, const void *p, size_t n, gz_out_fn out, void *ud, sm_err *err);
/* 1 when the stream ended whole (its last member's trailer read). */
int gz_index_done(const gz_index *x);
/* Output bytes so far; compressed bytes consumed so far. */
int64_t gz_index_out(const gz_index *x);
int64_t gz_index_in(const gz_index *x);
/* Access points kept, and the bytes they hold. */
size_t gz_index_points(const gz_index *x);

/* A reader of the output from offset off (within what the index has
 * seen): *comp_off is the compressed offset its first gz_reader_feed
 * must start at. NULL with err (off past the indexed output, OOM). */
gz_reader *gz_reader_new(const gz_index *x, int64_t off, int64_t *comp_off, sm_err *err);
void gz_reader_free(gz_reader *r);
/* The next compressed bytes (from where the reader stands): output from
 * off on goes to out. 0 more wanted, 1 out stopped or the stream ended,
 * -1 with err (corrupt). */
int gz_reader_feed(gz_reader *r, const void *p, size_t n, gz_out_fn out, void *ud, sm_err *err);
/* No output past offset upto (-1: none): a feed returns 1 there, the
 * reader standing exactly at upto, so a later call continues from it. */
void gz_reader_limit(gz_reader *r, int64_t upto);
/* The next output offset it will give, and the next compressed offset
 * it wants: a caller that keeps a reader continues where it stopped. */
int64_t gz_reader_out(const gz_reader *r);
int64_t gz_reader_in(const gz_reader *r);

#endif
