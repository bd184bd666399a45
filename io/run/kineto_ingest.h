/* kineto_ingest: a job's PyTorch profiler (Kineto) traces (SPEC §1b),
 * streamed from the scanner (scanner_stream_ops): a file's bytes come in
 * pieces (kineto_read_feed, no lock needed) and only its end
 * (kineto_ingest_end, the model's lock held) touches the model.
 *
 * A trace is decoded as a stream (kineto_decode) so neither its file nor
 * its inflated bytes are ever held; what a read keeps until the end is
 * its analysis' per-event rows (gpu_trace.h: 32-40 bytes a GPU row,
 * launch call, op or Python function) and its CPU ops and annotations
 * for the model (at most 2^20 a file, in blocks that go to a temporary
 * file past the first: kineto_keep.h), so a trace costs memory by its
 * events, not its bytes, and only while it is read. One that is not complete yet (a .gz still being written in
 * place) leaves nothing behind and is read again when it changes, so no
 * trace counts twice. A file that may be a trace (KEY_KINETO_MAYBE) is
 * one only if its head says so; once it says not, no more bytes are
 * wanted. */
#ifndef SMTOP_KINETO_INGEST_H
#define SMTOP_KINETO_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "io/decode/keyname.h"
#include "model/gpu/gpu_clock.h"
#include "model/model.h"
#include "model/util/sm_err.h"

typedef struct kineto_ingest kineto_ingest;
typedef struct kineto_read kineto_read;

/* NULL on OOM. m is not owned. */
kineto_ingest *kineto_ingest_new(model *m);
void kineto_ingest_free(kineto_ingest *k);

/* A read of the file of kind KEY_KINETO or KEY_KINETO_MAYBE found at
 * key (both copied), its bytes to come. NULL on OOM. */
kineto_read *kineto_read_begin(const key_info *ki, const char *key);

/* The file's next len bytes (as stored, gzip or not), in order; the first
 * piece is the whole file or at least 64 KB (a head to judge). 0 to go
 * on, 1 when no more bytes are wanted (not a trace by its head, corrupt):
 * kineto_ingest_end may follow at once. Touches nothing but r. */
int kineto_read_feed(kineto_read *r, const void *data, size_t len);

/* The file ended after len bytes: the trace goes into k's model. 0 when
 * it was read; -1 with err saying why it was not: incomplete (read again
 * once it changes), not a Kineto trace, corrupt, a rank recorded twice.
 * Frees r. Call with the model's lock held. */
int kineto_ingest_end(kineto_ingest *k, kineto_read *r, int64_t len, sm_err *err);

/* Abandons r (its file's read failed). r may be NULL. */
void kineto_read_drop(kineto_read *r);

/* Reads one whole file (data, len: as stored, gzip or not) of kind
 * KEY_KINETO or KEY_KINETO_MAYBE found at key. 0 when it was read (or
 * added nothing new); -1 with err saying why it was not: incomplete
 * (read again once it changes), not a Kineto trace, corrupt. Call with
 * the model's lock held. begin, feed and end at once. */
int kineto_ingest_file(kineto_ingest *k, const key_info *ki, const char *key, const void *data,
                       size_t len, sm_err *err);

/* Where a finished trace (meta) found at key goes: its node (ki's node
 * when system metrics name it, node_has_metrics; else the trace's host
 * name, ki's node, the file's stem) and process ("rank N" from
 * distributedInfo, else ki's writer or the file's stem), each cut to cap
 * bytes. The dashboard's ingest and the export place a trace alike. */
void kineto_ingest_place(const key_info *ki, const char *key, const sm_kmeta *meta,
                         int node_has_metrics, char *node, char *proc, size_t cap);

/* The node of a trace writer named `name` by its file (key_info.node).
 * tensorboard_trace_handler's default worker is HOST_PID, whose host is
 * the node; a worker_name of the user's ("algo-1_main") names no node:
 * its node is then the longest `_`-separated prefix of it that
 * has_metrics(ud, prefix) says system metrics name ("algo-1"), so no
 * phantom node appears beside the real one. Else name itself. Writes the
 * node to out (cut to cap bytes). The dashboard's ingest and the export
 * place a trace alike. */
void kineto_ingest_node_of(const char *name, int (*has_metrics)(const void *ud, const char *node),
                           const void *ud, char *out, size_t cap);

/* Told a trace's key (relative to its scanner's root) and why it is named. */
typedef void (*kineto_note_cb)(void *ud, const char *key, const char *why);

/* Names through cb, once each, every trace read so far whose clock lies
 * off the job's (gpu_clock_far_off; sys: the span of the job's system
 * metrics, NULL when it has none) and every unplaced one (no time base).
 * Such traces stay read and counted: this only says so. Judged again
 * when a trace was read or sys moved since the last call. Call with the
 * model's lock held (cb must not take it). 0, or -1 on OOM (retried on
 * the next call). */
int kineto_ingest_name_clocks(kineto_ingest *k, const gpu_span *sys, kineto_note_cb cb,
                              void *ud);

/* Traces read so far, and the bytes of their files. */
int64_t kineto_ingest_traces(const kineto_ingest *k);
int64_t kineto_ingest_bytes(const kineto_ingest *k);

#endif
