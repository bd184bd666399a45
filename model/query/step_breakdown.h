/* step_breakdown: where each training step's time went, per node.
 *
 * For every step: time in data loading, forward, backward and collective
 * communication, and "other". A category's time is the union of its events
 * clipped to the step's window [start, start + dur): nested or overlapping
 * events of one category count once. Categories may overlap each other
 * (Horovod's allreduce runs during backward), so their sum can exceed the
 * step; "other" is the step time not covered by ANY category (the union of
 * all of them), hence never negative. Events are assigned by time, not by
 * step number, because communication events carry none.
 *
 * Categories come from a phase's kind and label (model/steps/phase_stats.h):
 *   data     PHASE_DATALOADER (DataIterator, *GetNext*, DataLoaderIterInitialize;
 *            not DataLoaderWorker: workers prefetch in parallel with the step)
 *   forward  PHASE_FORWARD;  backward  PHASE_BACKWARD
 *   comm     PHASE_OTHER whose label contains, ignoring case, one of
 *            ALLREDUCE ALLGATHER BROADCAST ALLTOALL REDUCESCATTER
 *            REDUCE_SCATTER NCCL MPI_ HOROVOD SMDDP
 *            — the model keys Horovod/SMDataParallel events by their pid's
 *            process name, which those writers set to the tensor or
 *            operation name ("HorovodAllreduce_grads_0", "NCCL_ALLREDUCE").
 * Everything else (Step events, unmatched others) is ignored.
 *
 * Pure: computed on demand from what the model retains (the most recent
 * PHASE_RECENT_CAP events per phase), no state of its own. */
#ifndef SMTOP_STEP_BREAKDOWN_H
#define SMTOP_STEP_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/steps/phase_stats.h"

typedef enum sb_cat {
    SB_DATA = 0,
    SB_FORWARD,
    SB_BACKWARD,
    SB_COMM,
    SB_NCAT
} sb_cat;

typedef struct step_breakdown {
    int64_t step;               /* step number, -1 when unknown */
    int64_t start_us, dur_us;
    int64_t cat_us[SB_NCAT];    /* per category, clipped and unioned */
    int64_t other_us;           /* dur_us minus the union of all categories */
} step_breakdown;

/* One categorised event for the pure core. */
typedef struct sb_span {
    int64_t start_us, end_us;   /* end >= start */
    sb_cat cat;
} sb_span;

/* Category of a phase, or -1 when it is not part of the breakdown. */
int step_breakdown_category(const char *label, phase_kind kind);

/* Name of a category: "data", "forward", "backward", "comm". */
const char *step_breakdown_cat_name(sb_cat c);

/* Pure core. steps[i].step/start_us/dur_us are inputs (any order); the
 * other fields are filled. spans need not be sorted. Returns 0, -1 on OOM
 * (steps unchanged). */
int step_breakdown_compute(step_breakdown *steps, size_t nsteps,
                           const sb_span *spans, size_t nspans);

/* The most recent steps (up to max, oldest first) of node n's step phase
 * `step_label` (NULL: the node's first Step:* phase — TRAIN when present),
 * with their breakdown, into out. Returns how many, 0 when the node has no
 * steps, -1 on OOM. Read-only; the caller holds the model's lock. */
int step_breakdown_node(const model_node *n, const char *step_label,
                        step_breakdown *out, size_t max);
/* Like step_breakdown_node, but the steps from retained index `first` on
 * (0: the oldest retained; phase_stats_recent_* count them), so a view can
 * scroll back through every retained step. */
int step_breakdown_node_from(const model_node *n, const char *step_label, size_t first,
                             step_breakdown *out, size_t max);
/* Node n's step phase (as step_breakdown_node picks it), or NULL. */
const phase_stats *step_breakdown_phase(const model_node *n, const char *step_label);

#endif
