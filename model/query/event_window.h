/* event_window: the framework events of one node that overlap a time
 * window, for the events list (tui/panes/pane_timeline.c) and the data-loader
 * view.
 *
 * Built from what the model retains — the most recent PHASE_RECENT_CAP
 * events of each phase (model/steps/phase_stats.h) — so an old window of a long
 * job may be shown only partly; events carry no name of their own in the
 * model, so an event's name is its phase's label (model.h explains which
 * label a phase gets). Pure: no I/O; the result is a snapshot that owns
 * its events but borrows the labels from the model. */
#ifndef SMTOP_EVENT_WINDOW_H
#define SMTOP_EVENT_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/steps/phase_stats.h"

typedef struct ew_event {
    int64_t start_us, dur_us;
    int64_t step;           /* -1 when unknown */
    const char *label;      /* the phase's label: borrowed, valid while the
                               model's lock is held */
    phase_kind kind;
} ew_event;

typedef enum ew_order {
    EW_BY_START = 0,        /* oldest first; ties by label */
    EW_BY_DURATION          /* longest first; ties by start */
} ew_order;

typedef struct event_window event_window;

/* The retained events of node n that overlap [t0_us, t1_us) and whose
 * label contains `name` ignoring case (NULL or "": every event), ordered
 * EW_BY_START. n NULL or an empty window gives an empty result. Returns
 * NULL on OOM. The caller holds the model's lock and frees the result with
 * event_window_free before releasing it (the labels are borrowed). */
event_window *event_window_query(const model_node *n, int64_t t0_us, int64_t t1_us,
                                 const char *name);
void event_window_free(event_window *w);   /* NULL is fine */

size_t event_window_count(const event_window *w);
/* Event i in the current order, or NULL when i is out of range. */
const ew_event *event_window_at(const event_window *w, size_t i);
/* Reorders the events; stable for equal keys as described by ew_order. */
void event_window_sort(event_window *w, ew_order order);

/* The largest number of events that run at the same instant (an event
 * covers [start, start + dur); a zero-length event counts at its start).
 * Used to estimate how many data-loader workers ran in parallel. 0 for
 * an empty window, -1 on OOM. */
long event_window_max_concurrency(const event_window *w);

#endif
