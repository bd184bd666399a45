/* viewsnap: the loader's immutable snapshot and what the UI reads of it;
 * see viewsnap.h. Built by viewbuild.c. */
#include "model/view/viewsnap_impl.h"

#include <string.h>

viewsnap *viewsnap_alloc(void)
{
    viewsnap *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    atomic_init(&s->refs, 1);
    s->nrules = rules_count();
    s->res = calloc(s->nrules ? s->nrules : 1, sizeof *s->res);
    s->param = calloc(s->nrules ? s->nrules : 1, sizeof *s->param);
    s->step = calloc(s->nrules ? s->nrules : 1, sizeof *s->step);
    s->step_ok = calloc(s->nrules ? s->nrules : 1, 1);
    if (!s->res || !s->param || !s->step || !s->step_ok) {
        viewsnap_unref(s);
        return NULL;
    }
    return s;
}

viewsnap *viewsnap_ref(viewsnap *s)
{
    if (s)
        atomic_fetch_add(&s->refs, 1);
    return s;
}

void viewsnap_unref(viewsnap *s)
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

uint64_t viewsnap_generation(const viewsnap *s)
{
    return s->gen;
}

const rule_result *viewsnap_rule_at(const viewsnap *s, size_t i)
{
    return &s->res[i];
}

double viewsnap_rule_param(const viewsnap *s, size_t i, size_t p)
{
    return s->param[i][p];
}

const pystats_result *viewsnap_python(const viewsnap *s, uint64_t *key)
{
    if (key)
        *key = s->py_key;
    return s->py ? s->py->p : NULL;
}

int viewsnap_python_profiler(const viewsnap *s, pystats_profiler *prof, size_t *windows)
{
    if (prof)
        *prof = s->py_prof;
    if (windows)
        *windows = s->py_have ? s->py_windows : 0;
    return s->py_have;
}

void viewsnap_python_span(const viewsnap *s, int64_t *lo_us, int64_t *hi_us)
{
    *lo_us = s->py_have ? s->py_lo_us : 0;
    *hi_us = s->py_have ? s->py_hi_us : 0;
}

const viewdata *viewsnap_view(const viewsnap *s)
{
    return s->view ? s->view->p : NULL;
}

const void *viewsnap_extra(const viewsnap *s, uint64_t *gen)
{
    if (gen)
        *gen = s->extra_gen;
    return s->extra ? s->extra->p : NULL;
}

const char *viewsnap_extra_error(const viewsnap *s)
{
    return s->extra_err;
}


const verdict *viewsnap_verdict(const viewsnap *s)
{
    return &s->verdict;
}

int viewsnap_rule_step(const viewsnap *s, size_t i, phase_event *out)
{
    if (i >= s->nrules || !s->step_ok[i])
        return 0;
    *out = s->step[i];
    return 1;
}

size_t viewsnap_python_window_count(const viewsnap *s)
{
    return s->pywin ? ((const py_wins *)s->pywin->p)->n : 0;
}

const pystats_window *viewsnap_python_window_at(const viewsnap *s, size_t i, int *failed)
{
    const py_wins *w = s->pywin ? s->pywin->p : NULL;
    if (!w || i >= w->n)
        return NULL;
    if (failed)
        *failed = w->failed[i];
    return &w->w[i];
}

const char *viewsnap_place(const viewsnap *s)
{
    return s->place;
}
