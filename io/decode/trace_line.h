/* trace_line: one Chrome-trace event object → its fields (internal to
 * trace_decode). Two readers with one contract: a hand-written one for the
 * writer's flat form, which returns TL_FALLBACK for anything outside its
 * strict subset (see jscan.h), and the jansson reference. */
#ifndef SMTOP_TRACE_LINE_H
#define SMTOP_TRACE_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"

enum { TL_OK = 0, TL_CORRUPT = -1, TL_FALLBACK = -2 };

/* Every number in µs: integers as written, reals rounded half away from
 * zero (llround) — both readers see the same double, so they agree. */
typedef struct tl_event {
    sm_str name;          /* len 0 when absent or null */
    sm_str ph;            /* required */
    int64_t pid, tid;     /* 0 when absent */
    int has_ts, has_dur, has_start, has_args_name;
    int64_t ts, dur;
    int64_t step;         /* args.step_num, -1 when absent or not an integer */
    int64_t start;        /* args.start_time_since_epoch_in_micros */
    sm_str args_name;     /* args.name */
} tl_event;

/* Hand-written reader. Slices point into `p`. TL_OK or TL_FALLBACK. */
int trace_line_parse_fast(const char *p, size_t len, tl_event *ev);

/* Reference reader. Slices point into *root (a json_t*, which the caller
 * releases with json_decref after use; NULL when nothing to release).
 * TL_OK or TL_CORRUPT. */
int trace_line_parse_jansson(const char *p, size_t len, tl_event *ev, void **root);

/* Releases what trace_line_parse_jansson left in *root. */
void trace_line_release(void *root);

#endif
