/* derive: see derive.h. Products that did not change are shared between
 * snapshots through a small reference-counted box, so a build that finds
 * nothing new costs a few copies of rule results and no merge. */
#include "model/view/viewsnap.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util/fnv.h"
#include "model/query/step_event.h"

#define DERIVE_MAX_SPECS 32
#define DERIVE_PLACE_MAX 1024

/* One immutable product shared by several snapshots. */
typedef struct box {
    atomic_int refs;
    void *p;
    void (*free_fn)(void *);
} box;

struct derived {
    atomic_int refs;
    uint64_t gen;
    size_t nrules;
    rule_result *res;            /* nrules */
    double (*param)[RULE_MAX_PARAMS];
    phase_event *step;           /* nrules: the step each result's span is */
    unsigned char *step_ok;      /* nrules: 1 where step[i] was found */
    verdict verdict;             /* of the whole job, with res */
    box *pywin;                  /* py_wins: copies of the Python store's windows */
    box *py;                     /* pystats_result */
    uint64_t py_key;
    int py_have;
    pystats_profiler py_prof;
    size_t py_windows;
    int64_t py_lo_us, py_hi_us;  /* first start, last end of py_prof's windows */
    box *view;                   /* viewdata */
    box *extra;
    uint64_t extra_gen;
    char extra_err[sizeof(sm_err){0}.msg];
    char place[DERIVE_PLACE_MAX];
};

/* The Python store's windows as the snapshot carries them. */
typedef struct py_wins {
    size_t n;
    pystats_window *w;
    int *failed;
} py_wins;

struct deriver {
    rules *r;                    /* evaluated by builds (loader thread) */
    const model *m;
    const pystats_store *py;
    pthread_mutex_t *lock;       /* guards m and py; may be NULL */
    pthread_mutex_t mu;          /* guards everything below */
    rules *check;                /* mirrors r's parameters: validates overrides */
    char *specs[DERIVE_MAX_SPECS];
    size_t nspecs;
    int want_py;
    pystats_select sel;
    char sel_node[128];
    pystats_sort sort;
    uint64_t py_key;
    int want_view;
    viewdata_req view_req;
    uint64_t view_serial;        /* bumped by every changed request */
    derive_extra_fn extra_build;
    void (*extra_free)(void *);
    void *extra_ud;
    int64_t extra_min_us;
    /* The build side's memory (loader thread only). */
    derived *last;
    int built_any;               /* under mu, as built_py_key and built_want_py */
    uint64_t built_model_gen, built_py_gen, built_py_key;
    uint64_t built_py_match;     /* matched_windows() of the last merge */
    int built_want_py;
    uint64_t built_view_serial;  /* under mu */
    uint64_t extra_src_gen;
    int64_t extra_at_us;
    uint64_t built_pywin_gen;
    char place[DERIVE_PLACE_MAX];  /* under mu */
};

static box *box_new(void *p, void (*free_fn)(void *))
{
    box *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    atomic_init(&b->refs, 1);
    b->p = p;
    b->free_fn = free_fn;
    return b;
}

static box *box_ref(box *b)
{
    if (b)
        atomic_fetch_add(&b->refs, 1);
    return b;
}

static void box_unref(box *b)
{
    if (!b || atomic_fetch_sub(&b->refs, 1) != 1)
        return;
    if (b->free_fn)
        b->free_fn(b->p);
    free(b);
}

/* Copies r's parameters into dst (same table, so every set succeeds). */
static void copy_params(rules *dst, const rules *src)
{
    for (size_t i = 0; i < rules_count(); i++)
        for (size_t k = 0; k < rules_param_count(i); k++)
            rules_set_param(dst, rules_name_at(i), rules_param_name(i, k),
                            rules_param_value(src, i, k), NULL);
}

