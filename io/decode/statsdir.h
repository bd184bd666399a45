/* statsdir: what a Python profiler stats directory's name and key path say.
 *
 *   framework/<framework>/<cprofile|pyinstrument>/<node>/<stats_dir>/<file>
 *   framework/<framework>/cProfile/<stats_dir>/python_stats       (older jobs)
 *
 * stats_dir in the current naming
 *   <mode>-<step>-<phase>-<start_us>_<mode>-<step>-<phase>-<end_us>
 * (modes train eval predict global prestepzero posthookclose; phases start
 * stepstart forwardpassend stepend end; step digits or `*` for none) and in
 * the older one
 *   <start_us>_<end_us>_<pid>-<node>_<step>      (step -1 before step 0),
 * the only one the older cProfile/ layout (no node folder) uses. Times
 * may carry a fraction of a µs, dropped (see name_us.h). */
#ifndef SMTOP_STATSDIR_H
#define SMTOP_STATSDIR_H

#include <stddef.h>

#include "model/pystats/pystats.h"
#include "model/util/sm_err.h"

/* Parses the stats_dir name name[0..len) into w's mode, step, phase, time
 * and legacy fields (and node, for the older naming, which carries one).
 * Other fields are left as they were. -1 with err (SM_ERR_FORMAT) when the
 * name fits neither naming; w is then unchanged. */
int statsdir_parse_name(const char *name, size_t len, pystats_window *w, sm_err *err);

/* Parses a whole key (any prefix before "framework/" is allowed) into a
 * zeroed-then-filled w: framework, profiler, node (from the node folder,
 * or from the name in the older layout), and the stats_dir fields. -1
 * with err when the path does not have either shape; w is then unchanged. */
int statsdir_parse_key(const char *key, pystats_window *w, sm_err *err);

#endif
