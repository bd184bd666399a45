/* Natural ("version") ordering: digit runs compare as numbers, so
 * algo-2 < algo-10 and cpu2 < cpu10. Names equal under that rule (a01 vs
 * a1) fall back to byte order, so the order is total and stable. */
#include "model/model.h"
#include "model/core/model_node.h"

#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t run_end(const char *s, size_t i, size_t len)
{
    while (i < len && is_digit(s[i]))
        i++;
    return i;
}

static size_t skip_zeros(const char *s, size_t i, size_t len)
{
    while (i < len && s[i] == '0')
        i++;
    return i;
}

int model_natural_cmp_n(const char *a, size_t la, const char *b, size_t lb)
{
    size_t i = 0, j = 0;
    while (i < la && j < lb) {
        if (is_digit(a[i]) && is_digit(b[j])) {
            size_t si = skip_zeros(a, i, la), sj = skip_zeros(b, j, lb);
            size_t ei = run_end(a, si, la), ej = run_end(b, sj, lb);
            if (ei - si != ej - sj)
                return ei - si < ej - sj ? -1 : 1;
            int c = memcmp(a + si, b + sj, ei - si);
            if (c)
                return c < 0 ? -1 : 1;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return (unsigned char)a[i] < (unsigned char)b[j] ? -1 : 1;
        i++;
        j++;
    }
    if (i < la || j < lb)
        return i < la ? 1 : -1;
    int c = memcmp(a, b, la < lb ? la : lb);
    if (c)
        return c < 0 ? -1 : 1;
    return la < lb ? -1 : la > lb;
}

int model_natural_cmp(const char *a, const char *b)
{
    return model_natural_cmp_n(a, strlen(a), b, strlen(b));
}
