/* vec: the one grow-by-doubling step for arrays kept as (pointer, cap).
 * Every growable array in smtop goes through vec_grow, so capacity rules
 * and overflow checks live in one place. */
#ifndef SMTOP_MODEL_VEC_H
#define SMTOP_MODEL_VEC_H

#include <stddef.h>

/* Makes *data (an array of cap elements of elem bytes, possibly NULL)
 * hold at least need elements: doubles the capacity, starting from first
 * (>= 1), until it does, and reallocates. New elements are not cleared.
 * 0, or -1 on OOM or overflow with *data and *cap unchanged. */
int vec_grow(void *data, size_t *cap, size_t need, size_t elem, size_t first);

/* Gives back *data's capacity beyond n elements (n >= 1), for an array
 * that is kept long and seldom grows again: doubling leaves up to half
 * of it unused. A later vec_grow doubles from n. Never fails: where
 * realloc cannot shrink, *data and *cap stay as they were. */
void vec_fit(void *data, size_t *cap, size_t n, size_t elem);

#endif
