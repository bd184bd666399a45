/* narrow: a double in 4 bytes, losslessly, while it fits one of two forms:
 * a float (integers below 2^24, binary fractions) or an int32 of
 * hundredths (12.37, as system metrics are written). The quantile's exact
 * buffer and the series' raw tier both store values this way, falling
 * back to doubles when a value fits neither.
 *
 * A round trip is the whole test: k / 100.0 is the double nearest k/100,
 * which is what strtod makes of "12.37", so a decoded value is bit for
 * bit the value encoded. -0.0 is excluded, so that narrow values sort and
 * print like the doubles they stand for. */
#ifndef SMTOP_NARROW_H
#define SMTOP_NARROW_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { NARROW_F32 = 1, NARROW_DEC2 = 2 };   /* 0 means: doubles */

/* A third form in 2 bytes, for the raw tier only (series_tier.h): hundredths
 * from 0 to 655.35, which covers every utilization in percent. Its values
 * are DEC2 values, so widening to DEC2 is lossless too. */
enum { NARROW_H16 = 3 };

/* llround(x) for |x| < 2^52, written out: x - trunc(x) is then exact, so
 * comparing it with 0.5 is round-half-away-from-zero exactly. The libm
 * call was most of a value's test (issue 28: 2 % of a node worker). */
static inline int64_t narrow_round(double x)
{
    int64_t k = (int64_t)x;
    double f = x - (double)k;
    return f >= 0.5 ? k + 1 : f <= -0.5 ? k - 1 : k;
}

static inline int narrow_fits_h16(double v)
{
    if (!(v >= 0 && v <= 655.35) || signbit(v))
        return 0;
    int64_t k = narrow_round(v * 100);
    return (double)k / 100.0 == v;
}

static inline uint16_t narrow_encode_h16(double v)
{
    return (uint16_t)narrow_round(v * 100);
}

static inline double narrow_decode_h16(uint16_t u)
{
    return (double)u / 100.0;
}

/* Whether v survives a round trip through `mode`'s 4 bytes. */
static inline int narrow_fits(int mode, double v)
{
    if (v == 0 && signbit(v))
        return 0;
    if (mode == NARROW_F32)
        return fabs(v) <= FLT_MAX && (double)(float)v == v;
    if (!(fabs(v) < 2e7))
        return 0;
    return (double)(int32_t)narrow_round(v * 100) / 100.0 == v;
}

/* The other 4-byte form, for a buffer whose form a new value does not fit. */
static inline int narrow_other(int mode)
{
    return mode == NARROW_F32 ? NARROW_DEC2 : NARROW_F32;
}

/* v in `mode`'s 4 bytes; v must fit (narrow_fits). */
static inline uint32_t narrow_encode(int mode, double v)
{
    uint32_t u;
    if (mode == NARROW_F32) {
        float f = (float)v;
        memcpy(&u, &f, sizeof u);
    } else {
        u = (uint32_t)(int32_t)narrow_round(v * 100);
    }
    return u;
}

static inline double narrow_decode(int mode, uint32_t u)
{
    if (mode == NARROW_F32) {
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    return (double)(int32_t)u / 100.0;
}

#endif
