/* cmd_job: `--job NAME`; see cmd_job.h. */
#include "tui/cmd/cmd_job.h"

#include <stdio.h>

#include "io/run/job_watch.h"
#include "io/source/source_job.h"

/* The job's files: every place its description names (source_job.h),
 * or none at all. */
static job *open_files(const jobrow *r, const source_opts *so, const model_config *mc,
                       sm_err *err)
{
    source_opts o = *so;
    /* the API named the places: empty is no error (the job may not have
     * written yet, or Debugger wrote nothing), CloudWatch may fill it;
     * a report's one pass is never answered from a cached listing */
    o.one_pass = !so->wait_for_data;
    o.wait_for_data = 1;
    const char *root;
    source *src = source_job_open(r, &o, &root, err);
    return src ? job_open_source_at(src, root, &o, mc, err) : NULL;
}

/* The job's watch, described unless row is given (the list's). */
static job_watch *watch_open(const char *name, const jobrow *row, const source_opts *so,
                             sm_err *err)
{
    job_watch_opts o = {.region = so->region, .profile = so->profile};
    job_watch *w = job_watch_new(name, row, &o, err);
    if (w && !row && job_watch_describe(w, err) < 0) {
        job_watch_free(w);
        return NULL;
    }
    return w;
}

int cmd_job_resolve(const char *name, const source_opts *so, jobrow *out, sm_err *err)
{
    job_watch *w = watch_open(name, NULL, so, err);
    if (!w)
        return -1;
    job_watch_row(w, out);
    job_watch_free(w);
    return 0;
}

job *cmd_job_open(const char *name, const jobrow *row, const source_opts *so,
                  const model_config *mc, int thread, sm_err *err)
{
    job_watch *w = watch_open(name, row, so, err);
    if (!w)
        return NULL;
    jobrow r;
    job_watch_row(w, &r);
    job *j = open_files(&r, so, mc, err);
    if (!j) {
        job_watch_free(w);
        return NULL;
    }
    if (job_set_watch(j, w, thread, err) < 0) {
        job_close(j);
        return NULL;
    }
    return j;
}