deriver *deriver_new(const rules *params, const model *m, const pystats_store *py,
                     pthread_mutex_t *lock)
{
    deriver *dv = calloc(1, sizeof *dv);
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

void deriver_free(deriver *dv)
{
    if (!dv)
        return;
    for (size_t i = 0; i < dv->nspecs; i++)
        free(dv->specs[i]);
    derived_unref(dv->last);
    rules_free(dv->r);
    rules_free(dv->check);
    pthread_mutex_destroy(&dv->mu);
    free(dv);
}

int deriver_rule_override(deriver *dv, const char *spec, sm_err *err)
{
    pthread_mutex_lock(&dv->mu);
    int rc = -1;
    char *copy = NULL;
    if (dv->nspecs == DERIVE_MAX_SPECS)
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

void deriver_want_python(deriver *dv, const pystats_select *sel, pystats_sort sort,
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

void deriver_want_view(deriver *dv, const viewdata_req *q)
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

void deriver_set_extra(deriver *dv, derive_extra_fn build, void (*free_fn)(void *),
                       void *ud, int64_t min_us)
{
    pthread_mutex_lock(&dv->mu);
    dv->extra_build = build;
    dv->extra_free = free_fn;
    dv->extra_ud = ud;
    dv->extra_min_us = min_us;
    pthread_mutex_unlock(&dv->mu);
}

int deriver_pending(deriver *dv)
{
    pthread_mutex_lock(&dv->mu);
    int p = dv->nspecs > 0 || !dv->built_any ||
            (dv->want_py && dv->py_key != dv->built_py_key) || dv->want_py != dv->built_want_py ||
            dv->view_serial != dv->built_view_serial;
    pthread_mutex_unlock(&dv->mu);
    return p;
}

int deriver_pending_view(deriver *dv)
{
    pthread_mutex_lock(&dv->mu);
    int p = dv->view_serial != dv->built_view_serial;
    pthread_mutex_unlock(&dv->mu);
    return p;
}

/* What one build works from, copied out of dv->mu. */
typedef struct req {
    char *specs[DERIVE_MAX_SPECS];
    size_t nspecs;
    int want_py;
    pystats_select sel;
    char node[128];
    pystats_sort sort;
    uint64_t py_key;
    int want_view;
    viewdata_req view;
    uint64_t view_serial;
    char place[DERIVE_PLACE_MAX];
} req;

/* A view-only build (all 0) leaves the rule overrides queued. */
static void take_request(deriver *dv, req *q, int all)
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
static void profiler_span(const pystats_store *s, pystats_profiler prof, derived *d)
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

static int pick_profiler(const pystats_store *s, derived *d)
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
static int build_python(deriver *dv, const req *q, derived *s)
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
static int build_view(deriver *dv, const req *q, derived *s, int reuse)
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
static void build_windows(deriver *dv, derived *s)
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
static void find_steps(deriver *dv, derived *s)
{
    for (size_t i = 0; i < s->nrules; i++) {
        const rule_result *r = &s->res[i];
        s->step_ok[i] = r->t1_us > r->t0_us &&
                        step_event_find(dv->m, r->node, r->device, r->t0_us, &s->step[i]);
    }
}

/* Rules and Python under the lock; 1 when anything differs from last. */
static int build_locked(deriver *dv, const req *q, derived *s)
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
static int build_extra(deriver *dv, derived *s, int64_t now_us)
{
    pthread_mutex_lock(&dv->mu);
    derive_extra_fn build = dv->extra_build;
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

static derived *derived_alloc(void)
{
    derived *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    atomic_init(&s->refs, 1);
    s->nrules = rules_count();
    s->res = calloc(s->nrules ? s->nrules : 1, sizeof *s->res);
    s->param = calloc(s->nrules ? s->nrules : 1, sizeof *s->param);
    s->step = calloc(s->nrules ? s->nrules : 1, sizeof *s->step);
    s->step_ok = calloc(s->nrules ? s->nrules : 1, 1);
    if (!s->res || !s->param || !s->step || !s->step_ok) {
        derived_unref(s);
        return NULL;
    }
    return s;
}

/* s becomes the last snapshot, with the next generation. */
static derived *replace_last(deriver *dv, derived *s)
{
    s->gen = dv->last ? dv->last->gen + 1 : 1;
    derived_unref(dv->last);
    dv->last = derived_ref(s);
    return s;
}

derived *deriver_build(deriver *dv, int64_t now_us)
{
    req q;
    take_request(dv, &q, 1);
    for (size_t i = 0; i < q.nspecs; i++) {
        rules_apply_override(dv->r, q.specs[i], NULL);   /* checked on dv->check */
        free(q.specs[i]);
    }
    derived *s = derived_alloc();
    if (!s)
        return NULL;
    int changed = build_locked(dv, &q, s);
    changed |= build_extra(dv, s, now_us);
    memcpy(s->place, q.place, sizeof s->place);
    changed |= !dv->last || strcmp(s->place, dv->last->place) != 0;
    if (!changed && dv->last) {
        derived_unref(s);
        return derived_ref(dv->last);
    }
    pthread_mutex_lock(&dv->mu);
    dv->built_any = 1;
    pthread_mutex_unlock(&dv->mu);
    return replace_last(dv, s);
}

/* The products other than the view, shared with the last snapshot. */
static void copy_products(derived *s, const derived *last)
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

derived *deriver_build_view(deriver *dv, int64_t now_us, int reuse)
{
    if (!dv->last)
        return deriver_build(dv, now_us);
    req q;
    take_request(dv, &q, 0);
    derived *s = derived_alloc();
    if (!s)
        return NULL;
    copy_products(s, dv->last);
    if (dv->lock)
        pthread_mutex_lock(dv->lock);
    int changed = build_view(dv, &q, s, reuse);
    if (dv->lock)
        pthread_mutex_unlock(dv->lock);
    if (!changed) {
        derived_unref(s);
        return derived_ref(dv->last);
    }
    return replace_last(dv, s);
}

derived *derived_ref(derived *s)
{
    if (s)
        atomic_fetch_add(&s->refs, 1);
    return s;
}

void derived_unref(derived *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    box_unref(s->py);
    box_unref(s->view);
    box_unref(s->extra);
    box_unref(s->pywin);
    free(s->res);
    free(s->param);
    free(s->step);
    free(s->step_ok);
    free(s);
}

uint64_t derived_generation(const derived *s)
{
    return s->gen;
}

const rule_result *derived_rule_at(const derived *s, size_t i)
{
    return &s->res[i];
}

double derived_rule_param(const derived *s, size_t i, size_t p)
{
    return s->param[i][p];
}

const pystats_result *derived_python(const derived *s, uint64_t *key)
{
    if (key)
        *key = s->py_key;
    return s->py ? s->py->p : NULL;
}

int derived_python_profiler(const derived *s, pystats_profiler *prof, size_t *windows)
{
    if (prof)
        *prof = s->py_prof;
    if (windows)
        *windows = s->py_have ? s->py_windows : 0;
    return s->py_have;
}

void derived_python_span(const derived *s, int64_t *lo_us, int64_t *hi_us)
{
    *lo_us = s->py_have ? s->py_lo_us : 0;
    *hi_us = s->py_have ? s->py_hi_us : 0;
}

const viewdata *derived_view(const derived *s)
{
    return s->view ? s->view->p : NULL;
}

const void *derived_extra(const derived *s, uint64_t *gen)
{
    if (gen)
        *gen = s->extra_gen;
    return s->extra ? s->extra->p : NULL;
}

const char *derived_extra_error(const derived *s)
{
    return s->extra_err;
}


const verdict *derived_verdict(const derived *s)
{
    return &s->verdict;
}

int derived_rule_step(const derived *s, size_t i, phase_event *out)
{
    if (i >= s->nrules || !s->step_ok[i])
        return 0;
    *out = s->step[i];
    return 1;
}

size_t derived_python_window_count(const derived *s)
{
    return s->pywin ? ((const py_wins *)s->pywin->p)->n : 0;
}

const pystats_window *derived_python_window_at(const derived *s, size_t i, int *failed)
{
    const py_wins *w = s->pywin ? s->pywin->p : NULL;
    if (!w || i >= w->n)
        return NULL;
    if (failed)
        *failed = w->failed[i];
    return &w->w[i];
}

void deriver_set_place(deriver *dv, const char *place)
{
    pthread_mutex_lock(&dv->mu);
    snprintf(dv->place, sizeof dv->place, "%s", place ? place : "");
    pthread_mutex_unlock(&dv->mu);
}

const char *derived_place(const derived *s)
{
    return s->place;
}
