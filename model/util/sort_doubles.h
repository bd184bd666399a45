/* sort_doubles: doubles in ascending order, equal ones (only -0.0 and
 * 0.0 can be equal and differ) kept in their order, as glibc's qsort
 * with a plain comparator would leave them: a radix sort for large
 * arrays, a merge sort for small ones or when both zeros occur. Used by
 * the quantile's exact buffer and its exact percentiles. */
#ifndef SMTOP_SORT_DOUBLES_H
#define SMTOP_SORT_DOUBLES_H

#include <stddef.h>

/* Sorts a[0..n). Cannot fail: without memory for its scratch it falls
 * back to qsort (the same order). */
void sort_doubles_array(double *a, size_t n);

#endif
