/* deque: a sorted-insert-friendly array of fixed-size elements.
 *
 * Elements live contiguously in buf[head, head+len) with free slack on both
 * ends, so readers get a plain array (binary search and linear passes need
 * no index wrapping) while pops at the front, pushes at the back and
 * inserts near either end stay cheap: an insert shifts whichever side is
 * shorter, and the block is re-centred (or the buffer grown) only when that
 * side has no slack left. Storage grows on demand up to max_len elements
 * plus slack, so a short series costs a few hundred bytes.
 *
 * Hand-written on purpose: the operations are a dozen lines each and no
 * small, well-kept C library offering exactly this is available here. */
#ifndef SMTOP_DEQUE_H
#define SMTOP_DEQUE_H

#include <stddef.h>

typedef struct deque {
    unsigned char *buf;
    size_t elem;        /* bytes per element */
    size_t head, len;   /* live elements: buf[head .. head+len) */
    size_t alloc;       /* elements allocated */
    size_t max_len;     /* the owner never keeps more than this */
    size_t slack;       /* extra room allocated once at max_len */
} deque;

/* Initialises an empty deque (no allocation yet). */
void deque_init(deque *d, size_t elem_size, size_t max_len, size_t slack);
void deque_free(deque *d);

static inline size_t deque_len(const deque *d) { return d->len; }
/* Pointer to element i (i < len); valid until the next insert. */
static inline void *deque_at(const deque *d, size_t i)
{
    return d->buf + (d->head + i) * d->elem;
}

/* Inserts a copy of *elem before position i (0 <= i <= len). The caller
 * keeps len < max_len (pop first). Returns 0, or -1 on OOM (d unchanged). */
int deque_insert(deque *d, size_t i, const void *elem);
/* Makes alloc >= n elements (n <= max_len + slack) so that inserts up to
 * that total can be placed without allocating: see deque_prepend. 0, or -1
 * on OOM (d unchanged). */
int deque_reserve(deque *d, size_t n);
/* Inserts n elements in front of the first. Requires alloc >= len + n
 * (deque_reserve); cannot fail. */
void deque_prepend(deque *d, const void *elems, size_t n);
/* Removes the first element (no-op when empty). */
void deque_pop_front(deque *d);
/* Removes element i (i < len), shifting the shorter side. */
void deque_remove(deque *d, size_t i);
/* Makes each element elem_size bytes (larger than now): storage grows to
 * alloc * elem_size bytes, whose first alloc * old-size bytes still hold
 * the elements in their old layout. The caller rewrites them from the
 * last slot to the first (slot j moves from j*old to j*new, never over a
 * slot not yet rewritten). 0, or -1 on OOM (d unchanged). */
int deque_widen(deque *d, size_t elem_size);
/* Lowers d's bounds to max_len (>= len) and slack, and gives back the
 * storage beyond them. Cannot fail: a shrink the allocator refuses keeps
 * the old block. */
void deque_limit(deque *d, size_t max_len, size_t slack);
/* Bytes of heap owned by d. */
size_t deque_bytes(const deque *d);

#endif
