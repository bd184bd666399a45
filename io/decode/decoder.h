/* decoder: the one way in (HACKING.md, "The interfaces of issues 32-36",
 * contract 1). Every source's bytes become typed records (model/records.h)
 * through one table of decoders, one row per kind of file; the records go
 * to a rec_sink, which only the ingest path implements. A decoder holds
 * no model and includes no model.h: what it makes is records and, for a
 * Kineto trace, a pure analysis (model/gpu/gpu_trace).
 *
 * The ingest path picks decoder_for(ki) once per file, begins it, feeds it
 * the file's bytes in order (in pieces or whole: every decoder takes
 * either) and ends it; a read that fails drops it. begin and feed touch
 * nothing but their state and the sink they are given, so a file may be
 * decoded on any thread; what the sink does with a record is the ingest
 * path's business (HACKING, contract 4). */
#ifndef SMTOP_DECODER_H
#define SMTOP_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "io/decode/keyname.h"
#include "model/records.h"
#include "model/util/sm_err.h"

typedef struct decoder {
    const char *name;   /* "system", "smdebug-trace", "kineto", "tf-trace",
                           "cprofile", "pyinstrument", "rule-report",
                           "cloudwatch", ... */
    int kind;           /* the key_kind it reads */
    /* 1: this decoder reads the file whose first n bytes are head; 0: it
     * does not (the file is named as not read); -1: its head cannot tell
     * yet (more bytes, or the whole file, will). Pure. */
    int (*match)(const key_info *ki, const void *head, size_t n);
    /* A file's read begins: its state, or NULL with err. */
    void *(*begin)(const key_info *ki, const char *key, sm_err *err);
    /* The next n bytes, in order: 0 go on, 1 no more wanted (end follows
     * with the bytes so far). Touches only st and out. */
    int (*feed)(void *st, const void *p, size_t n, const rec_sink *out);
    /* The file ended after len bytes: the rest of its records to out;
     * frees st. 0, or -1 with err (the file is named as not read, with
     * why; a record out refused says its own why). */
    int (*end)(void *st, int64_t len, const rec_sink *out, sm_err *err);
    /* Abandons st (the read failed, or the path names another file). */
    void (*drop)(void *st);
    /* 1: the file is read in pieces as they come (a trace of GBs: memory
     * must not grow with it), possibly on an ingest worker, and its
     * records come at its end, as one finished trace (sink.trace); 0: in
     * one read (a whole S3 object, which the cache keeps), fed at once on
     * the scanning thread. */
    int streamed;
    /* 1: a line file, read as it grows over many passes (decoder_lines.h):
     * its reader lives between reads, each fed the file's new bytes, and
     * end comes only once the file is closed. */
    int grows;
    /* Heap bytes st holds now, for the bound on reads in flight; NULL
     * when a read holds little. */
    size_t (*held)(const void *st);
} decoder;

/* The decoder of ki's kind, or NULL when no decoder reads it (KEY_OTHER
 * and KEY_TF_META carry no records). */
const decoder *decoder_for(const key_info *ki);

/* Reads one whole file (data, len bytes, as stored) with d: begin, feed,
 * end. 0, or -1 with err as d's begin or end. */
int decoder_read_whole(const decoder *d, const key_info *ki, const char *key, const void *data,
                       size_t len, const rec_sink *out, sm_err *err);

/* Every row, for tests and fuzzers: *n set to their count. */
const decoder *const *decoder_table(size_t *n);

/* Frees a finished trace (the kineto decoder's record) and all it owns.
 * NULL is fine. */
void decoder_kineto_free_done(sm_trace_done *t);
/* Heap bytes a finished trace holds until its sink frees it. */
size_t decoder_kineto_done_bytes(const sm_trace_done *t);

#endif
