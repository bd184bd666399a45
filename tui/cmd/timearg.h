/* timearg: command-line times → epoch µs. Accepts epoch seconds (with an
 * optional fraction), "YYYY-MM-DDTHH:MM[:SS]" with an optional "Z" (always
 * UTC: profiler timestamps are UTC and a report must not depend on the
 * machine's zone), and the same with a space instead of "T". Pure. */
#ifndef SMTOP_TIMEARG_H
#define SMTOP_TIMEARG_H

#include <stdint.h>

#include <stddef.h>

#include "model/sm_err.h"

int timearg_parse(const char *s, int64_t *out_us, sm_err *err);

/* The --since/--until lines of a command's --help, with the options in a
 * column 17 (wide = 0: report, export) or 21 (wide = 1: the dashboard)
 * cells wide. States the rule every command applies (model.h): samples
 * from since until before until, and events that overlap the window. */
const char *timearg_help(int wide);

/* Formats epoch µs as "2020-06-10T00:15:09.232Z" into out. */
char *timearg_format(int64_t us, char *out, size_t cap);

#endif
