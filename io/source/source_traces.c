/* source_traces: see source_traces.h. A file is its folder's source with
 * every listing narrowed to the one name. */
#include "io/source/source_traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/source/source_tar.h"

typedef struct one_file {
    source base;
    source_vtbl vt;         /* the inner source's, with list narrowed */
    source *inner;
    char name[1024];        /* the file's key in the inner source */
    char desc[4200];
} one_file;

typedef struct one_list {
    const one_file *f;
    source_list_cb cb;
    void *ud;
} one_list;

static int one_cb(void *ud, const source_entry *e)
{
    one_list *l = ud;
    return strcmp(e->key, l->f->name) ? 0 : l->cb(l->ud, e);
}

static int one_list_fn(source *s, const char *prefix, const char *after, source_list_cb cb,
                       void *ud, sm_err *err)
{
    one_file *f = (one_file *)s;
    one_list l = {f, cb, ud};
    return f->inner->vt->list(f->inner, prefix, after, one_cb, &l, err);
}

static int one_fetch(source *s, const source_req *reqs, size_t n, source_fetch_cb cb, void *ud,
                     sm_err *err)
{
    one_file *f = (one_file *)s;
    return f->inner->vt->fetch(f->inner, reqs, n, cb, ud, err);
}

static const char *one_describe(const source *s)
{
    return ((const one_file *)s)->desc;
}

static void one_status(const source *s, char *buf, size_t len)
{
    source_status(((const one_file *)s)->inner, buf, len);
}

static void one_cancel(source *s, int on)
{
    source_cancel(((one_file *)s)->inner, on);
}

static int one_pass_end(source *s)
{
    return source_pass_end(((one_file *)s)->inner);
}

static void one_prefetch(source *s, const source_req *req)
{
    source_prefetch(((one_file *)s)->inner, req);
}

static void one_free(source *s)
{
    one_file *f = (one_file *)s;
    source_free(f->inner);
    free(f);
}

/* Whether spec names one file: a local regular file, or an S3 key whose
 * name ends in .json or .json.gz. */
static int names_file(const char *spec)
{
    if (!strncmp(spec, "s3://", 5)) {
        size_t n = strlen(spec);
        return (n > 5 && !strcmp(spec + n - 5, ".json")) ||
               (n > 8 && !strcmp(spec + n - 8, ".json.gz"));
    }
    struct stat st;
    return stat(spec, &st) == 0 && S_ISREG(st.st_mode);
}

source *source_traces_open(const char *spec, const source_opts *o, sm_err *err)
{
    if (source_tar_names(spec))
        return source_tar_open(spec, o, err);
    if (!names_file(spec))
        return source_open(spec, o, err);
    const char *slash = strrchr(spec, '/');
    one_file *f = calloc(1, sizeof *f);
    if (!f)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    char parent[4096];
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == spec)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s%s", (int)(slash - spec), spec,
                 !strncmp(spec, "s3://", 5) ? "/" : "");
    snprintf(f->name, sizeof f->name, "%s", slash ? slash + 1 : spec);
    snprintf(f->desc, sizeof f->desc, "%s", spec);
    if (!(f->inner = source_open(parent, o, err))) {
        free(f);
        return NULL;
    }
    f->vt = *f->inner->vt;
    f->vt.list = one_list_fn;
    f->vt.fetch = one_fetch;
    f->vt.describe = one_describe;
    f->vt.status = one_status;
    f->vt.cancel = one_cancel;
    f->vt.pass_end = one_pass_end;
    f->vt.prefetch = f->inner->vt->prefetch ? one_prefetch : NULL;
    f->vt.free = one_free;
    f->base.vt = &f->vt;
    return &f->base;
}
