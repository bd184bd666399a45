/* tf_trace_meta: a TF trace's step, from its key. See tf_trace.h;
 * smdebug's .metadata record is read by tf_meta.c, and the ingest path
 * places a trace without one (io/scan/scan_decode.c). */
#include "io/decode/tf_trace.h"

#include <string.h>

static int parse_digits(const char *p, size_t n, int64_t *out)
{
    if (n == 0 || n > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return 0;
}

int64_t tf_trace_step_from_key(const char *key)
{
    static const char dp[] = "detailed_profiling/";
    const char *p = strstr(key, dp);
    if (!p)
        return -1;
    p = strchr(p + sizeof dp - 1, '/');    /* skip the hour directory */
    if (!p)
        return -1;
    p++;
    const char *q = strchr(p, '/');
    int64_t step;
    if (!q || parse_digits(p, (size_t)(q - p), &step) != 0)
        return -1;
    return step;
}
