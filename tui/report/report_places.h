/* report_places: where a job named to the SageMaker API was read from —
 * every place its description gives (io/source/source_job.h: the
 * profiler output, the TensorBoard and checkpoint syncs, output.tar.gz)
 * with what its last listing found — in `report --json` and the text
 * report's header.
 *
 * JSON (absent for a SOURCE given by path or URL):
 *   trace_sources[] {place, label, url, read_as, status, objects, error}
 * status: read (objects listed), empty, unreadable (error says why and
 * what it needs), not_listed (no pass reached it). */
#ifndef SMTOP_REPORT_PLACES_H
#define SMTOP_REPORT_PLACES_H

#include <jansson.h>
#include <stdio.h>

#include "io/source/source.h"

/* The places of src (a job's union), or NULL when src is not one. */
json_t *report_places_json(source *src);

/* The text header's lines for obj's trace_sources, if any. */
void report_places_print_text(const json_t *obj, FILE *f);

#endif
