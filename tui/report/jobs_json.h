/* jobs_json: `smtop jobs --json` — the rows of a view as one JSON object
 * (schema: tui/report/jobs.schema.json). */
#ifndef SMTOP_JOBS_JSON_H
#define SMTOP_JOBS_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model/jobs/joblist.h"

/* Raise on a renamed, removed or retyped key (the schema says which). */
#define JOBS_SCHEMA_VERSION 1

/* {"schema_version", "source", "now_s", "jobs": [...]} for the rows
 * idx[0..n) of l, in that order. source names where the list came from
 * ("sagemaker" or the SOURCE). NULL on OOM. */
json_t *jobs_json_build(const joblist *l, const uint32_t *idx, size_t n,
                        const char *source, double now_s);

#endif
