/* viewbuild: the snapshot builder; see viewbuild.h. */
#include "model/view/viewbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/query/step_event.h"
#include "model/util/fnv.h"
#include "model/view/viewsnap_impl.h"

#define VIEWBUILD_MAX_SPECS 32

struct viewbuild {
    rules *r;                    /* evaluated by builds (loader thread) */
    const model *m;
    const pystats_store *py;
    pthread_mutex_t *lock;       /* guards m and py; may be NULL */
    pthread_mutex_t mu;          /* guards everything below */
    rules *check;                /* mirrors r's parameters: validates overrides */
    char *specs[VIEWBUILD_MAX_SPECS];
    size_t nspecs;
    int want_py;
    pystats_select sel;
    char sel_node[128];
    pystats_sort sort;
    uint64_t py_key;
    int want_view;
    viewdata_req view_req;
    uint64_t view_serial;        /* bumped by every changed request */
    viewbuild_extra_fn extra_build;
    void (*extra_free)(void *);
    void *extra_ud;
    int64_t extra_min_us;
    /* The build side's memory (loader thread only). */
    viewsnap *last;
    int built_any;               /* under mu, as built_py_key and built_want_py */
    uint64_t built_model_gen, built_py_gen, built_py_key;
    uint64_t built_py_match;     /* matched_windows() of the last merge */
    int built_want_py;
    uint64_t built_view_serial;  /* under mu */
    uint64_t extra_src_gen;
    int64_t extra_at_us;
    uint64_t built_pywin_gen;
    char place[VIEWSNAP_PLACE_MAX];  /* under mu */
};

/* Copies r's parameters into dst (same table, so every set succeeds). */
static void copy_params(rules *dst, const rules *src)
{
    for (size_t i = 0; i < rules_count(); i++)
        for (size_t k = 0; k < rules_param_count(i); k++)
            rules_set_param(dst, rules_name_at(i), rules_param_name(i, k),
                            rules_param_value(src, i, k), NULL);
}

viewbuild *viewbuild_new(const rules *params, const model *m, const pystats_store *py,
                     pthread_mutex_t *lock)
{
    viewbuild *dv = calloc(1, sizeof *dv);
    if (!dv || !(dv->r = rules_new()) || !(dv->check = rules_new())) {
        if (dv)
            rules_free(dv->r);
        free(dv);
        return NULL;
    }
    if (params) {
        copy_params(dv->r, params);
        copy_params(dv->check, params);
    }
    dv->m = m;
    dv->py = py;
    dv->lock = lock;
    pthread_mutex_init(&dv->mu, NULL);
    return dv;
}

void viewbuild_free(viewbuild *dv)
{
    if (!dv)
        return;
    for (size_t i = 0; i < dv->nspecs; i++)
        free(dv->specs[i]);
    viewsnap_unref(dv->last);
    rules_free(dv->r);
    rules_free(dv->check);
    pthread_mutex_destroy(&dv->mu);
    free(dv);
}

int viewbuild_rule_override(viewbuild *dv, const char *spec, sm_err *err)
{
    pthread_mutex_lock(&dv->mu);
    int rc = -1;
    char *copy = NULL;
    if (dv->nspecs == VIEWBUILD_MAX_SPECS)
        sm_err_set(err, SM_ERR_USAGE, "too many rule changes at once: try again in a second");
    else if (!(copy = strdup(spec)))
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    else if (rules_apply_override(dv->check, spec, err) == 0) {
        dv->specs[dv->nspecs++] = copy;
        copy = NULL;
        rc = 0;
    }
    pthread_mutex_unlock(&dv->mu);
    free(copy);
    return rc;
}

void viewbuild_want_python(viewbuild *dv, const pystats_select *sel, pystats_sort sort,
                         uint64_t key)
{
    pthread_mutex_lock(&dv->mu);
    dv->want_py = sel != NULL;
    if (sel) {
        dv->sel = *sel;
        snprintf(dv->sel_node, sizeof dv->sel_node, "%s", sel->node ? sel->node : "");
        dv->sel.node = dv->sel_node;
        dv->sort = sort;
        dv->py_key = key;
    }
    pthread_mutex_unlock(&dv->mu);
}

