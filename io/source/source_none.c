/* source_none: the empty source; see source_none.h. */
#include "io/source/source_none.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct source_none {
    source base;
    char desc[512];
} source_none;

static int none_list(source *s, const char *prefix, const char *start_after,
                     source_list_cb cb, void *ud, sm_err *err)
{
    (void)s, (void)prefix, (void)start_after, (void)cb, (void)ud, (void)err;
    return 0;
}

static int none_fetch(source *s, const source_req *reqs, size_t n, source_fetch_cb cb,
                      void *ud, sm_err *err)
{
    (void)s;
    sm_err e = {0};
    sm_err_set(&e, SM_ERR_NOTFOUND, "no profiler output: nothing to read");
    for (size_t i = 0; i < n; i++)
        cb(ud, &reqs[i], NULL, 0, "", &e);
    (void)err;
    return 0;
}

static const char *none_describe(const source *s)
{
    return ((const source_none *)s)->desc;
}

static void none_free(source *s)
{
    free(s);
}

static const source_vtbl none_vtbl = {
    .kind = "none",
    .list = none_list,
    .fetch = none_fetch,
    .describe = none_describe,
    .free = none_free,
};

source *source_none_new(const char *describe)
{
    source_none *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->base.vt = &none_vtbl;
    snprintf(s->desc, sizeof s->desc, "%s", describe);
    return &s->base;
}
