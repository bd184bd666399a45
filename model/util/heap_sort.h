/* heap_sort: an in-place ascending heap sort, instantiated per element
 * type, for arrays too large to copy: stable_sort.h needs a scratch as
 * large as the array. Not stable: give LESS a total order (a tie-break
 * such as the element's original position) where ties matter.
 *
 *   HEAP_SORT_DEFINE(sort_keys, uint64_t, A < B)
 * defines static void sort_keys(uint64_t *a, size_t n);
 * LESS is an expression in the elements `A` and `B`. */
#ifndef SMTOP_HEAP_SORT_H
#define SMTOP_HEAP_SORT_H

#include <stddef.h>

#define HEAP_SORT_DEFINE(NAME, T, LESS)                                           \
    static void NAME##_sift(T *a, size_t i, size_t n)                             \
    {                                                                             \
        T x = a[i];                                                               \
        for (size_t c; (c = 2 * i + 1) < n; i = c) {                              \
            if (c + 1 < n) {                                                      \
                const T A = a[c], B = a[c + 1];                                   \
                if (LESS)                                                         \
                    c++;                                                          \
            }                                                                     \
            const T A = x, B = a[c];                                              \
            if (!(LESS))                                                          \
                break;                                                            \
            a[i] = a[c];                                                          \
        }                                                                         \
        a[i] = x;                                                                 \
    }                                                                             \
    static void NAME(T *a, size_t n)                                              \
    {                                                                             \
        for (size_t i = n / 2; i-- > 0;)                                          \
            NAME##_sift(a, i, n);                                                 \
        for (size_t k = n; k-- > 1;) {                                            \
            T x = a[0];                                                           \
            a[0] = a[k];                                                          \
            a[k] = x;                                                             \
            NAME##_sift(a, 0, k);                                                 \
        }                                                                         \
    }

#endif
