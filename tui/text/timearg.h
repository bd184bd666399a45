/* timearg: command-line times ↔ epoch µs, in one time zone for every
 * command: the local one, or UTC after timearg_use_utc (--utc), the zone
 * the dashboard shows too. Accepts epoch seconds (with an optional
 * fraction) and "YYYY-MM-DDTHH:MM[:SS]" (or a space for the "T") in that
 * zone, or in the zone it names with a trailing "Z" or "+HH:MM"/"-HH:MM". */
#ifndef SMTOP_TIMEARG_H
#define SMTOP_TIMEARG_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

/* Makes UTC the zone of every time this process reads or shows (sets TZ;
 * call before any thread starts). */
void timearg_use_utc(void);

/* 1 when argv[1..argc) holds "--utc" before a "--". */
int timearg_wants_utc(int argc, char **argv);

int timearg_parse(const char *s, int64_t *out_us, sm_err *err);

/* The --since/--until lines of a command's --help, with the options in a
 * column 17 (wide = 0: report, export) or 21 (wide = 1: the dashboard)
 * cells wide. States the rule every command applies (model.h): samples
 * from since until before until, and events that overlap the window. */
const char *timearg_help(int wide);

/* Formats epoch µs as "2020-06-10T02:15:09.232+02:00" in the zone above
 * ("...Z" when it is UTC) into out. */
char *timearg_format(int64_t us, char *out, size_t cap);

#endif
