/* kineto_keep: the CPU-side events of one PyTorch profiler trace, kept
 * for the model until the trace is known complete and placed (its clock's
 * base may come after traceEvents, and a half-written .gz must add
 * nothing), then given back in the order they came.
 *
 * Memory stays bounded whatever the trace's size: past a block of
 * KKEEP_BLOCK events the block goes to an unlinked temporary file ($TMPDIR,
 * else /tmp) and is read back, one block at a time, at the end; where no
 * such file can be made, the events stay in memory. */
#ifndef SMTOP_KINETO_KEEP_H
#define SMTOP_KINETO_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

#define KKEEP_BLOCK 16384    /* events per block: about 1 MB with their names */

typedef struct kineto_keep_ev {
    int64_t ts_ns, dur_ns, pid, tid, step;   /* on the trace's clock; dur >= 0 */
    uint32_t name_at, name_len;              /* in the block's names */
    uint8_t kind;                            /* the caller's */
} kineto_keep_ev;

typedef struct kineto_keep kineto_keep;

/* NULL on OOM. */
kineto_keep *kineto_keep_new(void);
void kineto_keep_free(kineto_keep *k);

/* Keeps ev (its name_at is set here) with its name (len bytes, copied).
 * 0, or -1 on OOM (nothing kept). */
int kineto_keep_add(kineto_keep *k, const kineto_keep_ev *ev, const char *name, size_t len);

/* Events kept so far. */
int64_t kineto_keep_count(const kineto_keep *k);

/* The span of the kept events (start to the latest end) on the trace's
 * clock: 1, or 0 when none is kept. */
int kineto_keep_span(const kineto_keep *k, int64_t *t0, int64_t *t1);

/* Calls fn for every kept event in the order they came (name: its
 * name_len bytes, valid during the call). 0, or -1 with err when a
 * spilled block cannot be read back. */
int kineto_keep_each(kineto_keep *k, void (*fn)(void *ud, const kineto_keep_ev *ev, const char *name), void *ud,
               sm_err *err);

#endif
