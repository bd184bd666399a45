/* report_gpu: the "gpu" section of `report --json` (report.schema.json's
 * gpu_rank): one row per PyTorch profiler rank, in node then process
 * order. */
#ifndef SMTOP_REPORT_GPU_H
#define SMTOP_REPORT_GPU_H

#include <jansson.h>
#include <stdio.h>

#include "model/model.h"
#include "tui/report/report_stream.h"

/* A new array (caller owns it); NULL on OOM. Call under the job's lock.
 * With st, the rows are built one rank at a time when st is dumped
 * (report_stream_array: a jansson row costs several times its text,
 * and a 1,024-rank job's whole array was about 49 MB of the report's
 * peak RSS, BENCHMARKS.md); without, the whole array now. */
json_t *report_gpu_json(const model *m, report_stream *st);

/* The same rows for humans (report_print_text), from the report object;
 * nothing when it has none. */
void report_gpu_print_text(const json_t *obj, FILE *f);

#endif
