/* varbuf: see varbuf.h. */
#include "model/util/varbuf.h"

#include <stdlib.h>

#include "model/util/vec.h"

int varbuf_grow(varbuf *b, size_t more)
{
    return vec_grow(&b->p, &b->cap, b->n + more, 1, 256);
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
