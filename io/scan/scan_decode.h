/* scan_decode: the scanner's side of a file read by its decoder
 * (io/decode/decoder.h) on the scanning thread — the sink its records go
 * to (samples and events into the model, the rest to the caller's sink)
 * and where a TF trace lies on the job before its decoder reads it.
 * Internal to io/scan (and its tests). */
#ifndef SMTOP_SCAN_DECODE_H
#define SMTOP_SCAN_DECODE_H

#include <stdint.h>

#include "io/decode/keyname.h"
#include "io/scan/scanner.h"
#include "model/model.h"
#include "model/records.h"

/* A file's records on the scanning thread; its first note kept to be
 * said once the lock is let go. */
typedef struct scan_sink {
    scanner *sc;
    rec_sink out;
    char note[SCANNER_MSG_LEN];   /* "" none */
} scan_sink;

/* Sets s up for a file of sc: use it with the model's lock held. */
void scan_decode_sink(scanner *sc, scan_sink *s);
/* Says s's note about the file rel, if any (no lock held). */
void scan_decode_say(scanner *sc, const scan_sink *s, const char *rel);

/* A TF trace's place into ki (node, session start in time_us) from
 * smdebug's record in its step directory, else the start of the same
 * step on that node in the model (the lock held). 0 placed; -1 with why
 * (the record it lacks) when neither knows: ki.time_us is then 0. Any
 * other kind: 0, ki unchanged. */
int scan_decode_place(scanner *sc, const char *rel, key_info *ki, sm_err *why);

/* The start (epoch µs) of step `step` on node node_id in m, from its
 * retained Step:* events (TRAIN first, then the other modes);
 * TF_TRACE_NO_BASE when m does not know it. Read-only. */
int64_t scan_decode_step_start(const model *m, const char *node_id, int64_t step);

#endif
