#include "model/linhist.h"

#include <math.h>
#include <stdlib.h>

struct linhist {
    double hi, step;
    size_t nbins;
    uint64_t total;
    uint32_t counts[];
};

linhist *linhist_new(double hi, double step)
{
    if (!(step > 0) || !(hi / step >= 1) || hi / step > 1e6)
        return NULL;
    size_t nb = (size_t)llround(hi / step) + 1;
    linhist *h = calloc(1, sizeof *h + nb * sizeof h->counts[0]);
    if (!h)
        return NULL;
    h->hi = hi;
    h->step = step;
    h->nbins = nb;
    return h;
}

void linhist_free(linhist *h)
{
    free(h);
}

static size_t bin_of(const linhist *h, double v)
{
    size_t i = (size_t)llround(v / h->step);
    return i < h->nbins ? i : h->nbins - 1;
}

int linhist_takes(const linhist *h, double v)
{
    return v >= 0 && v <= h->hi && h->counts[bin_of(h, v)] < UINT32_MAX;
}

int linhist_add(linhist *h, double v, uint64_t n)
{
    if (!linhist_takes(h, v))
        return 0;
    uint32_t *c = &h->counts[bin_of(h, v)];
    uint64_t room = UINT32_MAX - *c, take = n < room ? n : room;
    *c += (uint32_t)take;
    h->total += take;
    return 1;
}

uint64_t linhist_total(const linhist *h)
{
    return h->total;
}

double linhist_kth(const linhist *h, uint64_t k)
{
    for (size_t i = 0; i < h->nbins; i++) {
        if (k < h->counts[i])
            return (double)i * h->step;
        k -= h->counts[i];
    }
    return h->hi;
}

void linhist_visit(const linhist *h, void (*f)(void *ud, double v, uint64_t n), void *ud)
{
    for (size_t i = 0; i < h->nbins; i++)
        if (h->counts[i])
            f(ud, (double)i * h->step, h->counts[i]);
}

double linhist_step(const linhist *h)
{
    return h->step;
}

size_t linhist_memory_bytes(const linhist *h)
{
    return h ? sizeof *h + h->nbins * sizeof h->counts[0] : 0;
}
