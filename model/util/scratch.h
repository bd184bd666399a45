/* scratch: numbered buffers that a pass run again and again (a trace's
 * window passes run once a window) takes afresh on every run, kept from
 * one run to the next. A buffer freed at the end of a run and allocated
 * again at the start of the next is, above glibc's mmap threshold or at
 * the top of a heap, given back to the kernel and faulted in page by
 * page once more: on the report of df_index_resolver, 18,000 of its
 * 27,000 page faults and a sixth of its time (BENCHMARKS.md). */
#ifndef SMTOP_MODEL_SCRATCH_H
#define SMTOP_MODEL_SCRATCH_H

#include <stddef.h>

typedef struct scratch scratch;

/* NULL on OOM. */
scratch *scratch_new(void);
void scratch_free(scratch *s);

/* Buffer number slot (< SCRATCH_SLOTS), at least bytes long, its
 * contents undefined; valid until slot is taken again or s is freed.
 * NULL on OOM (the slot keeps what it had). A run gives nothing back:
 * each user numbers its buffers so that two alive at once differ. */
#define SCRATCH_SLOTS 40
void *scratch_take(scratch *s, unsigned slot, size_t bytes);
/* As scratch_take, keeping the slot's first bytes as they were (an array
 * grown while it is filled). */
void *scratch_grow(scratch *s, unsigned slot, size_t bytes);

#endif
