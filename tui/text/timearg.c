/* timearg: see timearg.h. */
#include "tui/text/timearg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void timearg_use_utc(void)
{
    setenv("TZ", "UTC0", 1);
    tzset();
}

int timearg_wants_utc(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--utc"))
            return 1;
    return 0;
}

static int parse_epoch(const char *s, int64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || v < 0 || v > 4102444800.0)   /* year 2100 */
        return -1;
    *out = (int64_t)(v * 1e6 + 0.5);
    return 0;
}

/* A zone suffix: "" (the process's zone), "Z", "+HH:MM", "+HHMM", "+HH".
 * Sets *utc and the offset east of UTC in seconds; -1 when malformed. */
static int parse_zone(const char *p, int *utc, long *east_s)
{
    *utc = 0;
    *east_s = 0;
    if (!*p)
        return 0;
    *utc = 1;
    if (!strcmp(p, "Z"))
        return 0;
    int hh = 0, mm = 0, n = 0;
    if ((p[0] != '+' && p[0] != '-') ||
        (sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &n) != 2 &&
         sscanf(p + 1, "%2d%2d%n", &hh, &mm, &n) != 2 &&
         sscanf(p + 1, "%2d%n", &hh, &n) != 1) ||
        p[1 + n] || hh < 0 || hh > 14 || mm < 0 || mm > 59)
        return -1;
    *east_s = (p[0] == '-' ? -1L : 1L) * (hh * 3600L + mm * 60L);
    return 0;
}

static int parse_iso(const char *s, int64_t *out)
{
    struct tm tm = {0};
    int sec = 0, used = 0, utc;
    long east;
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
    if (parse_zone(p, &utc, &east) != 0 || tm.tm_mon < 1 || tm.tm_mon > 12 ||
        tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_sec = sec;
    tm.tm_isdst = -1;   /* mktime decides whether summer time applied then */
    time_t t = utc ? timegm(&tm) : mktime(&tm);
    if (t == (time_t)-1)
        return -1;
    *out = ((int64_t)t - east) * 1000000;
    return 0;
}

int timearg_parse(const char *s, int64_t *out_us, sm_err *err)
{
    if (s && (parse_epoch(s, out_us) == 0 || parse_iso(s, out_us) == 0))
        return 0;
    return sm_err_set(err, SM_ERR_USAGE,
                      "bad time '%s': use epoch seconds or YYYY-MM-DDTHH:MM:SS (local "
                      "time; end with Z or +HH:MM for another zone, or use --utc)",
                      s ? s : "");
}

char *timearg_format(int64_t us, char *out, size_t cap)
{
    time_t t = (time_t)(us / 1000000);
    struct tm tm;
    localtime_r(&t, &tm);
    char base[32], zone[24] = "Z";
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    if (tm.tm_gmtoff != 0) {
        long off = tm.tm_gmtoff < 0 ? -tm.tm_gmtoff : tm.tm_gmtoff;
        snprintf(zone, sizeof zone, "%c%02ld:%02ld", tm.tm_gmtoff < 0 ? '-' : '+',
                 off / 3600, off / 60 % 60);
    }
    snprintf(out, cap, "%s.%03d%s", base, (int)((us % 1000000) / 1000), zone);
    return out;
}

const char *timearg_help(int wide)
{
    if (wide)
        return "  --since T            keep samples at or after T, and every event that\n"
               "                       overlaps the window (one ending exactly at T too);\n"
               "                       T is epoch seconds or YYYY-MM-DDTHH:MM:SS in the\n"
               "                       local time zone (a trailing Z or +HH:MM names\n"
               "                       another zone)\n"
               "  --until T            keep samples before T, and events that start before T\n";
    return "  --since T        keep samples at or after T, and every event that\n"
           "                   overlaps the window (one ending exactly at T too);\n"
           "                   T is epoch seconds or YYYY-MM-DDTHH:MM:SS in the\n"
           "                   local time zone (a trailing Z or +HH:MM names\n"
           "                   another zone)\n"
           "  --until T        keep samples before T, and events that start\n"
           "                   before T\n";
}
