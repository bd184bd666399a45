/* jobs_rows: the figure sources' loop over rows; see jobs_rows.h. */
#include "io/jobs/jobs_rows.h"

static void lock(pthread_mutex_t *mu)
{
    if (mu)
        pthread_mutex_lock(mu);
}

static void unlock(pthread_mutex_t *mu)
{
    if (mu)
        pthread_mutex_unlock(mu);
}

long jobs_rows_each(joblist *l, pthread_mutex_t *mu, const char *const *names, size_t n,
                    const jobs_rows_fn *fn, sm_err *err)
{
    long worked = 0;
    for (size_t i = 0; i < n; i++) {
        jobrow r;
        lock(mu);
        const jobrow *have = joblist_find(l, names[i]);
        int due = have && fn->due(fn->ud, have);
        if (due)
            r = *have;
        unlock(mu);
        if (!due)
            continue;
        int got = fn->work(fn->ud, &r, err);
        if (got < 0 && !fn->go_on)
            return -1;
        if (got < 0)
            continue;
        worked++;
        if (!got)
            continue;
        lock(mu);
        joblist_put_figures(l, &r);
        unlock(mu);
        if (fn->changed)
            fn->changed(fn->cud);
    }
    return worked;
}
