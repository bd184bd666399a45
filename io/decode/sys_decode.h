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

/* The reference decoder, same contract, via jansson. */
int sys_decode_line_jansson(const char *line, size_t len, sm_sample *out,
                            sysdec_scratch *scratch);

#endif
