/* job: see job.h. */
#include "io/job/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/pystats_load.h"
#include "io/decode/tf_trace.h"

struct job {
    source *src;
    scanner *sc;
    model *m;
    pystats_store *py;      /* Python profiler stats, fed by on_file */
    pthread_mutex_t lock;
    char root[256];
    char desc[1024];
};

/* Whole-file kinds from the scanner (lock held): each to its store. */
static int job_on_file(void *ud, const key_info *ki, const char *key,
                       const void *data, size_t len, sm_err *err)
{
    job *j = ud;
    if (ki->kind == KEY_CPROFILE || ki->kind == KEY_PYINSTRUMENT)
        return pystats_load_file(j->py, ki, key, data, len, err);
    if (ki->kind == KEY_TF_TRACE)
        return tf_trace_ingest(j->m, ki->node, key, ki->time_us ? ki->time_us : TF_TRACE_NO_BASE,
                               data, len, err);
    return 0;
}

job *job_open(const char *spec, const source_opts *so, const model_config *mc,
              sm_err *err)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    pthread_mutex_init(&j->lock, NULL);
    if (!(j->src = source_open(spec, so, err)))
        goto fail;
    if (scanner_find_root(j->src, j->root, sizeof j->root, err) != 0)
        goto fail;
    snprintf(j->desc, sizeof j->desc, "%s%s%s", source_describe(j->src),
             j->root[0] ? "/" : "", j->root);
    size_t dl = strlen(j->desc);
    if (dl > 1 && j->desc[dl - 1] == '/')
        j->desc[dl - 1] = '\0';
    if (!(j->m = model_new(mc))) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if (!(j->py = pystats_store_new())) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    scanner_opts o = {.lock = &j->lock, .on_file = job_on_file, .on_file_ud = j};
    if (!(j->sc = scanner_new(j->src, j->root, j->m, &o, err)))
        goto fail;
    return j;
fail:
    job_close(j);
    return NULL;
}

void job_close(job *j)
{
    if (!j)
        return;
    scanner_free(j->sc);
    model_free(j->m);
    pystats_store_free(j->py);
    source_free(j->src);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

int job_scan(job *j, sm_err *err)
{
    return scanner_scan(j->sc, err);
}

void job_finish(job *j)
{
    scanner_finish(j->sc);
}

pystats_store *job_pystats(job *j)
{
    return j->py;
}

model *job_model(job *j)
{
    return j->m;
}

scanner *job_scanner(job *j)
{
    return j->sc;
}

source *job_source(job *j)
{
    return j->src;
}

pthread_mutex_t *job_lock(job *j)
{
    return &j->lock;
}

const char *job_describe(job *j)
{
    return j->desc;
}
