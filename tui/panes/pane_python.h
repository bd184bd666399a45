/* pane_python: the top-N Python functions (cProfile or pyinstrument) of
 * the selected windows and nodes, like pstats' table.
 *
 * Keys while focused: Up/Down/j/k PgUp/PgDn Home/End move the row; `s`
 * cycles the sort key, `T`/`C`/`N`/`P` pick tottime/cumtime/ncalls/pcalls;
 * `w` opens the window/node menu (Enter applies, Esc closes); `/` edits a
 * name filter (Enter keeps, Esc clears). Enter zooms the pane (dashboard
 * key) and the zoomed pane shows the selected row's callers and callees
 * with their numbers. The store comes through pane_ctx.ext (dash_ext).
 *
 * While the view is focused on a step (the cross-filter, view.h) the pane
 * merges every node's windows that overlap the step's window instead of
 * the menu's choice, titled "windows overlapping step N (k of M)", and
 * says so when none does; the menu's choice returns with the focus. */
#ifndef SMTOP_PANE_PYTHON_H
#define SMTOP_PANE_PYTHON_H

#include <stddef.h>

#include "model/pystats/pystats.h"
#include "tui/panes/pane.h"

extern const pane_vtbl pane_python_vtbl;

/* "file:line(name)" (pstats' form), sanitized, fitting `cols` columns: the
 * path is shortened from the left ("~" marks the cut) before the name is
 * cut. Returns bytes written to out (NUL-terminated). Pure. */
size_t pane_python_func_text(const pystats_func *f, int cols, char *out, size_t cap);

/* The calls column: "total/primitive" when they differ, "-" without
 * counts (pyinstrument). Pure. */
void pane_python_calls_text(const pystats_call *c, int counts, char *out, size_t cap);

/* 1 when filter is empty or a case-insensitive substring of the name or
 * the file. Pure. */
int pane_python_filter_match(const pystats_func *f, const char *filter);

/* tottime → cumtime → ncalls → pcalls → tpercall → cpercall → tottime. */
pystats_sort pane_python_next_sort(pystats_sort k);

#endif
