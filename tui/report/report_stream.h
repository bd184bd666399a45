/* report_stream: `report --json` without the per-node arrays ever existing
 * whole. A jansson object costs far more than the numbers in it, and the
 * nodes' metrics, the step rows, the rules' per-node details and the
 * device rows grow with the nodes and their devices (issue 15: the
 * budget is one MB a node; streaming them took ~0.1 MB a node off the
 * peak RSS at 256 nodes x 60 min, tests/bench/bench_memory.sh). Streamed,
 * one node's part is in memory at a time.
 *
 * A builder asks report_stream_array() for each per-node array. Without a
 * stream it gets the whole array (the text report and `smtop diff` read
 * the tree); with one it gets a placeholder, and report_stream_dump()
 * later writes the object with each placeholder's parts built, written and
 * freed one after the other. Jansson formats every value, key and element
 * (escaping, numbers); this module only lays out the containers on the
 * path to a placeholder, as jansson's dump does, so the output is
 * byte-identical to json_dumpf() of the whole tree. */
#ifndef SMTOP_REPORT_STREAM_H
#define SMTOP_REPORT_STREAM_H

#include <jansson.h>
#include <stdio.h>

#include "model/util/sm_err.h"

typedef struct report_stream report_stream;

/* Appends part i's elements (none, one or many) to arr. 0, -1 on OOM. */
typedef int (*report_part_fn)(const void *ctx, size_t i, json_t *arr);

/* NULL on OOM. */
report_stream *report_stream_new(void);
/* Frees st, the contexts it owns, and nothing of the report object. */
void report_stream_free(report_stream *st);

/* The array of parts 0..n-1. With st NULL: built now, whole. With st: an
 * empty placeholder that report_stream_dump() fills; ctx is read then, so
 * what it points into must live until the dump (the model: hold its lock
 * while dumping). owned (may be NULL; often ctx itself) is free()d when no
 * longer needed: at once without st, by report_stream_free with st, and on
 * failure. NULL on OOM. */
json_t *report_stream_array(report_stream *st, size_t n, report_part_fn fn,
                            const void *ctx, void *owned);

/* report_stream_array, with fn safe to run at once for distinct parts
 * (reading a settled model, model_settle, and nothing shared it writes):
 * with threads (report_stream_set_threads), the dump builds and lays out
 * parts ahead on them and writes them in order, the same bytes. */
json_t *report_stream_array_par(report_stream *st, size_t n, report_part_fn fn,
                                const void *ctx, void *owned);

/* Threads the dump may build report_stream_array_par's parts on (0 or 1:
 * this one alone). The caller keeps what those parts read unchanged, and
 * settled, until the dump returns. */
void report_stream_set_threads(report_stream *st, size_t n);

/* Writes obj to f exactly as json_dumpf(obj, f, flags) would write the
 * tree (flags without JSON_SORT_KEYS: members keep their order) with
 * every placeholder of st replaced by its whole array, and flushes f. st may be NULL (a plain dump). 0, or -1 with err: the write
 * error (SM_ERR_IO, with strerror) or OOM building a part; what was
 * written stays written. */
int report_stream_dump(const json_t *obj, const report_stream *st, FILE *f,
                       size_t flags, sm_err *err);

#endif
