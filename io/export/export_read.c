/* export_read: a fetched file's bytes into the export's events — system
 * lines, trace lines (one event a line, or elements of a JSON document
 * not laid out so), the B/E halves a writer's rotation split — whole, or
 * a file larger than EXPORT_READ_CHUNK read and exported piece by piece
 * in walk order, so memory does not grow with the file (a 200 MB
 * pretty-printed trace costs what a 16 MB one costs). See
 * export_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "io/export/export_internal.h"
#include "io/decode/decoder_lines.h"
#include "io/decode/json_split.h"
#include "io/decode/keyname.h"
#include "io/decode/sys_decode.h"
#include "io/decode/trace_carry.h"
#include "io/decode/trace_decode.h"

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

static void do_system(xjob *x, const char *line, size_t len)
{
    sm_sample s;
    const predec_rec *r = predec_take(x->pre, line, len, PREDEC_SYSTEM);
    if (r) {
        predec_sample(x->pre, r, &s);
    } else if (sys_decode_line(line, len, &s, &x->scratch) != 0) {
        x->st->corrupt_lines++;
        return;
    }
    if (!export_perfetto_in_window(x, s.node, s.ts_us, 0))
        return;
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
}

typedef struct xelem {
    xjob *x;
    trace_dec *d;
} xelem;

static void xp_elem(void *ud, const char *p, size_t n)
{
    xelem *c = ud;
    if (!p || trace_decode_line(c->d, p, n, xp_trace_sink, c->x) != 0)
        c->x->st->corrupt_lines++;
}

/* A closed trace not laid out one event per line: its array's elements,
 * streamed (json_split.h) exactly as the scanner reads it. */
static void process_elements(xjob *x, trace_dec *d, const char *data, size_t len)
{
    xelem c = {x, d};
    jsplit *js = json_split_new(DECODER_LINE_MAX);
    if (!js) {
        x->st->skipped_files++;
        return;
    }
    json_split_feed(js, data, len, xp_elem, &c);
    x->st->corrupt_lines += json_split_finish(js);
    json_split_free(js);
}

/* One line of a file: a trace event for d, or a system sample (d NULL). */
static void xp_line(xjob *x, trace_dec *d, const char *line, size_t l)
{
    if (l && line[l - 1] == '\r')
        l--;
    if (l == 0)
        return;
    if (!d) {
        do_system(x, line, l);
        return;
    }
    const predec_rec *r = predec_take(x->pre, line, l, PREDEC_TRACE);
    int rc = r ? trace_decode_event(d, predec_event(x->pre, r), xp_trace_sink, x) : 1;
    if (rc == 1)
        rc = trace_decode_line(d, line, l, xp_trace_sink, x);
    if (rc != 0)
        x->st->corrupt_lines++;
}

/* f's decoder (NULL for a system file, which needs none); -1 on OOM,
 * counted as a skipped file. */
static int xp_open_dec(xjob *x, const xfile *f, trace_dec **out)
{
    trace_dec *d = NULL;
    *out = NULL;
    if (f->kind == KEY_SYSTEM)
        return 0;
    if (!(d = trace_decode_new(f->node)) ||
        trace_decode_set_writer(d, f->process, x->carry, (int)f->tkind) != 0) {
        trace_decode_free(d);
        x->st->skipped_files++;
        return -1;
    }
    *out = d;
    return 0;
}

/* Files of a writer come in time order: its next file pairs what this one
 * left open. */
static void xp_close_dec(xjob *x, trace_dec *d)
{
    if (d)
        trace_decode_close_file(d, xp_trace_sink, x);
    trace_decode_free(d);
}

void export_read_lines(xjob *x, const xfile *f, const char *data, size_t len)
{
    trace_dec *d;
    if (xp_open_dec(x, f, &d) != 0)
        return;
    if (f->kind == KEY_TRACE && !json_split_one_per_line(data, len)) {
        process_elements(x, d, data, len);
        trace_decode_free(d);
        return;
    }
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len;
        xp_line(x, d, data + i, end - i);
        i = end + 1;
    }
    xp_close_dec(x, d);
}

