/* export_writer: the Chrome-trace JSON writer behind export_perfetto —
 * event separators, string escaping, and the pid/tid tables that name each
 * node's process and each phase's thread on first use. Internal to io/. */
#ifndef SMTOP_EXPORT_WRITER_H
#define SMTOP_EXPORT_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "model/records.h"

typedef struct exw exw;

/* Writes the document header to out. NULL on OOM. out is not owned. */
exw *export_writer_new(FILE *out);
/* Writes the closing brackets; returns 0, or -1 when any write failed. */
int export_writer_finish(exw *w);
void export_writer_free(exw *w);

/* One complete event (X). */
void export_writer_event(exw *w, const sm_event *e);
/* One counter sample on the track (node, track name). */
void export_writer_counter(exw *w, sm_str node, sm_str track, int64_t ts_us, double value);

/* For records the writer does not shape itself (PyTorch profiler events):
 * the pid of the process keyed `key`, named `name` and labelled `label`
 * (none when label.len is 0) by metadata on first use; 0 on OOM. Keys
 * share one table with node names, so a caller keeps its keys apart. */
int64_t export_writer_process(exw *w, sm_str key, sm_str name, sm_str label);
/* The tid of thread `name` in process pid, named on first use. */
int64_t export_writer_thread(exw *w, int64_t pid, sm_str name);
/* Writes the separator before one more record and counts it as an event:
 * the caller writes one JSON object to the stream returned. */
FILE *export_writer_record(exw *w);
/* Writes s as a JSON string (quoted, '"', '\\' and control bytes
 * escaped); s must be valid UTF-8. */
void export_writer_str(FILE *f, sm_str s);

int64_t export_writer_event_count(const exw *w);
int64_t export_writer_counter_count(const exw *w);

#endif
