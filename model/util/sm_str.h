/* sm_str: a string slice (pointer + length, not NUL-terminated) and its
 * comparisons, the currency of the ingest path (model/records.h) and of
 * the hash map's keys (idmap). Header only. */
#ifndef SMTOP_SM_STR_H
#define SMTOP_SM_STR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct sm_str {
    const char *ptr;
    size_t len;
} sm_str;

static inline sm_str sm_str_c(const char *s)
{
    sm_str r = {s, s ? strlen(s) : 0};
    return r;
}

static inline int sm_str_eq(sm_str a, const char *b)
{
    size_t n = strlen(b);
    return a.len == n && (n == 0 || memcmp(a.ptr, b, n) == 0);
}

/* a[0..n) == b[0..n) for the short identifiers of the ingest path (ids,
 * types, names): word loads instead of a libc call or a byte loop, and
 * never a read outside either range. */
static inline int sm_bytes_eq(const char *a, const char *b, size_t n)
{
    uint64_t x, y;
    uint32_t u, v;
    if (n >= 8) {
        for (size_t i = 0; i + 8 <= n; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y)
                return 0;
        }
        memcpy(&x, a + n - 8, 8);   /* the tail, overlapping */
        memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    if (n >= 4) {
        memcpy(&u, a, 4);
        memcpy(&v, b, 4);
        if (u != v)
            return 0;
        memcpy(&u, a + n - 4, 4);
        memcpy(&v, b + n - 4, 4);
        return u == v;
    }
    /* n <= 3: bytes 0, n/2 and n-1 cover them all */
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

static inline int sm_str_same(sm_str a, sm_str b)
{
    return a.len == b.len && sm_bytes_eq(a.ptr, b.ptr, a.len);
}

#endif
