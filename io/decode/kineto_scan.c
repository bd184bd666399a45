/* kineto_scan: the value-level scanners of kineto_parse.h — strings,
 * skipped values and the three integer rules of kineto_decode.h. */
#include <string.h>

#include "io/decode/jscan.h"
#include "io/decode/kineto_parse.h"

/* KC_* by byte: whitespace, the bytes of numbers and literals, quote,
 * brackets, comma, colon; everything else is bad outside a string. */
const unsigned char kineto_parse_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 6, 2, 2, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 7, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4, 0, 5, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4, 0, 5, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

const char *kineto_parse_str_end(const char *p, const char *end, int *esc)
{
    p++;
    *esc = 0;
    for (;;) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* Eight bytes a step: kernel names run to KBs. The lowest flagged
         * byte of the borrow trick is exact (see jscan_swar_stop). */
        const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
            uint64_t m = (((q - ones) & ~q) | ((b - ones) & ~b)) & high;
            if (m) {
                p += __builtin_ctzll(m) >> 3;
                break;
            }
            p += 8;
        }
#endif
        while (p < end && *p != '"' && *p != '\\')
            p++;
        if (p >= end)
            return NULL;
        if (*p == '"')
            return p;
        *esc = 1;
        p += 2;          /* the escaped byte can be neither end nor quote */
        if (p >= end)
            return NULL;
    }
}

/* Steps over the rest of a container entered at depth `depth` (1 just
 * after its opening bracket; bits: its bracket kinds, 1 = '['). */
static const char *skip_nested(const char *p, const char *end, int depth, uint64_t bits)
{
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        switch (kineto_parse_class[c]) {
        case KC_QUOTE: {
            int esc;
            const char *q = kineto_parse_str_end(p, end, &esc);
            if (!q)
                return NULL;
            p = q + 1;
            continue;
        }
        case KC_OPEN:
            if (depth < 64)
                bits = bits << 1 | (c == '[');
            depth++;
            break;
        case KC_CLOSE:
            depth--;
            if (depth < 64) {
                if ((bits & 1) != (c == ']'))
                    return NULL;
                bits >>= 1;
            }
            if (depth == 0)
                return p + 1;
            break;
        case KC_BAD:
            return NULL;
        default:
            break;
        }
        p++;
    }
    return NULL;
}

const char *kineto_parse_skip_rest(const char *p, const char *end)
{
    return skip_nested(p, end, 1, 0);
}

/* Whether c may follow a number or literal: anything else (a letter, a
 * quote, a byte no JSON has) makes the value bad here, and the element is
 * then judged by the gathering scanner, as it would be in pieces. */
static int ends_scalar(char c)
{
    int k = kineto_parse_class[(unsigned char)c];
    return k == KC_WS || k == KC_COMMA || k == KC_CLOSE;
}

static const char *skip_literal(const char *p, const char *end)
{
    static const char *const words[3] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        size_t n = strlen(words[w]);
        if ((size_t)(end - p) > n && memcmp(p, words[w], n) == 0)
            return ends_scalar(p[n]) ? p + n : NULL;
    }
    return NULL;
}

/* A number's end; NULL when bad or when the buffer ends in it. */
static const char *skip_number(const char *p, const char *end)
{
    jscan s = {p, end};
    jnum n;
    if (jscan_number_syntax(&s, &n) != 0 || s.p >= end || !ends_scalar(*s.p))
        return NULL;
    return s.p;
}

const char *kineto_parse_skip(const char *p, const char *end)
{
    p = kineto_parse_ws(p, end);
    if (p >= end)
        return NULL;
    char c = *p;
    if (c == '"') {
        int esc;
        const char *q = kineto_parse_str_end(p, end, &esc);
        return q ? q + 1 : NULL;
    }
    if (c == '{' || c == '[')
        return skip_nested(p + 1, end, 1, c == '[');
    if (c == '-' || is_digit(c))
        return skip_number(p, end);
    return skip_literal(p, end);
}

static int digit_at(const jnum *n, size_t k)
{
    return k < n->ilen ? n->ip[k] - '0' : n->fp[k - n->ilen] - '0';
}

