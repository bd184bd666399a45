#include "io/decode/pyinstrument.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "model/util/vec.h"

typedef struct frame_key {
    sm_str file, name;
    int64_t line;
} frame_key;

typedef struct walker {
    pstats_func_cb cb;
    void *ud;
    sm_err *err;
    frame_key *stack;   /* keys of the ancestors of the frame being visited */
    size_t depth, cap;
    long frames;        /* visited so far, for messages */
} walker;

static int frame_err(walker *wk, const char *what)
{
    return sm_err_set(wk->err, SM_ERR_FORMAT, "pyinstrument frame #%ld (depth %zu): %s",
                      wk->frames, wk->depth, what);
}

static sm_str json_str(json_t *o, const char *k1, const char *k2)
{
    json_t *v = json_object_get(o, k1);
    if (!json_is_string(v) && k2)
        v = json_object_get(o, k2);
    if (!json_is_string(v))
        return (sm_str){"", 0};
    return (sm_str){json_string_value(v), json_string_length(v)};
}

static int key_eq(const frame_key *a, const frame_key *b)
{
    return a->line == b->line && a->file.len == b->file.len && a->name.len == b->name.len &&
           memcmp(a->file.ptr, b->file.ptr, a->file.len) == 0 &&
           memcmp(a->name.ptr, b->name.ptr, a->name.len) == 0;
}

static int frame_time(json_t *f, double *t)
{
    json_t *v = json_object_get(f, "time");
    if (!json_is_number(v))
        return -1;
    *t = json_number_value(v);
    return 0;
}

static int visit(walker *wk, json_t *f)
{
    wk->frames++;
    double total, kids = 0;
    json_t *ch = json_object_get(f, "children");
    if (!json_is_object(f) || !json_is_string(json_object_get(f, "function")) ||
        frame_time(f, &total) < 0)
        return frame_err(wk, "needs a \"function\" string and a \"time\" number");
    if (ch && !json_is_array(ch))
        return frame_err(wk, "\"children\" is not a list");
    if (wk->depth >= PYINSTRUMENT_MAX_DEPTH)
        return frame_err(wk, "frames nested too deep");
    json_t *ln = json_object_get(f, "line_no");
    frame_key k = {json_str(f, "file_path_short", "file_path"), json_str(f, "function", NULL),
                   json_is_integer(ln) ? (int64_t)json_integer_value(ln) : 0};
    size_t i;
    json_t *c;
    json_array_foreach(ch, i, c) {
        double t;
        if (json_is_object(c) && frame_time(c, &t) == 0)
            kids += t;
    }
    int nested = 0;
    for (size_t d = 0; d < wk->depth && !nested; d++)
        nested = key_eq(&wk->stack[d], &k);
    double self = total - kids > 0 ? total - kids : 0;
    pystats_caller_rec parent;
    pystats_func_rec rec = {k.file, k.line, k.name, {0, 0, self, nested ? 0 : total}, NULL, 0};
    if (wk->depth > 0) {
        const frame_key *p = &wk->stack[wk->depth - 1];
        parent = (pystats_caller_rec){p->file, p->line, p->name, {0, 0, self, total}};
        rec.callers = &parent;
        rec.ncallers = 1;
    }
    if (wk->cb(wk->ud, &rec, wk->err) < 0)
        return -1;
    if (vec_grow(&wk->stack, &wk->cap, wk->depth + 1, sizeof *wk->stack, 64) != 0)
        return sm_err_set(wk->err, SM_ERR_NOMEM, "out of memory reading pyinstrument");
    wk->stack[wk->depth++] = k;
    int rc = 0;
    json_array_foreach(ch, i, c) {
        if ((rc = visit(wk, c)) < 0)
            break;
    }
    wk->depth--;
    return rc;
}

int pyinstrument_parse(const void *data, size_t len, pstats_func_cb cb, void *ud,
                       sm_err *err)
{
    json_error_t je;
    json_t *doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc)
        return sm_err_set(err, SM_ERR_FORMAT, "pyinstrument JSON: %s at line %d column %d",
                          je.text, je.line, je.column);
    int rc;
    json_t *root = json_object_get(doc, "root_frame");
    if (!json_is_object(doc) || !root) {
        rc = sm_err_set(err, SM_ERR_FORMAT, "pyinstrument JSON has no \"root_frame\"");
    } else if (json_is_null(root)) {
        rc = 1;
    } else {
        walker wk = {cb, ud, err, NULL, 0, 0, 0};
        rc = visit(&wk, root);
        free(wk.stack);
    }
    json_decref(doc);
    return rc;
}
