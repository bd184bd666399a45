/* kineto_str: the string side of the Kineto decoder — JSON escapes
 * undone (names are handed over raw, and most never need it), terminal
 * sanitizing, and category names. */
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "io/decode/kineto_parse.h"

/* Where unescaped bytes go: out[0..cap) (no room kept here for a NUL),
 * and the full length counted on past a full buffer. */
typedef struct sink {
    char *out;
    size_t cap, w, total;
    int full;
} sink;

static void put(sink *s, const char *b, size_t n)
{
    s->total += n;
    if (s->full)
        return;
    if (s->w + n > s->cap) {
        /* Keep what fits: a long name without escapes comes as one piece,
         * and dropping it whole left an empty name (copy_out then cuts
         * at a character boundary). */
        if (s->cap > s->w)   /* a measuring sink has no buffer (out NULL, cap 0) */
            memcpy(s->out + s->w, b, s->cap - s->w);
        s->w = s->cap;
        s->full = 1;
        return;
    }
    memcpy(s->out + s->w, b, n);
    s->w += n;
}

static int hex4(const char *p, const char *end, unsigned *v)
{
    if (end - p < 4)
        return -1;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d > 15)
            return -1;
        *v = *v << 4 | d;
    }
    return 0;
}

static void put_cp(sink *s, unsigned cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | cp >> 6);
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | cp >> 12);
        b[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | cp >> 18);
        b[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        b[2] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    put(s, b, n);
}

/* At "\u": the code point of one escape or a surrogate pair (a lone
 * surrogate reads U+FFFD, as json.load's would not survive UTF-8); the
 * bytes consumed in *used, 0 when the escape is malformed. */
static unsigned u_escape(const char *p, const char *end, size_t *used)
{
    unsigned hi, lo;
    *used = 0;
    if (hex4(p + 2, end, &hi) != 0)
        return 0;
    *used = 6;
    if (hi < 0xD800 || hi > 0xDFFF)
        return hi;
    if (hi <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u' &&
        hex4(p + 8, end, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
        *used = 12;
        return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
    }
    return 0xFFFD;
}

static void unescape(const char *p, size_t n, sink *s)
{
    const char *end = p + n;
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        if (!bs) {
            put(s, p, (size_t)(end - p));
            return;
        }
        put(s, p, (size_t)(bs - p));
        if (end - bs < 2) {      /* a trailing lone backslash: kept */
            put(s, bs, 1);
            return;
        }
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *e = memchr(from, bs[1], sizeof from - 1);
        size_t used = 2;
        unsigned cp = 0;
        if (e) {
            put(s, to + (e - from), 1);
        } else if (bs[1] == 'u' && (cp = u_escape(bs, end, &used), used)) {
            put_cp(s, cp);
        } else {
            put(s, bs + 1, 1);   /* not a JSON escape: the byte as is */
            used = 2;
        }
        p = bs + used;
    }
}

size_t kineto_parse_unescape_small(const char *p, size_t n, char *out, size_t cap)
{
    sink s = {out, cap, 0, 0, 0};
    unescape(p, n, &s);
    return s.full ? (size_t)-1 : s.w;
}

/* Length of the UTF-8 sequence led by c, 0 for a byte that leads none. */
static size_t utf8_len(unsigned char c)
{
    return c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
}

/* kineto_str_copy, also giving the bytes written (before the NUL). */
static size_t copy_out(sm_str raw, char *out, size_t cap, size_t *written)
{
    sink s = {out, cap ? cap - 1 : 0, 0, 0, 0};
    if (raw.ptr)
        unescape(raw.ptr, raw.len, &s);
    *written = 0;
    if (cap == 0)
        return s.total;
    if (s.full) {   /* cut at a character boundary */
        size_t j = s.w;
        while (j > 0 && ((unsigned char)out[j - 1] & 0xC0) == 0x80)
            j--;
        if (j > 0 && (unsigned char)out[j - 1] >= 0xC0 &&
            s.w - (j - 1) < utf8_len((unsigned char)out[j - 1]))
            s.w = j - 1;
    }
    out[s.w] = '\0';
    *written = s.w;
    return s.total;
}

size_t kineto_str_copy(sm_str raw, char *out, size_t cap)
{
    size_t w;
    return copy_out(raw, out, cap, &w);
}

/* The code point of a valid sequence at p (n bytes, utf8_len), or -1. */
static long utf8_cp(const unsigned char *p, size_t n, size_t avail)
{
    if (n == 0 || n > avail)
        return -1;
    unsigned long cp = n == 1 ? p[0] : n == 2 ? p[0] & 0x1Fu : n == 3 ? p[0] & 0x0Fu : p[0] & 0x07u;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return -1;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    return (long)cp;
}

/* Code points a terminal must not get: controls, bidi and zero-width. */
static int cp_unsafe(long cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x2069) || cp == 0x061C || cp == 0xFEFF;
}

size_t kineto_str_sanitize(sm_str raw, char *out, size_t cap)
{
    if (cap == 0)
        return 0;
    size_t n, r = 0, w = 0;
    copy_out(raw, out, cap, &n);
    unsigned char *b = (unsigned char *)out;
    while (r < n) {
        size_t l = utf8_len(b[r]);
        long cp = utf8_cp(b + r, l, n - r);
        if (cp < 0 || cp_unsafe(cp)) {
            b[w++] = '?';
            r += cp < 0 ? 1 : l;
            continue;
        }
        memmove(b + w, b + r, l);
        w += l;
        r += l;
    }
    b[w] = '\0';
    return w;
}

static const struct {
    const char *name;
    unsigned char len, cat;
} cat_names[] = {
    {"cpu_op", 6, KCAT_CPU_OP},
    {"kernel", 6, KCAT_KERNEL},
    {"cuda_runtime", 12, KCAT_CUDA_RUNTIME},
    {"python_function", 15, KCAT_PYTHON_FUNCTION},
    {"ac2g", 4, KCAT_FLOW},
    {"gpu_memcpy", 10, KCAT_GPU_MEMCPY},
    {"gpu_memset", 10, KCAT_GPU_MEMSET},
    {"user_annotation", 15, KCAT_USER_ANNOTATION},
    {"gpu_user_annotation", 19, KCAT_GPU_USER_ANNOTATION},
    {"cuda_driver", 11, KCAT_CUDA_DRIVER},
    {"cuda_sync", 9, KCAT_CUDA_SYNC},
    {"overhead", 8, KCAT_OVERHEAD},
    {"Trace", 5, KCAT_TRACE},
    {"fwdbwd", 6, KCAT_FLOW},
    {"async", 5, KCAT_FLOW},
    {"async_cpu_to_gpu", 16, KCAT_FLOW},
    {"Operator", 8, KCAT_CPU_OP},          /* the pre-2022 names */
    {"Runtime", 7, KCAT_CUDA_RUNTIME},
    {"Kernel", 6, KCAT_KERNEL},
    {"Memcpy", 6, KCAT_GPU_MEMCPY},
    {"Memset", 6, KCAT_GPU_MEMSET},
};

int kineto_parse_cat(const char *p, size_t n)
{
    char b[32];
    if (memchr(p, '\\', n)) {
        n = kineto_parse_unescape_small(p, n, b, sizeof b);
        if (n == (size_t)-1)
            return KCAT_OTHER;
        p = b;
    }
    for (size_t i = 0; i < sizeof cat_names / sizeof cat_names[0]; i++)
        if (cat_names[i].len == n && sm_bytes_eq(p, cat_names[i].name, n))
            return cat_names[i].cat;
    return KCAT_OTHER;
}
