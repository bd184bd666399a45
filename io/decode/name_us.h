/* name_us: an epoch-µs time as smdebug writes it into file and directory
 * names. Python wrote `time.time() * 1e6`, so real names carry a fraction
 * ("1795415008236194.8"); integer writers do not ("1596659864545103"). */
#ifndef SMTOP_NAME_US_H
#define SMTOP_NAME_US_H

#include <stddef.h>
#include <stdint.h>

/* Parses s[0..len) = `<digits>[.<digits>]` (1 to 18 integer digits, and at
 * least one fraction digit after a '.') into whole µs: the fraction, below
 * a microsecond, is dropped. 0, or -1 (out untouched) for anything else. */
int name_us_parse(const char *s, size_t len, int64_t *out);

#endif
