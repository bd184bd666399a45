/* gpu_keymap: the window pass's 64-bit key map (gpu_impl.h). */
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

int gpu_keymap_take(gpu_keymap *m, scratch *s, unsigned slot, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    *m = (gpu_keymap){scratch_take(s, slot, cap * sizeof *m->slot), cap, 0, s, slot};
    if (!m->slot) {
        m->cap = 0;
        return -1;
    }
    memset(m->slot, 0, cap * sizeof *m->slot);
    return 0;
}

/* A table sized for every row and cleared whole was 1.28 MB a sum on
 * df_index_resolver, for a few hundred names: the three sums starting
 * small took 750 of its report's 7,900 page faults away (BENCHMARKS.md). */
#define SUMS_FIRST_KEYS 512

int gpu_keymap_take_sums(gpu_keymap *m, scratch *s, unsigned slot, size_t n)
{
    return gpu_keymap_take(m, s, slot, n < SUMS_FIRST_KEYS ? n : SUMS_FIRST_KEYS);
}

/* Doubled in place on its scratch slot: the keys are set aside past the
 * new table (they are at most half the old one), the table cleared, and
 * the keys put back. */
int gpu_keymap_room(gpu_keymap *m)
{
    if (2 * (m->len + 1) <= m->cap)
        return 0;
    size_t old = m->cap, cap = 2 * old, k = 0;
    gpu_keyslot *t = scratch_grow(m->s, m->sn, (cap + old / 2) * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < old; i++)
        if (t[i].at)
            t[cap + k++] = t[i];
    memset(t, 0, cap * sizeof *t);
    m->slot = t;
    m->cap = cap;
    for (size_t i = 0; i < k; i++)
        *slot_of(m, t[cap + i].key) = t[cap + i];
    return 0;
}
