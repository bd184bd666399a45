/* report_unit: see report_unit.h. The unit comes from the same reading of
 * the dimension's name as the dashboard's axes (tui/text/fmt.h), so the
 * report and the screen never disagree on it. */
#include "tui/report/report_unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/text/fmt.h"

const char *report_unit_of(const char *dimension)
{
    const char *u = fmt_unit_for_dimension(dimension);
    double scale = fmt_scale_for_dimension(dimension);
    int k = scale >= 1e9 ? 3 : scale >= 1e6 ? 2 : scale >= 1e3 ? 1 : 0;
    static const char *const rate[] = {"bytes_per_s", "kb_per_s", "mb_per_s", "gb_per_s"};
    static const char *const size[] = {"bytes", "kb", "mb", "gb"};
    if (!strcmp(u, "%"))
        return "pct";
    if (!strcmp(u, "B/s"))
        return rate[k];
    if (!strcmp(u, "B"))
        return size[k];
    return "value";
}

int report_unit_set(json_t *obj, const char *stat, const char *unit, double v)
{
    char key[64];
    snprintf(key, sizeof key, "%s_%s", stat, unit);
    return json_object_set_new(obj, key, isfinite(v) ? json_real(v) : json_null());
}

const char *report_unit_key(char *buf, size_t cap, const json_t *obj, const char *stat)
{
    const char *unit = json_string_value(json_object_get(obj, "unit"));
    snprintf(buf, cap, "%s_%s", stat, unit ? unit : "value");
    return buf;
}

double report_unit_get(const json_t *obj, const char *stat)
{
    char key[64];
    const json_t *v = json_object_get(obj, report_unit_key(key, sizeof key, obj, stat));
    return json_is_number(v) ? json_number_value(v) : NAN;
}
