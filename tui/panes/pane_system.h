/* pane_system: per-node charts over the visible window — total CPU (and
 * per core on `c`), each GPU's utilization and memory, host memory, I/O,
 * network and any other metric the node reports. Utilization metrics use a
 * fixed 0–100 scale, the rest are auto-scaled; every chart names its
 * scale's top. One line per metric when space is short, multi-row graphs
 * when tall (for the selected node first), with time ticks under them.
 *
 * The numbers come from the loader's snapshot (model/view/sysview.h): the pane
 * draws without the model lock. Pure helpers below (tested without a
 * terminal); the vtable is in panes_builtin.h. */
#ifndef SMTOP_PANE_SYSTEM_H
#define SMTOP_PANE_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/view/sysview.h"
#include "tui/theme/theme.h"

typedef struct sys_metric {
    const series *s;     /* borrowed from the model */
    theme_role role;     /* graph color */
    int util;            /* 1: fixed 0–100 scale, shown as a percentage */
    const char *unit;    /* static string from fmt_unit_for_dimension */
    double scale;        /* raw value × scale = value in `unit` (MB → B) */
    char label[32];      /* "cpu", " cpu3", "gpu0", "gmem0", "mem",
                            "nvme0n1 read" (raw: sanitize before drawing) */
} sys_metric;

/* The charts shown for a node, in display order; per_core adds one per
 * core after the total (model/view/sysview.h lists them). Fills out[0..max)
 * (at most 64) and returns the number stored. */
size_t pane_system_node_metrics(const model_node *nd, int per_core, sys_metric *out,
                                size_t max);
/* The colour, scale and unit of a chart the loader listed. */
void pane_system_metric_from(const sysview_metric *in, sys_metric *out);

/* Rows per chart (1..4) for a pane of height h showing `nodes` node header
 * lines and `metrics` charts in total: the tallest graphs that still fit
 * everything, 1 (compact, scrolling) when even that does not fit. */
int pane_system_chart_rows(int h, size_t nodes, size_t metrics);

/* For a window only a few samples wide (a focused step): fills each NaN
 * gap between two values with the value before it, so sparse samples read
 * as a level over time instead of scattered dots. Gaps before the first
 * and after the last value stay NaN (no data there). */
void pane_system_hold_gaps(double *vals, size_t n);

/* Columns of a chart row, the same for every chart of the pane so one
 * time instant sits at one x: label at label_x, graph [graph_x, graph_x +
 * graph_w), the scale's top in the column at axis_x, the current value
 * right-aligned at value_right, and the window mean at avg_x only when the
 * graph keeps >= 100 columns beside it (-1 otherwise). The graph takes the
 * rest of the width. Pure. */
typedef struct sys_columns {
    int label_x, graph_x, graph_w, axis_x, avg_x, value_right;
} sys_columns;
sys_columns pane_system_columns_for(int width);

/* The first line to show of the nodes' blocks (heights[i] lines each,
 * one after another) in h lines, from the last one shown, top: moved as
 * little as makes the selected block wholly visible (its start when it
 * is taller than h), as htop's cursor scrolls, and never so far that
 * blank lines show under the last block. Pure. */
long pane_system_scroll_line(long top, size_t sel, const int *heights, size_t n, int h);

#endif
