/* kineto_str: the string side of the Kineto decoder — JSON escapes
 * undone (names are handed over raw, and most never need it), terminal
 * sanitizing, and category names. */
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "io/decode/kineto_parse.h"
#include "model/util/sanitize.h"

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
    if (s->full || !n)   /* an empty piece: a measuring sink's out is NULL */
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

/* Whether p[0..n) is printable ASCII without a backslash: a name that
 * needs no unescaping and no sanitizing (nearly every kernel and op). */
static int plain_ascii(const char *p, size_t n)
{
    size_t i = 0;
#ifdef KPARSE_SSE2
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),   /* and >= 0x80 */
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
        bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        if (_mm_movemask_epi8(bad))
            return 0;
    }
#endif
    for (; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c >= 0x7f || c == '\\')
            return 0;
    }
    return 1;
}

size_t kineto_str_sanitize(sm_str raw, char *out, size_t cap)
{
    if (cap == 0)
        return 0;
    /* The common name, copied: what sanitize_clean would leave, at a
     * tenth of its cost (it was 6.5 % of a Kineto report's instructions,
     * one call per CPU event kept). */
    if (raw.ptr && plain_ascii(raw.ptr, raw.len)) {
        size_t k = raw.len < cap - 1 ? raw.len : cap - 1;
        memcpy(out, raw.ptr, k);
        out[k] = '\0';
        return k;
    }
    size_t n;
    copy_out(raw, out, cap, &n);
    return sanitize_clean(out, n);
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
