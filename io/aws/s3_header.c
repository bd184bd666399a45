/* s3_header: see s3_header.h. */
#include "io/aws/s3_header.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The size after the '/' of a Content-Range value in v[0..n), or -1. */
static int64_t range_total(const char *v, size_t n)
{
    const char *slash = memchr(v, '/', n);
    if (!slash)
        return -1;
    size_t i = (size_t)(slash - v) + 1, digits = 0;
    int64_t total = 0;
    for (; i < n && v[i] >= '0' && v[i] <= '9' && digits < 18; i++, digits++)
        total = total * 10 + (v[i] - '0');
    if (!digits || (i < n && v[i] >= '0' && v[i] <= '9'))
        return -1;   /* "*", nothing, or a size past 10^18: unknown */
    return total;
}

void s3_header_parse(const char *line, size_t n, char *etag, size_t cap, int64_t *total)
{
    size_t l = n;
    while (l && (line[l - 1] == '\r' || line[l - 1] == '\n'))
        l--;
    if (l > 5 && !strncasecmp(line, "etag:", 5)) {
        size_t o = 5;
        while (o < l && line[o] == ' ')
            o++;
        if (cap)
            snprintf(etag, cap, "%.*s", (int)(l - o), line + o);
    } else if (l > 14 && !strncasecmp(line, "content-range:", 14)) {
        int64_t t = range_total(line + 14, l - 14);
        if (t >= 0)
            *total = t;
    }
}
