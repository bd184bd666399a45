/* view: the dashboard's navigation state shared by every pane — which time
 * window is shown (live-following or paused/scrubbed), the zoom span, the
 * node filter, the selected node and process, the focused and zoomed pane,
 * the step cross-filter and the chart symbols (the theme lives in the
 * dashboard). Pure data and pure transitions (no curses), so key handling
 * is unit-tested. */
#ifndef SMTOP_VIEW_H
#define SMTOP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tui/panes/chart.h"

typedef struct view_state {
    int live;             /* 1: window follows the newest data */
    int paused;           /* space: freeze what is shown (loader keeps reading) */
    int64_t span_us;      /* width of the visible time window (+/- zoom) */
    int64_t home_span_us; /* the span 0 returns to: 5 min, or the whole
                             job when it opened on one that had stopped */
    int64_t end_us;       /* right edge when not live */
    char filter[64];      /* node filter pattern (view_filter_match); "" = all */
    size_t selected_node; /* index among the nodes that pass the filter */
    char process[128];    /* the Steps and Timeline panes' pick among the
                             selected node's trace writers ("1-algo-1");
                             "" (or another node's writer) = the node */
    int per_core;         /* show per-core CPU charts */
    chart_glyphs glyphs;
    int focus;            /* index of the focused pane */
    int zoomed;           /* 1: focused pane fills the screen (Enter), Esc leaves */
    /* Step cross-filter: while step_focus is 1 every pane shows the window
     * of step `step` [step_t0_us, step_t1_us) on every node; Esc returns
     * to where the view was. */
    int step_focus;
    long long step;
    int64_t step_t0_us, step_t1_us;   /* the step's own window on step_node */
    char step_node[64];               /* where the focused step came from */
} view_state;

void view_init(view_state *v, chart_glyphs g);

/* Visible window [t0, t1) given the newest data time (model_last_us). */
void view_window(const view_state *v, int64_t newest_us, int64_t *t0, int64_t *t1);

/* +/- : halve/double the span within [30 s, 7 days]. */
void view_zoom(view_state *v, int in);
/* [ / ] : move the window back/forward by half a span (leaves live mode;
 * moving past the newest data returns to live). */
void view_scrub(view_state *v, int forward, int64_t newest_us);
/* 0 : back to live at the home span (resets the zoom; leaves a step focus). */
void view_go_live(view_state *v);
/* a : the window fits the data [first_us, newest_us]: live, its span the
 * data's (within the zoom bounds). No-op without data. */
void view_fit(view_state *v, int64_t first_us, int64_t newest_us);
/* The home span back to the default (5 minutes) and the view there. */
void view_home_default(view_state *v);
/* 1 when the view is as it opened: live, at the home span, no step focus,
 * not paused (the dashboard may still fit it to an ended job). */
int view_untouched(const view_state *v);
/* space : freeze the window at its current right edge, or resume live. */
void view_toggle_pause(view_state *v, int64_t newest_us);

/* Ties every pane to one step's time window (the cross-filter). */
void view_focus_step(view_state *v, long long step, int64_t t0_us, int64_t t1_us);
/* Leaves the cross-filter; the window is live or scrubbed as before. */
void view_clear_step(view_state *v);
/* Names the node (or process) the focused step's window comes from. */
void view_focus_node(view_state *v, const char *node);
/* Leaves the cross-filter into HISTORY: the usual span centred on the
 * step, so `[`/`]`/`+`/`-` pressed while focused act from the step's
 * place in time rather than jumping back to where the view was. No-op
 * when not focused. */
void view_leave_step(view_state *v);

/* What Esc undoes, innermost layer first: the zoomed pane, then the step
 * focus. The zoom goes first because it is the view on top: a user who
 * zoomed into the python pane to read a step's functions expects Esc to
 * show the whole dashboard, still on that step; a second Esc returns to
 * live. (Pane prompts and the help overlay take Esc before either.) */
typedef enum view_esc {
    VIEW_ESC_NONE = 0,
    VIEW_ESC_ZOOM,    /* leave the zoomed pane */
    VIEW_ESC_STEP     /* leave the step focus (view_clear_step) */
} view_esc;
view_esc view_esc_target(const view_state *v);

/* r / R: picks the next (dir > 0) or previous writer among ids[0..n) (the
 * selected node's, in order), or the whole node ("") past either end. With
 * fewer than two writers there is nothing to pick: process becomes "". */
void view_cycle_process(view_state *v, const char *const *ids, size_t n, int dir);

/* 1 when id matches the filter pattern: case-insensitive substrings that
 * never cut a number ("algo-6" does not match "algo-60", "6" matches
 * "algo-6" only), alternatives separated by '|', '^' / '$' anchoring an
 * alternative at the start / end. Matching is allocation-free: it runs for
 * every node in every frame. "" matches everything. */
int view_filter_match(const char *pattern, const char *id);

/* 1 when node id passes the filter. */
int view_node_visible(const view_state *v, const char *node_id);

#endif