void viewbuild_want_view(viewbuild *dv, const viewdata_req *q)
{
    pthread_mutex_lock(&dv->mu);
    if ((q != NULL) != dv->want_view || (q && memcmp(q, &dv->view_req, sizeof *q) != 0)) {
        dv->want_view = q != NULL;
        if (q)
            dv->view_req = *q;
        dv->view_serial++;
    }
    pthread_mutex_unlock(&dv->mu);
}

void viewbuild_set_extra(viewbuild *dv, viewbuild_extra_fn build, void (*free_fn)(void *),
                       void *ud, int64_t min_us)
{
    pthread_mutex_lock(&dv->mu);
    dv->extra_build = build;
    dv->extra_free = free_fn;
    dv->extra_ud = ud;
    dv->extra_min_us = min_us;
    pthread_mutex_unlock(&dv->mu);
}

int viewbuild_pending(viewbuild *dv)
{
    pthread_mutex_lock(&dv->mu);
    int p = dv->nspecs > 0 || !dv->built_any ||
            (dv->want_py && dv->py_key != dv->built_py_key) || dv->want_py != dv->built_want_py ||
            dv->view_serial != dv->built_view_serial;
    pthread_mutex_unlock(&dv->mu);
    return p;
}

int viewbuild_pending_view(viewbuild *dv)
{
    pthread_mutex_lock(&dv->mu);
    int p = dv->view_serial != dv->built_view_serial;
    pthread_mutex_unlock(&dv->mu);
    return p;
}

/* What one build works from, copied out of dv->mu. */
typedef struct req {
    char *specs[VIEWBUILD_MAX_SPECS];
    size_t nspecs;
    int want_py;
    pystats_select sel;
    char node[128];
    pystats_sort sort;
    uint64_t py_key;
    int want_view;
    viewdata_req view;
    uint64_t view_serial;
    char place[VIEWSNAP_PLACE_MAX];
} req;

/* A view-only build (all 0) leaves the rule overrides queued. */
static void take_request(viewbuild *dv, req *q, int all)
{
    pthread_mutex_lock(&dv->mu);
    memcpy(q->specs, dv->specs, sizeof q->specs);
    q->nspecs = all ? dv->nspecs : 0;
    if (all)
        dv->nspecs = 0;
    q->want_py = dv->want_py;
    q->sel = dv->sel;
    memcpy(q->node, dv->sel_node, sizeof q->node);
    q->sel.node = q->node;
    q->sort = dv->sort;
    q->py_key = dv->py_key;
    q->want_view = dv->want_view;
    q->view = dv->view_req;
    q->view_serial = dv->view_serial;
    memcpy(q->place, dv->place, sizeof q->place);
    pthread_mutex_unlock(&dv->mu);
}

/* The span of prof's windows, so the pane can tell whether the selected
 * time window holds all of them (a "whole job" merge). Windows without a
 * time (0) do not widen it. */
static void profiler_span(const pystats_store *s, pystats_profiler prof, viewsnap *d)
{
    d->py_lo_us = d->py_hi_us = 0;
    for (size_t i = 0; i < pystats_store_window_count(s); i++) {
        const pystats_window *w = pystats_store_window_at(s, i, NULL, NULL);
        if (w->profiler != prof)
            continue;
        if (w->start_us && (!d->py_lo_us || w->start_us < d->py_lo_us))
            d->py_lo_us = w->start_us;
        int64_t end = w->end_us > w->start_us ? w->end_us : w->start_us;
        if (end > d->py_hi_us)
            d->py_hi_us = end;
    }
}

