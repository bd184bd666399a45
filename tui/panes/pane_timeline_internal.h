/* pane_timeline_internal: the timeline pane's state, shared by
 * pane_timeline.c (keys, stamp, vtable) and its three views
 * (pane_timeline_steps.c, _loader.c, _events.c) only. */
#ifndef SMTOP_PANE_TIMELINE_INTERNAL_H
#define SMTOP_PANE_TIMELINE_INTERNAL_H

#include "model/query/event_window.h"
#include "model/view/tlview.h"
#include "tui/panes/pane_common.h"
#include "tui/panes/pane_timeline.h"

/* Bars kept per draw: more than any terminal has rows. */
#define TL_MAX_BARS 256

struct pane {
    tl_view view;
    char who[200];             /* node (and writer) shown, for the headers */
    /* steps view */
    int64_t sel_start_us;      /* start of the selected step; 0 = the newest
                                  (or the window's last when scrubbed) */
    int64_t top_us;            /* start of the top bar once scrolled; 0 = follow */
    int64_t focus_t0;          /* the J/f focus the selection last moved to */
    size_t fit;                /* bars shown at the last draw (keys use it) */
    size_t first;              /* retained index of the top bar (clicks use it) */
    int y0;                    /* row of the top bar */
    step_breakdown sb[TL_MAX_BARS];
    int slow[TL_MAX_BARS];
    int has_gpu;               /* a Kineto rank: bars show gsb's GPU split */
    gpu_step gsb[TL_MAX_BARS];
    /* events view */
    ew_order order;
    size_t ev_sel, ev_top;
    size_t ev_n;               /* events listed at the last draw */
    char filter[64];
    int filter_edit;           /* the `/` prompt is open */
};

/* Draws the view tabs and `extra` on row 0. */
void pane_timeline_draw_tabs(const pane *p, WINDOW *w, const pane_ctx *ctx, const char *extra);
/* A dim message centred in the rows below the tabs. */
void pane_timeline_draw_message(WINDOW *w, const char *msg, const pane_ctx *ctx);

/* The loader's view data for the pane (NULL before the first); sets
 * p->who from it. */
const tlview *pane_timeline_view(pane *p, const pane_ctx *ctx);
/* Bars of retained steps first .. first+fit from tv into p->sb and
 * p->slow; the count copied (0 when tv has not built them yet). */
size_t pane_timeline_load_steps(pane *p, const tlview *tv, size_t first, size_t fit);

void pane_timeline_draw_steps(pane *p, WINDOW *w, const pane_ctx *ctx, const tlview *tv);
void pane_timeline_draw_loader(pane *p, WINDOW *w, const pane_ctx *ctx, const tlview *tv);
void pane_timeline_draw_events(pane *p, WINDOW *w, const pane_ctx *ctx, const tlview *tv);

/* Keys of the steps and events views; 1 when consumed. */
int pane_timeline_steps_key(pane *p, int ch, pane_ctx *ctx);
/* A click on a bar selects its step; 1 when it hit one. */
int pane_timeline_steps_click(pane *p, int y, pane_ctx *ctx);
int pane_timeline_events_key(pane *p, int ch, pane_ctx *ctx);

#endif
