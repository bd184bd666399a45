/* gpu_sort: the sort of the per-window passes (critical path, idle
 * causes, table rows), which sort every window's events several times:
 * one pass when the array is in order already (the host events mostly
 * are), else a merge sort through a scratch array, else (no memory for
 * it) the in-place heap sort. Measured on df_index_resolver's report
 * (callgrind): the heap sorts alone were 0.51 G of the windows' 0.82 G
 * instructions. Give LESS a total order: the three ways then give the
 * same result.
 *
 *   GPU_SORT_DEFINE(sort_keys, key, A.k < B.k || (A.k == B.k && A.seq < B.seq))
 * defines static void sort_keys(key *a, size_t n) and sort_keys_in (below). */
#ifndef SMTOP_GPU_SORT_H
#define SMTOP_GPU_SORT_H

#include <stdlib.h>

#include "model/util/heap_sort.h"
#include "model/util/scratch.h"
#include "model/util/stable_sort.h"

/* The scratch buffer a sort takes its merge array from (gpu_impl.h
 * numbers the passes' other buffers after it). */
#define GPU_SORT_SLOT 0

/* NAME_in(a, n, s) takes the merge array from s (NULL: malloc and free,
 * as NAME does), for a pass that sorts once a window. */
#define GPU_SORT_DEFINE(NAME, T, LESS)                                            \
    HEAP_SORT_DEFINE(NAME##_heap, T, LESS)                                        \
    STABLE_SORT_DEFINE(NAME##_merge, T, LESS)                                     \
    static inline __attribute__((unused)) void NAME##_in(T *a, size_t n, scratch *s) \
    {                                                                             \
        size_t i = 1;                                                             \
        for (; i < n; i++) {                                                      \
            const T A = a[i], B = a[i - 1];                                       \
            if (LESS)                                                             \
                break;                                                            \
        }                                                                         \
        if (i >= n)                                                               \
            return;                                                               \
        T *tmp = s ? scratch_take(s, GPU_SORT_SLOT, n * sizeof *tmp)              \
                   : malloc(n * sizeof *tmp);                                     \
        if (tmp)                                                                  \
            NAME##_merge(a, tmp, n);                                              \
        else                                                                      \
            NAME##_heap(a, n);                                                    \
        if (!s)                                                                   \
            free(tmp);                                                            \
    }                                                                             \
    static inline __attribute__((unused)) void NAME(T *a, size_t n)               \
    {                                                                             \
        NAME##_in(a, n, NULL);                                                    \
    }

#endif
