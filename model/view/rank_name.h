/* rank_name: a trace writer named as the rank it is, where that is known.
 * smdebug names a node's writers "<n>-<host>": with one writer per rank
 * the numbers are the ranks 0..N-1, otherwise they are process ids. When
 * a node's writers are exactly 0..N-1 (all on the same host part), a
 * writer reads "rank 2" instead of "2-algo-1". Pure. */
#ifndef SMTOP_RANK_NAME_H
#define SMTOP_RANK_NAME_H

#include <stddef.h>

/* The rank of ids[i] among a node's writers ids[0..n), or -1 when the
 * writers are not numbered 0..n-1 (pids, or one writer alone). */
long rank_of_writer(const char *const *ids, size_t n, size_t i);

/* "rank 2" when rank_of_writer knows it, else the id itself. Returns out. */
char *rank_name(const char *const *ids, size_t n, size_t i, char *out, size_t cap);

#endif
