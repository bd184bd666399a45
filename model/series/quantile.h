/* quantile: streaming percentiles with a stated error bound.
 *
 * Exact while at most `exact_cap` values have been added (all values are
 * kept and percentiles use linear interpolation between closest ranks, the
 * same definition as numpy.percentile's default). Past that, values move
 * into a logarithmic-bucket sketch (DDSketch-style) whose answers are within
 * QUANT_REL_ERR relative error of the exact percentile (for values of one
 * sign: interpolating between two estimates each within the bound stays
 * within it); zero and negative values are handled by a zero bucket and a
 * mirrored sketch. Memory is bounded by exact_cap doubles plus the sketch
 * (a few KiB).
 *
 * A bounded metric (utilization, 0..100) needs better than 1 % relative —
 * that is 0.9 points at 90 % — so quantile_new_linear keeps its values in a
 * linear histogram past the exact range: within step / 2 absolute (0.05
 * points at step 0.1; 4 KB), exact at the bins' centres (a series at 100 %
 * reports 100), and only values outside [0, hi] in the log sketch. */
#ifndef SMTOP_QUANTILE_H
#define SMTOP_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

#include "model/series/logstore.h"

#define QUANT_REL_ERR LOGSTORE_REL_ERR

typedef struct quant quant;

quant *quantile_new(size_t exact_cap);     /* NULL on OOM */
/* Past the exact range, values in [0, hi] go to bins step wide (see
 * above). NULL on OOM or when hi / step is not in [1, 1e6]. */
quant *quantile_new_linear(size_t exact_cap, double hi, double step);
void quantile_free(quant *q);
int quantile_add(quant *q, double v);      /* 0, or -1 on OOM (q unchanged) */
int64_t quantile_count(const quant *q);
int quantile_is_exact(const quant *q);
/* p in [0,100]. Returns NAN when empty. May sort the exact buffer in place
 * (hence non-const), which does not change any answer. */
double quantile_get(quant *q, double p);
/* Makes the next quantile_add(q, v) of this v unable to fail, so a caller can
 * reserve before a change it cannot undo. 0, or -1 on OOM / non-finite v.
 * May switch a full exact buffer to the sketch early (answers stay within
 * the sketch bound). */
int quantile_reserve(quant *q, double v);
/* Where quantile_add(q, v) puts v when that needs no allocation and no
 * change of form: a series adding a block of samples (issue 28) checks
 * each value this way, and only then changes anything. */
typedef struct quant_plan {
    int kind;
    size_t at;
} quant_plan;
/* 1 with *p filled, or 0 when the caller must use quantile_reserve and
 * quantile_add. Changes nothing. */
int quantile_plan(const quant *q, double v, quant_plan *p);
/* Does what quantile_add(q, v) would, by a plan quantile_plan made for
 * this v on q as it still is. Cannot fail. */
void quantile_apply(quant *q, const quant_plan *p, double v);
/* Values a caller keeps elsewhere (a series' raw samples, a phase's
 * retained events), read by index. */
typedef double (*quant_value_fn)(const void *ctx, size_t i);
/* Adds at(ctx, 0..n) to q. 0, or -1 on OOM (q then holds some of them). */
int quantile_add_all(quant *q, quant_value_fn at, const void *ctx, size_t n);
/* The exact percentiles p[0..k) of the n values at(ctx, i), by exact
 * mode's definition (through a quant of their own, freed), into out.
 * 0, or -1 on OOM (out all NAN). */
int quantile_exact_of(quant_value_fn at, const void *ctx, size_t n, const double *p,
                      size_t k, double *out);
/* Heap bytes owned by q. */
size_t quantile_memory_bytes(const quant *q);
/* Merges src into dst (dst may leave exact mode and keeps its kind; a
 * value src holds only approximately is added as its estimate). 0, or -1
 * on OOM (dst unchanged). */
int quantile_merge(quant *dst, const quant *src);
/* What any percentile may be off by: within *abs_err + *rel_err * |p|
 * of the exact value. Both 0 while exact; abs_err is half a histogram bin
 * once a linear quant holds values there, rel_err QUANT_REL_ERR once any
 * value is in the log sketch. */
void quantile_error_bound(const quant *q, double *abs_err, double *rel_err);

#endif
