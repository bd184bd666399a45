/* kineto_decode: one PyTorch profiler (Kineto) trace file, streamed.
 *
 * A Kineto trace is one JSON object (SPEC §1b) whose `traceEvents` array
 * holds every event; files run to GBs, gzip'd or plain, pretty-printed
 * or on one line, and `.gz` files are written in place, so a reader can
 * see half of one. The decoder takes the file's bytes in pieces of any
 * size and hands each event to a callback as soon as its closing brace
 * arrives, holding at most one event (opts.max_event) and never the file:
 * memory does not grow with the trace.
 *
 * Events come on the trace's own clock (ts·1000 ns): the metadata that
 * places them (baseTimeNanoseconds, distributedInfo) may follow
 * traceEvents, so it is complete only at kineto_dec_finish (sm_kmeta).
 *
 * Field rules (the differential reference tests/tools/kineto_dump.py
 * states the same ones in Python):
 *  - ts/dur: a JSON number, exactly ×1000 and rounded half away from zero
 *    to whole ns (1234.567 → 1234567; no double on the way); a quoted or
 *    non-numeric value, or one outside int64 ns, is absent (SM_KEV_NONE).
 *    An X event's dur is >= 0 (absent or negative reads 0); others none.
 *  - ids (pid, tid, flow id, correlation, External id, device, stream):
 *    integral numbers, reduced to their low 64 bits (two's complement);
 *    pid/tid strings ("Spans", "") go to pid_str/tid_str (ptr non-NULL).
 *  - amounts (memory args, bytes, schemaVersion, rank, world_size,
 *    baseTimeNanoseconds, totalGlobalMem): integral numbers within int64;
 *    quoted numbers ("inf", "nan", "N/A") and anything else are absent.
 *  - ph: one printable ASCII character (a string), else the element is counted in
 *    meta.bad_events and not given. A flow's (ph s/f/t) correlation is its
 *    top-level `id`; any other event's is args.correlation.
 *  - category, first rule that applies: cat "python_function"; name
 *    "[memory]" (KCAT_MEMORY) or "[OutOfMemory]" (KCAT_OOM); ph s/f/t
 *    (KCAT_FLOW); cat by name, legacy names folded (records.h); else
 *    KCAT_OTHER.
 *  - step: N of a name exactly "ProfilerStep#N" (N fits int64), else -1.
 *  - a repeated key: the last one counts, as in json.load (a repeated
 *    traceEvents array is the exception: both arrays' events are given).
 * Values the decoder does not read are checked for structure (brackets,
 * strings, the bytes that may appear outside strings) but not parsed. */
#ifndef SMTOP_KINETO_DECODE_H
#define SMTOP_KINETO_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"
#include "model/util/sm_err.h"

typedef struct kineto_dec kineto_dec;

#define KINETO_MAX_EVENT_DEFAULT ((size_t)1 << 20)

typedef struct kineto_dec_opts {
    int keep_python;   /* 0: python_function events are skipped at their
                          cat key (counted in meta.events, never given) */
    size_t max_event;  /* bytes of one event held at most; 0: 1 MiB. A
                          longer event is dropped and counted as bad. */
    int gzip_name;     /* 1: the file is named .gz, so bytes that do not
                          start as gzip does (1f 8b) are "not gzip" */
} kineto_dec_opts;

/* Called once per event, at once. ev and the strings it points to are
 * valid only during the call. */
typedef void (*kineto_ev_cb)(void *ud, const sm_kevent *ev);

/* A decoder for one file; o may be NULL (defaults). NULL on OOM. */
kineto_dec *kineto_dec_new(const kineto_dec_opts *o);
void kineto_dec_free(kineto_dec *d);

/* Feeds the next n bytes of the file (gzip or plain, told by its first
 * two bytes). 0, or -1 once the data is corrupt or memory ran out: the
 * events before the damage were given, later feeds are ignored, and
 * kineto_dec_finish says what and where. */
int kineto_dec_feed(kineto_dec *d, const void *p, size_t n, kineto_ev_cb cb, void *ud);

/* How a JSON file that is no trace is said not to be read (the W view
 * tells these from traces cut short by it). */
#define KINETO_NOT_A_TRACE "not a PyTorch profiler trace"
#define KINETO_INCOMPLETE 1

/* The file ended: gives the events still held (a .gz is inflated in
 * 64 KiB cuts of the file, so its last events come here, to the last
 * feed's cb and ud), fills *out (always, with what was seen; its strings
 * live until kineto_dec_free) and returns
 *   0                  the trace object was complete;
 *   KINETO_INCOMPLETE  the bytes stopped early: a .gz whose stream did not
 *                      end, or plain JSON before the object's last '}' —
 *                      a file still being written. Its events were given
 *                      already: a caller that retries later must drop
 *                      them (or count nothing until 0) so that none is
 *                      counted twice;
 *   -1                 corrupt (bad gzip data, bad JSON, not a JSON
 *                      object, a .gz whose JSON stops early) or OOM: err
 *                      says what and at which byte of the JSON.
 * err (may be NULL) is also set for KINETO_INCOMPLETE, code SM_ERR_PARTIAL
 * (whether the file is still being written or was cut short is the
 * job's to say: scanner_unread_at). */
int kineto_dec_finish(kineto_dec *d, sm_kmeta *out, sm_err *err);

/* Whether a finished trace is a Kineto object: traceEvents plus
 * schemaVersion, deviceProperties or distributedInfo. */
int kineto_meta_is_kineto(const sm_kmeta *m);

/* Copies the JSON string body raw (a name, as sm_kevent gives it)
 * unescaped into out (cap bytes incl. a NUL; truncated at a UTF-8
 * boundary when short; a lone surrogate \uD800 becomes U+FFFD). Returns
 * the unescaped length in full, as snprintf does, so a caller can size a
 * buffer; out may be NULL when cap is 0. */
size_t kineto_str_copy(sm_str raw, char *out, size_t cap);

/* The same, made safe for a terminal: control characters (C0, DEL, C1,
 * so every escape sequence loses its ESC), bidi and zero-width format
 * characters and invalid UTF-8 become '?'. Returns bytes written (< cap);
 * out is always NUL-terminated when cap > 0. */
size_t kineto_str_sanitize(sm_str raw, char *out, size_t cap);

/* kineto_sniff's verdicts on a file's first bytes. Kineto writes its
 * metadata before traceEvents since 2022, but older traces (and any other
 * writer) may put it after the array, which a head cannot see past. */
typedef enum kineto_sniff_verdict {
    KINETO_SNIFF_NO = 0,     /* not a JSON object, or an object that closed
                                without traceEvents plus a Kineto key */
    KINETO_SNIFF_YES = 1,    /* traceEvents and a Kineto key both seen */
    KINETO_SNIFF_MAYBE = 2   /* an object whose head shows no verdict yet:
                                decode the whole file and ask
                                kineto_meta_is_kineto */
} kineto_sniff_verdict;

/* Judges the first n bytes of a file (plain JSON or gzip, inflated as far
 * as they go) by decoding them: cost and memory are those of decoding n
 * bytes. Bad JSON in the head reads NO. */
kineto_sniff_verdict kineto_sniff(const void *head, size_t n);

#endif
