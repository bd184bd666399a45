/* dash_internal: the dashboard's state, shared by its parts — dash.c
 * (screen and windows), dash_loop.c (events, frames), dash_keys.c,
 * dash_header.c, dash_help.c, dash_cmd.c, dash_diff.c, dash_derive.c,
 * dash_bench.c. Not used outside tui/dash/. */
#ifndef SMTOP_DASH_INTERNAL_H
#define SMTOP_DASH_INTERNAL_H

#include <curses.h>
#include <stdint.h>
#include <stdio.h>

#include "tui/dash/dash.h"
#include "tui/panes/pane_ext.h"
#include "tui/dash/layout.h"
#include "io/run/loader.h"
#include "tui/panes/pane.h"
#include "tui/theme/theme.h"
#include "tui/panes/view.h"

#define DASH_MAX_THEMES 32
/* The user quit (q, Ctrl-C as a key): the layout is saved. A signal or a
 * lost terminal leaves smtop.conf alone. */
#define DASH_QUIT_KEY 2
#define DASH_LOCK_LOG 65536

typedef struct dash_pane {
    const pane_vtbl *vt;
    pane *p;
    WINDOW *outer, *inner;    /* inner is a derwin of outer; NULL when hidden */
    uint64_t stamp;
    uint64_t view_key;        /* the view it was last drawn with */
    double drawn_ms;          /* when (monotonic) */
    int dirty;                /* content must be redrawn */
    int border_dirty;
    char note[48];            /* the title note last drawn in the border */
} dash_pane;

#define DASH_WIDE_KEPT 8   /* layouts whose wide pick is kept (p cycles 4) */

typedef struct dash {
    job *j;
    loader *ld;
    const dash_opts *o;
    SCREEN *scr;
    FILE *term_out, *term_in; /* opened by us in headless mode, else NULL */
    view_state view;
    theme *th;
    theme_depth depth;
    char themes[DASH_MAX_THEMES][64];
    size_t nthemes, theme_idx;
    size_t npanes;
    dash_pane panes[LAYOUT_MAX_PANES];
    WINDOW *header, *status, *help;
    layout lay;
    int quit;                 /* 1: leave (signal, terminal gone); DASH_QUIT_KEY: q */
    int fatal_restore;        /* fatal_restore_install succeeded */
    int help_on;
    size_t help_top;          /* the help's first line shown (it scrolls) */
    int warn_on;              /* dash_warn.c: the view open over the panes (DASH_VIEW_*) */
    size_t warn_top, warn_left;   /* its first line shown, its sideways offset */
    int preset;               /* dash_panes.c: the layout preset (p) */
    int pane_mode[LAYOUT_MAX_PANES];  /* 1 shown, -1 hidden by its digit; 0 preset */
    uint32_t shown_mask;      /* panes on screen (bit i = pane i); 0: recompute */
    int focus_want;           /* the pane the user last focused; -1: none yet */
    int wide_pick;            /* dash_panes.c: the pane given the widest slot; -1: none */
    uint64_t wide_gen;        /* the snapshot generation it was chosen at */
    struct { uint32_t mask; int pick; } wide_kept[DASH_WIDE_KEPT];   /* the last pick */
    size_t wide_nkept;        /* of each set of shown panes */
    int wide_firm;            /* every shown pane could say when it was made */
    char absent_note[160];    /* "no framework traces, no Python stats" */
    char absent_short[80];    /* "no traces, no Python": for a narrow status line */
    int filter_edit;          /* the status line is the `/` prompt */
    char filter_before[64];   /* restored by Esc */
    int cmd_edit;             /* the status line is the `:` prompt (dash_cmd.c) */
    char cmd[128];
    char place[400];          /* the job's name before the first snapshot (dash_header.c) */
    char hdr_last[1280], st_last[1400];   /* st_last holds dash_draw_status key[] */
    char msg[256];            /* transient notice in the status line */
    int64_t msg_until_us;
    int unicode;              /* the locale can show UTF-8 */
    dash_ext ext;             /* stores beside the model, for pane_ctx.ext */
    viewbuild *dv;              /* the rule parameters and Python choice the loader derives */
    viewsnap *snap;            /* this frame's snapshot (a reference), NULL before the first */
    char extra_err[sizeof(sm_err){0}.msg]; /* the last diff failure shown */
    uint64_t view_key;        /* this frame's view and view data request (dash_frame) */
    viewdata_req view_posted; /* the last view request posted to the viewbuild */
    int view_waiting;         /* 1 until a snapshot answers view_posted */
    int backfill;             /* this frame: the loader is still backfilling */
    int fit_mode;             /* fit_stopped_job: 0 undecided, 1 fits, -1 never */
    /* SMTOP_LOCK_STATS=1: how long each frame (frame_log) and each key
     * or click (key_log) took, summed up on stderr at exit; neither takes
     * the model lock. DASH_LOCK_LOG each, one allocation; NULL when off. */
    double *frame_log, *key_log;
    size_t frame_n, key_n;
} dash;

