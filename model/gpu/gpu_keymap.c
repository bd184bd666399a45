/* gpu_keymap: the window pass's 64-bit key map (gpu_impl.h). */
#include <stdlib.h>
#include <string.h>

#include "model/gpu/gpu_impl.h"

/* key's slot: its own, or the empty one where it goes (m has one). */
static gpu_keyslot *slot_of(const gpu_keymap *m, uint64_t key)
{
    /* Fibonacci hashing: the top bits of key times 2^64 / phi */
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (m->cap - 1);
    while (m->slot[i].at && m->slot[i].key != key)
        i = (i + 1) & (m->cap - 1);
    return &m->slot[i];
}

size_t gpu_keymap_put(gpu_keymap *m, uint64_t key, size_t next)
{
    gpu_keyslot *sl = slot_of(m, key);
    if (!sl->at) {
        *sl = (gpu_keyslot){key, (uint32_t)next + 1};
        m->len++;
    }
    return sl->at - 1;
}

int gpu_keymap_room(gpu_keymap *m)
{
    if (2 * (m->len + 1) <= m->cap)
        return 0;
    gpu_keymap n = {NULL, m->cap ? m->cap * 2 : 1024, m->len};
    n.slot = calloc(n.cap, sizeof *n.slot);
    if (!n.slot)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].at)
            *slot_of(&n, m->slot[i].key) = m->slot[i];
    free(m->slot);
    *m = n;
    return 0;
}

void gpu_keymap_clear(gpu_keymap *m, size_t n)
{
    /* a table far larger than this window can fill (a window of many
     * more events before it) is given back, not cleared window after
     * window */
    if (m->cap > 64 * (n + 64))
        gpu_keymap_free(m);
    if (m->slot)
        memset(m->slot, 0, m->cap * sizeof *m->slot);
    m->len = 0;
}

void gpu_keymap_free(gpu_keymap *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

int gpu_keymap_take(gpu_keymap *m, scratch *s, unsigned slot, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    m->slot = scratch_take(s, slot, cap * sizeof *m->slot);
    m->cap = m->slot ? cap : 0;
    m->len = 0;
    if (!m->slot)
        return -1;
    memset(m->slot, 0, cap * sizeof *m->slot);
    return 0;
}
