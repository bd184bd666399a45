/* tlview: what the Timeline pane shows of the selected node (or trace
 * writer), for the one of its views on screen: the step phase's retained
 * events and the breakdown of the steps around the bars shown (steps
 * view); data-loading shares, workers and the GetNext latency histogram
 * (loader view); the events in the window, filtered and sorted (events
 * view). Built by the loader (model/view/viewdata.h); immutable once built;
 * nothing points into the model. */
#ifndef SMTOP_TLVIEW_H
#define SMTOP_TLVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_rank.h"
#include "model/query/event_window.h"
#include "model/model.h"
#include "model/steps/phase_stats.h"
#include "model/query/step_breakdown.h"
#include "model/view/viewdata.h"

/* tlview_params.view */
enum { TLVIEW_STEPS = 0, TLVIEW_LOADER, TLVIEW_EVENTS };
/* tlview_params.first for the newest bars, wherever they are. */
#define TLVIEW_NEWEST ((size_t)-1)

/* What the Timeline pane asks (viewdata_ask_for with tlview_query): its
 * view (TLVIEW_*), the steps view's bars (retained steps first .. +fit),
 * the events view's filter and order (event_window.h's ew_order). */
typedef struct tlview_params {
    int view;
    size_t first, fit;
    char filter[64];
    int order;
} tlview_params;
/* Steps the loader view breaks down (the newest). */
#define TLVIEW_LOADER_STEPS 256

typedef struct tlview {
    const char *why;          /* non-NULL: no node with framework events, and why */
    char node[128], shown[128];
    size_t nprocs, proc_k;    /* writers on the node; the shown one's index (nprocs: the node) */
    /* Steps (steps and loader views): the first Step:* phase's label
     * ("" without one), its summary and retained events, oldest first. */
    char step_label[128];
    phase_summary step_sum;
    size_t nrecent;
    phase_event *recent;
    /* Breakdowns of retained steps sb_first .. sb_first + nsb. */
    size_t sb_first, nsb;
    step_breakdown *sb;
    /* The same steps' GPU split from the PyTorch profiler, when the writer
     * shown is a Kineto rank (has_gpu; gsb[i].dur_us 0 where the rank has
     * no such step): compute / communication / memory / idle. */
    int has_gpu;
    gpu_step *gsb;
    /* Loader view. */
    int has_loader;
    size_t worker_labels;
    int64_t worker_events;
    long worker_par;          /* most worker spans at once (-1: unknown) */
    uint32_t getnext[PHASE_HIST_BUCKETS];
    uint64_t getnext_total;
    /* Events view: the window's events (labels owned here). */
    size_t nev;
    ew_event *ev;
} tlview;

/* The writer the Timeline shows on nd: the one q->process names, else the
 * first of several, else nd itself. */
const model_node *tlview_writer(const model_node *nd, const char *process);

/* What tp->view needs for the node picked among model_node_at(m,
 * nodes[i]) for q->selected, over [t0, t1). NULL on OOM. */
tlview *tlview_build(const model *m, const size_t *nodes, size_t n, const viewdata_req *q,
                     const tlview_params *tp, int64_t t0_us, int64_t t1_us);
void tlview_free(tlview *v);

/* The query: a tlview for tlview_params. */
extern const viewquery tlview_query;

/* Retained events starting at or before t (the index after the last). */
size_t tlview_recent_upto(const tlview *v, int64_t t_us);

#endif
