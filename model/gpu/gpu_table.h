/* gpu_table: statistics keyed by name (GPU kernels, CPU ops, Python
 * functions), for one trace and for a rank alike.
 *
 * While a trace is read, names are kept as the trace wrote them: the raw
 * JSON string body, escapes NOT undone (records.h), and compared byte for
 * byte, which spares an unescape per event on the hot path. Once the
 * trace ends, its decoder cleans each row's name once (gpu_table_rename:
 * unescaped and made safe for a terminal, model/util/sanitize), so every
 * table a rank or a job merges, and every pane and report, holds clean
 * text. Two spellings of one name (`\u0041` and `A`) are two rows of the
 * trace and one of its rank.
 *
 * Rows are addressed by index (stable while the table grows, unlike
 * pointers). Merging adds counts and sums and takes minima and maxima, so
 * it gives the same table whatever the order of the merges. No I/O. */
#ifndef SMTOP_GPU_TABLE_H
#define SMTOP_GPU_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"
#include "model/util/idmap.h"

typedef struct gpu_stat {
    char *name;          /* owned copy, NUL-terminated: the raw JSON body
                            while its trace is read, clean text after */
    size_t len;
    int type;            /* gpu_ktype of a kernel; 0 for ops */
    int64_t count;
    int64_t sum_us;      /* total (inclusive) duration */
    int64_t self_us;     /* ops: duration less direct children; kernels: = sum */
    int64_t max_us, min_us;
} gpu_stat;

typedef struct gpu_table {
    gpu_stat *rows;
    size_t n, cap;
    idmap map;           /* name hash -> row index + 1 (as a pointer value) */
} gpu_table;

void gpu_table_init(gpu_table *t);
void gpu_table_free(gpu_table *t);

/* Index of the row named name, created with zero counts (and min_us
 * INT64_MAX) when absent. -1 on OOM (t unchanged). */
int64_t gpu_table_intern(gpu_table *t, sm_str name);

/* Gives a row's new name: malloc'd, NUL-terminated, its length in *len;
 * NULL on OOM. */
typedef char *(*gpu_table_name_fn)(void *ud, const char *name, size_t len, size_t *out_len);

/* Renames every row by fn (the rows keep their indices; a name given
 * twice is found as its first row). 0, or -1 on OOM with t unchanged. */
int gpu_table_rename(gpu_table *t, gpu_table_name_fn fn, void *ud);

/* The row named name (NUL-terminated), or NULL. */
const gpu_stat *gpu_table_find(const gpu_table *t, const char *name);

/* Counts one value of dur_us (>= 0) and self_us into row i. */
void gpu_table_count(gpu_table *t, size_t i, int64_t dur_us, int64_t self_us);

/* Adds every row of src with a count > 0 into dst. 0, or -1 on OOM (dst
 * then holds some of them). */
int gpu_table_merge(gpu_table *dst, const gpu_table *src);

/* The same, and map[i] (src->n entries) gets the row of dst that src's row
 * i went to, UINT32_MAX for a row not added (count 0). */
int gpu_table_merge_map(gpu_table *dst, const gpu_table *src, uint32_t *map);

/* Rows with a count > 0, sorted by sum_us (by_self: self_us) descending,
 * then name: a malloc'd array of n pointers into t (free() it), *n set.
 * NULL with *n = 0 when empty or on OOM. */
const gpu_stat **gpu_table_sorted(const gpu_table *t, int by_self, size_t *n);

/* Heap bytes owned by t. */
size_t gpu_table_memory_bytes(const gpu_table *t);

#endif
