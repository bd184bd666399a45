/* pane: the one small interface every dashboard pane implements.
 *
 * A pane is a const vtable (designated initializers) registered in the
 * explicit table in tui/panes/panes.c — not via constructor attributes, which
 * silently vanish from static libraries. The dashboard owns the curses
 * window; a pane draws its content into it, and handles keys and
 * clicks, from a read-only context holding the loader's immutable
 * snapshot (model/view/viewsnap.h, model/view/viewdata.h): no pane sees the model,
 * and no pane code runs under the model lock. */
#ifndef SMTOP_PANE_H
#define SMTOP_PANE_H

#include <curses.h>
#include <stdint.h>

#include "model/model.h"
#include "model/view/viewdata.h"
#include "tui/theme/theme.h"
#include "tui/panes/view.h"

typedef struct pane_ctx {
    view_state *view;         /* panes may change selection etc. in on_key */
    const theme *th;
    int64_t t0_us, t1_us;     /* visible time window */
    int64_t now_us;           /* wall clock */
    void *ext;                /* extra stores (python stats, rules): see tui/panes/pane_ext.h */
    /* The loader's view data (model/view/viewdata.h), built for the request
     * the panes filled in (pane_vtbl.request); NULL before the first.
     * With ext's snapshot, all a pane reads: there is no model here. */
    const viewdata *vd;
    /* 1 while the job writes (the header says LIVE); following: and the
     * window ends at its newest data, so the last column is "now". */
    int job_live, following;
} pane_ctx;

typedef struct pane pane;     /* a pane's private state */

/* One key a pane handles, declared once: the help overlay and the status
 * line's hints are generated from these tables (no hand-kept copy). */
typedef struct pane_key {
    const char *keys;         /* as shown: "s", "j k  Dn Up", "Enter" */
    const char *hint;         /* plain words for the status line while the
                                 pane is focused ("sort"); NULL: help only */
    const char *what;         /* the help overlay's line (fits 23 cells) */
} pane_key;

typedef struct pane_vtbl {
    const char *id;           /* "system", "heatmap", "steps", "python", "alerts" */
    const char *title;        /* shown in the border */
    pane *(*create)(void);    /* NULL on OOM */
    void (*destroy)(pane *p);
    /* Draws the content area of w (the border is drawn by the dashboard,
     * w is the inner window). Must stay within w and sanitize data strings. */
    void (*draw)(pane *p, WINDOW *w, const pane_ctx *ctx);
    /* Handles a key while focused; returns 1 when consumed. May be NULL.
     * on_key and on_click, like draw, read the snapshot (ctx->vd,
     * ctx->ext) and hold no lock: a key never waits for the loader. What
     * a key needs that the snapshot lacks, a pane asks the loader for
     * through its request (pane_vtbl.request) or ext's want_python. */
    int (*on_key)(pane *p, int ch, pane_ctx *ctx);
    /* Handles a click at (y, x) inside the inner window; may be NULL. */
    int (*on_click)(pane *p, int y, int x, pane_ctx *ctx);
    /* A stamp of what the pane would show; the dashboard redraws the pane
     * only when it differs from the last drawn stamp (or on resize/theme
     * change). Typically a hash of model generations + view fields. */
    uint64_t (*stamp)(pane *p, const pane_ctx *ctx);
    /* 1 while the pane has its own prompt or menu open: every key then goes
     * to on_key before the global keys. May be NULL (never modal). A pane
     * may also take '/' in on_key for a filter of its own. */
    int (*modal)(pane *p);
    /* NULL when the job has what the pane shows, else what it lacks in a
     * few words, then `|` and one word for a narrow status line
     * ("framework traces|traces"): the dashboard then gives the
     * pane's space to others and names the absence once. Reads the
     * snapshot (ctx->vd, ctx->ext), never the model. May be NULL. */
    const char *(*absent)(pane *p, const pane_ctx *ctx);
    /* 1: the pane shows the whole job whatever window `+ - [ ]` select
     * (its border says "whole job", so no pane quietly shows another time
     * range than the others). */
    int whole_job;
    /* Instead of whole_job, for a pane whose time range depends on the
     * view: what it shows ("whole job", "12:01:00-12:06:00"), read after
     * each draw (so from the state the draw left) and put in the border.
     * May be NULL. */
    const char *(*title_note)(pane *p, const pane_ctx *ctx);
    /* The keys on_key takes, ending with {NULL}; may be NULL (none). */
    const pane_key *keys;
    /* Fills the pane's part of the view request from its window and the
     * view (no lock, no model): the loader then builds what draw reads
     * from ctx->vd. Called every frame while the pane is on screen; may
     * be NULL. */
    void (*request)(pane *p, WINDOW *w, const view_state *v, viewdata_req *q);
    /* How much the pane has to say: the lines its content would fill
     * (a node per heatmap row, two per alert, a rank per Steps line; a
     * list that scrolls only its head), from the snapshot. The
     * layout gives its widest slot to the pane that says the most
     * (tui/README.md). May be NULL (0: never asks for it). */
    int (*say)(pane *p, const pane_ctx *ctx);
} pane_vtbl;

/* The registry (tui/panes/panes.c): every pane in screen order. */
size_t panes_count(void);
const pane_vtbl *panes_at(size_t i);
/* The panes of one run, in screen order, into out (at most cap): the
 * registry, then the Diff pane when a baseline was given (`smtop
 * --baseline`). Appended, so the usual panes keep their numbers and keys.
 * Returns the count. */
size_t panes_select(int baseline, const pane_vtbl **out, size_t cap);

#endif