static int pick_profiler(const pystats_store *s, viewsnap *d)
{
    size_t seen[2] = {0, 0};
    for (size_t i = 0; i < pystats_store_window_count(s); i++)
        seen[pystats_store_window_at(s, i, NULL, NULL)->profiler == PYPROF_PYINSTRUMENT]++;
    d->py_prof = seen[0] ? PYPROF_CPROFILE : PYPROF_PYINSTRUMENT;
    d->py_windows = seen[0] ? seen[0] : seen[1];
    if (!seen[0] && !seen[1])
        return 0;
    profiler_span(s, d->py_prof, d);
    return 1;
}

static void free_result(void *p)
{
    pystats_result_free(p);
}

/* Which windows sel picks, and the sort: two requests with the same
 * value merge to the same result. A live time window slides with every
 * new sample while the windows it overlaps stay the same. */
static uint64_t matched_windows(const pystats_store *st, const pystats_select *sel,
                                pystats_sort sort)
{
    uint64_t h = fnv_add_u64(FNV_SEED, (uint64_t)sort);
    for (size_t i = 0; i < pystats_store_window_count(st); i++)
        if (pystats_window_selected(pystats_store_window_at(st, i, NULL, NULL), sel))
            h = fnv_add_u64(h, i);
    return h;
}

/* The merge, when the store or the windows chosen changed (lock held).
 * 1 when s got a new one. */
static int build_python(viewbuild *dv, const req *q, viewsnap *s)
{
    uint64_t g = dv->py ? pystats_store_generation(dv->py) : 0;
    s->py_have = dv->py && pick_profiler(dv->py, s);
    pystats_select sel = q->sel;
    sel.profiler = s->py_prof;
    uint64_t match = q->want_py && s->py_have ? matched_windows(dv->py, &sel, q->sort) : 0;
    pthread_mutex_lock(&dv->mu);
    int same = dv->last && g == dv->built_py_gen && q->want_py == dv->built_want_py &&
               (!q->want_py || q->py_key == dv->built_py_key || match == dv->built_py_match);
    dv->built_py_key = q->py_key;   /* answered, by the old merge or a new one */
    pthread_mutex_unlock(&dv->mu);
    if (same && dv->last->py_have == s->py_have) {
        s->py = box_ref(dv->last->py);
        s->py_key = q->py_key;
        return 0;
    }
    pthread_mutex_lock(&dv->mu);
    dv->built_py_gen = g;
    dv->built_want_py = q->want_py;
    dv->built_py_match = match;
    pthread_mutex_unlock(&dv->mu);
    if (!q->want_py || !s->py_have)
        return 1;
    pystats_result *r = pystats_store_query(dv->py, &sel, NULL);
    if (r)
        pystats_result_sort(r, q->sort);
    if (r && !(s->py = box_new(r, free_result)))
        pystats_result_free(r);
    s->py_key = q->py_key;
    return 1;
}

static void free_view(void *p)
{
    viewdata_free(p);
}

/* The view data, when the request or the model changed (lock held). 1
 * when s got a new one. reuse: only the panes whose request changed are
 * rebuilt (viewdata_build). */
static int build_view(viewbuild *dv, const req *q, viewsnap *s, int reuse)
{
    const viewdata *old = dv->last && dv->last->view ? dv->last->view->p : NULL;
    pthread_mutex_lock(&dv->mu);
    int same = q->view_serial == dv->built_view_serial;
    dv->built_view_serial = q->view_serial;
    pthread_mutex_unlock(&dv->mu);
    if (same && (!q->want_view ||
                 (old && viewdata_model_generation(old) == model_generation(dv->m)))) {
        s->view = box_ref(dv->last ? dv->last->view : NULL);
        return 0;
    }
    if (!q->want_view)
        return 1;
    viewdata *v = viewdata_build(dv->m, &q->view, old, reuse && same == 0);
    if (v && !(s->view = box_new(v, free_view)))
        viewdata_free(v);
    if (!s->view)   /* out of memory: keep showing the last one */
        s->view = box_ref(dv->last ? dv->last->view : NULL);
    return 1;
}

