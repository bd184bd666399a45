/* stable_sort: one stable ascending merge sort, instantiated per element
 * type. Hand-written because qsort's indirect comparator calls were a
 * fifth of a trace-heavy report and most of the rules' time, and a stable
 * order keeps results equal to what glibc's qsort (a stable merge sort)
 * gave. Insertion-sorted runs of 16, then bottom-up merges through tmp
 * (n elements).
 *
 *   STABLE_SORT_DEFINE(sort_doubles, double, a < b)
 * defines static void sort_doubles(double *a, double *tmp, size_t n);
 * LESS is an expression in the elements `A` and `B`. */
#ifndef SMTOP_STABLE_SORT_H
#define SMTOP_STABLE_SORT_H

#include <stddef.h>
#include <string.h>

#define STABLE_SORT_DEFINE(NAME, T, LESS)                                         \
    static void NAME(T *a, T *tmp, size_t n)                                      \
    {                                                                             \
        enum { RUN = 16 };                                                        \
        for (size_t i = 0; i < n; i += RUN) {                                     \
            size_t e = i + RUN < n ? i + RUN : n;                                 \
            for (size_t j = i + 1; j < e; j++) {                                  \
                T x = a[j];                                                       \
                size_t k = j;                                                     \
                for (; k > i; k--) {                                              \
                    const T A = x, B = a[k - 1];                                  \
                    if (!(LESS))                                                  \
                        break;                                                    \
                    a[k] = a[k - 1];                                              \
                }                                                                 \
                a[k] = x;                                                         \
            }                                                                     \
        }                                                                         \
        T *src = a, *dst = tmp;                                                   \
        for (size_t w = RUN; w < n; w *= 2) {                                     \
            for (size_t lo = 0; lo < n; lo += 2 * w) {                            \
                size_t mid = lo + w < n ? lo + w : n;                             \
                size_t hi = lo + 2 * w < n ? lo + 2 * w : n;                      \
                size_t i = lo, j = mid, k = lo;                                   \
                while (i < mid && j < hi) {                                       \
                    const T A = src[j], B = src[i];                               \
                    dst[k++] = (LESS) ? src[j++] : src[i++];                      \
                }                                                                 \
                while (i < mid)                                                   \
                    dst[k++] = src[i++];                                          \
                while (j < hi)                                                    \
                    dst[k++] = src[j++];                                          \
            }                                                                     \
            T *t = src;                                                           \
            src = dst;                                                            \
            dst = t;                                                              \
        }                                                                         \
        if (src != a)                                                             \
            memcpy(a, src, n * sizeof *a);                                        \
    }

#endif
