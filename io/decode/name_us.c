#include "io/decode/name_us.h"

static int all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return len > 0;
}

int name_us_parse(const char *s, size_t len, int64_t *out)
{
    size_t ilen = 0;
    while (ilen < len && s[ilen] != '.')
        ilen++;
    /* 18 digits cannot overflow int64 and reach year 33658 in µs. */
    if (ilen > 18 || !all_digits(s, ilen))
        return -1;
    if (ilen < len && !all_digits(s + ilen + 1, len - ilen - 1))
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < ilen; i++)
        v = v * 10 + (s[i] - '0');
    *out = v;
    return 0;
}
