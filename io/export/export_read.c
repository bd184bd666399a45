/* export_read: a fetched file's bytes into the export's events through
 * its line row (io/decode/decoder_lines, as the scanner reads it) —
 * system lines, trace lines (one event a line, or elements of a JSON
 * document not laid out so), the B/E halves a writer's rotation split —
 * whole, or
 * a file larger than EXPORT_READ_CHUNK read and exported piece by piece
 * in walk order, so memory does not grow with the file (a 200 MB
 * pretty-printed trace costs what a 16 MB one costs). See
 * export_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "io/export/export_internal.h"
#include "io/decode/decoder_lines.h"
#include "io/decode/keyname.h"

#define XP_CHUNK EXPORT_READ_CHUNK

static int node_has_writers(xjob *x, sm_str node)
{
    if (x->mw_last && sm_str_eq(node, x->mw_last->node))
        return x->mw_last->multi;
    for (size_t i = 0; i < x->nmw; i++)
        if (sm_str_eq(node, x->mw[i].node)) {
            x->mw_last = &x->mw[i];
            return x->mw[i].multi;
        }
    return 0;
}

/* An event of a node with several writers, on its writer's own thread. */
static void event_of_writer(xjob *x, const sm_event *e)
{
    char buf[512];
    sm_str ph = e->phase.len ? e->phase : sm_str_c("(unnamed)");
    int n = snprintf(buf, sizeof buf, "%.*s %.*s", (int)(e->process.len < 200 ? e->process.len : 200),
                     e->process.ptr, (int)(ph.len < 300 ? ph.len : 300), ph.ptr);
    sm_event c = *e;
    c.phase = (sm_str){buf, n > 0 && (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1};
    if (!c.name.len)
        c.name = ph;   /* the event keeps its own name */
    export_writer_event(x->w, &c);
}

static void xp_trace_sink(void *ud, const sm_event *e)
{
    xjob *x = ud;
    if (x->prepass) {
        export_steps_note(x, e);
        return;
    }
    export_steps_tf_note_step(x, e);
    if (!export_perfetto_in_window(x, e->node, e->start_us, e->dur_us))
        return;
    if (e->process.len && node_has_writers(x, e->node))
        event_of_writer(x, e);
    else
        export_writer_event(x->w, e);
}

/* A system sample as a counter on its node's track "<name> <dimension>". */
static int xp_sample(void *ud, const sm_sample *sp)
{
    xjob *x = ud;
    const sm_sample s = *sp;
    if (!export_perfetto_in_window(x, s.node, s.ts_us, 0))
        return 0;
    char track[256];
    sm_str who = s.name.len && !sm_str_eq(s.name, "") ? s.name : s.type;
    if (s.name.len == s.dimension.len && !memcmp(s.name.ptr, s.dimension.ptr, s.name.len))
        who = s.type;   /* "MemoryUsedPercent MemoryUsedPercent" says nothing */
    /* snprintf("%.*s %.*s") by hand (it was a tenth of an export): each
     * part up to its first NUL, the whole cut to fit with its NUL. */
    size_t wl = strnlen(who.ptr, who.len), dl = strnlen(s.dimension.ptr, s.dimension.len);
    size_t n = 0, room = sizeof track - 1;
    size_t take = wl < room ? wl : room;
    memcpy(track, who.ptr, take);
    n = take;
    if (n < room)
        track[n++] = ' ';
    take = dl < room - n ? dl : room - n;
    memcpy(track + n, s.dimension.ptr, take);
    n += take;
    track[n] = '\0';
    sm_str t = {track, n};
    export_writer_counter(x->w, s.node, t, s.ts_us, s.value);
    return 0;
}

static int xp_event(void *ud, const sm_event *e)
{
    xp_trace_sink(ud, e);
    return 0;
}

/* f read by its line row (io/decode/decoder_lines: the scanner's reader,
 * so a line, an element, a cut or a runaway line counts alike in the
 * report and the export), its records to the export. */
typedef struct xread {
    const decoder *d;
    lines_rd *rd;
    rec_lines n;
    rec_sink out;
} xread;

/* 0, or -1 (counted as a skipped file) when f's reader cannot begin. */
static int xp_begin(xjob *x, const xfile *f, xread *r)
{
    key_info ki = {.kind = f->kind, .tkind = f->tkind};
    snprintf(ki.node, sizeof ki.node, "%s", f->node);
    snprintf(ki.process, sizeof ki.process, "%s", f->process);
    lines_opts o = {.carry = x->carry, .skip_until_us = INT64_MIN, .from = 0};
    sm_err err = {0};
    memset(&r->n, 0, sizeof r->n);
    r->out = (rec_sink){.ud = x, .sample = xp_sample, .event = xp_event, .lines = &r->n};
    r->d = decoder_for(&ki);
    r->rd = r->d && r->d->grows ? decoder_lines_begin(&ki, &o, &err) : NULL;
    if (!r->rd) {
        x->st->skipped_files++;
        return -1;
    }
    return 0;
}

/* Files of a writer come in time order: its next file pairs what this one
 * left open (the row's end hands them to the carry). */
static void xp_end(xjob *x, xread *r, int64_t len)
{
    sm_err err = {0};
    r->d->end(r->rd, len, &r->out, &err);
    x->st->corrupt_lines += r->n.corrupt + r->n.partial;
}

void export_read_lines(xjob *x, const xfile *f, const char *data, size_t len)
{
    xread r;
    if (xp_begin(x, f, &r) != 0)
        return;
    decoder_lines_lend(r.rd, x->pre, &x->scratch);
    if (r.d->feed(r.rd, data, len, &r.out) != 0)
        x->st->skipped_files++;   /* out of memory: what was read is kept */
    xp_end(x, &r, (int64_t)len);
}

/* ---- a line file larger than XP_CHUNK: read and exported piece by piece,
 * in walk order, so memory does not grow with the file (a 200 MB
 * pretty-printed trace costs what a 16 MB one costs) ------------------- */

typedef struct xstream {
    xjob *x;
    xread r;
    int failed, oom;
    size_t got;            /* bytes of the last read */
} xstream;

static void stream_cb(void *ud, const source_req *req, const void *data, size_t len,
                      const char *etag, const sm_err *err)
{
    xstream *s = ud;
    (void)etag;
    if (err) {
        snprintf(s->x->st->last_error, sizeof s->x->st->last_error, "%.200s: %.300s",
                 req->key, err->msg);
        s->failed = 1;
        return;
    }
    s->got = len;
    decoder_lines_lend(s->r.rd, NULL, &s->x->scratch);
    if (s->r.d->feed(s->r.rd, data, len, &s->r.out) != 0)
        s->failed = s->oom = 1;
}

int export_read_stream(xjob *x, const xfile *f, sm_err *err)
{
    x->st->files++;
    xstream s = {.x = x};
    if (xp_begin(x, f, &s.r) != 0)
        return 0;
    int rc = 0;
    int64_t off = 0;
    for (;; off += (int64_t)s.got) {
        source_req r = {.key = f->key, .offset = off, .len = (int64_t)XP_CHUNK};
        s.got = 0;
        if (source_fetch(x->src, &r, 1, stream_cb, &s, err) != 0) {
            rc = -1;
            break;
        }
        if (s.failed || s.got < XP_CHUNK)
            break;
    }
    if (s.failed && (off == 0 || s.oom))
        x->st->skipped_files++;
    xp_end(x, &s.r, off);
    return rc;
}
