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

int64_t export_writer_event_count(const exw *w);
int64_t export_writer_counter_count(const exw *w);

#endif
