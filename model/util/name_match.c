/* name_match: the filter grammar of node ids and job names; see name_match.h. */
#include "model/util/name_match.h"

#include <ctype.h>
#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Does needle[0..n) match hay at p, case-insensitively, without cutting
 * a number in two ("algo-6" is not a match inside "algo-60")? */
static int match_at(const char *hay, const char *p, const char *needle, size_t n)
{
    size_t i = 0;
    while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)needle[i]))
        i++;
    if (i < n)
        return 0;
    if (n && is_digit(needle[n - 1]) && is_digit(p[n]))
        return 0;
    if (n && is_digit(needle[0]) && p > hay && is_digit(p[-1]))
        return 0;
    return 1;
}

/* One alternative: "^x" anchors at the start, "x$" at the end. */
static int match_one(const char *hay, const char *pat, size_t n)
{
    int start = n && pat[0] == '^', end = n > (size_t)start && pat[n - 1] == '$';
    const char *needle = pat + start;
    size_t len = n - (size_t)start - (size_t)end, hl = strlen(hay);
    if (len == 0)
        return 1;
    for (const char *p = hay; *p; p++) {
        if (start && p != hay)
            break;
        if (end && (size_t)(p - hay) + len != hl)
            continue;
        if (match_at(hay, p, needle, len))
            return 1;
    }
    return 0;
}

int name_match(const char *pattern, const char *id)
{
    if (!pattern[0])
        return 1;
    if (!id)
        return 0;
    for (const char *alt = pattern;;) {
        const char *bar = strchr(alt, '|');
        size_t n = bar ? (size_t)(bar - alt) : strlen(alt);
        if (n && match_one(id, alt, n))
            return 1;
        if (!bar)
            return 0;
        alt = bar + 1;
    }
}

