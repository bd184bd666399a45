/* fmt: see fmt.h. Thresholds compare against the value as it will be
 * rounded, so 999.96 ms prints "1.00 s", never "1000.0 ms". */
#include "tui/text/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static char *put_dash(char *buf, size_t cap)
{
    if (cap > 0)
        snprintf(buf, cap, "-");
    return buf;
}

/* Decimals that give three significant digits for 0 <= v < 1000, chosen on
 * the rounded value so 9.996 counts as 10.0. */
static int sig3_decimals(double v)
{
    if (v < 9.995)
        return 2;
    if (v < 99.95)
        return 1;
    return 0;
}

char *fmt_duration(char *buf, size_t cap, double us)
{
    if (cap == 0)
        return buf;
    if (isnan(us) || us < 0)
        return put_dash(buf, cap);
    if (us == 0) {
        snprintf(buf, cap, "0 s");   /* "0.0 us" reads as a measurement */
    } else if (us < 999.5) {
        snprintf(buf, cap, us < 9.95 ? "%.1f us" : "%.0f us", us);
    } else if (us < 999.5e3) {
        double ms = us / 1e3;
        snprintf(buf, cap, "%.*f ms", sig3_decimals(ms), ms);
    } else if (us < 59.95e6) {
        double s = us / 1e6;
        snprintf(buf, cap, s < 9.995 ? "%.2f s" : "%.1f s", s);
    } else {
        long long sec = (long long)llround(us / 1e6);
        if (sec < 3600)
            snprintf(buf, cap, "%lld m %02lld s", sec / 60, sec % 60);
        else if (sec < 86400)
            snprintf(buf, cap, "%lld h %02lld m", sec / 3600, sec % 3600 / 60);
        else
            snprintf(buf, cap, "%lld d %lld h", sec / 86400, sec % 86400 / 3600);
    }
    return buf;
}

char *fmt_duration_step(char *buf, size_t cap, double us, double step_us)
{
    if (cap == 0 || isnan(us) || us <= 0 || !(step_us > 0) || us >= 59.95e6)
        return fmt_duration(buf, cap, us);
    double scale = us < 999.5 ? 1 : us < 999.5e3 ? 1e3 : 1e6;
    const char *unit = scale == 1 ? "us" : scale == 1e3 ? "ms" : "s";
    double v = us / scale;
    int ints = v < 9.995 ? 1 : v < 99.95 ? 2 : 3;
    int dec = (int)ceil(-log10(step_us / scale) - 1e-9);
    int base = scale == 1 ? (v < 9.95 ? 1 : 0) : sig3_decimals(v);
    dec = dec < base ? base : dec > 4 - ints ? 4 - ints : dec;
    snprintf(buf, cap, "%.*f %s", dec, v, unit);
    return buf;
}

char *fmt_percent(char *buf, size_t cap, double pct)
{
    if (cap == 0)
        return buf;
    if (isnan(pct))
        return put_dash(buf, cap);
    if (pct < 0)
        pct = 0;
    if (pct > 999)
        pct = 999;
    snprintf(buf, cap, pct < 99.95 ? "%.1f%%" : "%.0f%%", pct);
    return buf;
}

char *fmt_si(char *buf, size_t cap, double value, const char *unit)
{
    static const char prefix[] = {' ', 'k', 'M', 'G', 'T', 'P', 'E'};
    if (cap == 0)
        return buf;
    if (isnan(value))
        return put_dash(buf, cap);
    const char *sign = value < 0 ? "-" : "";
    double v = fabs(value);
    size_t p = 0;
    while (v >= 999.5 && p + 1 < sizeof prefix) {
        v /= 1000.0;
        p++;
    }
    const char *u = unit ? unit : "";
    char num[24];
    snprintf(num, sizeof num, "%s%.*f", sign, sig3_decimals(v), v);
    if (p == 0)
        snprintf(buf, cap, "%s%s%s", num, *u ? " " : "", u);
    else
        snprintf(buf, cap, "%s %c%s", num, prefix[p], u);
    return buf;
}

