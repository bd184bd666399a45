/* viewdata: what the dashboard's chart panes and header show, computed
 * from the model by pure functions so the loader thread can build it
 * after a pass and publish it in its immutable snapshot (io/job/derive.h):
 * the UI then draws without the model lock.
 *
 * Takes a model (the caller holds its lock) and a plain request — the
 * time window as the view defines it, the node filter, and what each pane
 * asks for; gives an immutable `viewdata` (free with viewdata_free).
 * Nothing in it points into the model. Immutable: several threads may
 * read and free view data (and the parts they share) at once. */
#ifndef SMTOP_VIEWDATA_H
#define SMTOP_VIEWDATA_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/view/freshness.h"

typedef struct sysview sysview;
typedef struct heatview heatview;
typedef struct stepsview stepsview;
typedef struct tlview tlview;
typedef struct gpuview_top gpuview_top;

/* A request: plain data, compared with memcmp (zero it before filling). */
typedef struct viewdata_req {
    /* The time window, as tui/dash/view.h defines it: live follows the
     * newest sample; else it ends at end_us; a step focus shows the step. */
    int live;
    int64_t span_us, end_us;
    int step_focus;
    int64_t step_t0_us, step_t1_us;
    /* Node filter: a node shows when visible(filter, id) (NULL: all). */
    char filter[64];
    int (*visible)(const char *filter, const char *id);
    size_t selected;                /* the selected node among the visible */
    char process[128];              /* its trace writer picked ("" = the node) */
    /* System pane: 0 = not on screen. */
    int sys_on;
    int per_core;
    size_t sys_bins;                /* bins per chart */
    size_t sys_first, sys_count;    /* visible nodes whose charts get bins */
    /* Heatmap pane: 0 = not on screen. */
    int heat_on;
    /* Steps pane: 0 = not on screen; the phase it shows ("" = first). */
    int steps_on;
    char steps_phase[128];
    /* Timeline pane: 0 = not on screen; its view (tlview.h TLVIEW_*),
     * the steps view's bars (retained steps tl_first .. +tl_fit), the
     * events view's filter and order (ew_order). */
    int tl_on, tl_view;
    size_t tl_first, tl_fit;
    char tl_filter[64];
    int tl_order;
    /* Top functions from the PyTorch profiler's ranks: 0 = none, else
     * 1 + the gpuview_src shown (model/view/gpuview.h); rows kept. */
    int top_on;
    size_t top_max;
    int top_sort;                   /* gpuview_sort */
} viewdata_req;

typedef struct viewdata viewdata;

/* The visible window [t0, t1) given the newest data time. */
void viewdata_window(const viewdata_req *q, int64_t newest_us, int64_t *t0, int64_t *t1);

/* Builds what q asks for from m; heatmap rows of prev (NULL: none) that
 * cannot have changed are copied rather than recomputed. With reuse, a
 * pane's part of prev whose request fields are unchanged is shared as it
 * is, even if the model moved on (the answer to one pane's new request
 * then costs that pane's part alone); such view data reports model
 * generation 0, so the next full build replaces it. NULL on OOM. */
viewdata *viewdata_build(const model *m, const viewdata_req *q, const viewdata *prev,
                         int reuse);
void viewdata_free(viewdata *v);   /* NULL is a no-op */

/* The request it answers. */
const viewdata_req *viewdata_request(const viewdata *v);
/* Header facts: nodes in the job and those that pass the filter, the
 * newest sample time, the window, and the model generation it was built
 * from. */
size_t viewdata_node_total(const viewdata *v);
size_t viewdata_node_shown(const viewdata *v);
int64_t viewdata_newest_us(const viewdata *v);
/* The oldest data time (model_first_us); 0 when none: with the newest,
 * the whole job, which a fitted window shows. */
int64_t viewdata_first_us(const viewdata *v);
void viewdata_time_window(const viewdata *v, int64_t *t0, int64_t *t1);
uint64_t viewdata_model_generation(const viewdata *v);
/* 1 when some node has framework trace events (phases). */
int viewdata_has_traces(const viewdata *v);
/* 1 when some node has system metrics (a series). */
int viewdata_has_system(const viewdata *v);
/* Where the system charts come from when not from Debugger's files
 * (model_system_source: "CloudWatch", "" for Debugger's) and, into
 * *interval_us when not NULL, its resolution: the System and Heatmap
 * panes' borders say both. */
const char *viewdata_system_source(const viewdata *v, int64_t *interval_us);
/* freshness_sample_interval of the model (model/view/freshness.h). */
int64_t viewdata_sample_interval_us(const viewdata *v);
/* Whether the job is still writing at now_us (scans every scan_us):
 * by its system sampling interval, or, for a job of PyTorch profiler
 * traces alone, by its profiling cycle (freshness_of_traces). */
freshness viewdata_freshness(const viewdata *v, int64_t now_us, int64_t scan_us);

/* The panes' products; NULL when the request did not ask for them. */
const sysview *viewdata_system(const viewdata *v);
const heatview *viewdata_heatmap(const viewdata *v);
const stepsview *viewdata_steps(const viewdata *v);
const tlview *viewdata_timeline(const viewdata *v);
const gpuview_top *viewdata_top(const viewdata *v);
/* PyTorch profiler ranks in the job (model_gpu_count), and whether one
 * has [memory] events (the System pane charts them). */
size_t viewdata_gpu_ranks(const viewdata *v);
int viewdata_gpu_memory(const viewdata *v);

/* The job's nodes in model order, whatever the filter: their ids,
 * whether they have framework trace events, and the ids of their trace
 * writers (model_node_process_at). What a key needs without the model:
 * the selection's bound under a filter typed since the build, the node
 * the Steps and Timeline panes pick, the writers `r`/`R` cycle through.
 * i counts up to viewdata_node_total; out of range gives NULL / 0. */
const char *viewdata_node_id(const viewdata *v, size_t i);
int viewdata_node_traced(const viewdata *v, size_t i);
size_t viewdata_node_writer_count(const viewdata *v, size_t i);
const char *viewdata_node_writer(const viewdata *v, size_t i, size_t k);
/* The indexes of those nodes visible(filter, id) passes (NULL: all) into
 * out (at most max); returns their count (which may exceed max). */
size_t viewdata_nodes_passing(const viewdata *v, const char *filter,
                              int (*visible)(const char *filter, const char *id),
                              size_t *out, size_t max);
/* The rule of stepsview_pick_node (pick_preferred) over those facts:
 * among nodes[0..n) (indexes as above), `selected` when it has trace
 * events, else the first that has; -1 when none has. */
long viewdata_pick_traced(const viewdata *v, const size_t *nodes, size_t n, size_t selected);

#endif
