/* sanitize: see sanitize.h. */
#include "model/util/sanitize.h"

#include <string.h>

int sanitize_cp_unsafe(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF || cp == 0x061C || cp == 0x180E;
}

size_t sanitize_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len;
    uint32_t c = s[0], min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2, c &= 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, c &= 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

size_t sanitize_clean(char *s, size_t n)
{
    unsigned char *b = (unsigned char *)s;
    size_t r = 0;
    /* most names are printable ASCII: nothing moves until a byte that
     * may need to */
    while (r < n && b[r] >= 0x20 && b[r] < 0x7F)
        r++;
    size_t w = r;
    while (r < n) {
        uint32_t cp = 0;
        size_t l = b[r] >= 0x20 && b[r] < 0x7F ? 1 : sanitize_utf8_decode(b + r, n - r, &cp);
        if (l == 1 && b[r] >= 0x20 && b[r] < 0x7F) {
            b[w++] = b[r++];
            continue;
        }
        if (l == 0 || sanitize_cp_unsafe(cp)) {
            b[w++] = '?';
            r += l ? l : 1;
            continue;
        }
        memmove(b + w, b + r, l);
        w += l;
        r += l;
    }
    b[w] = '\0';
    return w;
}

size_t sanitize_cut(const char *s, size_t n, size_t max)
{
    if (n <= max)
        return n;
    size_t j = max;
    while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
        j--;   /* s[j] continues the character the cut would split */
    return j;
}
