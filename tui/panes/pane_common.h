/* pane_common: small helpers shared by the built-in panes (system, heatmap,
 * steps): the filtered node list, stamp hashing, scrolling, and clipped
 * drawing primitives that never write outside the window and always pass
 * data strings through sanitize. */
#ifndef SMTOP_PANE_COMMON_H
#define SMTOP_PANE_COMMON_H

#include <curses.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "model/model.h"
#include "tui/panes/chart.h"
#include "tui/panes/pane.h"
#include "tui/panes/view.h"
#include "model/util/fnv.h"

/* The snapshot's nodes (ctx->vd; indexes for viewdata_node_id) that
 * pass the view's filter as it is now, a filter typed since the snapshot
 * was built included, in model order into out[0..max); returns how many
 * passed (may exceed max). 0 before the first snapshot. No model, no
 * lock: what keys and clicks count and clamp the selection with. */
size_t pane_common_visible_nodes(const pane_ctx *ctx, size_t *out, size_t max);

/* The node the Steps and Timeline panes show (from the snapshot's facts,
 * as stepsview_pick_node picks): the selected visible node when it has
 * framework events, else the first that has. Its index for
 * viewdata_node_id, or -1 with *why saying what to tell the user. */
long pane_common_traced_node(const pane_ctx *ctx, const char **why);

/* view->selected_node clamped to [0, count) (0 when count is 0). */
size_t pane_common_selected(const view_state *v, size_t count);

/* Up/Down/j/k (and PgUp/PgDn/Home/End) move view->selected_node within
 * the filtered nodes; returns 1 when ch was such a key. */
int pane_common_key_select(int ch, pane_ctx *ctx);

/* r / R (rank): picks the next / previous writer of the snapshot's node
 * `node` (view_cycle_process over viewdata_node_writer); returns 1 when
 * ch was such a key. */
int pane_common_key_process(int ch, pane_ctx *ctx, long node);

/* What a pane shows of a node, from the facts: "algo-1" (one writer or
 * none), "algo-1 all 8 ranks (r)", or "algo-1 > rank 2 (3/8, r)" ("2-algo-1"
 * when vd's writers of the node are not numbered as ranks): the node id,
 * the shown writer's id and index k among n writers (k == n: the pooled
 * node). Into buf (sanitized later by pane_common_put). */
char *pane_common_process_text(char *buf, size_t cap, const viewdata *vd, const char *node,
                               const char *shown, size_t k, size_t n);

/* A node or trace-writer id as a reader knows it: a writer alone on its
 * node is the node ("algo-1", not "14774-algo-1"), one of writers
 * numbered as ranks is "rank 2 of algo-1", anything else the id itself.
 * Returns out or id; vd may be NULL. */
const char *pane_common_writer_label(const viewdata *vd, const char *id, char *out,
                                     size_t cap);

/* A pane's one-line prompt (the `/` filter): printable keys append,
 * Backspace deletes, Enter keeps the text and ends editing, Esc clears it
 * and ends editing. */
void pane_common_edit_prompt(char *buf, size_t cap, int ch, int *editing);

/* The absent() of a pane that shows system metrics: "system metrics|system"
 * when no node has any, else NULL. */
const char *pane_common_absent_system(const pane_ctx *ctx);
/* pane_vtbl.absent of the panes built on trace events (Steps, Timeline):
 * "framework trace events" when the job has nodes but none has any. */
const char *pane_common_absent_traces(const pane_ctx *ctx);

/* Pane stamps: FNV-1a (model/util/fnv.h) over a word, or a string and an end
 * mark (so "a" then "" differs from "" then "a"). */
/* Which source the system charts come from and at what resolution, for
 * a border: "CloudWatch · 1 min" ("CloudWatch - 1 min" with ASCII
 * symbols) into buf, or "" for Debugger's files (the default, unsaid).
 * Returns buf. */
const char *pane_common_source_note(const pane_ctx *ctx, char *buf, size_t cap);

uint64_t pane_common_hash_u64(uint64_t h, uint64_t x);
uint64_t pane_common_hash_str(uint64_t h, const char *s);
#define PANE_COMMON_HASH_SEED FNV_SEED

/* Hash of the view fields every pane depends on (window, filter, selection,
 * process pick, glyphs, per-core flag). */
uint64_t pane_common_hash_view(uint64_t h, const pane_ctx *ctx);
/* Mixes in which view data ctx->vd is (the model generation and the
 * request it was built from): a pane drawn from it redraws when it changes. */
uint64_t pane_common_hash_viewdata(uint64_t h, const pane_ctx *ctx);

/* First item to show so that `sel` stays visible in a list of `count` items
 * with `fit` visible at once, moving `top` as little as possible. Pure. */
size_t pane_common_scroll_top(size_t top, size_t sel, size_t count, size_t fit);

/* Draws text (from data or not: it is sanitized) at (y, x), cut to the
 * columns left in the window and to max_cols (< 0: no extra limit), a cut
 * marked with '~'. Returns the columns drawn; nothing outside w. */
int pane_common_put(WINDOW *w, int y, int x, int max_cols, const char *text, int attr);
/* text (sanitized) from (y, x) over at most max_lines lines of the
 * window's width, broken at spaces; the last line allowed is cut with
 * "~" when text goes on. Returns the lines used (0 when none fit). */
int pane_common_put_wrapped(WINDOW *w, int y, int x, int max_lines, const char *text, int attr);

/* Same, right-aligned so its last column is right_x (inclusive). */
int pane_common_put_right(WINDOW *w, int y, int right_x, int max_cols,
                          const char *text, int attr);
/* Puts one wide character cell at (y, x) when inside w. */
void pane_common_put_wch(WINDOW *w, int y, int x, wchar_t ch, int attr);

#endif
