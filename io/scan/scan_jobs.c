/* scan_jobs: the jobs a folder holds, for the error on a folder that is
 * not a job itself ("holds no profiler data ... it holds 3 jobs: a, b, c"):
 * a user who points smtop at the folder of their runs learns what to type. */
#include <stdio.h>
#include <string.h>

#include "io/scan/scanner.h"

/* Keys looked at before the search gives up: a folder of many jobs is
 * listed only this far (an error path, not a scan). */
#define JOBS_LIST_MAX 200000

typedef struct jobs_walk {
    char (*out)[SCAN_JOB_NAME];
    size_t max, n, keys;
    char last[SCAN_JOB_NAME];
} jobs_walk;

/* The job folder of key: the part before "/profiler-output/", else before
 * "/system/" or "/framework/" (a profiler-output folder given itself);
 * 0 when key has neither. */
static int job_of(const char *key, char *out, size_t cap)
{
    static const char *const marks[] = {"/profiler-output/", "/system/", "/framework/"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        const char *m = strstr(key, marks[i]);
        if (m && m > key) {
            snprintf(out, cap, "%.*s", (int)(m - key), key);
            return 1;
        }
    }
    return 0;
}

static int jobs_cb(void *ud, const source_entry *e)
{
    jobs_walk *w = ud;
    char job[SCAN_JOB_NAME];
    if (++w->keys > JOBS_LIST_MAX)
        return 1;
    if (e->error || !job_of(e->key, job, sizeof job))
        return 0;
    /* Listings come in key order: a job's keys are consecutive. */
    if (w->n && !strcmp(w->last, job))
        return 0;
    snprintf(w->last, sizeof w->last, "%s", job);
    if (w->n < w->max)
        snprintf(w->out[w->n], SCAN_JOB_NAME, "%s", job);
    w->n++;
    return 0;
}

size_t scan_find_jobs(source *src, char (*out)[SCAN_JOB_NAME], size_t max, sm_err *err)
{
    jobs_walk w = {out, max, 0, 0, ""};
    if (source_list(src, "", NULL, jobs_cb, &w, err) != 0)
        return 0;
    return w.n;
}