/* dash.c */
int dash_screen_open(dash *d, sm_err *err);
void dash_screen_close(dash *d);
/* Recomputes the layout for the current size and recreates the windows. */
void dash_relayout(dash *d);
void dash_mark_all(dash *d);
int dash_set_theme(dash *d, const char *name);
int64_t dash_now_us(void);

/* dash_loop.c */
void dash_frame(dash *d);
/* Fills a pane context for the current view from the snapshot d->snap
 * (the frame, keys and clicks: no lock is held, none is needed). */
void dash_ctx(dash *d, pane_ctx *ctx, int64_t now_us);

/* dash_keys.c: handles one key (or KEY_MOUSE / KEY_RESIZE). */
void dash_key(dash *d, int ch);
/* One row of the dashboard's key table: the key codes that fire it, how
 * the help overlay shows it (show.what NULL: not there), whether the
 * focused pane sees the key first, and what it does (1: done; 0: offer
 * the key to the focused pane after all). */
#define DASH_KEY_CODES 8
typedef struct dash_keydef {
    int codes[DASH_KEY_CODES];   /* 0-terminated; none: a help-only row */
    pane_key show;
    int after_pane;
    int (*act)(dash *d, int ch);
} dash_keydef;
/* The dashboard's own keys (every pane), in help order, ending with
 * show.keys NULL: dispatch and the help overlay read them. */
extern const dash_keydef dash_keys[];
/* The row that ch fires, or NULL. */
const dash_keydef *dash_keydef_of(int ch);

/* dash_warn.c: a view of lines over the pane area, the warnings (W) or
 * the findings (!): open, close, its keys (all of them while open), and
 * its frame. */
enum { DASH_VIEW_WARN = 1, DASH_VIEW_WHY = 2 };
void dash_warn_open(dash *d, int view);
void dash_warn_close(dash *d);
void dash_warn_key(dash *d, int ch);
void dash_draw_warn(dash *d);
/* dash_header.c: the columns the pane bar takes at the verdict row's end
 * (a click left of it opens the findings). */
int dash_bar_cols(const dash *d);
/* dash_why.c: the findings view's lines (!), each through keep, wrapped
 * to cols, and its title: the verdict's findings with their cause, fix
 * and where to look, then each fired rule no finding tells, as the
 * report's "causes and fixes". */
void dash_why_lines(const dash *d, int cols, void (*keep)(void *ud, const char *line), void *ud,
                    char *title, size_t tcap);
/* dash_help.c: a key while the help is open: j/k, the page keys, h/l,
 * g/G scroll it; 1 when ch closes it (?, q, Esc), 0 otherwise (every
 * other key does nothing). */
int dash_help_key(dash *d, int ch);
/* 1 when the job has ended (the API says so, else the snapshot's data:
 * the header's ENDED): a file cut short is then truncated, not still
 * being written (io/job/job_warn.h). */
int dash_job_ended(dash *d, int64_t now_us);

/* dash_header.c: header and status line; redrawn only when their text
 * changed. The header reads the snapshot's view data (ctx->vd), no lock. */
void dash_draw_header(dash *d, const pane_ctx *ctx);
void dash_draw_status(dash *d, int64_t now_us);
void dash_notice(dash *d, const char *text);

/* dash_cmd.c: the `:` command line (`:set Rule.param=value`). */
void dash_cmd_begin(dash *d);
void dash_cmd_key(dash *d, int ch);
/* Applies d->o->rules to the alerts pane (no-op without either). 0, or
 * -1 with err (the bad override or rules.conf line). */
int dash_cmd_configure_rules(dash *d, sm_err *err);

/* dash_diff.c: in diff mode (--baseline), has d->dv build the diff
 * object as its extra product. */
void dash_diff_setup(dash *d);

/* dash_derive.c: the viewbuild (rules as configured, the Python choice,
 * the diff) and the snapshot each frame draws from. */
int dash_derive_open(dash *d, sm_err *err);
void dash_derive_close(dash *d);
/* Takes the latest snapshot into d->snap (and ctx ext); in bench mode,
 * where no loader runs, builds it here first. */
void dash_derive_take(dash *d);
/* Posts the view request (window, filter, what each shown pane needs,
 * pane_vtbl.request) to the viewbuild; pokes the loader when it changed. */
void dash_view_request(dash *d);

/* dash_panes.c: which panes are on screen (data, digits, presets) and
 * their persistence in smtop.conf. */
uint32_t dash_panes_shown(dash *d, const pane_ctx *ctx);
/* Relayouts when the shown set changed (from the snapshot: no lock). */
void dash_panes_update(dash *d, const pane_ctx *ctx);
void dash_panes_toggle(dash *d, size_t i);
void dash_panes_next_preset(dash *d);
const char *dash_panes_preset_name(int k);
int dash_panes_preset_find(const char *name);
/* From smtop.conf: preset name, and comma lists of pane ids the user
 * showed / hid; any may be NULL. */
void dash_panes_configure(dash *d, const char *layout, const char *shown, const char *hidden);
/* Writes layout, shown, hidden, theme and symbols into smtop.conf,
 * keeping every other line. 0, or -1 with err. */
int dash_panes_save(const dash *d, sm_err *err);

/* dash_help.c */
void dash_draw_help(dash *d);

#endif
