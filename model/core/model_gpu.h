/* model_gpu: the job's PyTorch profiler (Kineto) ranks, each a process
 * of a node (as an smdebug writer is), with its GPU analysis summed over
 * its traces (model/gpu/gpu_rank.h). The Kineto steps and CPU ops of a
 * rank go into the model as events (model_add_event) under the same
 * node and process, so every step view works on them; this keeps what
 * only a Kineto trace has. No I/O. */
#ifndef SMTOP_MODEL_GPU_H
#define SMTOP_MODEL_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/model.h"

typedef struct model_gpu_row {
    const char *node;       /* the node the rank runs on */
    const char *process;    /* "rank N", else the trace's worker name */
    int64_t rank;           /* distributedInfo.rank, -1 unknown */
    int64_t unplaced;       /* traces whose time base is unknown */
    const gpu_rank *gpu;
} model_gpu_row;

/* Merges ended trace t into the rank (node, process), made on first use;
 * placed = 0 counts t as not on the job clock. Bumps the model's
 * generation. 0, or -1 on OOM (see gpu_rank_merge). */
int model_gpu_merge(model *m, const char *node, const char *process, int64_t rank,
                    const gpu_trace *t, int placed);

/* The ranks, in natural order of (node, process). Valid until the next
 * merge. */
size_t model_gpu_count(const model *m);
const model_gpu_row *model_gpu_at(const model *m, size_t i);
/* The analysis of one process (a node's writer), NULL when it has none. */
const gpu_rank *model_process_gpu(const model *m, const char *node, const char *process);

#endif
