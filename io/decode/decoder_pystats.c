/* decoder_pystats: the "cprofile" and "pyinstrument" rows — a Python
 * stats file (path → window by statsdir, bytes → functions by
 * pstats_marshal or pyinstrument) as one window of sm_pywindow records. */
#include <stdlib.h>
#include <string.h>

#include "io/decode/decoder_impl.h"
#include "io/decode/pstats_marshal.h"
#include "io/decode/pyinstrument.h"
#include "io/decode/statsdir.h"
#include "model/pystats/pystats.h"

typedef struct py_read {
    decoder_whole *w;
    pystats_window info;
} py_read;

static int py_match(const key_info *ki, const void *head, size_t n)
{
    (void)head;
    (void)n;
    return ki->kind == KEY_CPROFILE || ki->kind == KEY_PYINSTRUMENT;
}

static void py_drop(void *st)
{
    py_read *r = st;
    if (!r)
        return;
    decoder_whole_drop(r->w);
    free(r);
}

/* The window its path names; NULL with err (a bad path, or a file of one
 * profiler under the other's directory: the message does not repeat the
 * key, the ingest path names the file). */
static void *py_begin(const key_info *ki, const char *key, sm_err *err)
{
    py_read *r = calloc(1, sizeof *r);
    if (!r)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    if (statsdir_parse_key(key, &r->info, err) < 0) {
        free(r);
        return NULL;
    }
    int json = ki->kind == KEY_PYINSTRUMENT;
    if (json != (r->info.profiler == PYPROF_PYINSTRUMENT)) {
        sm_err_set(err, SM_ERR_FORMAT, "%s file under a %s directory",
                   json ? "pyinstrument" : "cProfile", json ? "cprofile" : "pyinstrument");
        free(r);
        return NULL;
    }
    if (!(r->w = decoder_whole_begin(ki, key, err))) {
        free(r);
        return NULL;
    }
    return r;
}

static int py_feed(void *st, const void *p, size_t n, const rec_sink *out)
{
    return decoder_whole_feed(((py_read *)st)->w, p, n, out);
}

static int py_put(const rec_sink *out, int what, const py_read *r,
                  const pystats_func_rec *f)
{
    sm_pywindow w = {what, r->w->key, &r->info, f};
    return out->pywindow ? out->pywindow(out->ud, &w) : 0;
}

static int func_cb(void *ud, const pystats_func_rec *f, sm_err *err)
{
    const void **c = ud;
    if (py_put(c[0], SM_PY_FUNC, c[1], f) < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory storing Python stats");
    return 0;
}

static int py_end(void *st, int64_t len, const rec_sink *out, sm_err *err)
{
    py_read *r = st;
    (void)len;
    int rc = decoder_whole_ok(r->w, err);
    if (rc == 0 && py_put(out, SM_PY_BEGIN, r, NULL) < 0)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory storing Python stats");
    if (rc == 0) {
        const void *c[2] = {out, r};
        rc = r->w->ki.kind == KEY_PYINSTRUMENT
                 ? pyinstrument_parse(r->w->buf, r->w->n, func_cb, c, err)
                 : pstats_marshal_parse(r->w->buf, r->w->n, func_cb, c, err);
        /* a failed pyinstrument session is kept as a failed window */
        int what = rc == 1 ? SM_PY_FAILED : rc == 0 ? SM_PY_END : SM_PY_ABORT;
        if (py_put(out, what, r, NULL) < 0 && what != SM_PY_ABORT)
            rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory storing Python stats");
        else if (rc == 1)
            rc = 0;
    }
    py_drop(r);
    return rc < 0 ? -1 : 0;
}

const decoder decoder_cprofile = {
    .name = "cprofile",
    .kind = KEY_CPROFILE,
    .match = py_match,
    .begin = py_begin,
    .feed = py_feed,
    .end = py_end,
    .drop = py_drop,
    .streamed = 0,
};
const decoder decoder_pyinstrument = {
    .name = "pyinstrument",
    .kind = KEY_PYINSTRUMENT,
    .match = py_match,
    .begin = py_begin,
    .feed = py_feed,
    .end = py_end,
    .drop = py_drop,
    .streamed = 0,
};
