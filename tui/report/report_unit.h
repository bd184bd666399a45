/* report_unit: units in the report's key names. A system metric's
 * statistics are in its dimension's own unit (the data carries none), so
 * their keys take a suffix from the dimension: "p50_pct" for a
 * utilization, "p50_mb_per_s" for ReadThroughputMB, and "unit" in the
 * same object names the suffix, so a reader can build the key
 * ("p50_" + unit) without knowing every dimension. */
#ifndef SMTOP_REPORT_UNIT_H
#define SMTOP_REPORT_UNIT_H

#include <jansson.h>

/* The suffix for a dimension: pct, bytes, kb, mb, gb, bytes_per_s,
 * kb_per_s, mb_per_s, gb_per_s, or value (no known unit). */
const char *report_unit_of(const char *dimension);

/* Sets obj["<stat>_<unit>"] to v (null when not finite). 0, -1 on OOM. */
int report_unit_set(json_t *obj, const char *stat, const char *unit, double v);

/* The key of stat in obj, from obj's "unit": "p50_pct" (into buf). */
const char *report_unit_key(char *buf, size_t cap, const json_t *obj, const char *stat);
/* obj["<stat>_<obj.unit>"]; NAN when absent or null. */
double report_unit_get(const json_t *obj, const char *stat);

#endif