static void free_wins(void *p)
{
    py_wins *w = p;
    free(w->w);
    free(w->failed);
    free(w);
}

/* Copies of the Python store's windows (the pane's window menu lists
 * them), when the store changed (lock held). */
static void build_windows(viewbuild *dv, viewsnap *s)
{
    uint64_t g = dv->py ? pystats_store_generation(dv->py) : 0;
    if (dv->last && dv->last->pywin && g == dv->built_pywin_gen) {
        s->pywin = box_ref(dv->last->pywin);
        return;
    }
    size_t n = dv->py ? pystats_store_window_count(dv->py) : 0;
    py_wins *w = calloc(1, sizeof *w);
    if (w) {
        w->w = malloc((n ? n : 1) * sizeof *w->w);
        w->failed = malloc((n ? n : 1) * sizeof *w->failed);
    }
    if (!w || !w->w || !w->failed) {
        if (w)
            free_wins(w);
        s->pywin = box_ref(dv->last ? dv->last->pywin : NULL);   /* OOM: the last list */
        return;
    }
    for (w->n = 0; w->n < n; w->n++)
        w->w[w->n] = *pystats_store_window_at(dv->py, w->n, &w->failed[w->n], NULL);
    if (!(s->pywin = box_new(w, free_wins))) {
        free_wins(w);
        return;
    }
    dv->built_pywin_gen = g;
}

/* The step each result's span is (lock held): what `J` focuses. Only a
 * StepOutlier's span names a phase (in device); for the others the
 * look-up finds nothing. */
static void find_steps(viewbuild *dv, viewsnap *s)
{
    for (size_t i = 0; i < s->nrules; i++) {
        const rule_result *r = &s->res[i];
        s->step_ok[i] = r->t1_us > r->t0_us &&
                        step_event_find(dv->m, r->node, r->device, r->t0_us, &s->step[i]);
    }
}

/* Rules and Python under the lock; 1 when anything differs from last. */
static int build_locked(viewbuild *dv, const req *q, viewsnap *s)
{
    if (dv->lock)
        pthread_mutex_lock(dv->lock);
    int changed = rules_evaluate(dv->r, dv->m) != 0 || q->nspecs > 0;
    dv->built_model_gen = model_generation(dv->m);
    for (size_t i = 0; i < s->nrules; i++) {
        s->res[i] = *rules_result_at(dv->r, i);
        for (size_t k = 0; k < rules_param_count(i); k++)
            s->param[i][k] = rules_param_value(dv->r, i, k);
    }
    find_steps(dv, s);
    /* The verdict reads the whole job: it moves when a rule re-ran (the
     * rules re-run whenever the data they read moved). */
    if (changed || !dv->last)
        verdict_build(dv->m, dv->r, &s->verdict);
    else
        s->verdict = dv->last->verdict;
    build_windows(dv, s);
    changed |= s->pywin != (dv->last ? dv->last->pywin : NULL);
    changed |= build_python(dv, q, s);
    changed |= build_view(dv, q, s, 0);
    if (dv->lock)
        pthread_mutex_unlock(dv->lock);
    return changed;
}

/* The extra product, rate-limited; 1 when s got a new one. */
static int build_extra(viewbuild *dv, viewsnap *s, int64_t now_us)
{
    pthread_mutex_lock(&dv->mu);
    viewbuild_extra_fn build = dv->extra_build;
    void (*free_fn)(void *) = dv->extra_free;
    void *ud = dv->extra_ud;
    int64_t min_us = dv->extra_min_us;
    pthread_mutex_unlock(&dv->mu);
    if (dv->last) {
        s->extra = box_ref(dv->last->extra);
        s->extra_gen = dv->last->extra_gen;
        memcpy(s->extra_err, dv->last->extra_err, sizeof s->extra_err);
    }
    uint64_t src = dv->built_model_gen * 1000003u + dv->built_py_gen;
    if (!build || (dv->extra_at_us && (src == dv->extra_src_gen ||
                                       now_us - dv->extra_at_us < min_us)))
        return 0;
    dv->extra_at_us = now_us;
    sm_err err = {0};
    void *p = build(ud, &err);
    box *b = p ? box_new(p, free_fn) : NULL;
    if (!b) {
        if (p && free_fn)
            free_fn(p);
        snprintf(s->extra_err, sizeof s->extra_err, "%s",
                 err.msg[0] ? err.msg : "out of memory");
        return 1;
    }
    dv->extra_src_gen = src;
    box_unref(s->extra);
    s->extra = b;
    s->extra_gen++;
    s->extra_err[0] = '\0';
    return 1;
}

