/* decoder_impl: what the decoder table's rows share (decoder_*.c). Not
 * used outside io/decode/. */
#ifndef SMTOP_DECODER_IMPL_H
#define SMTOP_DECODER_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "io/decode/decoder.h"

/* The rows (decoder.c lists them). */
extern const decoder decoder_system, decoder_smdebug_trace, decoder_smdebug_tmp, decoder_kineto, decoder_kineto_maybe, decoder_tf_trace,
    decoder_cprofile, decoder_pyinstrument, decoder_rule_report, decoder_cloudwatch;

/* A file read whole before it is decoded (a gzip'd JSON object, a
 * marshal dump): its key info, key and bytes so far. */
typedef struct decoder_whole {
    key_info ki;
    char *key;
    char *buf;
    size_t n, cap;
    int oom;
} decoder_whole;

/* A whole-file read of key begins; NULL with err on OOM. */
decoder_whole *decoder_whole_begin(const key_info *ki, const char *key, sm_err *err);
/* Appends n bytes (an OOM is said at end); always 0: go on. */
int decoder_whole_feed(void *st, const void *p, size_t n, const rec_sink *out);
/* Frees w. NULL is fine. */
void decoder_whole_drop(void *st);
/* 0 when every byte was kept, else -1 with err (out of memory). */
int decoder_whole_ok(const decoder_whole *w, sm_err *err);

#endif
