/* sys_decode: one line of system/incremental/ JSON files → sm_sample.
 *
 * The hot path of smtop: a job writes ~1 M such lines per node-day. A
 * generic DOM parse per line (jansson json_loadb) runs at ~40 MB/s, far
 * from the 1.5×-of-cat target, so sys_decode_line() is a hand-written scanner
 * for the flat object the profiler writes. Whenever it meets anything it
 * does not fully understand (escapes in a string, nested values, odd
 * numbers, duplicate keys) it hands the line to sys_decode_line_jansson(), and
 * a differential test + fuzzer hold the two to the same record. */
#ifndef SMTOP_SYS_DECODE_H
#define SMTOP_SYS_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"

/* Backing store for strings the decoder had to unescape (jansson path) and
 * for the `extra` members, and a one-line timestamp cache. Reused across
 * lines; owned by the caller, who zero-initialises it; one per thread. */
typedef struct sysdec_scratch {
    char *buf;
    size_t cap;
    void *jroot;   /* jansson value of the last fallback line, freed on next use */
    /* The last Timestamp token and its value: every metric of one sampling
     * tick repeats it, so most lines compare bytes instead of parsing. */
    char ts_text[24];
    size_t ts_len;      /* 0 = none */
    int64_t ts_us;
} sysdec_scratch;

void sys_decode_scratch_free(sysdec_scratch *s);

/* Decodes one line (no trailing newline; surrounding whitespace allowed).
 * Required: Type, Dimension, Value (number), NodeId, Timestamp (number,
 * epoch seconds with fraction). Name optional. Any other member is carried
 * in out->extra. Slices in *out point into `line` or into `scratch` and stay
 * valid until the next call with the same scratch.
 * Returns 0 on success, -1 for a corrupt/incomplete line (out undefined). */
int sys_decode_line(const char *line, size_t len, sm_sample *out,
                    sysdec_scratch *scratch);

/* The fast path of sys_decode_line alone: -1 where sys_decode_line would
 * consult the reference (whose verdict may still be success). Pure apart
 * from `scratch`, so it may run on another thread with its own scratch. */
int sys_decode_line_fast(const char *line, size_t len, sm_sample *out,
                         sysdec_scratch *scratch);

/* Where a line's Value and Timestamp numbers lie (byte offsets, ends
 * exclusive). */
typedef struct sys_spans {
    uint32_t value_at, value_end, ts_at, ts_end;
} sys_spans;

/* sys_decode_line_fast, also saying where the two numbers lie: 0 when the
 * line may serve as a model for sys_decode_numbers_like (no extra member,
 * Value before Timestamp), 1 when it decoded but may not, -1 as
 * sys_decode_line_fast. */
int sys_decode_line_spans(const char *line, size_t len, sm_sample *out,
                          sysdec_scratch *scratch, sys_spans *sp);

/* For a line that is byte for byte `like` (like_len bytes, a model from
 * sys_decode_line_spans with spans sp) but for its two numbers: the time
 * and value sys_decode_line_fast would give it (its strings are like's),
 * without scanning the rest: 0, or -1 when the line is not such a line
 * (decode it in full then). The decoder's state before a number depends
 * only on the bytes before it, so equal bytes around numbers the same
 * scanner accepts decode the same. */
int sys_decode_numbers_like(const char *line, size_t len, const char *like, size_t like_len,
                            const sys_spans *sp, sysdec_scratch *sc, int64_t *ts_us,
                            double *value);

/* The reference decoder, same contract, via jansson. */
int sys_decode_line_jansson(const char *line, size_t len, sm_sample *out,
                            sysdec_scratch *scratch);

#endif
