/* scan_ingest: a line file's new bytes (system metrics, trace files, the
 * open .tmp trace) through its decoder row (io/decode/decoder_lines) into
 * the model: the sink those rows' records go to, and the reader each
 * entry keeps between reads. Internal to the scanner; the caller holds
 * the model lock. */
#ifndef SMTOP_SCAN_INGEST_H
#define SMTOP_SCAN_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "io/scan/catalog.h"
#include "io/decode/decoder_lines.h"

typedef struct ingest_ctx {
    model_shard *w;        /* the model's writer (model_writer) or a node's */
    sysdec_scratch *scratch;
    rec_lines n;           /* added to by every call */
    predec *pre;           /* lines decoded ahead (scan_fetch), or NULL */
    trace_carry *carry;    /* B/E pairs across a writer's files, or NULL */
} ingest_ctx;

/* Consumes `len` new bytes of entry e (they follow e->consumed): complete
 * lines are decoded and ingested, a trailing incomplete line is held by
 * e's reader for the next call. `data_offset` > 0 skips bytes already
 * ingested through an adopted .tmp file. `is_final` means no more bytes
 * will come: the reader ends (a held partial line is decoded if complete,
 * else counted as partial, and a trace's still-open B events go to
 * cx->carry to meet their E in the writer's next file). Returns 0, -1 on
 * OOM (e unchanged). */
int scan_ingest_bytes(ingest_ctx *cx, cat_entry *e, const char *data, size_t len,
                      size_t data_offset, int is_final);

/* Decodes what e's reader still holds back as if the file had ended. */
void scan_ingest_finish_entry(ingest_ctx *cx, cat_entry *e);

/* e's reader, begun when it has none (from e's mark and offset). NULL on
 * OOM. */
lines_rd *scan_ingest_reader(ingest_ctx *cx, cat_entry *e);

#endif
