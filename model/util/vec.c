/* vec: see vec.h. */
#include "model/util/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int vec_grow(void *data, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : (first ? first : 1);
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (elem && nc > SIZE_MAX / elem)
        return -1;
    void *old;
    memcpy(&old, data, sizeof old);
    void *p = realloc(old, nc * elem);
    if (!p)
        return -1;
    memcpy(data, &p, sizeof p);
    *cap = nc;
    return 0;
}

void vec_fit(void *data, size_t *cap, size_t n, size_t elem)
{
    if (n == 0 || n >= *cap)
        return;
    void *old;
    memcpy(&old, data, sizeof old);
    void *p = realloc(old, n * elem);
    if (!p)
        return;
    memcpy(data, &p, sizeof p);
    *cap = n;
}
