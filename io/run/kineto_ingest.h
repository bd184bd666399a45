/* kineto_ingest: a job's PyTorch profiler (Kineto) traces (SPEC §1b) on
 * the ingest path: the sink of the kineto decoder's finished traces
 * (sm_trace_done, decoder_kineto.c), applied in the order of the work
 * list with the model's lock held: where each goes (its node and rank),
 * whether it repeats a rank another trace gave already, its events on the
 * job clock and its figures into the model. After each pass, the traces
 * far off the job's clock and those with no time base are named. */
#ifndef SMTOP_KINETO_INGEST_H
#define SMTOP_KINETO_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_clock.h"
#include "model/model.h"
#include "model/util/sm_err.h"

typedef struct kineto_ingest kineto_ingest;

/* NULL on OOM. m is not owned. */
kineto_ingest *kineto_ingest_new(model *m);
void kineto_ingest_free(kineto_ingest *k);

/* A finished trace into k's model (a rec_sink's trace callback; ud: k):
 * 0 when it was kept; -1 with err saying why not (a rank recorded twice
 * over the same time, out of memory). Takes t (frees it). Call with the
 * model's lock held. */
int kineto_ingest_take(void *ud, sm_trace_done *t, sm_err *err);

/* Where a finished trace found at key goes: its node (name_node, the file
 * name's, when system metrics name it, node_has_metrics; else the
 * trace's host name (cleaned; "" none), name_node, the file's stem) and
 * process ("rank N" from distributedInfo's rank >= 0, else name_proc or
 * the file's stem), each cut to cap bytes. The dashboard's ingest and
 * the export place a trace alike. */
void kineto_ingest_place(const char *name_node, const char *name_proc, const char *key,
                         const char *host, int64_t rank, int node_has_metrics, char *node,
                         char *proc, size_t cap);

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

/* Traces read so far, and the bytes of their files. The count needs no
 * lock (a thread that must not wait for a pass may read it); the bytes
 * are read under the model's lock. */
int64_t kineto_ingest_traces(const kineto_ingest *k);

int64_t kineto_ingest_bytes(const kineto_ingest *k);

#endif