/* ---- a line file larger than XP_CHUNK: read and exported piece by piece,
 * in walk order, so memory does not grow with the file (a 200 MB
 * pretty-printed trace costs what a 16 MB one costs) ------------------- */

typedef struct xstream {
    xjob *x;
    const xfile *f;
    trace_dec *d;
    jsplit *js;            /* a trace not laid out one event per line */
    char *part;            /* a line cut by the end of a read */
    size_t plen, pcap;
    int decided, failed, skipping;   /* skipping: a runaway line's rest */
    size_t got;            /* bytes of the last read */
} xstream;

/* Adds p[0..n) to the held partial line; past DECODER_LINE_MAX the line is
 * corrupt (as on the scanner's path) and its rest is skipped. */
static void stream_hold(xstream *s, const char *p, size_t n)
{
    if (s->skipping)
        return;
    if (s->plen + n > DECODER_LINE_MAX) {
        s->x->st->corrupt_lines++;
        s->plen = 0;
        s->skipping = 1;
        return;
    }
    if (s->plen + n > s->pcap) {
        size_t nc = s->pcap ? s->pcap : 4096;
        while (nc < s->plen + n)
            nc *= 2;
        char *np = realloc(s->part, nc);
        if (!np) {
            s->x->st->corrupt_lines++;
            s->plen = 0;
            s->skipping = 1;
            return;
        }
        s->part = np;
        s->pcap = nc;
    }
    memcpy(s->part + s->plen, p, n);
    s->plen += n;
}

static void stream_lines(xstream *s, const char *p, size_t n)
{
    size_t i = 0;
    if (s->plen || s->skipping) {   /* finish the line the last read cut */
        const char *nl = memchr(p, '\n', n);
        size_t take = nl ? (size_t)(nl - p) : n;
        stream_hold(s, p, take);
        if (!nl)
            return;
        if (!s->skipping)
            xp_line(s->x, s->d, s->part, s->plen);
        s->plen = 0;
        s->skipping = 0;
        i = take + 1;
    }
    while (i < n) {
        const char *nl = memchr(p + i, '\n', n - i);
        if (!nl) {
            stream_hold(s, p + i, n - i);
            return;
        }
        xp_line(s->x, s->d, p + i, (size_t)(nl - p) - i);
        i = (size_t)(nl - p) + 1;
    }
}

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
    if (!s->decided) {   /* the layout, from the first element (json_split.h) */
        s->decided = 1;
        if (s->f->kind == KEY_TRACE && !json_split_one_per_line(data, len) &&
            !(s->js = json_split_new(DECODER_LINE_MAX))) {
            s->failed = 1;
            return;
        }
    }
    if (s->js) {
        xelem c = {s->x, s->d};
        json_split_feed(s->js, data, len, xp_elem, &c);
    } else {
        stream_lines(s, data, len);
    }
}

int export_read_stream(xjob *x, const xfile *f, sm_err *err)
{
    x->st->files++;
    xstream s = {.x = x, .f = f};
    if (xp_open_dec(x, f, &s.d) != 0)
        return 0;
    int rc = 0;
    for (int64_t off = 0;; off += (int64_t)s.got) {
        source_req r = {.key = f->key, .offset = off, .len = (int64_t)XP_CHUNK};
        s.got = 0;
        if (source_fetch(x->src, &r, 1, stream_cb, &s, err) != 0) {
            rc = -1;
            break;
        }
        if (s.failed || s.got < XP_CHUNK)
            break;
    }
    if (s.js)
        x->st->corrupt_lines += json_split_finish(s.js);
    else if (s.plen && !s.skipping)   /* a last line without its newline */
        xp_line(x, s.d, s.part, s.plen);
    if (s.failed && !s.decided)
        x->st->skipped_files++;
    json_split_free(s.js);
    free(s.part);
    xp_close_dec(x, s.d);
    return rc;
}

