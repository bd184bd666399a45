/* pane_system: per-node charts over the visible window — total CPU (and
 * per core on `c`), each GPU's utilization and memory, host memory, I/O,
 * network and any other metric the node reports. Utilization metrics use a
 * fixed 0–100 scale, the rest are auto-scaled; every chart names its
 * scale's top. One line per metric when space is short, multi-row graphs
 * when tall (for the selected node first), with time ticks under them.
 *
 * Pure helpers below (tested without a terminal); the vtable is in
 * panes_builtin.h. */
#ifndef SMTOP_PANE_SYSTEM_H
#define SMTOP_PANE_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
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
 * core after the total. Fills out[0..max) and returns the number stored. */
size_t pane_system_node_metrics(const model_node *nd, int per_core, sys_metric *out,
                                size_t max);

/* Rows per chart (1..4) for a pane of height h showing `nodes` node header
 * lines and `metrics` charts in total: the tallest graphs that still fit
 * everything, 1 (compact, scrolling) when even that does not fit. */
int pane_system_chart_rows(int h, size_t nodes, size_t metrics);

/* Top of the vertical scale: 100 for utilization, else the largest bin
 * maximum (so the peak touches the top); 1 when there is no positive data. */
double pane_system_scale_top(const struct series_bin *b, size_t n, int util);

/* Chart values from bins: each bin's mean, NaN for an empty bin (drawn as
 * a gap, never as zero). Returns the number of bins with data. */
size_t pane_system_bin_values(const struct series_bin *b, size_t n, double *vals);

/* For a window only a few samples wide (a focused step): fills each NaN
 * gap between two values with the value before it, so sparse samples read
 * as a level over time instead of scattered dots. Gaps before the first
 * and after the last value stay NaN (no data there). */
void pane_system_hold_gaps(double *vals, size_t n);

/* Up to max samples of s in [t0, t1) into vals (oldest first) and the
 * one nearest outside it (*near_us and *near_v, when *have_near is set) — what
 * a focused step's window too short for a chart shows instead. Returns how
 * many samples lie inside (may exceed max). */
size_t pane_system_step_samples(const struct series *s, int64_t t0_us, int64_t t1_us,
                                double *vals, size_t max, int *have_near, int64_t *near_us,
                                double *near_v);

/* The value shown at the right of a chart: the series' newest sample when
 * it lies in [t0, t1), else the mean of the last bin with data. Returns 0
 * (and leaves *out) when the window holds no data. */
int pane_system_current_value(const series *s, int64_t t0_us, int64_t t1_us,
                              const struct series_bin *b, size_t n, double *out);

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

/* First node to draw so that the selected node's block (heights[sel]
 * lines) is fully visible in h lines when possible. Pure. */
size_t pane_system_scroll_top(size_t top, size_t sel, const int *heights, size_t n, int h);

#endif
