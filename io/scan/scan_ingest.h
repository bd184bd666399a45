/* scan_ingest: bytes of one file → lines → records → model, for the
 * line-oriented kinds (system metrics, trace files, the open .tmp trace).
 * Internal to the scanner; the caller holds the model lock. */
#ifndef SMTOP_SCAN_INGEST_H
#define SMTOP_SCAN_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "io/scan/catalog.h"
#include "io/scan/predec.h"
#include "io/decode/sys_decode.h"
#include "io/decode/trace_carry.h"

#define INGEST_LINE_MAX (4 << 20)  /* longer "lines" are corrupt, not buffered */

typedef struct ingest_counts {
    int64_t lines, corrupt, partial;
} ingest_counts;

typedef struct ingest_ctx {
    model_shard *w;        /* the model's writer (model_writer) or a node's */
    sysdec_scratch *scratch;
    ingest_counts n;       /* added to by every call */
    predec *pre;           /* lines decoded ahead (scan_fetch), or NULL */
    trace_carry *carry;    /* B/E pairs across a writer's files, or NULL */
    char first_bad[48];    /* start of the first corrupt line seen, printable */
    int64_t bad_line[4];   /* the first corrupt lines' (elements') numbers in
                              their file, 1-based */
    size_t nbad;           /* how many of bad_line are set */
} ingest_ctx;

/* Consumes `len` new bytes of entry e (they follow e->consumed): complete
 * lines are decoded and ingested, a trailing incomplete line is held in
 * e->partial for the next call. `data_offset` > 0 skips bytes already
 * ingested through an adopted .tmp file. `is_final` means no more bytes
 * will come: a held partial line is then decoded if complete, else
 * counted as partial, and a trace's still-open B events go to cx->carry
 * to meet their E in the writer's next file. Returns 0, -1 on OOM (e
 * unchanged). */
int scan_ingest_bytes(ingest_ctx *cx, cat_entry *e, const char *data, size_t len,
                      size_t data_offset, int is_final);

/* Decodes what e still holds back as if the file had ended. */
void scan_ingest_finish_entry(ingest_ctx *cx, cat_entry *e);

#endif
