/* pane_heatmap: nodes (rows) × devices (CPU total, each GPU's utilization,
 * mean GPU memory) colored by mean utilization over the visible window,
 * with a final column of the node's mean GPU utilization and the
 * straggler — the node that deviates most from the others — marked.
 *
 * Cells carry a character ramp as well as a color so the map still reads
 * under NO_COLOR or on a monochrome terminal. Pure helpers below; the
 * vtable is in panes_builtin.h. */
#ifndef SMTOP_PANE_HEATMAP_H
#define SMTOP_PANE_HEATMAP_H

#include <stddef.h>
#include <wchar.h>

#include "model/view/straggler.h"
#include "tui/panes/chart.h"

/* Ramp character for a position 0..1 (clamped): " ▁▂▃▄▅▆▇█" for the
 * braille/block sets, " .:-=+*#@" for ASCII — blank only at exactly 0,
 * then one glyph per eighth (so 50 % and 70 % differ without colour).
 * NaN (no data) gives L'-'. */
wchar_t pane_heatmap_ramp_char(chart_glyphs g, double pos);

/* The straggler the pane marks is the Straggler rule's, read from the
 * snapshot (model/view/straggler.h: straggler_from_rule); the pane only
 * draws it. */

/* Row orders of the heatmap (`s` cycles them). */
typedef enum heat_sort {
    HEAT_SORT_NAME = 0,      /* model order: natural by node name */
    HEAT_SORT_WORST_GPU,     /* lowest mean GPU utilization first */
    HEAT_SORT_SLOWEST_STEP,  /* highest step p50 first */
    HEAT_SORT_STRAGGLERS,    /* largest deviation from the median first */
    HEAT_SORT_COUNT
} heat_sort;
const char *pane_heatmap_sort_name(heat_sort k);

/* The value each of n nodes is sorted by under k, into out[0..n), as the
 * pane's last column shows it: mean GPU utilization % (name, worst gpu),
 * step p50 µs (slowest step), the larger of the GPU and step deviations
 * from the median in % (stragglers); NaN when the node lacks it. Pure. */
void pane_heatmap_sort_values(heat_sort k, const double *gpu_util, const double *step_p50,
                              size_t n, double *out);

/* The display order of n nodes into order[0..n) (indices into the
 * arrays, which hold NaN for a node without that metric: such nodes come
 * last). Ties keep model order. Pure. */
void pane_heatmap_sort_order(heat_sort k, const double *gpu_util, const double *step_p50,
                     size_t n, size_t *order);

/* The display positions a list of n rows shows in fit lines, into
 * out[0..fit), in order; returns how many. The cursor's row `sel` stays
 * in the scrolled window, which starts at *top (moved as little as
 * possible, updated); the flagged rows (flag[pos] != 0: the straggler)
 * outside it are shown too, in place of the window's last rows, all but
 * one line at most. Pure. */
size_t pane_heatmap_pick_rows(size_t *top, size_t sel, size_t n, size_t fit,
                              const unsigned char *flag, size_t *out);

/* Column geometry: `ncols` cells and a final value column in `width`
 * columns after a label of `label_w`. Cell width (1..6) and gap (0 or 1). */
void pane_heatmap_cell_geometry(int width, int label_w, int ncols, int final_w,
                                int *cell_w, int *gap);

#endif
