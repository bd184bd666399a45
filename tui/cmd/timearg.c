#include "tui/cmd/timearg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int parse_epoch(const char *s, int64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || v < 0 || v > 4102444800.0)   /* year 2100 */
        return -1;
    *out = (int64_t)(v * 1e6 + 0.5);
    return 0;
}

static int parse_iso(const char *s, int64_t *out)
{
    struct tm tm = {0};
    int sec = 0, used = 0;
    if (sscanf(s, "%4d-%2d-%2d%*1[T ]%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &used) != 5)
        return -1;
    const char *p = s + used;
    if (*p == ':') {
        int n = 0;
        if (sscanf(p, ":%2d%n", &sec, &n) != 1)
            return -1;
        p += n;
    }
    if (*p == 'Z')
        p++;
    if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31
        || tm.tm_hour > 23 || tm.tm_min > 59 || sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_sec = sec;
    time_t t = timegm(&tm);
    if (t == (time_t)-1)
        return -1;
    *out = (int64_t)t * 1000000;
    return 0;
}

int timearg_parse(const char *s, int64_t *out_us, sm_err *err)
{
    if (s && (parse_epoch(s, out_us) == 0 || parse_iso(s, out_us) == 0))
        return 0;
    return sm_err_set(err, SM_ERR_USAGE,
                      "bad time '%s': use epoch seconds or YYYY-MM-DDTHH:MM:SSZ (UTC)",
                      s ? s : "");
}

char *timearg_format(int64_t us, char *out, size_t cap)
{
    time_t t = (time_t)(us / 1000000);
    struct tm tm;
    gmtime_r(&t, &tm);
    char base[32];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, cap, "%s.%03dZ", base, (int)((us % 1000000) / 1000));
    return out;
}

const char *timearg_help(int wide)
{
    if (wide)
        return "  --since T            keep samples at or after T, and every event that\n"
               "                       overlaps the window (one ending exactly at T too);\n"
               "                       T is epoch seconds or YYYY-MM-DDTHH:MM:SSZ (UTC)\n"
               "  --until T            keep samples before T, and events that start before T\n";
    return "  --since T        keep samples at or after T, and every event that\n"
           "                   overlaps the window (one ending exactly at T too);\n"
           "                   T is epoch seconds or YYYY-MM-DDTHH:MM:SSZ (UTC)\n"
           "  --until T        keep samples before T, and events that start\n"
           "                   before T\n";
}
