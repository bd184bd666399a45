/* report_stream: see report_stream.h. The layout rules copied here are
 * jansson's (dump.c, do_dump and dump_indent): "[" / "{", a newline and
 * (depth + 1) * indent spaces before the first member, "," and the same
 * before each next one, a newline and depth * indent spaces before the
 * closing bracket, "[]" / "{}" when empty, ": " between key and value
 * (":" with JSON_COMPACT); without an indent, ", " between members (","
 * with JSON_COMPACT). A value nested at depth d is its standalone dump with
 * d * indent spaces after every newline: jansson escapes newlines inside
 * strings, so every newline it writes is layout. */
#include "tui/report/report_stream.h"

#include "tui/report/report_stream_par.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct stream_part {
    json_t *placeholder;        /* a reference: its address cannot be reused */
    size_t n;
    report_part_fn fn;
    const void *ctx;
    void *owned;
    int par;                    /* fn may run on several threads at once */
} stream_part;

struct report_stream {
    stream_part *parts;
    size_t count, cap;
    size_t threads;             /* report_stream_set_threads */
};

void report_stream_set_threads(report_stream *st, size_t n)
{
    if (st)
        st->threads = n;
}

report_stream *report_stream_new(void)
{
    return calloc(1, sizeof(report_stream));
}

void report_stream_free(report_stream *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->count; i++) {
        json_decref(st->parts[i].placeholder);
        free(st->parts[i].owned);
    }
    free(st->parts);
    free(st);
}

static int stream_push(report_stream *st, const stream_part *p)
{
    if (st->count == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 8;
        stream_part *np = realloc(st->parts, cap * sizeof *np);
        if (!np)
            return -1;
        st->parts = np;
        st->cap = cap;
    }
    st->parts[st->count++] = *p;
    return 0;
}

static json_t *stream_array(report_stream *st, size_t n, report_part_fn fn, const void *ctx,
                            void *owned, int par)
{
    json_t *arr = json_array();
    if (!st) {
        for (size_t i = 0; arr && i < n; i++)
            if (fn(ctx, i, arr) != 0) {
                json_decref(arr);
                arr = NULL;
            }
        free(owned);
        return arr;
    }
    stream_part p = {arr, n, fn, ctx, owned, par};
    if (arr && stream_push(st, &p) == 0)
        return json_incref(arr);   /* one for the tree, one for the stream */
    json_decref(arr);
    free(owned);
    return NULL;
}

json_t *report_stream_array(report_stream *st, size_t n, report_part_fn fn,
                            const void *ctx, void *owned)
{
    return stream_array(st, n, fn, ctx, owned, 0);
}

json_t *report_stream_array_par(report_stream *st, size_t n, report_part_fn fn,
                                const void *ctx, void *owned)
{
    return stream_array(st, n, fn, ctx, owned, 1);
}

static const stream_part *stream_find(const report_stream *st, const json_t *v)
{
    for (size_t i = 0; st && i < st->count; i++)
        if (st->parts[i].placeholder == v)
            return &st->parts[i];
    return NULL;
}

/* Whether v is, or holds, a placeholder: only then is it laid out here;
 * anything else jansson dumps whole. */
static int stream_holds(const report_stream *st, const json_t *v)
{
    if (!st || !st->count)
        return 0;
    if (stream_find(st, v))
        return 1;
    const char *key;
    json_t *child;
    size_t i;
    if (json_is_object(v))
        json_object_foreach((json_t *)v, key, child)
            if (stream_holds(st, child))
                return 1;
    if (json_is_array(v))
        json_array_foreach(v, i, child)
            if (stream_holds(st, child))
                return 1;
    return 0;
}

typedef struct writer {
    FILE *f;
    report_text *mem;      /* instead of f: report_stream_par.c's parts */
    const report_stream *st;
    size_t flags, indent;
    size_t extra;          /* spaces after each newline jansson writes */
    int write_errno;       /* set when a write failed */
    int oom;
} writer;

static int put(writer *w, const char *s, size_t len)
{
    if (w->mem) {
        if (report_text_add(w->mem, s, len) == 0)
            return 0;
        w->oom = 1;
        return -1;
    }
    if (fwrite(s, 1, len, w->f) == len)
        return 0;
    if (!w->write_errno)
        w->write_errno = errno ? errno : EIO;
    return -1;
}

static int put_spaces(writer *w, size_t n)
{
    static const char blanks[] = "                                ";
    for (size_t k; n; n -= k) {
        k = n < sizeof blanks - 1 ? n : sizeof blanks - 1;
        if (put(w, blanks, k) != 0)
            return -1;
    }
    return 0;
}

/* jansson's dump_indent: where a member starts or a container closes. */
static int put_break(writer *w, size_t depth, int after_comma)
{
    if (w->indent)
        return put(w, "\n", 1) || put_spaces(w, depth * w->indent) ? -1 : 0;
    if (after_comma && !(w->flags & JSON_COMPACT))
        return put(w, " ", 1);
    return 0;
}

