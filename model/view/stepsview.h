/* stepsview: what the Steps pane shows — the phase picked on the selected
 * node (or one of its trace writers): its label and place among the
 * node's phases, its whole-job summary and histogram, and a copy of its
 * retained events (the pane's window statistics, strip and cursor work
 * on the copy). Built by the loader (model/view/viewdata.h); immutable once
 * built; nothing points into the model. */
#ifndef SMTOP_STEPSVIEW_H
#define SMTOP_STEPSVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/steps/phase_stats.h"
#include "model/steps/step_hist.h"
#include "model/view/viewdata.h"

typedef struct stepsview {
    const char *why;          /* non-NULL: no phase to show, and why (static text) */
    char node[128];           /* the node shown */
    char shown[128];          /* the writer shown ("" when the node's pooled events) */
    size_t nprocs;            /* trace writers on the node */
    size_t proc_k;            /* the shown writer's index (nprocs: pooled) */
    char label[128];          /* the phase's label */
    size_t idx, nphases;      /* its index among the shown source's phases */
    char **phases;            /* their labels, nphases (n/N cycle through them) */
    phase_summary sum;        /* whole job */
    uint32_t hist[PHASE_HIST_BUCKETS];
    step_hist_bounds hb;      /* the histogram's bulk: from the retained
                                 durations when they are every step
                                 (hb.exact), else from qt */
    step_hist_table qt;       /* !hb.exact: the phase's quantile table */
    uint64_t gen;             /* phase_stats_generation */
    size_t nrecent;
    phase_event *recent;      /* retained events, oldest first */
} stepsview;

/* Which node the pane shows: the selected one among `nodes` when it has
 * framework events, else the first that has any; -1 when none has. */
long stepsview_pick_node(const model_node *const *nodes, size_t n, size_t selected);

/* Index of the phase labelled `label` on the node, 0 when absent or NULL. */
size_t stepsview_phase_index(const model_node *nd, const char *label);

/* The phase `phase` ("" or NULL = the first) of q->process (or the pooled
 * node) on the node picked among model_node_at(m, nodes[i]) for
 * q->selected. NULL on OOM. */
stepsview *stepsview_build(const model *m, const size_t *nodes, size_t n,
                           const viewdata_req *q, const char *phase);
void stepsview_free(stepsview *v);

/* What the Steps pane asks (viewdata_ask_for with stepsview_query). */
typedef struct stepsview_params {
    char phase[128];          /* the phase shown ("" = the first) */
} stepsview_params;

/* The query: a stepsview for stepsview_params. */
extern const viewquery stepsview_query;

#endif
