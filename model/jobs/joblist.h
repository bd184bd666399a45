/* joblist: the rows of `smtop jobs` and the view of them the screen and
 * --json show: filtered by name (name_match's grammar: `^` anchors),
 * sorted by any column, or the faults only.
 *
 * Rows keep the order they were first put in (the lister puts them
 * newest first), are found by name in O(1), and are copied in and out:
 * the caller's rows are never kept. Not thread-safe: the owner locks. */
#ifndef SMTOP_JOBLIST_H
#define SMTOP_JOBLIST_H

#include <stddef.h>
#include <stdint.h>

#include "model/jobs/jobrow.h"

typedef struct joblist joblist;

typedef enum jobcol {
    JOBCOL_NAME = 0,
    JOBCOL_STATUS,
    JOBCOL_TYPE,     /* instance type x count */
    JOBCOL_AGE,      /* since creation: ascending = newest first */
    JOBCOL_TRAIN,    /* training time */
    JOBCOL_GPU,
    JOBCOL_CPU,
    JOBCOL_MEM,
    JOBCOL_STEP,     /* step p50 */
    JOBCOL_ALERTS,
    JOBCOL_IDLE,     /* idle GPU-hours */
    JOBCOL_INSTH,    /* instance-hours */
    JOBCOL_COUNT
} jobcol;

/* The column's short name as headers and --sort print it ("gpu%"). */
const char *joblist_col_name(jobcol c);
/* The column named s (as joblist_col_name, case-insensitive), or -1. */
int joblist_col_parse(const char *s);

joblist *joblist_new(void);
void joblist_free(joblist *l);

/* Inserts r, or replaces the row of the same name. 0, or -1 on OOM. */
int joblist_put(joblist *l, const jobrow *r);

/* Merges a list summary (name, status, times) into the row of its name,
 * keeping what a describe or the metrics filled in. A status that moves
 * from running to ended clears `described`, so the job is described
 * once more for its final figures (billable time, failure reason) and
 * never again. 0, or -1 on OOM. */
int joblist_put_summary(joblist *l, const jobrow *sum);

/* Copies r's figures (jobrow_take_figures) onto the row of r's name;
 * nothing when there is none (it left the list meanwhile). */
void joblist_put_figures(joblist *l, const jobrow *r);

/* The row named name, or NULL. Valid until the next put. */
const jobrow *joblist_find(const joblist *l, const char *name);
size_t joblist_count(const joblist *l);
/* The i-th row in insertion order. */
const jobrow *joblist_at(const joblist *l, size_t i);

typedef struct joblist_view_opts {
    const char *filter;   /* name_match pattern; NULL or "" = all */
    jobcol sort;
    int desc;             /* 1: descending */
    int faults_only;      /* jobrow_is_fault rows only */
    double now_s;         /* for ages, training times, staleness */
    double stale_s;       /* in progress with nothing new this long = stale */
} joblist_view_opts;

/* Fills idx[0..) with the insertion indices of the rows that pass, in
 * the view's order (unknown figures last whichever the direction; ties
 * keep insertion order). Returns how many passed (at most cap are
 * written), or -1 on OOM. */
long joblist_view(const joblist *l, const joblist_view_opts *o, uint32_t *idx, size_t cap);

#endif
