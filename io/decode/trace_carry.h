/* trace_carry: `B`/`E` pairs split across the files of one writer.
 *
 * smdebug's writer rotates its trace file every 60 s, at 10 MB and at an
 * hour boundary, so a `B` (begin) written before a rotation is closed by
 * its `E` in the next file — or several files later for a long event. A
 * per-file decoder (trace_decode.h) ends a file with such B's still open
 * and meets E's whose B it never saw. The carry, shared by all files of a
 * job, keeps both sides per writer (trace id and kind) and (pid, tid) and
 * pairs them as they arrive, in either order: the scanner reads newest
 * files first, and on a live job the E's file may arrive a pass after the
 * B's.
 *
 * Pairing follows the per-(pid, tid) stack of the Chrome trace format
 * across file boundaries: an E takes the waiting B that began last at or
 * before it; a B, handed over when its file ends, takes the earliest
 * waiting E at or after it. Handing a file's open B's over top of stack
 * first therefore pairs them exactly as one concatenated file would.
 *
 * Bounded: at most TCARRY_MAX waiting items per side (the oldest is
 * dropped and counted when full) and TCARRY_WRITERS writers. The calls
 * that change it are thread-safe: the scanner's node workers share one,
 * each pairing its own writers' events (a writer is one node's), so what
 * pairs with what does not depend on their timing below the bounds. The
 * counts are for when no call is in flight. */
#ifndef SMTOP_TRACE_CARRY_H
#define SMTOP_TRACE_CARRY_H

#include <stddef.h>
#include <stdint.h>

#define TCARRY_MAX 4096
#define TCARRY_WRITERS 4096

typedef struct trace_carry trace_carry;

/* One side of a pair waiting for the other. */
typedef struct tcarry_item {
    int writer;             /* from trace_carry_writer */
    int64_t pid, tid;
    int64_t t;              /* B: its start; E: its end (epoch µs) */
    int64_t step;           /* -1 when unknown */
    char *name, *phase;     /* owned; NULL = empty */
} tcarry_item;

trace_carry *trace_carry_new(void);          /* NULL on OOM */
void trace_carry_free(trace_carry *c);       /* NULL is fine */

/* The handle of writer (process, kind): >= 0, or -1 on OOM or when
 * TCARRY_WRITERS writers are known already. */
int trace_carry_writer(trace_carry *c, const char *process, int kind);

/* Takes the waiting B of (writer, pid, tid) that began last at or before
 * end_us: 1 with *out filled (the caller owns its strings: release with
 * trace_carry_item_clear), 0 when none waits. */
int trace_carry_take_b(trace_carry *c, int writer, int64_t pid, int64_t tid, int64_t end_us,
                       tcarry_item *out);
/* Takes the earliest waiting E of (writer, pid, tid) at or after start_us. */
int trace_carry_take_e(trace_carry *c, int writer, int64_t pid, int64_t tid, int64_t start_us,
                       tcarry_item *out);

/* Leaves *it waiting; the carry takes its strings in every case (*it is
 * cleared). 0, or -1 when it could not be kept (OOM): it is then counted
 * as dropped. */
int trace_carry_put_b(trace_carry *c, tcarry_item *it);
int trace_carry_put_e(trace_carry *c, tcarry_item *it);

void trace_carry_item_clear(tcarry_item *it);

/* B's and E's still waiting for their other half, and how many were
 * dropped (bounds, OOM). */
size_t trace_carry_waiting_b(const trace_carry *c);
size_t trace_carry_waiting_e(const trace_carry *c);
size_t trace_carry_dropped(const trace_carry *c);

#endif