char *fmt_axis_max(char *buf, size_t cap, double max, const char *unit)
{
    char v[FMT_BUF];
    if (cap > 0)
        snprintf(buf, cap, "max %s", fmt_si(v, sizeof v, max, unit));
    return buf;
}

/* localtime_r of an epoch-µs instant, flooring before 1970; 0 on failure. */
static int fmt_local(int64_t t_us, struct tm *tm)
{
    time_t sec = (time_t)(t_us >= 0 ? t_us / 1000000 : -((-t_us + 999999) / 1000000));
    return localtime_r(&sec, tm) != NULL;
}

char *fmt_clock(char *buf, size_t cap, int64_t t_us, int64_t span_us)
{
    if (cap == 0)
        return buf;
    struct tm tm;
    if (!fmt_local(t_us, &tm))
        return put_dash(buf, cap);
    if (span_us > 600LL * 1000000)
        snprintf(buf, cap, "%02d:%02d", tm.tm_hour, tm.tm_min);
    else
        snprintf(buf, cap, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buf;
}

char *fmt_date(char *buf, size_t cap, int64_t t_us)
{
    struct tm tm;
    if (cap == 0)
        return buf;
    if (!fmt_local(t_us, &tm) || !strftime(buf, cap, "%Y-%m-%d", &tm))
        return put_dash(buf, cap);
    return buf;
}

char *fmt_zone(char *buf, size_t cap, int64_t t_us)
{
    struct tm tm;
    if (cap == 0)
        return buf;
    if (!fmt_local(t_us, &tm) || !strftime(buf, cap, "%Z", &tm) || !buf[0])
        return put_dash(buf, cap);
    return buf;
}

int fmt_same_day(int64_t a_us, int64_t b_us)
{
    struct tm a, b;
    return fmt_local(a_us, &a) && fmt_local(b_us, &b) && a.tm_year == b.tm_year &&
           a.tm_yday == b.tm_yday;
}

char *fmt_ago(char *buf, size_t cap, int64_t us)
{
    static const struct { int64_t s; const char *unit; } units[] = {
        {365LL * 86400, "y"}, {86400, "d"}, {3600, "h"}, {60, "m"}};
    int64_t s = us > 0 ? us / 1000000 : 0;
    if (cap == 0)
        return buf;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (s >= units[i].s) {
            snprintf(buf, cap, "%lld %s", (long long)(s / units[i].s), units[i].unit);
            return buf;
        }
    snprintf(buf, cap, "%lld s", (long long)s);
    return buf;
}

/* Case-insensitive "contains any of". */
static int has_any(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (strcasestr(s, *words))
            return 1;
    return 0;
}

const char *fmt_unit_for_dimension(const char *dimension)
{
    static const char *const pct[] = {"utilization", "percent", NULL};
    static const char *const rate[] = {"persec", "/s", "bps", "throughput", NULL};
    if (!dimension)
        return "";
    if (has_any(dimension, pct))
        return "%";
    int bytes = strcasestr(dimension, "bytes") || fmt_scale_for_dimension(dimension) > 1;
    if (has_any(dimension, rate) && (bytes || strcasestr(dimension, "throughput")))
        return "B/s";
    return bytes ? "B" : "";
}

/* Case-sensitive on purpose: "MB" in "ReadThroughputMB", not "mb" in
 * "StepNumber". */
double fmt_scale_for_dimension(const char *dimension)
{
    if (!dimension || strcasestr(dimension, "utilization") || strcasestr(dimension, "percent"))
        return 1.0;
    if (strstr(dimension, "GB"))
        return 1e9;
    if (strstr(dimension, "MB"))
        return 1e6;
    if (strstr(dimension, "KB") || strstr(dimension, "kB"))
        return 1e3;
    return 1.0;
}

char *fmt_fit(char *buf, size_t cap, double v, int width, int prec)
{
    char t[400];
    snprintf(t, sizeof t, "%.*f", prec, v);
    for (int g = prec + 3; (int)strlen(t) > width && g >= 1; g--)
        snprintf(t, sizeof t, "%.*g", g, v);
    snprintf(buf, cap, "%*s", width, t);
    return buf;
}
