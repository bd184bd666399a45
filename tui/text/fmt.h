/* fmt: pure number → short text helpers shared by the panes and reports.
 *
 * Every function writes a NUL-terminated string of at most cap-1 bytes into
 * buf (truncating, never overflowing; cap 0 writes nothing) and returns buf,
 * so calls nest inside printf-style argument lists. Output is plain ASCII
 * ("us", not "µs") so it is safe under an ASCII-only locale. No curses, no
 * allocation, no global state except the C library's time zone for
 * fmt_clock. */
#ifndef SMTOP_FMT_H
#define SMTOP_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Suggested buffer size for every helper below. */
#define FMT_BUF 32

/* A duration in µs with three significant digits at most and a unit that
 * keeps the number short: "850 us", "84.2 ms", "1.20 s", "3 m 12 s",
 * "2 h 05 m", "3 d 4 h". Negative or NaN input gives "-". */
char *fmt_duration(char *buf, size_t cap, double us);

/* The same in the same unit, with the decimals that set durations step_us
 * apart apart (a histogram's rows: "84.20 ms", "84.36 ms"), at most four
 * digits in all, so it stays within 8 columns. fmt_duration's text from a
 * minute on, and for a step that is not positive. */
char *fmt_duration_step(char *buf, size_t cap, double us, double step_us);

/* A percentage 0..100 with one decimal below 100: "7.0%", "42.3%", "100%".
 * Values outside 0..999 are clamped for display; NaN gives "-". */
char *fmt_percent(char *buf, size_t cap, double pct);

/* A value scaled by SI prefixes (k, M, G, T, P; 1000-based) with three
 * significant digits, then a space and `unit` (may be "" or NULL):
 * fmt_si(b, n, 412e6, "B/s") → "412 MB/s", 1234 → "1.23 k", 0.5 → "0.50".
 * NaN gives "-". */
char *fmt_si(char *buf, size_t cap, double value, const char *unit);

/* v in at most `width` columns for a table: "%.{prec}f" when it fits,
 * else the most significant digits that fit in %g form ("1.8e+308",
 * "-1e+308"), "nan" / "inf" / "-inf" as they are; right-aligned. A column
 * of such values keeps its layout whatever the data holds. width <= 40. */
char *fmt_fit(char *buf, size_t cap, double v, int width, int prec);

/* An axis label for an auto-scaled chart: "max 412 MB/s". */
char *fmt_axis_max(char *buf, size_t cap, double max, const char *unit);

/* Time of day of an epoch-µs instant in the local time zone (which main
 * sets to UTC for --utc): "14:05" when the visible span is longer than 10
 * minutes, else "14:05:09". */
char *fmt_clock(char *buf, size_t cap, int64_t t_us, int64_t span_us);

/* The local date of an instant: "2020-06-10". */
char *fmt_date(char *buf, size_t cap, int64_t t_us);
/* The local time zone's name at an instant: "CEST", "UTC" (TZ=UTC0 under
 * --utc). */
char *fmt_zone(char *buf, size_t cap, int64_t t_us);
/* 1 when both instants fall on the same local calendar day. */
int fmt_same_day(int64_t a_us, int64_t b_us);
/* A coarse age in its largest whole unit: "45 s", "3 m", "5 h", "2 d",
 * "6 y". Negative gives "0 s". */
char *fmt_ago(char *buf, size_t cap, int64_t us);

/* A unit for a system-metric dimension, by its name (the data carries no
 * unit field): "%" for utilization/percent dimensions; "B/s" for rates
 * ("...BytesPerSec", "...MBps", "...ThroughputMB"); "B" for byte counts;
 * "" otherwise. NULL gives "". */
const char *fmt_unit_for_dimension(const char *dimension);

/* Factor turning a dimension's raw values into the base unit above:
 * 1e6 for megabyte dimensions ("ReadThroughputMB", "ReceivedMBps"), 1e3
 * for kilobyte ones, else 1. */
double fmt_scale_for_dimension(const char *dimension);

#endif
