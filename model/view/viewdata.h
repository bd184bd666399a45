/* viewdata: what the dashboard's chart panes and header show, computed
 * from the model by pure functions so the loader thread can build it
 * after a pass and publish it in its immutable snapshot (model/view/viewsnap.h):
 * the UI then draws without the model lock.
 *
 * Takes a model (the caller holds its lock) and a plain request — the
 * time window as the view defines it, the node filter, and the queries the
 * panes on screen ask, each with its params (viewquery); gives an
 * immutable `viewdata` (free with viewdata_free).
 * Nothing in it points into the model. Immutable: several threads may
 * read and free view data (and the parts they share) at once. */
#ifndef SMTOP_VIEWDATA_H
#define SMTOP_VIEWDATA_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/view/freshness.h"

typedef struct viewdata_req viewdata_req;
typedef struct viewdata viewdata;

/* What a query is given: the model (its lock held), the visible nodes'
 * indexes, the request's common part and window, and the same query's
 * answer in the view data this one follows (NULL: none), which it may
 * copy from where nothing changed. */
typedef struct viewquery_in {
    const model *m;
    const size_t *nodes;
    size_t shown;
    const viewdata_req *q;
    int64_t t0_us, t1_us;
    const void *prev;
} viewquery_in;

/* A question the model answers for a view: each view (sysview, heatview,
 * stepsview, tlview, gpuview's top) offers one, with a plain params
 * struct of its own. A pane asks it with viewdata_ask_for; adding a pane
 * adds no field here. */
typedef struct viewquery {
    const char *name;
    /* The answer for params, immutable once built; NULL on OOM. */
    void *(*build)(const viewquery_in *in, const void *params);
    void (*free)(void *answer);
    /* What the answer depends on, hashed (viewdata_common_key for the
     * window and the filter, then its own params): an answer with the
     * same key may be shared as it is. */
    uint64_t (*key)(const viewdata_req *q, const void *params);
} viewquery;

/* One question of a request: the query and its params (plain data the
 * pane owns, copied, compared bytewise). */
#define VIEWDATA_ASKS 8
#define VIEWDATA_PARAMS 192
typedef struct viewdata_ask {
    const viewquery *query;         /* NULL: an empty slot */
    size_t size;
    unsigned char params[VIEWDATA_PARAMS];
} viewdata_ask;

/* A request: plain data, compared with memcmp (zero it before filling). */
struct viewdata_req {
    /* The time window, as tui/panes/view.h defines it: live follows the
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
    /* What the panes on screen ask, in their order. */
    viewdata_ask ask[VIEWDATA_ASKS];
};

/* Adds query with params (size bytes, copied) to q. 0, or -1 when q has
 * no free slot or params are larger than VIEWDATA_PARAMS (q unchanged). */
int viewdata_ask_for(viewdata_req *q, const viewquery *query, const void *params,
                     size_t size);

/* The request's common part hashed (the window, the filter): what most
 * queries' answers depend on besides their params. */
uint64_t viewdata_common_key(const viewdata_req *q);


/* The visible window [t0, t1) given the newest data time. */
void viewdata_window(const viewdata_req *q, int64_t newest_us, int64_t *t0, int64_t *t1);

/* Builds what q asks for from m; each query sees its own answer in prev
 * (NULL: none) and may copy what cannot have changed (the heatmap's
 * rows). With reuse, an answer of prev with the same key is shared as it
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

/* The answer to the first ask of query in the request v was built for;
 * NULL when it did not ask. */
const void *viewdata_answer(const viewdata *v, const viewquery *query);
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
