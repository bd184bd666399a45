/* export_perfetto: a whole job as one Chrome-trace JSON object
 * ({"traceEvents":[...]}) that Perfetto and chrome://tracing open.
 *
 *   - one process per node (pid 1, 2, ... in first-seen order), named by
 *     `process_name` metadata; one thread per phase ("Forward",
 *     "Step:ModeKeys.TRAIN", "/host:CPU", ...), named by `thread_name` —
 *     per writer and phase ("1-algo-1 Forward") on a node with several
 *     trace writers (ranks), so each rank keeps its own lanes;
 *   - framework events (pevents, the open .tmp trace, TF detailed-profiling
 *     traces) as `X` events with ts/dur in epoch µs, args.step when known;
 *   - system metrics as counter tracks (`ph:"C"`), one per (node, metric)
 *     named "<Name> <Dimension>" (or "<type> <Dimension>" when Name is
 *     absent), args {"value": v};
 *   - PyTorch profiler (Kineto) traces, in the job and under opts.traces,
 *     on the same clock: a process per rank ("rank N", labelled with its
 *     node), a thread per GPU stream and CPU thread, X/i events and their
 *     flows (export_kineto.c).
 *
 * Streaming: the source is listed once (only keys are kept), then files
 * are fetched, decoded and written one batch at a time in time order, so
 * memory does not grow with the job's size. Because system files of one
 * node are processed minute by minute and their lines are in time order,
 * every counter track's times are non-decreasing. TF traces are written
 * last: their time base (smdebug's sibling `.metadata` file, else the
 * start of the same step on the same node, remembered while the step
 * events stream past) must be known first; without one a TF trace is
 * skipped and counted. */
#ifndef SMTOP_EXPORT_PERFETTO_H
#define SMTOP_EXPORT_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "model/util/sm_err.h"
#include "io/source/source.h"

typedef struct export_opts {
    int64_t since_us, until_us;   /* 0 = unbounded; events overlapping are kept */
    int has_steps;                /* restrict each node to the window of its own
                                     steps A..B (TRAIN steps when it has any):
                                     nodes drift apart by whole steps */
    int64_t step_a, step_b;
    int system;                   /* 1 (default via init): include counters */
    source *traces;               /* --traces: PyTorch profiler traces searched
                                     whole from its top, or NULL; not owned */
} export_opts;

typedef struct export_stats {
    int64_t files, skipped_files;
    int64_t events, counters, corrupt_lines;
    int64_t kineto_files, kineto_events;      /* PyTorch profiler traces */
    int64_t window_start_us, window_end_us;   /* union of the --steps windows */
    char last_error[512];
} export_stats;

void export_opts_init(export_opts *o);

/* Writes the export of the job under `root` (profiler-output prefix within
 * src, see scanner_find_root) to out. Returns 0 (problem files are skipped
 * and counted in st), or -1 with err when the listing failed, --steps
 * matched no step (SM_ERR_USAGE), or writing failed (SM_ERR_IO). On
 * failure out holds a partial document. st may be NULL. */
int export_perfetto(source *src, const char *root, FILE *out,
                    const export_opts *o, export_stats *st, sm_err *err);

#endif
