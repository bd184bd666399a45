/* stepsview: see stepsview.h. */
#include "model/view/stepsview.h"

#include "model/util/fnv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/pick.h"

static int has_phases(const void *ctx, size_t i)
{
    return model_node_phase_count(((const model_node *const *)ctx)[i]) > 0;
}

long stepsview_pick_node(const model_node *const *nodes, size_t n, size_t selected)
{
    return pick_preferred(n, selected, has_phases, nodes);
}

size_t stepsview_phase_index(const model_node *nd, const char *label)
{
    size_t n = model_node_phase_count(nd);
    for (size_t i = 0; label && i < n; i++)
        if (strcmp(phase_stats_label(model_node_phase_at(nd, i)), label) == 0)
            return i;
    return 0;
}

/* The node's writer q->process names, NULL for the pooled node. */
static const model_node *shown_writer(const model_node *nd, const viewdata_req *q,
                                      stepsview *v)
{
    const model_node *src = q->process[0] ? model_node_find_process(nd, q->process) : NULL;
    v->nprocs = model_node_process_count(nd);
    v->proc_k = v->nprocs;
    for (size_t k = 0; src && k < v->nprocs; k++)
        if (model_node_process_at(nd, k) == src)
            v->proc_k = k;
    snprintf(v->shown, sizeof v->shown, "%s", src ? model_node_id(src) : "");
    return src;
}

/* The labels of src's phases, for n/N. 0, or -1 on OOM. */
static int copy_labels(stepsview *v, const model_node *src)
{
    if (!(v->phases = calloc(v->nphases ? v->nphases : 1, sizeof *v->phases)))
        return -1;
    for (size_t i = 0; i < v->nphases; i++)
        if (!(v->phases[i] = strdup(phase_stats_label(model_node_phase_at(src, i)))))
            return -1;
    return 0;
}

/* A phase with more steps than it retains: its quantile table. */
static int quantile_table(stepsview *v, const phase_stats *ps)
{
    step_hist_table_pcts(&v->qt);
    if (phase_stats_quantiles(ps, v->qt.pct, v->qt.n, v->qt.us) != 0)
        return -1;
    step_hist_table_fix(&v->qt, (double)v->sum.min_us, (double)v->sum.max_us,
                        v->sum.exact ? 0 : v->sum.err_rel);
    step_hist_bounds_table(&v->qt, &v->sum, &v->hb);
    return 0;
}

/* The histogram's bulk, here on the loader so that a frame does not sort
 * the steps: exact while every step is retained. 0, or -1 on OOM. */
static int hist_bounds(stepsview *v, const phase_stats *ps)
{
    if (v->sum.count <= 0)
        return 0;
    if ((int64_t)v->nrecent < v->sum.count)
        return quantile_table(v, ps);
    int64_t *dur = malloc(v->nrecent * sizeof *dur);
    if (!dur)
        return -1;
    for (size_t i = 0; i < v->nrecent; i++)
        dur[i] = v->recent[i].dur_us;
    int rc = step_hist_bounds_of(dur, v->nrecent, &v->hb);
    free(dur);
    return rc;
}

stepsview *stepsview_build(const model *m, const size_t *nodes, size_t n,
                           const viewdata_req *q, const char *phase)
{
    stepsview *v = calloc(1, sizeof *v);
    const model_node **nd = calloc(n ? n : 1, sizeof *nd);
    if (!v || !nd) {
        free(v);
        free(nd);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        nd[i] = model_node_at(m, nodes[i]);
    long k = stepsview_pick_node(nd, n, q->selected < n ? q->selected : (n ? n - 1 : 0));
    if (k < 0) {
        v->why = n == 0 ? "waiting for data"
                        : "no framework trace events in this job - system metrics only";
        free(nd);
        return v;
    }
    snprintf(v->node, sizeof v->node, "%s", model_node_id(nd[k]));
    const model_node *src = shown_writer(nd[k], q, v);
    src = src ? src : nd[k];
    free(nd);
    v->idx = stepsview_phase_index(src, phase && phase[0] ? phase : NULL);
    v->nphases = model_node_phase_count(src);
    const phase_stats *ps = model_node_phase_at(src, v->idx);
    snprintf(v->label, sizeof v->label, "%s", phase_stats_label(ps));
    phase_stats_get_summary(ps, &v->sum);
    memcpy(v->hist, phase_stats_histogram(ps), sizeof v->hist);
    v->gen = phase_stats_generation(ps);
    size_t cap = phase_stats_recent_count(ps);
    if (copy_labels(v, src) != 0 || !(v->recent = malloc((cap ? cap : 1) * sizeof *v->recent))) {
        stepsview_free(v);
        return NULL;
    }
    v->nrecent = phase_stats_recent(ps, v->recent, cap);
    if (hist_bounds(v, ps) != 0) {
        stepsview_free(v);
        return NULL;
    }
    return v;
}

void stepsview_free(stepsview *v)
{
    if (!v)
        return;
    for (size_t i = 0; v->phases && i < v->nphases; i++)
        free(v->phases[i]);
    free(v->phases);
    free(v->recent);
    free(v);
}

static void *query_build(const viewquery_in *in, const void *params)
{
    const stepsview_params *sp = params;
    return stepsview_build(in->m, in->nodes, in->shown, in->q, sp->phase);
}

static void query_free(void *answer)
{
    stepsview_free(answer);
}

static uint64_t query_key(const viewdata_req *q, const void *params)
{
    const stepsview_params *sp = params;
    uint64_t h = fnv_add_u64(viewdata_common_key(q), q->selected);
    h = fnv_add_str(h, q->process);
    return fnv_add_str(h, sp->phase);
}

const viewquery stepsview_query = {"steps", query_build, query_free, query_key};
