/* pane_diff: the Diff pane of diff mode (`smtop --baseline BASE SRC`).
 *
 * Shown only when a baseline is given (panes_select appends it after the
 * usual panes). It draws the report_diff_build object that dash_diff.c
 * keeps current — the same rows `smtop diff BASE SRC` prints: step-time
 * p50/p95/p99 per node and phase, mean time per TRAIN step by category,
 * mean utilization, top Python functions by tottime, each PyTorch
 * profiler rank's GPU time (idle, compute, non-compute, overlap) and the
 * GPU kernels added, removed, slower and faster — baseline → now,
 * each change marked as the text diff marks it (report_diff_mark), slower
 * times in the alert color, faster in the ok color. j/k scroll; Enter
 * zooms it like any pane. */
#ifndef SMTOP_PANE_DIFF_H
#define SMTOP_PANE_DIFF_H

#include "tui/panes/pane.h"

extern const pane_vtbl pane_diff_vtbl;

#endif
