/* source_job: a described job's places as one source; see source_job.h. */
#include "io/source/source_job.h"

#include <stdio.h>
#include <string.h>

#include "io/source/source_none.h"
#include "io/source/source_place.h"
#include "io/source/source_tar.h"
#include "io/source/source_union.h"

int source_job_has_traces(const jobrow *r)
{
    jobplace pl[JOBPLACE_KINDS];
    size_t n = jobplace_list(&r->places, r->name, r->profiler_url, jobrow_ended(r), pl,
                             JOBPLACE_KINDS);
    /* the traces beside the profiler output (a TensorBoard place with no
     * sync named: no alt) come with the job's folder, no union needed */
    for (size_t i = 0; i < n; i++)
        if (pl[i].kind != JOBPLACE_PROFILER &&
            !(pl[i].kind == JOBPLACE_TENSORBOARD && !pl[i].alt[0]))
            return 1;
    return 0;
}

/* The source of one place, at its URL. */
static source *place_open(const jobplace *pl, const source_opts *o, sm_err *err)
{
    switch (pl->kind) {
    case JOBPLACE_TENSORBOARD:
    case JOBPLACE_CHECKPOINT:
        return source_place_open(pl, o, err);
    case JOBPLACE_OUTPUT: {
        source *t = source_tar_open(pl->url, o, err);
        source_tar_limit(t, o->archive_max > 0 ? o->archive_max : SOURCE_JOB_TAR_MAX);
        return t;
    }
    default:
        return source_open(pl->url, o, err);
    }
}

source *source_job_open(const jobrow *r, const source_opts *o, const char **root, sm_err *err)
{
    jobplace pl[JOBPLACE_KINDS];
    size_t n = jobplace_list(&r->places, r->name, r->profiler_url, jobrow_ended(r), pl,
                             JOBPLACE_KINDS);
    *root = NULL;
    if (!source_job_has_traces(r)) {
        /* the job's folder when the API names one: profiler-output/ and the
         * traces beside it, as `smtop s3://.../JOB/` reads them */
        if (r->open_url[0] || r->profiler_url[0])
            return source_open(r->open_url[0] ? r->open_url : r->profiler_url, o, err);
        char desc[320];
        snprintf(desc, sizeof desc, "%.256s (no profiler output)", r->name);
        source *s = source_none_new(desc);
        return s ? s : (sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL);
    }
    source *u = source_union_new(r->name);
    if (!u)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    for (size_t i = 0; i < n; i++) {
        sm_err e = {0};
        source *s = place_open(&pl[i], o, &e);
        const char *at = jobplace_mount(pl[i].kind);
        /* a place that cannot even be opened is said when listed; the rest opens */
        if (s ? source_union_mount(u, at, s, pl[i].kind, pl[i].url) < 0
              : source_union_mount_failed(u, at, pl[i].kind, pl[i].url, e.msg) < 0) {
            source_free(u);
            return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
        }
    }
    *root = SOURCE_JOB_ROOT;
    return u;
}