/* The general path of the three rules: value = digits × 10^e, exactly. */
static int64_t dec_to_int(const jnum *n, int rule)
{
    size_t len = n->ilen + n->flen;
    int64_t e = n->exp - (int64_t)n->flen + (rule == KR_NS ? 3 : 0);
    int64_t k = (int64_t)len + e;     /* digits left of the point */
    size_t whole = e >= 0 ? len : (k > 0 ? (size_t)k : 0);
    uint64_t acc = 0;
    int ovf = 0;
    for (size_t i = 0; i < whole; i++) {
        unsigned d = (unsigned)digit_at(n, i);
        if (rule != KR_ID && acc > (UINT64_MAX - d) / 10)
            ovf = 1;
        acc = acc * 10 + d;   /* wraps: KR_ID wants it mod 2^64 */
    }
    if (e >= 0) {
        if (rule == KR_ID && e >= 64)
            acc = 0;          /* 10^e = 2^e·5^e ≡ 0 mod 2^64 */
        for (int64_t i = 0; i < e && acc && !ovf; i++) {
            if (rule != KR_ID && acc > UINT64_MAX / 10)
                ovf = 1;
            acc *= 10;
        }
    } else if (rule == KR_NS) {
        size_t r = k >= 0 ? (size_t)k : len;       /* the first digit dropped */
        if (r < len && digit_at(n, r) >= 5) {      /* half away from zero */
            if (acc == UINT64_MAX)
                ovf = 1;
            acc++;
        }
    } else {
        for (size_t i = whole; i < len; i++)
            if (digit_at(n, i) != 0)
                return SM_KEV_NONE;    /* not an integer */
    }
    if (rule == KR_ID)
        return n->neg ? (int64_t)(0 - acc) : (int64_t)acc;
    if (ovf || acc > (uint64_t)INT64_MAX + (uint64_t)n->neg)
        return SM_KEV_NONE;
    return n->neg ? (int64_t)(0 - acc) : (int64_t)acc;
}

/* [-]digits[.ddd] (NS) or [-]digits: the common shapes, in one pass. */
static const char *int_short(const char *p, const char *end, int rule, int64_t *out)
{
    const char *q = p;
    int neg = *q == '-';
    q += neg;
    const char *ds = q;
    uint64_t v = 0;
    size_t max = rule == KR_NS ? 16 : 18;
    const char *lim = (size_t)(end - q) < max ? end : q + max;
    for (unsigned dg; q < lim && (dg = (unsigned)(*q - '0')) < 10; q++)
        v = v * 10 + dg;    /* the decoder's hottest loop: one test a digit */
    size_t il = (size_t)(q - ds);
    if (il == 0 || q >= end || (*ds == '0' && il > 1))
        return NULL;
    if (rule == KR_NS) {
        int f = 0;
        if (*q == '.') {
            const char *fs = ++q;
            lim = end - q < 3 ? end : q + 3;
            for (unsigned dg; q < lim && (dg = (unsigned)(*q - '0')) < 10; q++)
                v = v * 10 + dg;
            f = (int)(q - fs);
            if (f == 0 || q >= end)
                return NULL;
        }
        for (; f < 3; f++)
            v *= 10;
        if (v > (uint64_t)INT64_MAX)
            return NULL;
    }
    if (!ends_scalar(*q))
        return NULL;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return q;
}

const char *kineto_parse_int(const char *p, const char *end, int rule, int64_t *out)
{
    p = kineto_parse_ws(p, end);
    if (p >= end)
        return NULL;
    char c = *p;
    if (c != '-' && !is_digit(c)) {
        *out = SM_KEV_NONE;
        return kineto_parse_skip(p, end);
    }
    const char *q = int_short(p, end, rule, out);
    if (q)
        return q;
    jscan s = {p, end};
    jnum n;
    if (jscan_number_syntax(&s, &n) != 0 || s.p >= end || !ends_scalar(*s.p))
        return NULL;
    *out = dec_to_int(&n, rule);
    return s.p;
}
