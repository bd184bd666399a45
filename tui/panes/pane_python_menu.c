/* pane_python_menu: the small window/node menu of the python pane (`w`):
 * all windows, one job phase, one node, or one window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panes/pane_python_internal.h"
#include "model/util/vec.h"
#include "tui/panes/pane_ext.h"

static pypane_item *add(pypane_item **items, size_t *n, size_t *cap)
{
    if (vec_grow(items, cap, *n + 1, sizeof **items, 16) != 0)
        return NULL;
    pypane_item *it = &(*items)[(*n)++];
    memset(it, 0, sizeof *it);
    return it;
}

static void window_label(const pystats_window *w, int failed, char *out, size_t cap)
{
    char steps[64];
    if (w->start_step == PYSTATS_NO_STEP && w->end_step == PYSTATS_NO_STEP)
        snprintf(steps, sizeof steps, "no step");
    else if (w->start_step == PYSTATS_NO_STEP || w->end_step == PYSTATS_NO_STEP)
        snprintf(steps, sizeof steps, "step %lld", (long long)(w->start_step == PYSTATS_NO_STEP
                                                              ? w->end_step : w->start_step));
    else
        snprintf(steps, sizeof steps, "steps %lld-%lld", (long long)w->start_step,
                 (long long)w->end_step);
    snprintf(out, cap, "window %.100s %s %s..%s%s", w->node, steps,
             w->legacy ? "" : pystats_mode_name(w->start_mode),
             w->legacy ? "" : pystats_mode_name(w->end_mode), failed ? " (failed)" : "");
}

int pane_python_menu_open(pane *p, const pane_ctx *ctx)
{
    /* The windows come with the loader's snapshot: no store, no lock. */
    const dash_ext *ext = ctx->ext;
    const viewsnap *s = ext ? ext->snap : NULL;
    if (!p->have || !s)
        return 1;
    pypane_item *items = NULL, *it;
    size_t n = 0, cap = 0;
    static const struct { const char *label; unsigned bit; } ph[] = {
        {"all windows, all nodes", 0}, {"phase: before step 0", PYJOB_BEFORE_STEP0},
        {"phase: training loop", PYJOB_TRAINING}, {"phase: after the hook closed", PYJOB_AFTER_CLOSE}};
    for (size_t i = 0; i < sizeof ph / sizeof *ph; i++) {
        if (!(it = add(&items, &n, &cap)))
            goto oom;
        snprintf(it->label, sizeof it->label, "%s", ph[i].label);
        it->phases = ph[i].bit;
    }
    size_t nodes_from = n;
    for (size_t i = 0; i < viewsnap_python_window_count(s); i++) {
        const pystats_window *w = viewsnap_python_window_at(s, i, NULL);
        int dup = w->profiler != p->prof;
        for (size_t k = nodes_from; k < n && !dup; k++)
            dup = strcmp(items[k].node, w->node) == 0;
        if (dup)
            continue;
        if (!(it = add(&items, &n, &cap)))
            goto oom;
        snprintf(it->label, sizeof it->label, "node %s", w->node);
        snprintf(it->node, sizeof it->node, "%s", w->node);
    }
    for (size_t i = 0; i < viewsnap_python_window_count(s); i++) {
        int failed;
        const pystats_window *w = viewsnap_python_window_at(s, i, &failed);
        if (w->profiler != p->prof)
            continue;
        if (!(it = add(&items, &n, &cap)))
            goto oom;
        window_label(w, failed, it->label, sizeof it->label);
        snprintf(it->node, sizeof it->node, "%s", w->node);
        it->t_lo = w->start_us ? w->start_us : 1;
        it->t_hi = it->t_lo + 1;
    }
    free(p->menu);
    p->menu = items;
    p->nmenu = n;
    p->menu_on = 1;
    p->menu_sel = p->menu_top = 0;
    return 1;
oom:
    free(items);
    return 1;
}

int pane_python_menu_key(pane *p, int ch, const pane_ctx *ctx)
{
    (void)ctx;
    switch (ch) {
    case KEY_UP: case 'k':
        if (p->menu_sel)
            p->menu_sel--;
        break;
    case KEY_DOWN: case 'j':
        if (p->menu_sel + 1 < p->nmenu)
            p->menu_sel++;
        break;
    case '\n': case '\r': case KEY_ENTER: {
        const pypane_item *it = &p->menu[p->menu_sel];
        snprintf(p->node, sizeof p->node, "%s", it->node);
        p->phases = it->phases;
        p->t_lo = it->t_lo;
        p->t_hi = it->t_hi;
        snprintf(p->sel_label, sizeof p->sel_label, "%s", it->label);
        p->sel = p->top = 0;
        p->menu_on = 0;
        break;
    }
    case 27: case 'w': case 'q':
        p->menu_on = 0;
        break;
    default:
        break;
    }
    return 1;   /* the menu is modal: no key reaches the dashboard */
}

void pane_python_menu_draw(pane *p, WINDOW *w, const pane_ctx *ctx, int y0)
{
    int h = getmaxy(w) - y0, cols = getmaxx(w);
    if (h < 1)
        return;
    pane_common_put(w, y0, 0, -1, "choose windows (Enter: apply, Esc: close)",
                    theme_attr(ctx->th, ROLE_LABEL));
    size_t fit = h > 1 ? (size_t)(h - 1) : 1;
    p->menu_top = pane_common_scroll_top(p->menu_top, p->menu_sel, p->nmenu, fit);
    for (size_t i = p->menu_top, y = (size_t)y0 + 1; i < p->nmenu && y < (size_t)getmaxy(w); i++, y++) {
        int attr = theme_attr(ctx->th, i == p->menu_sel ? ROLE_SELECTED : ROLE_DEFAULT);
        mvwhline(w, (int)y, 0, ' ' | (chtype)attr, cols);
        pane_common_put(w, (int)y, 1, cols - 2, p->menu[i].label, attr);
    }
}
