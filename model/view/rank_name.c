/* rank_name: see rank_name.h. */
#include "model/view/rank_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number before the first '-' of id, and where the rest starts; -1
 * when id does not start with digits and a '-'. */
static long number_of(const char *id, const char **rest)
{
    char *end;
    if (!id || id[0] < '0' || id[0] > '9')
        return -1;
    long v = strtol(id, &end, 10);
    if (*end != '-' || v < 0)
        return -1;
    *rest = end;
    return v;
}

long rank_of_writer(const char *const *ids, size_t n, size_t i)
{
    if (n < 2 || i >= n || n > 4096)
        return -1;
    unsigned char seen[4096] = {0};
    const char *host = NULL, *rest;
    for (size_t k = 0; k < n; k++) {
        long v = number_of(ids[k], &rest);
        if (v < 0 || (size_t)v >= n || seen[v] || (host && strcmp(host, rest)))
            return -1;
        seen[v] = 1;
        host = rest;
    }
    return number_of(ids[i], &rest);
}

char *rank_name(const char *const *ids, size_t n, size_t i, char *out, size_t cap)
{
    long r = rank_of_writer(ids, n, i);
    if (r >= 0)
        snprintf(out, cap, "rank %ld", r);
    else
        snprintf(out, cap, "%s", i < n && ids[i] ? ids[i] : "");
    return out;
}
