/* pct: the one part/whole percentage (the GPU figures, the Kineto view,
 * the idle causes, the Top pane's Kineto rows). A whole of 0 or less has
 * no share: the caller says what stands for it, NAN where "unknown" must
 * reach the reader (a rank with no GPU time), 0 where the share only
 * ranks or filters rows. Inline, as lbound. */
#ifndef SMTOP_MODEL_PCT_H
#define SMTOP_MODEL_PCT_H

#include <stdint.h>

/* 100 * part / whole; `none` when whole <= 0. */
static inline double pct_of(int64_t part, int64_t whole, double none)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : none;
}

#endif
