/* report: the non-interactive summary of a job (`smtop report`).
 *
 * report_build() turns the model and scanner state into one jansson object
 * — the single source of truth — and report_print_text() renders that same
 * object for humans, so the text and --json outputs cannot disagree.
 * Sections contributed by other modules (python stats, rules) are added to
 * the object by their own report_*.c before printing. For --json the
 * per-node arrays are built by the same functions, one node at a time as
 * they are written (report_stream.h), so they never exist whole. */
#ifndef SMTOP_REPORT_H
#define SMTOP_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "io/run/job.h"
#include "tui/report/report_stream.h"

/* Version of the `report --json` and `diff --json` shapes, written as
 * "schema_version" and checked by tui/report/report.schema.json (installed
 * as share/smtop/report.schema.json). Raise it, and the schema's const,
 * when a key is renamed, removed or changes type; adding an optional key
 * to an open object does not need it. */
#define REPORT_SCHEMA_VERSION 5

/* How `report --json` and `diff --json` are written (jansson dump flags). */
#define REPORT_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(17) | JSON_ENSURE_ASCII)

/* Builds the report object (caller owns it: json_decref). Takes the job's
 * lock while reading. With st, the per-node arrays ("nodes", "steps") are
 * placeholders that report_stream_dump(obj, st, ...) writes, reading the
 * model then (report_stream.h); with st NULL the object is whole. NULL on
 * OOM. */
json_t *report_build(job *j, report_stream *st);

/* Writes the human-readable report for obj to f: header, the verdict
 * (rules that fired, straggler, idle GPU-hours), then the details. */
void report_print_text(const json_t *obj, FILE *f);
/* The header and the verdict only (`report --summary`). */
void report_print_summary(const json_t *obj, FILE *f);

#endif
