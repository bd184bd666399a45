/* pyinstrument: reads pyinstrument's python_stats.json — a frame tree
 * under "root_frame" whose frames carry "function", "file_path_short" (or
 * "file_path"), "line_no", "time" (seconds, including children) and
 * "children" — into per-function records:
 *   tottime = self time (time minus the children's, never below 0),
 *   cumtime = time of the frames not nested inside the same function (so
 *             recursion is not counted twice),
 *   callers = the parent frame's function with this frame's self/total,
 *   pcalls = ncalls = 0: a sampling profiler does not count calls.
 * Several frames of one function are delivered separately; the window
 * (pystats_win_add) sums them like pstats.add. */
#ifndef SMTOP_PYINSTRUMENT_H
#define SMTOP_PYINSTRUMENT_H

#include <stddef.h>

#include "model/util/sm_err.h"
#include "io/decode/pstats_marshal.h"

#define PYINSTRUMENT_MAX_DEPTH 4096

/* Calls cb once per frame. Returns 0; 1 when the file is a failed session
 * (`{"root_frame": null}`, cb never called); -1 with err (SM_ERR_FORMAT
 * for bad JSON or a frame of the wrong shape, naming where). */
int pyinstrument_parse(const void *data, size_t len, pstats_func_cb cb, void *ud,
                       sm_err *err);

#endif
