/* varbuf: a growable byte buffer of LEB128 varints, for the long
 * per-event logs that are only ever read back in order (a Kineto trace's
 * CPU ops, GPU rows and [memory] events held until its end). Small values
 * (deltas, durations, name ids) take one to three bytes instead of eight;
 * signed deltas go through zigzag so that small negative ones stay small.
 * No I/O. */
#ifndef SMTOP_MODEL_VARBUF_H
#define SMTOP_MODEL_VARBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct varbuf {
    uint8_t *p;
    size_t n, cap;          /* bytes written, allocated */
} varbuf;

/* Grows b to hold more bytes past n (by doubling). 0, or -1 on OOM. */
int varbuf_grow(varbuf *b, size_t more);

/* Makes room for more bytes (a record's varints at most 10 each), so that
 * the puts of one record cannot fail halfway. 0, or -1 on OOM. */
static inline int varbuf_reserve(varbuf *b, size_t more)
{
    return b->cap - b->n >= more ? 0 : varbuf_grow(b, more);
}
/* Appends v (1 to 10 bytes). 0, or -1 on OOM with b unchanged. Inline:
 * a trace logs a few varints an event. */
static inline int varbuf_put(varbuf *b, uint64_t v)
{
    if (b->cap - b->n < 10 && varbuf_reserve(b, 10) != 0)
        return -1;
    while (v >= 0x80) {
        b->p[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
    return 0;
}

/* Appends a signed value, zigzag-coded. 0, or -1 on OOM (b unchanged). */
static inline int varbuf_put_signed(varbuf *b, int64_t v)
{
    uint64_t u = (uint64_t)v;
    return varbuf_put(b, (u << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

/* Gives the slack grown by doubling back (b kept as it is on failure). */
void varbuf_fit(varbuf *b);
void varbuf_free(varbuf *b);

/* The value at *pos (advanced past it); pos must be < b->n and at the
 * start of a value that varbuf_put wrote. */
static inline uint64_t varbuf_get(const varbuf *b, size_t *pos)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t c;
    do {
        c = b->p[(*pos)++];
        v |= (uint64_t)(c & 0x7f) << shift;
        shift += 7;
    } while (c & 0x80);
    return v;
}

/* The signed value at *pos (written by varbuf_put_signed). */
static inline int64_t varbuf_get_signed(const varbuf *b, size_t *pos)
{
    uint64_t z = varbuf_get(b, pos);
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

/* a - b and a + d in two's complement without signed overflow: a delta
 * log of arbitrary int64 values round-trips exactly. */
static inline int64_t varbuf_diff(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t varbuf_add(int64_t a, int64_t d)
{
    return (int64_t)((uint64_t)a + (uint64_t)d);
}

#endif
