/* viewsnap_impl: the layout of a snapshot, for its builder (viewbuild.c)
 * and its getters (viewsnap.c) alone. Products that did not change are
 * shared between snapshots through a small reference-counted box, so a
 * build that finds nothing new costs a few copies of rule results and no
 * merge. */
#ifndef SMTOP_VIEWSNAP_IMPL_H
#define SMTOP_VIEWSNAP_IMPL_H

#include <stdatomic.h>
#include <stdlib.h>

#include "model/view/viewsnap.h"

#define VIEWSNAP_PLACE_MAX 1024

/* One immutable product shared by several snapshots. */
typedef struct box {
    atomic_int refs;
    void *p;
    void (*free_fn)(void *);
} box;

struct viewsnap {
    atomic_int refs;
    uint64_t gen;
    size_t nrules;
    rule_result *res;            /* nrules */
    double (*param)[RULE_MAX_PARAMS];
    phase_event *step;           /* nrules: the step each result's span is */
    unsigned char *step_ok;      /* nrules: 1 where step[i] was found */
    verdict verdict;             /* of the whole job, with res */
    box *pywin;                  /* py_wins: copies of the Python store's windows */
    box *py;                     /* pystats_result */
    uint64_t py_key;
    int py_have;
    pystats_profiler py_prof;
    size_t py_windows;
    int64_t py_lo_us, py_hi_us;  /* first start, last end of py_prof's windows */
    box *view;                   /* viewdata */
    box *extra;
    uint64_t extra_gen;
    char extra_err[sizeof(sm_err){0}.msg];
    char place[VIEWSNAP_PLACE_MAX];
};

/* The Python store's windows as the snapshot carries them. */
typedef struct py_wins {
    size_t n;
    pystats_window *w;
    int *failed;
} py_wins;

/* A snapshot with its per-rule arrays, one reference; NULL on OOM. */
viewsnap *viewsnap_alloc(void);

static inline box *box_new(void *p, void (*free_fn)(void *))
{
    box *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    atomic_init(&b->refs, 1);
    b->p = p;
    b->free_fn = free_fn;
    return b;
}

static inline box *box_ref(box *b)
{
    if (b)
        atomic_fetch_add(&b->refs, 1);
    return b;
}

static inline void box_unref(box *b)
{
    if (!b || atomic_fetch_sub(&b->refs, 1) != 1)
        return;
    if (b->free_fn)
        b->free_fn(b->p);
    free(b);
}

#endif