static int put_reindented(const char *buf, size_t size, void *data)
{
    writer *w = data;
    for (const char *nl; size && (nl = memchr(buf, '\n', size));) {
        size_t k = (size_t)(nl - buf) + 1;
        if (put(w, buf, k) != 0 || put_spaces(w, w->extra) != 0)
            return -1;
        buf += k;
        size -= k;
    }
    return size ? put(w, buf, size) : 0;
}

/* v as jansson writes it at depth. */
static int put_dump(writer *w, const json_t *v, size_t depth)
{
    w->extra = depth * w->indent;
    if (json_dump_callback(v, put_reindented, w, w->flags | JSON_ENCODE_ANY) == 0)
        return 0;
    if (!w->write_errno)
        w->oom = 1;   /* jansson's own allocation, not the file */
    return -1;
}

/* A member's opening: "[" or "{" before the first, "," after one. */
static int put_open(writer *w, char bracket, size_t depth, size_t done)
{
    return put(w, done ? "," : &bracket, 1) || put_break(w, depth + 1, done > 0) ? -1 : 0;
}

/* An element laid out ahead at depth + 1 (report_parts_par's callback):
 * its opening, then its text. */
static int put_item(void *ud, const char *text, size_t len, size_t depth, size_t done)
{
    writer *w = ud;
    return put_open(w, '[', depth - 1, done) || put(w, text, len) ? -1 : 0;
}

static int put_close(writer *w, char open, char close, size_t depth, size_t done)
{
    if (!done)
        return put(w, &open, 1) || put(w, &close, 1) ? -1 : 0;
    return put_break(w, depth, 0) || put(w, &close, 1) ? -1 : 0;
}

int report_text_dump(report_text *t, const json_t *v, size_t flags, size_t depth)
{
    writer w = {.mem = t, .flags = flags, .indent = flags & JSON_MAX_INDENT};
    return put_dump(&w, v, depth);
}

/* The placeholder's array: each part built, written and freed in turn;
 * with threads, parts built and laid out ahead on them
 * (report_stream_par.c), written here in order. */
static int put_parts(writer *w, const stream_part *p, size_t depth)
{
    if (p->par && w->st->threads > 1 && p->n > 1) {
        size_t done = 0;
        int rc = report_parts_par(p->fn, p->ctx, p->n, w->st->threads, w->flags, depth + 1,
                                  put_item, w, &done);
        if (rc != 0) {
            if (!w->write_errno)
                w->oom = 1;
            return -1;
        }
        return put_close(w, '[', ']', depth, done);
    }
    json_t *chunk = json_array();
    size_t done = 0;
    int rc = chunk ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < p->n; i++) {
        json_array_clear(chunk);
        rc = p->fn(p->ctx, i, chunk);
        for (size_t k = 0; rc == 0 && k < json_array_size(chunk); k++, done++)
            rc = put_open(w, '[', depth, done) || put_dump(w, json_array_get(chunk, k), depth + 1);
    }
    if (rc != 0 && !w->write_errno)
        w->oom = 1;
    json_decref(chunk);
    return rc ? -1 : put_close(w, '[', ']', depth, done);
}

static int put_value(writer *w, const json_t *v, size_t depth);

static int put_key(writer *w, const char *key, size_t len)
{
    json_t *k = json_stringn_nocheck(key, len);
    int rc = k ? put_dump(w, k, 0) : -1;
    if (!k)
        w->oom = 1;
    json_decref(k);
    if (rc == 0)
        rc = w->flags & JSON_COMPACT ? put(w, ":", 1) : put(w, ": ", 2);
    return rc;
}

static int put_object(writer *w, const json_t *obj, size_t depth)
{
    size_t done = 0;
    for (void *it = json_object_iter((json_t *)obj); it;
         it = json_object_iter_next((json_t *)obj, it), done++)
        if (put_open(w, '{', depth, done) ||
            put_key(w, json_object_iter_key(it), json_object_iter_key_len(it)) ||
            put_value(w, json_object_iter_value(it), depth + 1))
            return -1;
    return put_close(w, '{', '}', depth, done);
}

static int put_array(writer *w, const json_t *arr, size_t depth)
{
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++)
        if (put_open(w, '[', depth, i) || put_value(w, json_array_get(arr, i), depth + 1))
            return -1;
    return put_close(w, '[', ']', depth, n);
}

static int put_value(writer *w, const json_t *v, size_t depth)
{
    const stream_part *p = stream_find(w->st, v);
    if (p)
        return put_parts(w, p, depth);
    if (!stream_holds(w->st, v))
        return put_dump(w, v, depth);
    return json_is_object(v) ? put_object(w, v, depth) : put_array(w, v, depth);
}

int report_stream_dump(const json_t *obj, const report_stream *st, FILE *f,
                       size_t flags, sm_err *err)
{
    writer w = {.f = f, .st = st, .flags = flags, .indent = flags & JSON_MAX_INDENT};
    errno = 0;
    int rc = put_value(&w, obj, 0);
    if (rc == 0 && fflush(f) != 0)
        w.write_errno = errno ? errno : EIO;
    if (w.write_errno)
        return sm_err_set(err, SM_ERR_IO, "writing the report: %s", strerror(w.write_errno));
    if (rc != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory writing the report");
    return 0;
}
