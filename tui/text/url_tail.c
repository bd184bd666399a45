/* url_tail: shortened s3:// URLs; see url_tail.h. */
#include "tui/text/url_tail.h"

#include <stdio.h>
#include <string.h>

/* Where the last keep components of url[0..n) start, after "s3://";
 * NULL when it has no more than that. */
static const char *tail_of(const char *url, size_t n, int keep)
{
    size_t end = n && url[n - 1] == '/' ? n - 1 : n;   /* a trailing '/' names none */
    int seen = 0;
    for (size_t i = end; i > 5; i--)
        if (url[i - 1] == '/' && ++seen == keep)
            return i - 1 > 5 ? url + i - 1 : NULL;
    return NULL;
}

size_t url_tail(const char *in, int keep, char *out, size_t cap)
{
    size_t w = 0;
    if (!cap)
        return 0;
    while (*in && w + 1 < cap) {
        const char *u = strstr(in, "s3://");
        size_t lead = u ? (size_t)(u - in) : strlen(in);
        int k = snprintf(out + w, cap - w, "%.*s", (int)lead, in);
        w += k > 0 ? (size_t)k : 0;
        if (!u || w + 1 >= cap)
            break;
        size_t n = strcspn(u, " ");
        const char *t = tail_of(u, n, keep);
        k = t ? snprintf(out + w, cap - w, "s3://...%.*s", (int)(n - (size_t)(t - u)), t)
              : snprintf(out + w, cap - w, "%.*s", (int)n, u);
        w += k > 0 ? (size_t)k : 0;
        in = u + n;
    }
    if (w >= cap)
        w = cap - 1;
    out[w] = '\0';
    return w;
}
