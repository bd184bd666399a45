/* report_python: the `python` section of `smtop report` — the top-N Python
 * functions from cProfile or pyinstrument stats, merged over the selected
 * windows like pstats.add — into the report object, and its text form.
 *
 * JSON shape (null when the job has no Python stats):
 *   python {profiler, sort, functions, total_calls, primitive_calls,
 *           total_tt_s, failed_sessions,
 *           windows[] {node, framework, start_step, end_step, start_mode,
 *                      end_mode, start_phase, end_phase, start_us, end_us,
 *                      job_phase, failed},
 *           top[] {function, file, line, name, ncalls, pcalls, tottime_s,
 *                  cumtime_s, tpercall_s, cpercall_s}}
 * Steps, modes and phases the stats_dir name does not give are null.
 * When a job has both profilers, cProfile is reported (it has call counts). */
#ifndef SMTOP_REPORT_PYTHON_H
#define SMTOP_REPORT_PYTHON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "model/pystats/pystats.h"

typedef struct report_python_opts {
    pystats_sort sort;      /* default PYSORT_TOTTIME */
    size_t top;             /* default 20 */
    pystats_select sel;     /* its profiler field is ignored (chosen as above) */
    int mode_given;         /* --python-mode seen: --python-steps keeps it */
} report_python_opts;

void report_python_opts_init(report_python_opts *o);

/* Parses one report option at argv[*i] (`--python-sort KEY`, `--top N`,
 * `--python-node NODE`, `--python-steps A:B`, `--python-mode MODE`,
 * `--python-phase before|training|after`), advancing *i past its value.
 * `--python-steps A:B` selects the windows of TRAIN steps within A..B, as
 * smdebug's fetch_profile_stats_by_step; `--python-mode` picks another
 * mode (train, eval, predict, global) or `any`, in either order. Returns 1
 * when consumed, 0 when not a python option, -1 with err (SM_ERR_USAGE). */
int report_python_parse_arg(report_python_opts *o, int argc, char **argv, int *i,
                            sm_err *err);
/* Help lines for the options above. */
const char *report_python_help(void);

/* Sets obj["python"] from s (the caller holds the lock that guards s).
 * -1 with err on OOM (obj unchanged). */
int report_python_add(json_t *obj, const pystats_store *s, const report_python_opts *o,
                      sm_err *err);

/* Renders obj["python"] (if any) as a pstats-like table. */
void report_python_print_text(const json_t *obj, FILE *f);

#endif
