/* scratch: see scratch.h. A slot only grows: the passes of one trace's
 * windows need about the same sizes window after window. */
#include "model/util/scratch.h"

#include <stdlib.h>

struct scratch {
    void *p[SCRATCH_SLOTS];
    size_t cap[SCRATCH_SLOTS];
};

scratch *scratch_new(void)
{
    return calloc(1, sizeof(scratch));
}

void scratch_free(scratch *s)
{
    for (size_t i = 0; s && i < SCRATCH_SLOTS; i++)
        free(s->p[i]);
    free(s);
}

/* A quarter more than asked, so that a window a little larger than the
 * last does not allocate again. */
static size_t room_for(size_t bytes)
{
    return bytes + bytes / 4 + 64;
}

void *scratch_take(scratch *s, unsigned slot, size_t bytes)
{
    if (slot >= SCRATCH_SLOTS)
        return NULL;
    if (bytes <= s->cap[slot] && s->p[slot])
        return s->p[slot];
    /* the old contents are not wanted: no realloc's copy */
    void *p = malloc(room_for(bytes));
    if (!p)
        return NULL;
    free(s->p[slot]);
    s->p[slot] = p;
    s->cap[slot] = room_for(bytes);
    return p;
}

void *scratch_grow(scratch *s, unsigned slot, size_t bytes)
{
    if (slot >= SCRATCH_SLOTS)
        return NULL;
    if (bytes <= s->cap[slot] && s->p[slot])
        return s->p[slot];
    void *p = realloc(s->p[slot], room_for(bytes));
    if (!p)
        return NULL;
    s->p[slot] = p;
    s->cap[slot] = room_for(bytes);
    return p;
}
