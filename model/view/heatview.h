/* heatview: the Heatmap pane's rows — per node the window means of CPU,
 * each GPU and GPU memory, the node's step p50 (the sort keys; the
 * straggler is the Straggler rule's). Built by the loader (model/view/viewdata.h);
 * immutable once built. */
#ifndef SMTOP_HEATVIEW_H
#define SMTOP_HEATVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/view/straggler.h"
#include "model/view/viewdata.h"

#define HEATVIEW_MAX_GPUS 16

typedef struct heatview_row {
    const char *id;           /* the node's id (owned by the heatview) */
    size_t gpus;              /* GPUs shown (at most HEATVIEW_MAX_GPUS) */
    uint64_t gen;             /* model_node_generation it was read at */
    double cpu, gpu[HEATVIEW_MAX_GPUS], gmem, gpu_mean, p50;   /* NaN: none */
} heatview_row;

typedef struct heatview heatview;

/* Rows of the n nodes model_node_at(m, nodes[i]) over [t0, t1); a step
 * focus (step != 0) widens an empty window to its nearest samples. Rows
 * of prev (NULL: none) for the same node, generation and window are
 * copied, not recomputed. NULL on OOM. */
heatview *heatview_build(const model *m, const size_t *nodes, size_t n, int64_t t0_us,
                         int64_t t1_us, int step, const heatview *prev);
void heatview_free(heatview *h);

/* The query (no params): the rows of the visible nodes over the
 * request's window, the previous answer's unchanged rows copied. */
extern const viewquery heatview_query;

size_t heatview_count(const heatview *h);
const heatview_row *heatview_row_at(const heatview *h, size_t i);
/* The per-row inputs of the check, for the pane's sort: n values each. */
const double *heatview_gpu_means(const heatview *h);
const double *heatview_step_p50s(const heatview *h);

#endif
