/* deque: contiguous elements with slack at both ends (see deque.h). */
#include "model/series/deque.h"

#include <stdlib.h>
#include <string.h>

void deque_init(deque *d, size_t elem_size, size_t max_len, size_t slack)
{
    memset(d, 0, sizeof *d);
    d->elem = elem_size;
    d->max_len = max_len;
    d->slack = slack < 2 ? 2 : slack;
}

void deque_free(deque *d)
{
    free(d->buf);
    d->buf = NULL;
    d->head = d->len = d->alloc = 0;
}

size_t deque_bytes(const deque *d)
{
    return d->alloc * d->elem;
}

/* Moves the live block so that `front` free slots precede it. */
static void place_block(deque *d, size_t front)
{
    if (front != d->head)
        memmove(d->buf + front * d->elem, d->buf + d->head * d->elem, d->len * d->elem);
    d->head = front;
}

/* Storage grows by a quarter (not doubling, nor by half): a series'
 * tiers stop growing at whatever length its history reaches, and the
 * unused tail of the last growth is what a node pays for every one of its
 * series (by half, 15-26 % of an hour's buckets: 9 MB at 256 nodes). */
static size_t grown(const deque *d)
{
    size_t want = d->alloc ? d->alloc + d->alloc / 4 + 1 : 8;
    return want > d->max_len + d->slack ? d->max_len + d->slack : want;
}

/* Guarantees a free slot on the requested side (at_front: before head,
 * else after head+len), growing or re-centring. 0, or -1 on OOM. */
static int make_room(deque *d, int at_front)
{
    size_t free_slots = d->alloc - d->len;
    if (free_slots < 2 || (d->alloc < d->max_len + d->slack && free_slots < d->alloc / 4)) {
        size_t want = grown(d);
        if (want < d->len + 2)
            want = d->len + 2;
        unsigned char *nb = realloc(d->buf, want * d->elem);
        if (!nb)
            return -1;
        d->buf = nb;
        d->alloc = want;
        free_slots = want - d->len;
    }
    /* Give most free room to the side that ran out: appends and
     * front-inserts then stay O(1) amortised. */
    size_t front = at_front ? free_slots - free_slots / 4 : free_slots / 4;
    place_block(d, front);
    return 0;
}

int deque_insert(deque *d, size_t i, const void *elem)
{
    int front_side = i < d->len / 2;
    if (front_side && d->head == 0)
        front_side = d->head + d->len == d->alloc ? 1 : 0;
    if (front_side ? d->head == 0 : d->head + d->len == d->alloc) {
        if (make_room(d, front_side) != 0)
            return -1;
    }
    size_t e = d->elem;
    if (front_side) {
        unsigned char *base = d->buf + (d->head - 1) * e;
        memmove(base, base + e, i * e);
        d->head--;
    } else {
        unsigned char *at = d->buf + (d->head + i) * e;
        memmove(at + e, at, (d->len - i) * e);
    }
    memcpy(d->buf + (d->head + i) * e, elem, e);
    d->len++;
    return 0;
}

int deque_reserve(deque *d, size_t n)
{
    if (d->alloc >= n)
        return 0;
    size_t want = grown(d);
    if (want < n)
        want = n;
    unsigned char *nb = realloc(d->buf, want * d->elem);
    if (!nb)
        return -1;
    d->buf = nb;
    d->alloc = want;
    return 0;
}

void deque_prepend(deque *d, const void *elems, size_t n)
{
    if (d->head < n) {
        /* Older data tends to keep arriving in front: leave it most of
         * the free room, as make_room does for a front insert. */
        size_t spare = d->alloc - d->len - n;
        place_block(d, n + spare - spare / 4);
    }
    d->head -= n;
    d->len += n;
    memcpy(d->buf + d->head * d->elem, elems, n * d->elem);
}

void deque_pop_front(deque *d)
{
    if (d->len == 0)
        return;
    d->head++;
    d->len--;
    if (d->len == 0)
        d->head = d->alloc / 2;
}

void deque_remove(deque *d, size_t i)
{
    size_t e = d->elem;
    unsigned char *at = d->buf + (d->head + i) * e;
    if (i < d->len / 2) {
        memmove(d->buf + (d->head + 1) * e, d->buf + d->head * e, i * e);
        d->head++;
    } else {
        memmove(at, at + e, (d->len - i - 1) * e);
    }
    d->len--;
}

void deque_limit(deque *d, size_t max_len, size_t slack)
{
    d->max_len = max_len;
    d->slack = slack < 2 ? 2 : slack;
    size_t cap = max_len + d->slack;
    if (d->alloc <= cap)
        return;
    place_block(d, (cap - d->len) / 4);
    unsigned char *nb = realloc(d->buf, cap * d->elem);
    if (nb) {
        d->buf = nb;
        d->alloc = cap;
    }
}

int deque_widen(deque *d, size_t elem_size)
{
    if (elem_size <= d->elem)
        return 0;
    if (d->alloc) {
        unsigned char *nb = realloc(d->buf, d->alloc * elem_size);
        if (!nb)
            return -1;
        d->buf = nb;
    }
    d->elem = elem_size;
    return 0;
}
