#include "io/decode/jscan.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Exactly representable powers of ten: one IEEE multiply or divide by one
 * of these is correctly rounded when the mantissa is exact (Clinger). */
static const double pow10_exact[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define EXP_CLAMP 100000

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int jscan_literal(jscan *s, int *which)
{
    static const char *const words[3] = {"false", "true", "null"};
    size_t avail = (size_t)(s->end - s->p);
    for (int w = 0; w < 3; w++) {
        size_t n = strlen(words[w]);
        if (avail >= n && memcmp(s->p, words[w], n) == 0) {
            s->p += n;
            *which = w;
            return 0;
        }
    }
    return -1;
}

static int scan_int64(const char *p, size_t len, int neg, int64_t *out)
{
    uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (size_t k = 0; k < len; k++) {
        unsigned d = (unsigned)(p[k] - '0');
        if (acc > (limit - d) / 10)
            return -1;
        acc = acc * 10 + d;
    }
    *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return 0;
}

/* Clinger's fast path; -1 when the mantissa or exponent is too large. */
static int real_fast(const jnum *n, double *out)
{
    uint64_t m = 0;
    int sig = 0;
    const char *parts[2] = {n->ip, n->fp};
    size_t lens[2] = {n->ilen, n->flen};
    for (int k = 0; k < 2; k++)
        for (size_t j = 0; j < lens[k]; j++) {
            if (m == 0 && parts[k][j] == '0')
                continue;
            if (++sig > 15)
                return -1;
            m = m * 10 + (uint64_t)(parts[k][j] - '0');
        }
    int64_t e10 = n->exp - (int64_t)n->flen;
    double d = (double)m;
    if (m != 0) {
        if (e10 > 22 || e10 < -22)
            return -1;
        d = e10 >= 0 ? d * pow10_exact[e10] : d / pow10_exact[-e10];
    }
    *out = n->neg ? -d : d;
    return 0;
}

/* strtod on a bounded copy, with the locale's decimal point as jansson
 * does, so an LC_NUMERIC of "," (set by a UI's setlocale) cannot bite.
 * The copy is exactly the token: strtod never reads past it. */
static int real_slow(const jnum *n, double *out)
{
    char small[64];
    char *buf = n->len < sizeof small ? small : malloc(n->len + 1);
    if (!buf)
        return -1;
    memcpy(buf, n->ptr, n->len);
    buf[n->len] = '\0';
    const char *dp = localeconv()->decimal_point;
    char *dot = memchr(buf, '.', n->len);
    if (dot && dp && dp[0] && !dp[1])
        *dot = dp[0];
    char *end;
    double d = strtod(buf, &end);
    int ok = end == buf + n->len && !isinf(d);
    if (buf != small)
        free(buf);
    if (!ok)
        return -1;
    *out = d;
    return 0;
}

static const char *scan_digits(const char *p, const char *end)
{
    while (p < end && is_digit(*p))
        p++;
    return p;
}

static int scan_exponent(const char **pp, const char *end, int64_t *exp)
{
    const char *p = *pp + 1;
    int eneg = 0;
    if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
    const char *xs = p;
    int64_t ex = 0;
    for (; p < end && is_digit(*p); p++)
        if (ex < EXP_CLAMP)
            ex = ex * 10 + (*p - '0');
    if (p == xs)
        return -1;
    if (ex > EXP_CLAMP)
        ex = EXP_CLAMP;
    *exp = eneg ? -ex : ex;
    *pp = p;
    return 0;
}

int jscan_number_syntax(jscan *s, jnum *n)
{
    const char *p = s->p, *end = s->end;
    memset(n, 0, sizeof *n);
    n->ptr = p;
    if (p < end && *p == '-') {
        n->neg = 1;
        p++;
    }
    if (p >= end || !is_digit(*p))
        return -1;
    n->ip = p;
    p = *p == '0' ? p + 1 : scan_digits(p, end);
    n->ilen = (size_t)(p - n->ip);
    n->is_int = 1;
    if (p < end && *p == '.') {
        n->fp = ++p;
        p = scan_digits(p, end);
        n->flen = (size_t)(p - n->fp);
        if (n->flen == 0)
            return -1;
        n->is_int = 0;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        if (scan_exponent(&p, end, &n->exp) != 0)
            return -1;
        n->is_int = 0;
    }
    n->len = (size_t)(p - n->ptr);
    s->p = p;
    return 0;
}

/* The common shape of a number, [-]int[.frac] without exponent, as
 * short_scan leaves it. Inlined into its two callers, it lives in
 * registers. */
typedef struct short_num {
    const char *ip, *fp, *p;   /* integer digits, fraction (NULL: none), end */
    uint64_t m;                /* the digits as one integer, mod 2^64 */
    size_t ilen, flen;
    int neg;
} short_num;

/* Scans the common shape with its mantissa gathered on the way: 0, or
 * -1 to let the general path decide (an exponent, more than 19 digits, a
 * syntax error). A byte loop: Values are 1-3 digits, a point and 1-2, and
 * eight bytes at a time (SWAR) measured more instructions there. */
static inline int short_scan(const char *p, const char *end, short_num *o)
{
    o->neg = 0;
    if (p < end && *p == '-') {
        o->neg = 1;
        p++;
    }
    if (p >= end || !is_digit(*p))
        return -1;
    uint64_t m = 0;
    o->ip = p;
    o->fp = NULL;
    if (*p == '0')
        p++;
    else
        for (; p < end && is_digit(*p); p++)
            m = m * 10 + (uint64_t)(*p - '0');
    o->ilen = (size_t)(p - o->ip);
    o->flen = 0;
    if (p < end && *p == '.') {
        o->fp = ++p;
        for (; p < end && is_digit(*p); p++)
            m = m * 10 + (uint64_t)(*p - '0');
        o->flen = (size_t)(p - o->fp);
        if (o->flen == 0)
            return -1;
    }
    if ((p < end && (*p == 'e' || *p == 'E')) || o->ilen + o->flen > 19)
        return -1;   /* m may have wrapped: not ours */
    o->m = m;
    o->p = p;
    return 0;
}

/* The double of a short_scan result, as the general path gives it: an
 * integer range-checked as jansson does and converted from int64 ("-0"
 * is 0), a real m / 10^flen with m <= 2^53 and flen <= 22, both exact
 * doubles, so one IEEE division is correctly rounded (Clinger), i.e. the
 * double strtod returns. -1 when out of those bounds. */
static inline int short_value(const short_num *sn, int64_t *i, double *d)
{
    if (!sn->fp) {
        if (sn->m > (sn->neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
            return -1;
        *i = sn->neg ? (int64_t)(0 - sn->m) : (int64_t)sn->m;
        *d = (double)*i;
        return 0;
    }
    if (sn->m > (1ULL << 53) || sn->flen > 22)
        return -1;
    double v = sn->m ? (double)sn->m / pow10_exact[sn->flen] : 0.0;
    *i = 0;
    *d = sn->neg ? -v : v;
    return 0;
}

/* jscan_number for the common shape: 0 when n is filled, -1 to let the
 * general path decide. Its results equal the general path's (above). */
static int number_short(jscan *s, jnum *n)
{
    short_num sn;
    if (short_scan(s->p, s->end, &sn) != 0 || short_value(&sn, &n->i, &n->d) != 0)
        return -1;
    /* Every field set one by one: a memset of the struct compiles to a
     * rep stos that cost as much as the scan. */
    n->is_int = !sn.fp;
    n->fp = sn.fp;
    n->flen = sn.flen;
    n->exp = 0;
    n->ptr = s->p;
    n->len = (size_t)(sn.p - s->p);
    n->neg = sn.neg;
    n->ip = sn.ip;
    n->ilen = sn.ilen;
    s->p = sn.p;
    return 0;
}

int jscan_value(jscan *s, double *out)
{
    short_num sn;
    int64_t i;
    if (short_scan(s->p, s->end, &sn) == 0 && short_value(&sn, &i, out) == 0) {
        s->p = sn.p;
        return 0;
    }
    jnum n;
    if (jscan_number(s, &n) != 0)
        return -1;
    *out = n.d;
    return 0;
}

int jscan_number(jscan *s, jnum *n)
{
    if (number_short(s, n) == 0)
        return 0;
    jscan t = *s;
    if (jscan_number_syntax(&t, n) != 0)
        return -1;
    if (n->is_int) {
        if (scan_int64(n->ip, n->ilen, n->neg, &n->i) != 0)
            return -1;
        n->d = (double)n->i;
    } else if (real_fast(n, &n->d) != 0 && real_slow(n, &n->d) != 0) {
        return -1;
    }
    *s = t;
    return 0;
}

/* Digit k of the concatenated integer+fraction digits. */
static int digit_at(const jnum *n, int64_t k)
{
    if (k < 0)
        return 0;
    if ((uint64_t)k < n->ilen)
        return n->ip[k] - '0';
    k -= (int64_t)n->ilen;
    return (uint64_t)k < n->flen ? n->fp[k] - '0' : 0;
}

int jscan_seconds_to_us(const jnum *n, int64_t *out)
{
    int64_t ndig = (int64_t)(n->ilen + n->flen);
    /* Number of digits in front of the microsecond point. */
    int64_t point = (int64_t)n->ilen + n->exp + 6;
    uint64_t acc = 0;
    const uint64_t limit = (uint64_t)INT64_MAX;
    for (int64_t k = 0; k < point; k++) {
        unsigned d = (unsigned)digit_at(n, k);
        if (acc == 0 && d == 0) {
            if (k >= ndig)
                break;   /* all zero so far and nothing left */
            continue;
        }
        if (acc > (limit - d) / 10)
            return -1;
        acc = acc * 10 + d;
    }
    if (point >= 0 && point < ndig && digit_at(n, point) >= 5) {
        if (acc == limit)
            return -1;
        acc++;
    }
    *out = n->neg ? -(int64_t)acc : (int64_t)acc;
    return 0;
}

int jscan_seconds(jscan *s, int64_t *out)
{
    const char *p = s->p, *end = s->end;
    int neg = 0;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    const char *ip = p;
    uint64_t whole = 0, frac = 0;
    int round = 0;
    if (p < end && *p == '0')
        p++;
    else
        for (; p < end && is_digit(*p); p++)
            whole = whole * 10 + (uint64_t)(*p - '0');
    /* At most 12 integer digits keep whole * 10^6 + frac below 2^63. */
    size_t ilen = (size_t)(p - ip);
    if (ilen == 0 || ilen > 12)
        goto general;
    if (p < end && *p == '.') {
        const char *fp = ++p;
        for (; p < end && is_digit(*p); p++) {
            size_t k = (size_t)(p - fp);
            if (k < 6)
                frac = frac * 10 + (uint64_t)(*p - '0');
            else if (k == 6)
                round = *p >= '5';
        }
        size_t flen = (size_t)(p - fp);
        if (flen == 0)
            goto general;
        for (; flen < 6; flen++)
            frac *= 10;
    }
    if (p < end && (*p == 'e' || *p == 'E'))
        goto general;
    uint64_t us = whole * 1000000 + frac + (uint64_t)round;
    *out = neg ? -(int64_t)us : (int64_t)us;
    s->p = p;
    return 0;
general: {
        jscan t = *s;
        jnum n;
        if (jscan_number_syntax(&t, &n) != 0 || jscan_seconds_to_us(&n, out) != 0)
            return -1;
        *s = t;
        return 0;
    }
}

int jscan_parse_int(const char *p, size_t len, int64_t *out)
{
    int neg = 0;
    if (len && *p == '-') {
        neg = 1;
        p++;
        len--;
    }
    if (len == 0 || len > 19)
        return -1;
    for (size_t k = 0; k < len; k++)
        if (!is_digit(p[k]))
            return -1;
    return scan_int64(p, len, neg, out);
}