/* s becomes the last snapshot, with the next generation. */
static viewsnap *replace_last(viewbuild *dv, viewsnap *s)
{
    s->gen = dv->last ? dv->last->gen + 1 : 1;
    viewsnap_unref(dv->last);
    dv->last = viewsnap_ref(s);
    return s;
}

viewsnap *viewbuild_build(viewbuild *dv, int64_t now_us)
{
    req q;
    take_request(dv, &q, 1);
    for (size_t i = 0; i < q.nspecs; i++) {
        rules_apply_override(dv->r, q.specs[i], NULL);   /* checked on dv->check */
        free(q.specs[i]);
    }
    viewsnap *s = viewsnap_alloc();
    if (!s)
        return NULL;
    int changed = build_locked(dv, &q, s);
    changed |= build_extra(dv, s, now_us);
    memcpy(s->place, q.place, sizeof s->place);
    changed |= !dv->last || strcmp(s->place, dv->last->place) != 0;
    if (!changed && dv->last) {
        viewsnap_unref(s);
        return viewsnap_ref(dv->last);
    }
    pthread_mutex_lock(&dv->mu);
    dv->built_any = 1;
    pthread_mutex_unlock(&dv->mu);
    return replace_last(dv, s);
}

/* The products other than the view, shared with the last snapshot. */
static void copy_products(viewsnap *s, const viewsnap *last)
{
    memcpy(s->res, last->res, s->nrules * sizeof *s->res);
    memcpy(s->param, last->param, s->nrules * sizeof *s->param);
    memcpy(s->step, last->step, s->nrules * sizeof *s->step);
    memcpy(s->step_ok, last->step_ok, s->nrules);
    s->verdict = last->verdict;
    s->pywin = box_ref(last->pywin);
    memcpy(s->place, last->place, sizeof s->place);
    s->py = box_ref(last->py);
    s->py_key = last->py_key;
    s->py_have = last->py_have;
    s->py_prof = last->py_prof;
    s->py_windows = last->py_windows;
    s->py_lo_us = last->py_lo_us;
    s->py_hi_us = last->py_hi_us;
    s->extra = box_ref(last->extra);
    s->extra_gen = last->extra_gen;
    memcpy(s->extra_err, last->extra_err, sizeof s->extra_err);
}

viewsnap *viewbuild_build_view(viewbuild *dv, int64_t now_us, int reuse)
{
    if (!dv->last)
        return viewbuild_build(dv, now_us);
    req q;
    take_request(dv, &q, 0);
    viewsnap *s = viewsnap_alloc();
    if (!s)
        return NULL;
    copy_products(s, dv->last);
    if (dv->lock)
        pthread_mutex_lock(dv->lock);
    int changed = build_view(dv, &q, s, reuse);
    if (dv->lock)
        pthread_mutex_unlock(dv->lock);
    if (!changed) {
        viewsnap_unref(s);
        return viewsnap_ref(dv->last);
    }
    return replace_last(dv, s);
}

void viewbuild_set_place(viewbuild *dv, const char *place)
{
    pthread_mutex_lock(&dv->mu);
    snprintf(dv->place, sizeof dv->place, "%s", place ? place : "");
    pthread_mutex_unlock(&dv->mu);
}

