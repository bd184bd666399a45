/* dash_derive: the dashboard's side of the derived snapshot. The viewbuild
 * starts from the alerts pane's parameters (rules.conf, --rule), so the
 * loader evaluates what the pane shows; each frame takes the loader's
 * latest snapshot once and every pane reads that one, so a frame never
 * mixes two generations. */
#include "tui/dash/dash_internal.h"

#include <string.h>

#include "tui/panes/pane_alerts.h"

static const rules *alerts_params(dash *d)
{
    for (size_t i = 0; i < d->npanes; i++)
        if (d->panes[i].vt == &pane_alerts_vtbl && d->panes[i].p)
            return pane_alerts_rules(d->panes[i].p);
    return NULL;
}

/* pane_ctx.ext's want_python: runs on the UI thread inside a draw or key. */
static void want_python(void *ud, const pystats_select *sel, pystats_sort sort, uint64_t key)
{
    dash *d = ud;
    viewbuild_want_python(d->dv, sel, sort, key);
    if (d->ld)
        loader_poke(d->ld);
}

int dash_derive_open(dash *d, sm_err *err)
{
    d->dv = viewbuild_new(alerts_params(d), job_model(d->j), job_pystats(d->j), job_lock(d->j));
    if (!d->dv)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    dash_diff_setup(d);
    d->ext.want_python = want_python;
    d->ext.want_ud = d;
    return 0;
}

void dash_derive_close(dash *d)
{
    viewsnap_unref(d->snap);
    d->snap = NULL;
    d->ext.snap = NULL;
    d->ext.diff = NULL;
    viewbuild_free(d->dv);
    d->dv = NULL;
}

void dash_derive_take(dash *d)
{
    viewsnap *s;
    if (d->ld)
        s = loader_snapshot(d->ld);
    else if (d->dv && (!d->snap || viewbuild_pending(d->dv))) {
        viewbuild_set_place(d->dv, job_describe(d->j));
        s = viewbuild_build(d->dv, dash_now_us());   /* bench: no loader thread */
    }
    else
        s = viewsnap_ref(d->snap);
    if (!s)
        return;
    viewsnap_unref(d->snap);
    d->snap = s;
    d->ext.snap = s;
    d->ext.diff = viewsnap_extra(s, &d->ext.diff_gen);
    const char *e = viewsnap_extra_error(s);
    if (e[0] && strcmp(e, d->extra_err) != 0)
        dash_notice(d, e);
    snprintf(d->extra_err, sizeof d->extra_err, "%s", e);
}

static int node_visible(const char *filter, const char *id)
{
    return view_filter_match(filter, id);
}

void dash_view_request(dash *d)
{
    viewdata_req q;
    memset(&q, 0, sizeof q);
    const view_state *v = &d->view;
    q.live = v->live;
    q.span_us = v->span_us;
    q.end_us = v->live ? 0 : v->end_us;
    q.step_focus = v->step_focus;
    q.step_t0_us = v->step_focus ? v->step_t0_us : 0;
    q.step_t1_us = v->step_focus ? v->step_t1_us : 0;
    snprintf(q.filter, sizeof q.filter, "%s", v->filter);
    q.visible = node_visible;
    q.selected = v->selected_node;
    snprintf(q.process, sizeof q.process, "%s", v->process);
    for (size_t i = 0; i < d->npanes; i++)
        if (d->panes[i].inner && d->panes[i].vt->request)
            d->panes[i].vt->request(d->panes[i].p, d->panes[i].inner, v, &q);
    if (!memcmp(&q, &d->view_posted, sizeof q))
        return;
    d->view_posted = q;
    d->view_waiting = 1;
    viewbuild_want_view(d->dv, &q);
    if (d->ld)
        loader_poke(d->ld);
}
