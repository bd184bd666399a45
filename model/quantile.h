/* quantile: streaming percentiles with a stated error bound.
 *
 * Exact while at most `exact_cap` values have been added (all values are
 * kept and percentiles use linear interpolation between closest ranks, the
 * same definition as numpy.percentile's default). Past that, values move
 * into a logarithmic-bucket sketch (DDSketch-style) whose answers are within
 * QUANT_REL_ERR relative error of the exact percentile; zero and negative
 * values are handled by a zero bucket and a mirrored sketch. Memory is
 * bounded by exact_cap doubles plus the sketch (a few KiB). */
#ifndef SMTOP_QUANTILE_H
#define SMTOP_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

#define QUANT_REL_ERR 0.01

typedef struct quant quant;

quant *quant_new(size_t exact_cap);     /* NULL on OOM */
void quant_free(quant *q);
int quant_add(quant *q, double v);      /* 0, or -1 on OOM (q unchanged) */
int64_t quant_count(const quant *q);
int quant_is_exact(const quant *q);
/* p in [0,100]. Returns NAN when empty. May sort the exact buffer in place
 * (hence non-const), which does not change any answer. */
double quant_get(quant *q, double p);
/* Makes the next quant_add(q, v) of this v unable to fail, so a caller can
 * reserve before a change it cannot undo. 0, or -1 on OOM / non-finite v.
 * May switch a full exact buffer to the sketch early (answers stay within
 * the sketch bound). */
int quant_reserve(quant *q, double v);
/* Heap bytes owned by q. */
size_t quant_memory_bytes(const quant *q);
/* Merges src into dst (dst may leave exact mode). 0, or -1 on OOM. */
int quant_merge(quant *dst, const quant *src);

#endif
