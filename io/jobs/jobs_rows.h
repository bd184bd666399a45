/* jobs_rows: the one loop every source of the list's figures runs
 * (CloudWatch, a folder's files, S3 profiler output): for each named row
 * that is due, a copy taken under the list's lock, the slow work done
 * on the copy without it, and the figures put back under it (onto the
 * row as it is then: a describe may have landed meanwhile). */
#ifndef SMTOP_JOBS_ROWS_H
#define SMTOP_JOBS_ROWS_H

#include <pthread.h>
#include <stddef.h>

#include "model/jobs/joblist.h"
#include "model/util/sm_err.h"

typedef struct jobs_rows_fn {
    int (*due)(void *ud, const jobrow *r);             /* 1: work on it */
    int (*work)(void *ud, jobrow *r, sm_err *err);      /* 1 changed, 0 not, -1 failed */
    void *ud;
    void (*changed)(void *cud);                          /* after a row changed; may be NULL */
    void *cud;
    int go_on;   /* 1: a row that failed is skipped (its err kept), 0: stop there */
} jobs_rows_fn;

/* Runs fn over the rows named names[0..n) of l (mu may be NULL).
 * Returns how many rows were worked on, or -1 with err when one failed
 * and !go_on. */
long jobs_rows_each(joblist *l, pthread_mutex_t *mu, const char *const *names, size_t n,
                    const jobs_rows_fn *fn, sm_err *err);

#endif
