/* decoder_lines: the decoder table's rows for line files, which grow while
 * they are read: system metrics ("system"), smdebug's closed traces
 * ("smdebug-trace") and the open `.tmp` trace ("smdebug-trace-tmp").
 *
 * Bytes → lines → records: a line file is read as it grows, over many
 * scan passes, so its reader lives between reads (the catalog keeps it)
 * and holds what a read cut: the incomplete last line, the trace
 * decoder's open B events, a closed trace's elements when it is not one
 * event per line (json_split). Records go to a rec_sink like every
 * decoder's; the extras here are what growing files and the scanner's
 * speed need, and nothing else reads them:
 *   - begin with a carry (B/E pairs across a writer's files), a mark
 *     (records at or before it came from an earlier version of the file)
 *     and where the bytes start;
 *   - the lines of the next feed decoded ahead on another thread
 *     (predec), whose keys' samples come to the sink as runs;
 *   - a flush that decodes what is held as if the file had ended, for a
 *     report's last look at files still growing;
 *   - adoption: the trace decoder of a renamed `.tmp` moves to the
 *     closed file that continues it (scan_adopt), found by the hash of
 *     the lines the .tmp decoded.
 * No model, no I/O; a reader is used by one thread at a time. */
#ifndef SMTOP_DECODER_LINES_H
#define SMTOP_DECODER_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "io/decode/decoder.h"
#include "io/decode/predec.h"
#include "io/decode/prefix_hash.h"
#include "io/decode/sys_decode.h"
#include "io/decode/trace_carry.h"
#include "io/decode/trace_decode.h"

#define DECODER_LINE_MAX (4 << 20)  /* longer "lines" are corrupt, not buffered */

typedef struct lines_rd lines_rd;

typedef struct lines_opts {
    trace_carry *carry;     /* B/E pairs across a writer's files, or NULL */
    int64_t skip_until_us;  /* records at or before this are dropped: an
                               earlier version of the file gave them */
    int64_t from;           /* offset of the first byte fed (0: the start) */
} lines_opts;

/* A reader of ki's file (a line kind). NULL with err on OOM. Its row's
 * feed, end, drop and held take it; end frees it. */
lines_rd *decoder_lines_begin(const key_info *ki, const lines_opts *o, sm_err *err);

/* Frees rd (a read abandoned). NULL is fine. */
void decoder_lines_free(lines_rd *rd);

/* The next feed's helpers: its bytes' lines decoded ahead (NULL: none)
 * and a scratch for the lines decoded here (NULL: the reader's own).
 * Both are lent for that feed only. */
void decoder_lines_lend(lines_rd *rd, predec *pre, sysdec_scratch *scratch);

/* Decodes what rd holds back as if the file had ended, and keeps rd. */
void decoder_lines_flush(lines_rd *rd, const rec_sink *out);

/* The hash of the lines rd has decoded (a `.tmp` trace's), or NULL. */
const prefix_hash *decoder_lines_prefix(const lines_rd *rd);
/* Takes rd's trace decoder (NULL when none); rd keeps none. */
trace_dec *decoder_lines_take_trace(lines_rd *rd);
/* rd continues the lines of a renamed `.tmp` with d (owned from here;
 * NULL: the .tmp had none, rd keeps its own): read line by line from
 * the caller's offset. */
void decoder_lines_adopt(lines_rd *rd, trace_dec *d);

/* 1 while rd holds part of a line or of an element. NULL is fine. */
int decoder_lines_holding(const lines_rd *rd);
/* Heap bytes rd holds (its row's held): itself, its held line and
 * element, not its trace decoder. 0 for NULL. */
size_t decoder_lines_bytes(const lines_rd *rd);

#endif
