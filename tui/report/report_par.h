/* report_par: the report's work after the pass, a node (or any index) at
 * a time on the pass's threads (issue 35: the settle, the device-usage
 * buckets and the verdict's inputs were the serial tail of a parallel
 * pass). */
#ifndef SMTOP_REPORT_PAR_H
#define SMTOP_REPORT_PAR_H

#include <stddef.h>

#include "model/model.h"

/* Calls fn(ctx, i) once for every i in [0, n), on up to `threads` threads
 * (this one among them; fewer than 2: here, in order). fn must write only
 * what is i's own. Returns 0, or -1 when some call returned -1 (the
 * others still ran). */
int report_par_each(size_t n, size_t threads, int (*fn)(void *ctx, size_t i), void *ctx);

/* model_settle(m) a node at a time on up to `threads` threads: the same
 * settled model. The caller holds the model lock. */
void report_par_settle(model *m, size_t threads);

#endif
