/* export_perfetto: see export_perfetto.h. This file lists, orders and
 * fetches the files; export_read.c turns their bytes into events,
 * export_writer.c writes JSON, export_steps.c resolves --steps and TF
 * trace time bases. */
#include "io/export/export_perfetto.h"

#include <stdlib.h>
#include <string.h>

#include "io/export/export_internal.h"
#include "io/scan/scan_fetch.h"
#include "io/decode/decoder_lines.h"
#include "io/scan/scanner.h"
#include "io/decode/json_split.h"
#include "io/decode/keyname.h"
#include "io/decode/sys_decode.h"
#include "io/decode/trace_carry.h"
#include "io/decode/trace_decode.h"
#include "model/util/vec.h"

#define XP_BATCH 8
#define XP_CHUNK EXPORT_READ_CHUNK

void export_opts_init(export_opts *o)
{
    memset(o, 0, sizeof *o);
    o->system = 1;
}

static int file_rank(key_kind k)
{
    return k == KEY_TF_TRACE ? 2 : k == KEY_TRACE_TMP ? 1 : 0;
}

static int xfile_cmp(const void *a, const void *b)
{
    const xfile *x = a, *y = b;
    int rx = file_rank(x->kind), ry = file_rank(y->kind);
    if (rx != ry)
        return rx - ry;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* Notes f's writer under its node; -1 on OOM. */
static int note_writer(xjob *x, const xfile *f)
{
    if ((f->kind != KEY_TRACE && f->kind != KEY_TRACE_TMP) || !f->process[0])
        return 0;
    for (size_t i = 0; i < x->nmw; i++)
        if (!strcmp(x->mw[i].node, f->node)) {
            x->mw[i].multi |= strcmp(x->mw[i].first, f->process) != 0;
            return 0;
        }
    if (vec_grow(&x->mw, &x->capmw, x->nmw + 1, sizeof *x->mw, 16) != 0)
        return -1;
    xmw *m = &x->mw[x->nmw++];
    snprintf(m->node, sizeof m->node, "%s", f->node);
    snprintf(m->first, sizeof m->first, "%s", f->process);
    m->multi = 0;
    return 0;
}

static int list_cb(void *ud, const source_entry *e)
{
    xjob *x = ud;
    if (e->error)
        return 0;   /* a folder that could not be listed holds nothing to export */
    const char *rel = e->key + x->rootlen;
    key_info ki;
    keyname_parse(rel, &ki);
    if (ki.kind == KEY_TF_META)
        return export_steps_tf_note_metadata(x, rel) == 0 ? 0 : (x->oom = 1);
    /* PyTorch profiler traces in framework/ (export_kineto_list finds the rest) */
    if ((ki.kind == KEY_OTHER || ki.kind == KEY_KINETO) && !strncmp(rel, "framework/", 10))
        return export_kineto_note(x, e->key, rel) == 0 ? 0 : (x->oom = 1);
    if (ki.kind != KEY_SYSTEM && ki.kind != KEY_TRACE && ki.kind != KEY_TRACE_TMP &&
        ki.kind != KEY_TF_TRACE)
        return 0;
    if (vec_grow(&x->files, &x->cap, x->n + 1, sizeof *x->files, 256) != 0)
        return x->oom = 1;
    xfile *f = &x->files[x->n];
    if (!(f->key = strdup(e->key)))
        return x->oom = 1;
    f->kind = ki.kind;
    f->tkind = ki.tkind;
    f->t = ki.time_us;
    f->size = e->size;
    snprintf(f->node, sizeof f->node, "%s", ki.node);
    snprintf(f->process, sizeof f->process, "%s", ki.process);
    x->n++;
    if (note_writer(x, f) != 0)
        return x->oom = 1;
    if (ki.kind == KEY_TF_TRACE && export_steps_tf_need(x, f) != 0)
        return x->oom = 1;
    return 0;
}

/* A step window [a, b) holds what overlaps it; an event that ends where
 * the step starts belongs to the step before. */
static int overlaps(int64_t since, int64_t until, int64_t start, int64_t dur)
{
    if (until && start >= until)
        return 0;
    if (since && start + dur <= since && !(dur == 0 && start >= since))
        return 0;
    return 1;
}

/* --since/--until keep what ends at or after since (one ending exactly at
 * since too) and starts before until: the model's rule (model.h), so
 * export, report and dashboard keep the same events. */
static int in_time_filter(int64_t since, int64_t until, int64_t start, int64_t dur)
{
    return !(until && start >= until) && !(since && start + dur < since);
}

int export_perfetto_in_window(const xjob *x, sm_str node, int64_t start, int64_t dur)
{
    if (!in_time_filter(x->since, x->until, start, dur))
        return 0;
    if (!x->o->has_steps)
        return 1;
    for (size_t i = 0; i < x->nwins; i++) {
        if (!sm_str_eq(node, x->wins[i].node))
            continue;
        int k = x->wins[i].w[0][0] != INT64_MAX ? 0 : 1;
        return overlaps(x->wins[i].w[k][0], x->wins[i].w[k][1], start, dur);
    }
    return 0;
}

static int is_big(const xfile *f)
{
    return f->kind != KEY_TF_TRACE && f->size > (int64_t)XP_CHUNK;
}

typedef struct xbatch {
    xjob *x;
    const xfile *fs;
    size_t n, next;            /* files [0, next) are done */
    char *data[XP_BATCH];
    size_t len[XP_BATCH];
    int state[XP_BATCH];       /* 0 pending, 1 copied, -1 failed */
} xbatch;

static void process_one(xjob *x, const xfile *f, const char *data, size_t len)
{
    x->st->files++;
    if (f->kind == KEY_TF_TRACE)
        export_steps_tf_process(x, f, data, len);
    else
        export_read_lines(x, f, data, len);
}

/* Decodes, in submission order, every file that has arrived. */
static void drain(xbatch *b)
{
    while (b->next < b->n && b->state[b->next] != 0) {
        size_t i = b->next++;
        if (b->state[i] < 0) {
            b->x->st->files++;
            b->x->st->skipped_files++;
        } else {
            process_one(b->x, &b->fs[i], b->data[i], b->len[i]);
        }
        free(b->data[i]);
        b->data[i] = NULL;
    }
}

/* Completion order is not submission order (S3 fetches in parallel), and
 * counter tracks must stay monotonic: a file that arrives in turn is
 * decoded straight from the source's buffer, one that arrives early is
 * copied and waits. */
static void fetch_cb(void *ud, const source_req *req, const void *data,
                     size_t len, const char *etag, const sm_err *err)
{
    (void)etag;
    xbatch *b = ud;
    size_t i = (size_t)(uintptr_t)req->user;
    if (!err && i == b->next) {
        b->next++;
        process_one(b->x, &b->fs[i], data, len);
    } else if (err || !(b->data[i] = malloc(len ? len : 1))) {
        snprintf(b->x->st->last_error, sizeof b->x->st->last_error, "%.200s: %.300s",
                 req->key, err ? err->msg : "out of memory");
        b->state[i] = -1;
    } else {
        memcpy(b->data[i], data, len);
        b->len[i] = len;
        b->state[i] = 1;
    }
    drain(b);
}

static int run_batch(xjob *x, const xfile *fs, size_t n, sm_err *err)
{
    xbatch b = {.x = x, .fs = fs, .n = n};
    source_req reqs[XP_BATCH] = {{0}};
    for (size_t i = 0; i < n; i++)
        reqs[i] = (source_req){.key = fs[i].key, .len = -1, .user = (void *)(uintptr_t)i};
    int rc = source_fetch(x->src, reqs, n, fetch_cb, &b, err);
    for (size_t i = b.next; i < n; i++)   /* never called back: count as failed */
        if (b.state[i] == 0)
            b.state[i] = -1;
    drain(&b);
    return rc;
}

static int walk_files(xjob *x, int (*want)(const xfile *), sm_err *err);

/* ---- fetch-ahead: reads and line decoding on a second thread -----------
 * The thread fetches the same batches of XP_BATCH selected files with the
 * same requests, decoding lines ahead (predec.h); this thread replays each
 * callback, in callback order, through fetch_cb with the batch's own
 * xbatch, so the output is byte for byte the sequential one. */

typedef struct xahead {
    xjob *x;
    xfile *sel;                /* the walk's files, in walk order */
    size_t n;
    size_t attempted;          /* batches handed to source_fetch */
    scan_fetch *f;
} xahead;

static int xahead_kind(key_kind k)
{
    return k == KEY_SYSTEM ? PREDEC_SYSTEM
           : k == KEY_TRACE || k == KEY_TRACE_TMP ? PREDEC_TRACE : PREDEC_NONE;
}

static void xahead_cb(void *ud, const source_req *req, const void *data, size_t len,
                      const char *etag, const sm_err *err)
{
    xahead *a = ud;
    size_t gi = (size_t)(uintptr_t)req->user;
    scan_fetch_put(a->f, req, data, len, etag, err,
                   err ? PREDEC_NONE : xahead_kind(a->sel[gi].kind));
}

static int xahead_run(void *ud, scan_fetch *f, sm_err *err)
{
    xahead *a = ud;
    source_req reqs[XP_BATCH];
    a->f = f;
    for (size_t base = 0; base < a->n; base += XP_BATCH) {
        size_t n = a->n - base < XP_BATCH ? a->n - base : XP_BATCH;
        for (size_t i = 0; i < n; i++)
            reqs[i] = (source_req){.key = a->sel[base + i].key, .len = -1,
                                   .user = (void *)(uintptr_t)(base + i)};
        a->attempted++;
        if (source_fetch(a->x->src, reqs, n, xahead_cb, a, err) != 0)
            return -1;
    }
    return 0;
}

/* Ends a batch as run_batch does after its source_fetch. */
static void batch_end(xbatch *b)
{
    for (size_t i = b->next; i < b->n; i++)   /* never called back: count as failed */
        if (b->state[i] == 0)
            b->state[i] = -1;
    drain(b);
}

static void batch_open(xbatch *b, xahead *a, size_t bi)
{
    size_t base = bi * XP_BATCH;
    *b = (xbatch){.x = a->x, .fs = a->sel + base,
                  .n = a->n - base < XP_BATCH ? a->n - base : XP_BATCH};
}

/* 0 done, 1 when no thread could be started (nothing happened yet). */
static int walk_ahead(xjob *x, xfile *sel, size_t n, sm_err *err, int *rc)
{
    xahead a = {.x = x, .sel = sel, .n = n};
    scan_fetch *f = scan_fetch_start(xahead_run, &a);
    if (!f)
        return 1;
    xbatch b;
    size_t cur = 0;
    int open = 0;
    scan_item it;
    while (scan_fetch_take(f, &it) == 0) {
        size_t gi = (size_t)(uintptr_t)it.req.user, bi = gi / XP_BATCH;
        while (!open || cur < bi) {   /* batches start in order */
            if (open)
                batch_end(&b);
            cur = open ? cur + 1 : 0;
            batch_open(&b, &a, cur);
            open = 1;
        }
        source_req r = it.req;
        r.user = (void *)(uintptr_t)(gi - bi * XP_BATCH);
        x->pre = &it.pre;
        fetch_cb(&b, &r, it.data, it.len, it.etag, it.err);
        x->pre = NULL;
        scan_fetch_release(f);
    }
    *rc = scan_fetch_finish(f, err);
    /* Close every batch handed to the source, called back or not. */
    while (open ? cur + 1 < a.attempted : a.attempted > 0) {
        if (open)
            batch_end(&b);
        cur = open ? cur + 1 : 0;
        batch_open(&b, &a, cur);
        open = 1;
    }
    if (open)
        batch_end(&b);
    return 0;
}

/* One walk over the files selected by `want` (NULL = all): with a fetch
 * thread when there are line files to decode and one can be started, else
 * on this thread alone. */
static int walk_once(xjob *x, int (*want)(const xfile *), sm_err *err);

/* Every walk pairs B/E events across files afresh: the --steps prepass
 * and the export each see every event once. */
static int walk(xjob *x, int (*want)(const xfile *), sm_err *err)
{
    if (!(x->carry = trace_carry_new()))
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = walk_once(x, want, err);
    trace_carry_free(x->carry);
    x->carry = NULL;
    return rc;
}

static int walk_once(xjob *x, int (*want)(const xfile *), sm_err *err)
{
    xfile *sel = malloc((x->n ? x->n : 1) * sizeof *sel);
    size_t n = 0, nlines = 0;
    int big = 0;
    for (size_t i = 0; sel && i < x->n; i++) {
        if ((want && !want(&x->files[i])) ||
            (!x->o->system && x->files[i].kind == KEY_SYSTEM))
            continue;
        nlines += xahead_kind(x->files[i].kind) != PREDEC_NONE;
        big |= is_big(&x->files[i]);
        sel[n++] = x->files[i];
    }
    int rc = 0;
    /* A file too large to read whole is streamed on this thread. */
    if (sel && nlines >= 2 && !big && walk_ahead(x, sel, n, err, &rc) == 0) {
        free(sel);
        return rc;
    }
    free(sel);
    return walk_files(x, want, err);
}

static int walk_files(xjob *x, int (*want)(const xfile *), sm_err *err)
{
    xfile sel[XP_BATCH];
    size_t k = 0;
    for (size_t i = 0; i < x->n; i++) {
        if ((want && !want(&x->files[i])) ||
            (!x->o->system && x->files[i].kind == KEY_SYSTEM))
            continue;
        if (is_big(&x->files[i])) {   /* in turn: the files before it first */
            if ((k && run_batch(x, sel, k, err) != 0) || export_read_stream(x, &x->files[i], err) != 0)
                return -1;
            k = 0;
            continue;
        }
        sel[k++] = x->files[i];
        if (k == XP_BATCH || i + 1 == x->n) {
            if (run_batch(x, sel, k, err) != 0)
                return -1;
            k = 0;
        }
    }
    return k ? run_batch(x, sel, k, err) : 0;
}

static int is_trace(const xfile *f)
{
    return f->kind == KEY_TRACE || f->kind == KEY_TRACE_TMP;
}

static int list_all(xjob *x, sm_err *err)
{
    if (source_list(x->src, x->root, NULL, list_cb, x, err) != 0)
        return -1;
    if (x->oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory listing the job");
    if (x->n)   /* qsort(NULL, 0, ...) is undefined */
        qsort(x->files, x->n, sizeof *x->files, xfile_cmp);
    return 0;
}

static int export_run(xjob *x, sm_err *err)
{
    if (list_all(x, err) != 0 || export_kineto_list(x, err) != 0)
        return -1;
    if (x->o->has_steps && export_steps_resolve(x, walk, is_trace, err) != 0)
        return -1;
    if (!(x->w = export_writer_new(x->out)))
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (walk(x, NULL, err) != 0 || export_kineto_run(x, err) != 0)
        return -1;
    x->st->events = export_writer_event_count(x->w);
    x->st->counters = export_writer_counter_count(x->w);
    if (export_writer_finish(x->w) != 0)
        return sm_err_set(err, SM_ERR_IO, "writing the export failed (disk full?)");
    return 0;
}

int export_perfetto(source *src, const char *root, FILE *out,
                    const export_opts *o, export_stats *st, sm_err *err)
{
    export_stats dummy;
    export_opts dflt;
    if (!o) {
        export_opts_init(&dflt);
        o = &dflt;
    }
    xjob x = {.src = src, .root = root ? root : "", .out = out, .o = o,
              .st = st ? st : &dummy, .since = o->since_us, .until = o->until_us};
    x.rootlen = strlen(x.root);
    memset(x.st, 0, sizeof *x.st);
    int rc = export_run(&x, err);
    export_writer_free(x.w);
    sys_decode_scratch_free(&x.scratch);
    for (size_t i = 0; i < x.n; i++)
        free(x.files[i].key);
    free(x.files);
    export_steps_tf_free(&x);
    export_kineto_free(&x);
    free(x.wins);
    free(x.mw);
    return rc;
}
