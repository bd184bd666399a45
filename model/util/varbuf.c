/* varbuf: see varbuf.h. */
#include "model/util/varbuf.h"

#include <stdlib.h>

#include "model/util/vec.h"

int varbuf_reserve(varbuf *b, size_t more)
{
    return vec_grow(&b->p, &b->cap, b->n + more, 1, 256);
}

int varbuf_put(varbuf *b, uint64_t v)
{
    if (varbuf_reserve(b, 10) != 0)
        return -1;
    while (v >= 0x80) {
        b->p[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
    return 0;
}

int varbuf_put_signed(varbuf *b, int64_t v)
{
    uint64_t u = (uint64_t)v;
    return varbuf_put(b, (u << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

void varbuf_fit(varbuf *b)
{
    if (!b->n || b->n >= b->cap)
        return;
    uint8_t *q = realloc(b->p, b->n);
    if (q) {
        b->p = q;
        b->cap = b->n;
    }
}

void varbuf_free(varbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}
