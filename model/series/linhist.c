/* linhist: see linhist.h. Counts live in a window of bins [lo, lo + nalloc)
 * grown on demand, each count 1, 2 or 4 bytes wide and widened when one
 * would overflow: most series keep their values in a narrow band (a busy
 * GPU at 95-100 %) and a few hundred samples per bin, so sizing to the data
 * costs a few hundred bytes where all 1001 bins of 4 bytes cost 4 KB. */
#include "model/series/linhist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct linhist {
    double hi, step;
    size_t nbins;
    uint64_t total;
    size_t lo, nalloc;      /* bins lo .. lo + nalloc - 1 are stored */
    unsigned width;         /* bytes per count: 1, 2 or 4 (0 before any) */
    void *counts;
};

linhist *linhist_new(double hi, double step)
{
    if (!(step > 0) || !(hi / step >= 1) || hi / step > 1e6)
        return NULL;
    linhist *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->hi = hi;
    h->step = step;
    h->nbins = (size_t)llround(hi / step) + 1;
    return h;
}

void linhist_free(linhist *h)
{
    if (h)
        free(h->counts);
    free(h);
}

/* llround(v / step) for v in [0, hi], written out: v / step is below
 * 2^52, so its fraction x - (size_t)x is exact and ">= 0.5 rounds up" is
 * llround's half-away-from-zero. The libm call was a tenth of the
 * merge thread's time in a report (issue 15). */
static size_t bin_of(const linhist *h, double v)
{
    double x = v / h->step;
    size_t i = (size_t)x;
    if (x - (double)i >= 0.5)
        i++;
    return i < h->nbins ? i : h->nbins - 1;
}

/* Count of stored slot k (k < nalloc). */
static uint32_t slot_get(const linhist *h, size_t k)
{
    switch (h->width) {
    case 1: return ((const uint8_t *)h->counts)[k];
    case 2: return ((const uint16_t *)h->counts)[k];
    default: return ((const uint32_t *)h->counts)[k];
    }
}

static void slot_set(linhist *h, size_t k, uint32_t c)
{
    switch (h->width) {
    case 1: ((uint8_t *)h->counts)[k] = (uint8_t)c; break;
    case 2: ((uint16_t *)h->counts)[k] = (uint16_t)c; break;
    default: ((uint32_t *)h->counts)[k] = c; break;
    }
}

static uint32_t count_of(const linhist *h, size_t bin)
{
    return h->counts && bin >= h->lo && bin - h->lo < h->nalloc ? slot_get(h, bin - h->lo) : 0;
}

static uint32_t width_max(unsigned w)
{
    return w == 1 ? UINT8_MAX : w == 2 ? UINT16_MAX : UINT32_MAX;
}

/* Re-lays the counts to cover bin (padding a little either side) at
 * least `width` bytes wide. 0, or -1 on OOM (h unchanged). */
static int relayout(linhist *h, size_t bin, unsigned width)
{
    size_t lo = h->counts ? h->lo : bin, hi = h->counts ? h->lo + h->nalloc : bin;
    if (bin < lo || bin >= hi) {
        size_t pad = (hi - lo) / 2 + 16;
        if (bin < lo)
            lo = bin > pad ? bin - pad : 0;
        else
            hi = bin + 1 + pad;
        if (hi > h->nbins)
            hi = h->nbins;
    }
    if (width < h->width)
        width = h->width;
    void *c = calloc(hi - lo, width);
    if (!c)
        return -1;
    linhist old = *h;
    h->counts = c;
    h->lo = lo;
    h->nalloc = hi - lo;
    h->width = width;
    for (size_t k = 0; old.counts && k < old.nalloc; k++)
        slot_set(h, old.lo + k - lo, slot_get(&old, k));
    free(old.counts);
    return 0;
}

size_t linhist_bin(const linhist *h, double v)
{
    if (!(v >= 0 && v <= h->hi))
        return LINHIST_NOT_TAKEN;
    size_t bin = bin_of(h, v);
    return count_of(h, bin) < UINT32_MAX ? bin : LINHIST_NOT_TAKEN;
}

int linhist_takes(const linhist *h, double v)
{
    return linhist_bin(h, v) != LINHIST_NOT_TAKEN;
}

int linhist_reserve_bin(linhist *h, size_t bin, uint64_t n)
{
    uint64_t want = (uint64_t)count_of(h, bin) + n;
    unsigned width = h->width ? h->width : 1;
    while (width < 4 && want > width_max(width))
        width *= 2;
    int covered = h->counts && bin >= h->lo && bin - h->lo < h->nalloc;
    if (covered && width == h->width)
        return 0;
    return relayout(h, bin, width);
}

int linhist_reserve(linhist *h, double v, uint64_t n)
{
    size_t bin = linhist_bin(h, v);
    return bin == LINHIST_NOT_TAKEN ? 1 : linhist_reserve_bin(h, bin, n);
}

void linhist_add_bin(linhist *h, size_t bin, uint64_t n)
{
    size_t k = bin - h->lo;
    uint32_t c = slot_get(h, k);
    uint64_t room = UINT32_MAX - c, take = n < room ? n : room;
    slot_set(h, k, c + (uint32_t)take);
    h->total += take;
}

int linhist_add(linhist *h, double v, uint64_t n)
{
    size_t slot;
    if (n == 1 && linhist_slot(h, v, &slot) == 1) {
        linhist_bump(h, slot);   /* what the steps below come to then */
        return 1;
    }
    size_t bin = linhist_bin(h, v);
    if (bin == LINHIST_NOT_TAKEN)
        return 0;
    if (linhist_reserve_bin(h, bin, n) != 0)
        return -1;
    linhist_add_bin(h, bin, n);
    return 1;
}

int linhist_slot(const linhist *h, double v, size_t *slot)
{
    if (!(v >= 0 && v <= h->hi))
        return -1;
    size_t bin = bin_of(h, v);
    if (!h->counts || bin < h->lo || bin - h->lo >= h->nalloc)
        return 0;
    uint32_t c = slot_get(h, bin - h->lo);
    if (c == UINT32_MAX)
        return -1;   /* a full bin takes no more: linhist_bin's rule */
    *slot = bin - h->lo;
    return c < width_max(h->width);
}

void linhist_bump(linhist *h, size_t slot)
{
    slot_set(h, slot, slot_get(h, slot) + 1);
    h->total++;
}

uint64_t linhist_total(const linhist *h)
{
    return h->total;
}

double linhist_kth(const linhist *h, uint64_t k)
{
    for (size_t i = 0; h->counts && i < h->nalloc; i++) {
        uint32_t c = slot_get(h, i);
        if (k < c)
            return (double)(h->lo + i) * h->step;
        k -= c;
    }
    return h->hi;
}

void linhist_visit(const linhist *h, void (*f)(void *ud, double v, uint64_t n), void *ud)
{
    for (size_t i = 0; h->counts && i < h->nalloc; i++) {
        uint32_t c = slot_get(h, i);
        if (c)
            f(ud, (double)(h->lo + i) * h->step, c);
    }
}

double linhist_step(const linhist *h)
{
    return h->step;
}

size_t linhist_memory_bytes(const linhist *h)
{
    return h ? sizeof *h + h->nalloc * h->width : 0;
}
