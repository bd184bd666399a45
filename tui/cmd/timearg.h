/* timearg: command-line times ↔ epoch µs, in one time zone for every
 * command: the local one, or UTC after timearg_use_utc (--utc), the zone
 * the dashboard shows too. Accepts epoch seconds (with an optional
 * fraction) and "YYYY-MM-DDTHH:MM[:SS]" (or a space for the "T") in that
 * zone, or in the zone it names with a trailing "Z" or "+HH:MM"/"-HH:MM". */
#ifndef SMTOP_TIMEARG_H
#define SMTOP_TIMEARG_H

#include <stddef.h>
#include <stdint.h>

#include "model/sm_err.h"

/* Makes UTC the zone of every time this process reads or shows (sets TZ;
 * call before any thread starts). */
void timearg_use_utc(void);

/* 1 when argv[1..argc) holds "--utc" before a "--". */
int timearg_wants_utc(int argc, char **argv);

int timearg_parse(const char *s, int64_t *out_us, sm_err *err);

/* Formats epoch µs as "2020-06-10T02:15:09.232+02:00" in the zone above
 * ("...Z" when it is UTC) into out. */
char *timearg_format(int64_t us, char *out, size_t cap);

#endif
