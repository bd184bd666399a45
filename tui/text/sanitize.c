/* sanitize: data strings → safe terminal text (see sanitize.h). */
#include "tui/text/sanitize.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "model/util/sanitize.h"

/* Output cursor: bytes and columns used so far, and the limits. */
typedef struct sink {
    char *out;
    size_t cap, used;
    int cols, max_cols;
    int full;            /* nothing more fits */
} sink;

static int sink_put(sink *k, const char *bytes, size_t n, int width)
{
    if (k->full)
        return -1;
    if ((k->max_cols >= 0 && k->cols + width > k->max_cols) ||
        k->used + n + 1 > k->cap) {
        k->full = 1;
        return -1;
    }
    memcpy(k->out + k->used, bytes, n);
    k->used += n;
    k->cols += width;
    return 0;
}

/* Length of the string payload of an OSC/DCS/APC/PM/SOS starting at s[i]:
 * ends at BEL, ST (ESC \), 8-bit ST (U+009C as C2 9C) or the end. */
static size_t skip_string(const unsigned char *s, size_t n, size_t i)
{
    while (i < n) {
        if (s[i] == 0x07)
            return i + 1;
        if (s[i] == 0x1B && i + 1 < n && s[i + 1] == '\\')
            return i + 2;
        if (s[i] == 0xC2 && i + 1 < n && s[i + 1] == 0x9C)
            return i + 2;
        i++;
    }
    return n;
}

/* Parameters/intermediates then one final byte 0x40..0x7E; stops early at
 * anything else so that a broken sequence cannot swallow ordinary text. */
static size_t skip_csi(const unsigned char *s, size_t n, size_t i)
{
    while (i < n && s[i] >= 0x20 && s[i] <= 0x3F)
        i++;
    if (i < n && s[i] >= 0x40 && s[i] <= 0x7E)
        return i + 1;
    return i;
}

/* If an escape sequence starts at s[i] returns its end, else i. */
static size_t skip_escape(const unsigned char *s, size_t n, size_t i)
{
    if (s[i] == 0x1B) {
        if (i + 1 >= n)
            return n;
        unsigned char c = s[i + 1];
        if (c == '[')
            return skip_csi(s, n, i + 2);
        if (c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X')
            return skip_string(s, n, i + 2);
        i += 1;
        while (i < n && s[i] >= 0x20 && s[i] <= 0x2F)  /* intermediates */
            i++;
        return i < n ? i + 1 : n;
    }
    if (s[i] == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F) {
        unsigned char c = s[i + 1];
        if (c == 0x9B)                                   /* 8-bit CSI */
            return skip_csi(s, n, i + 2);
        if (c == 0x9D || c == 0x90 || c == 0x9F || c == 0x9E || c == 0x98)
            return skip_string(s, n, i + 2);
        return i + 2;
    }
    return i;
}

/* any_locale: keep every printable character whatever the locale says
 * (for messages, whose own text is UTF-8 and was always written as is). */
static size_t sanitize_impl(const char *in, size_t len, char *out, size_t cap,
                            int max_cols, int any_locale)
{
    if (cap == 0)
        return 0;
    sink k = {out, cap, 0, 0, max_cols, 0};
    const unsigned char *s = (const unsigned char *)in;
    size_t i = 0;
    while (i < len && !k.full) {
        size_t end = skip_escape(s, len, i);
        if (end != i) {
            sink_put(&k, "?", 1, 1);
            i = end;
            continue;
        }
        uint32_t cp;
        size_t n = sanitize_utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            sink_put(&k, "?", 1, 1);
            i++;
            continue;
        }
        int w = sanitize_cp_unsafe(cp) ? -1
                : any_locale ? 1 : wcwidth((wchar_t)cp);
        if (w < 0)
            sink_put(&k, "?", 1, 1);
        else
            sink_put(&k, (const char *)s + i, n, w);
        i += n;
    }
    out[k.used] = '\0';
    return k.used;
}

size_t sanitize_text(const char *in, size_t len, char *out, size_t cap,
                     int max_cols)
{
    return sanitize_impl(in, len, out, cap, max_cols, 0);
}

size_t sanitize_str(const char *in, char *out, size_t cap, int max_cols)
{
    return sanitize_text(in, in ? strlen(in) : 0, out, cap, max_cols);
}

int sanitize_cols(const char *s)
{
    int cols = 0;
    size_t len = strlen(s), i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = sanitize_utf8_decode((const unsigned char *)s + i, len - i, &cp);
        if (n == 0) {
            cols++;
            i++;
            continue;
        }
        int w = wcwidth((wchar_t)cp);
        cols += w < 0 ? 1 : w;
        i += n;
    }
    return cols;
}

size_t sanitize_fit(const char *in, char *out, size_t cap, int max_cols)
{
    size_t n = sanitize_str(in, out, cap, -1);
    if (max_cols < 0 || sanitize_cols(out) <= max_cols)
        return n;
    if (max_cols < 2)
        return sanitize_str(in, out, cap, max_cols);
    n = sanitize_str(in, out, cap, max_cols - 1);
    if (n + 2 <= cap) {
        out[n++] = '~';
        out[n] = '\0';
    }
    return n;
}

void sanitize_fputs(const char *msg, FILE *f)
{
    char buf[1024];
    const char *p = msg ? msg : "";
    for (;;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        sanitize_impl(p, n, buf, sizeof buf, -1, 1);
        fputs(buf, f);
        if (!nl)
            break;
        fputc('\n', f);
        p = nl + 1;
    }
}
