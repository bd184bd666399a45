/* viewdata: see viewdata.h. */
#include "model/viewdata.h"

#include <stdlib.h>

#include "model/freshness.h"
#include "model/heatview.h"
#include "model/stepsview.h"
#include "model/sysview.h"
#include "model/tlview.h"

struct viewdata {
    viewdata_req q;
    size_t total, shown;
    int64_t newest_us, t0_us, t1_us, interval_us;
    uint64_t model_gen;
    int has_traces;
    sysview *sys;
    heatview *heat;
    stepsview *steps;
    tlview *tl;
};

void viewdata_window(const viewdata_req *q, int64_t newest_us, int64_t *t0, int64_t *t1)
{
    if (q->step_focus) {
        *t0 = q->step_t0_us;
        *t1 = q->step_t1_us;
        return;
    }
    int64_t end = q->live ? newest_us : q->end_us;
    /* The newest sample must fall inside the half-open window. */
    if (q->live && end > 0)
        end += 1;
    *t1 = end;
    *t0 = end - q->span_us;
}

size_t viewdata_visible_nodes(const model *m, const viewdata_req *q, size_t *out, size_t max)
{
    size_t n = 0, total = model_node_count(m);
    for (size_t i = 0; i < total; i++) {
        const model_node *nd = model_node_at(m, i);
        if (!nd || (q->visible && !q->visible(q->filter, model_node_id(nd))))
            continue;
        if (n < max)
            out[n] = i;
        n++;
    }
    return n;
}

viewdata *viewdata_build(const model *m, const viewdata_req *q, const viewdata *prev)
{
    viewdata *v = calloc(1, sizeof *v);
    size_t total = model_node_count(m);
    size_t *nodes = malloc((total ? total : 1) * sizeof *nodes);
    if (!v || !nodes) {
        free(nodes);
        free(v);
        return NULL;
    }
    v->q = *q;
    v->total = total;
    v->shown = viewdata_visible_nodes(m, q, nodes, total);
    v->newest_us = model_last_us(m);
    v->model_gen = model_generation(m);
    v->interval_us = freshness_sample_interval(m);
    for (size_t i = 0; i < total && !v->has_traces; i++)
        v->has_traces = model_node_phase_count(model_node_at(m, i)) > 0;
    viewdata_window(q, v->newest_us, &v->t0_us, &v->t1_us);
    int ok = 1;
    if (q->sys_on)
        ok = (v->sys = sysview_build(m, nodes, v->shown, q, v->t0_us, v->t1_us)) != NULL;
    if (ok && q->heat_on)
        ok = (v->heat = heatview_build(m, nodes, v->shown, v->t0_us, v->t1_us, q->step_focus,
                                       prev ? prev->heat : NULL)) != NULL;
    if (ok && q->steps_on)
        ok = (v->steps = stepsview_build(m, nodes, v->shown, q)) != NULL;
    if (ok && q->tl_on)
        ok = (v->tl = tlview_build(m, nodes, v->shown, q, v->t0_us, v->t1_us)) != NULL;
    free(nodes);
    if (!ok) {
        viewdata_free(v);
        return NULL;
    }
    return v;
}

void viewdata_free(viewdata *v)
{
    if (!v)
        return;
    sysview_free(v->sys);
    heatview_free(v->heat);
    stepsview_free(v->steps);
    tlview_free(v->tl);
    free(v);
}

const viewdata_req *viewdata_request(const viewdata *v)
{
    return &v->q;
}

size_t viewdata_node_total(const viewdata *v)
{
    return v->total;
}

size_t viewdata_node_shown(const viewdata *v)
{
    return v->shown;
}

int64_t viewdata_newest_us(const viewdata *v)
{
    return v->newest_us;
}

void viewdata_time_window(const viewdata *v, int64_t *t0, int64_t *t1)
{
    *t0 = v->t0_us;
    *t1 = v->t1_us;
}

uint64_t viewdata_model_generation(const viewdata *v)
{
    return v->model_gen;
}

const sysview *viewdata_system(const viewdata *v)
{
    return v->sys;
}

const heatview *viewdata_heatmap(const viewdata *v)
{
    return v->heat;
}

int64_t viewdata_sample_interval_us(const viewdata *v)
{
    return v->interval_us;
}

const stepsview *viewdata_steps(const viewdata *v)
{
    return v->steps;
}

const tlview *viewdata_timeline(const viewdata *v)
{
    return v->tl;
}

int viewdata_has_traces(const viewdata *v)
{
    return v->has_traces;
}
