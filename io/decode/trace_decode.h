/* trace_decode: framework trace files (Chrome-trace JSON, one event per line)
 * → sm_event on the epoch clock.
 *
 * Handles the writer's layout: "[" line, event lines ending in ",", "]"
 * line (absent in the open `.tmp` form). The first event is metadata whose
 * args.start_time_since_epoch_in_micros is the base of every later `ts`;
 * `process_name` metadata names each pid (its phase). X events carry dur;
 * B/E pairs are matched per (pid, tid) stack and emitted as one complete
 * event (an `E` may lack a name: horovod). args.step_num is a string or an
 * integer. A decoder is stateful per file so a growing file can be fed in
 * pieces across scans. Lines are parsed by a small hand-written reader for
 * the writer's flat form, with jansson as the fallback for anything else. */
#ifndef SMTOP_TRACE_DECODE_H
#define SMTOP_TRACE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"

typedef struct trace_dec trace_dec;
struct trace_carry;

typedef void (*trace_sink)(void *ud, const sm_event *ev);

/* node is copied. NULL on OOM. */
trace_dec *trace_decode_new(const char *node);
void trace_decode_free(trace_dec *d);

/* Names the file's writer (keyname.h's `process`, copied into every event)
 * and, with a carry, pairs B/E events split across the writer's files of
 * trace kind `kind` (trace_carry.h): an E with no B in this file closes
 * one carried from an earlier file, or waits in the carry. 0, or -1 on
 * OOM (d unchanged). */
int trace_decode_set_writer(trace_dec *d, const char *process, struct trace_carry *carry,
                            int kind);
/* The file has ended: hands its still-open B events to the carry, which
 * emits through sink those whose E arrived already and keeps the rest
 * waiting. No-op without a carry (open B's then stay open here). */
void trace_decode_close_file(trace_dec *d, trace_sink sink, void *ud);

/* Feeds one complete line (without its newline). Calls sink for each event
 * the line completes (0 or 1). Returns 0 when the line was understood
 * (including structural lines "[", "]", metadata, unmatched E), -1 when it
 * is corrupt (the decoder state is unchanged). */
int trace_decode_line(trace_dec *d, const char *line, size_t len,
                      trace_sink sink, void *ud);

/* trace_decode_line in two steps, so the pure first one can run ahead on
 * another thread (scan_fetch): trace_decode_parse trims and reads the line
 * with the hand-written reader — 1 with *out filled, 0 for a blank line,
 * -1 when the reader declines (then use trace_decode_line); *out is a
 * trace_line.h tl_event whose slices point into line. trace_decode_event then
 * does what trace_decode_line does with such an event: 0 or -1 as it, or 1
 * without touching anything when d is in reference mode. */
struct tl_event;
int trace_decode_parse(const char *line, size_t len, struct tl_event *out);
int trace_decode_event(trace_dec *d, const struct tl_event *ev, trace_sink sink, void *ud);

/* Base time from the metadata line, 0 until seen. */
int64_t trace_decode_base_us(const trace_dec *d);
/* Number of B events still open (never closed by an E). */
size_t trace_decode_open_count(const trace_dec *d);
/* B events (and pid names) dropped because a bound was reached: 4096 open
 * per (pid, tid), 4096 (pid, tid) stacks, 4096 named pids. */
size_t trace_decode_dropped_count(const trace_dec *d);

/* For the differential test and fuzzer: on != 0 sends every line through
 * the jansson reference reader instead of the hand-written one. */
void trace_decode_set_reference(trace_dec *d, int on);

#endif
