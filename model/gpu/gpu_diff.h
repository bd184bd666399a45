/* gpu_diff: two kernel sets compared as HTA's TraceDiff does, for `diff`:
 * each kernel name is added (only in b), removed (only in a), slower or
 * faster (in both, its mean duration moved by more than rel_threshold of
 * a's mean) or unchanged.
 *
 * smtop compares means, not HTA's totals: a run that profiled more steps
 * has larger totals with no kernel any slower. The totals and counts are
 * kept in each row for whoever wants them. Names compare as raw JSON
 * bodies (gpu_table.h). Pure: no I/O. */
#ifndef SMTOP_GPU_DIFF_H
#define SMTOP_GPU_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "model/gpu/gpu_table.h"

typedef enum gpu_diff_kind {
    GPU_DIFF_ADDED = 0,
    GPU_DIFF_REMOVED,
    GPU_DIFF_SLOWER,
    GPU_DIFF_FASTER,
    GPU_DIFF_SAME
} gpu_diff_kind;

typedef struct gpu_kdiff {
    const char *name;           /* points into a or b: valid while they are */
    gpu_diff_kind kind;
    int type;                   /* kernel type set (GPU_KT_*) */
    int64_t a_count, b_count, a_sum_us, b_sum_us;
    double a_mean_us, b_mean_us;  /* NaN where the kernel is absent */
} gpu_kdiff;

#define GPU_DIFF_DEFAULT_THRESHOLD 0.05

/* Every name in a or b (with a count > 0), by |b_sum - a_sum| descending,
 * then name: a malloc'd array (free() it) of *n rows. NULL with *n = 0
 * when both are empty or on OOM. */
gpu_kdiff *gpu_diff_kernels(const gpu_table *a, const gpu_table *b, double rel_threshold,
                            size_t *n);

/* "added", "removed", "slower", "faster", "same". */
const char *gpu_diff_kind_name(gpu_diff_kind k);

#endif
