#include "io/scan/scan_ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/trace_decode.h"

typedef struct event_sink {
    ingest_ctx *cx;
    cat_entry *e;
} event_sink;

static void sink_event(void *ud, const sm_event *ev)
{
    event_sink *s = ud;
    int64_t end;
    if (__builtin_add_overflow(ev->start_us, ev->dur_us, &end))
        end = INT64_MAX;   /* the model refuses it, and counts it */
    if (end <= s->e->skip_until_us)
        return;
    /* Only what the model took moves the mark: a refused end near
     * INT64_MAX would hide every later event of a replaced file. */
    if (model_shard_add_event(s->cx->w, ev) == 0 && end > s->e->high_water_us)
        s->e->high_water_us = end;
}

static trace_dec *new_decoder(ingest_ctx *cx, const cat_entry *e)
{
    trace_dec *d = trace_decode_new(e->ki.node);
    if (d && trace_decode_set_writer(d, e->ki.process, cx->carry, (int)e->ki.tkind) != 0) {
        trace_decode_free(d);
        return NULL;
    }
    return d;
}

enum { WAITING = 1, ADDED };

/* One key's held samples, up to MODEL_RUN_MAX, gathered for one
 * model_shard_add_run. */
typedef struct held_run {
    uint32_t at[MODEL_RUN_MAX];     /* their records */
    int64_t ts[MODEL_RUN_MAX];
    double v[MODEL_RUN_MAX];
    unsigned char taken[MODEL_RUN_MAX];
    size_t n;
} held_run;

/* Adds run r of key k through the model in one call, and marks what it
 * took as ADDED (the cores among them go to the CPU total after). */
static void add_run(ingest_ctx *cx, cat_entry *e, size_t k, held_run *r)
{
    predec *pre = cx->pre;
    if (!r->n)
        return;
    model_shard_add_run(cx->w, &pre->refs[k], &pre->proto[k], r->ts, r->v, r->n, r->taken);
    for (size_t j = 0; j < r->n; j++)
        if (r->taken[j]) {
            pre->mark[r->at[j]] = ADDED;
            if (r->ts[j] > e->high_water_us)
                e->high_water_us = r->ts[j];
        }
    r->n = 0;
}

/* Adds the samples held back (hold_sample) series by series, then feeds
 * the cores among them into the CPU total in line order, as
 * model_add_sample_defer asks. Each key's records are chained in line
 * order (next_same), and its cursor skips what an earlier flush passed. */
static void flush_held(ingest_ctx *cx, cat_entry *e)
{
    predec *pre = cx->pre;
    if (!pre || !pre->nwait)
        return;
    held_run r;
    r.n = 0;
    for (size_t k = 0; k < pre->nkeys; k++) {
        uint32_t i = pre->cur[k];
        for (; i != PREDEC_NO_KEY && i <= pre->wait_hi; i = pre->v[i].next_same) {
            if (pre->mark[i] != WAITING)
                continue;
            pre->mark[i] = 0;
            if (pre->v[i].ts_us <= e->skip_until_us)
                continue;
            r.at[r.n] = i;
            r.ts[r.n] = pre->v[i].ts_us;
            r.v[r.n++] = pre->v[i].value;
            if (r.n == MODEL_RUN_MAX)
                add_run(cx, e, k, &r);
        }
        add_run(cx, e, k, &r);
        pre->cur[k] = i;
    }
    for (size_t i = pre->wait_lo; i <= pre->wait_hi; i++)
        if (pre->mark[i] == ADDED) {
            pre->mark[i] = 0;
            sm_sample s;
            predec_sample(pre, &pre->v[i], &s);
            model_shard_note_cpu(cx->w, &pre->refs[pre->v[i].key], &s);
        }
    pre->nwait = 0;
}

/* Holds back a sample decoded ahead whose series the model already
 * found in this read (issue 15: adding a file's samples series by series
 * keeps each series' data in cache). A sample whose key is new here, or
 * with an implausible time, goes in at once, after those held. */
static int hold_sample(ingest_ctx *cx, const predec_rec *r)
{
    predec *pre = cx->pre;
    if (!pre->refs[r->key].ent || !model_time_plausible(r->ts_us))
        return 0;
    size_t i = (size_t)(r - pre->v);
    pre->mark[i] = WAITING;
    if (!pre->nwait++)
        pre->wait_lo = i;
    pre->wait_hi = i;
    return 1;
}

/* A line's trimmed length not known yet. */
#define UNTRIMMED SIZE_MAX

/* Returns 0 for a decoded (or structural) line, -1 for a corrupt one.
 * `trimmed`: len without trailing blanks when the decode threads found it
 * (this thread then need not touch the line's last bytes), or UNTRIMMED. */
static int decode_line(ingest_ctx *cx, cat_entry *e, const char *line, size_t len,
                       size_t trimmed)
{
    if (trimmed != UNTRIMMED)
        len = trimmed;
    while (trimmed == UNTRIMMED && len &&
           (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    if (len == 0)
        return 0;
    cx->n.lines++;
    if (e->ki.kind == KEY_SYSTEM) {
        sm_sample own;
        const predec_rec *r = predec_take(cx->pre, line, len, PREDEC_SYSTEM);
        if (r && hold_sample(cx, r))
            return 0;
        flush_held(cx, e);
        if (r)
            predec_sample(cx->pre, r, &own);
        else if (sys_decode_line(line, len, &own, cx->scratch) != 0)
            return -1;
        if (own.ts_us <= e->skip_until_us)
            return 0;
        model_ref *ref = r ? &cx->pre->refs[r->key] : NULL;
        if (model_shard_add_sample_ref(cx->w, &own, ref) == 0 && own.ts_us > e->high_water_us)
            e->high_water_us = own.ts_us;
        return 0;
    }
    if (!e->tdec && !(e->tdec = new_decoder(cx, e)))
        return -1;
    event_sink sink = {cx, e};
    const predec_rec *r = predec_take(cx->pre, line, len, PREDEC_TRACE);
    int rc = r ? trace_decode_event(e->tdec, predec_event(cx->pre, r), sink_event, &sink) : 1;
    return rc != 1 ? rc : trace_decode_line(e->tdec, line, len, sink_event, &sink);
}

/* Keeps the number of e's current line among the first few bad ones: the
 * warning names them, so a user can open the file there. */
static void note_bad_line(ingest_ctx *cx, cat_entry *e)
{
    if (cx->nbad < sizeof cx->bad_line / sizeof cx->bad_line[0])
        cx->bad_line[cx->nbad++] = e->line_no;
}

static void count_line(ingest_ctx *cx, cat_entry *e, const char *line, size_t len,
                       size_t trimmed)
{
    e->line_no++;
    if (decode_line(cx, e, line, len, trimmed) != 0) {
        note_bad_line(cx, e);
        if (!cx->first_bad[0]) {
            /* Shown to the user, who wants to know what was skipped: keep
             * it printable so a binary line cannot reach the terminal. */
            size_t n = len < sizeof cx->first_bad - 1 ? len : sizeof cx->first_bad - 1;
            for (size_t i = 0; i < n; i++)
                cx->first_bad[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
            cx->first_bad[n] = '\0';
        }
        cx->n.corrupt++;
        e->corrupt++;
    }
}

static int hold_partial(cat_entry *e, const char *p, size_t len)
{
    size_t need = e->partial_len + len;
    if (need > INGEST_LINE_MAX)
        return 1;   /* a runaway line: the caller counts it corrupt */
    if (need > e->partial_cap) {
        size_t ncap = e->partial_cap ? e->partial_cap : 256;
        while (ncap < need)
            ncap *= 2;
        char *np = realloc(e->partial, ncap);
        if (!np)
            return -1;
        e->partial = np;
        e->partial_cap = (uint32_t)ncap;   /* both under INGEST_LINE_MAX */
    }
    memcpy(e->partial + e->partial_len, p, len);
    e->partial_len = (uint32_t)need;
    return 0;
}

/* Decodes one whole line (its "\n" consumed too) and, for the open
 * trace, adds it to the prefix that scan_adopt matches closed files by. */
static void take_line(ingest_ctx *cx, cat_entry *e, const char *line, size_t len,
                      size_t trimmed)
{
    if (e->ki.kind == KEY_TRACE_TMP)
        prefix_hash_add(&e->done, line, len);
    count_line(cx, e, line, len, trimmed);
}

/* Completes a held partial line with the first line of `p`; returns how
 * many bytes of p it used. A held "{...}," that close() completes (",\n"
 * truncated under it, "\n]\n" appended) becomes "{...},]": decoded and
 * hashed as "{...}", like the closed file's "{...}" and "]". Taking the
 * held line early on a "]" guessed at bytes not yet seen ("x," then "]"
 * may as well be the one line "x,]abc"). */
static size_t finish_held_line(ingest_ctx *cx, cat_entry *e, const char *p, size_t len)
{
    const char *nl = memchr(p, '\n', len);
    size_t take = nl ? (size_t)(nl - p) : len;
    int r = hold_partial(e, p, take);
    if (r != 0) {
        e->line_no += nl != NULL;
        note_bad_line(cx, e);
        if (!cx->first_bad[0] && nl) {
            snprintf(cx->first_bad, sizeof cx->first_bad, "%s", "a line over the size limit");
        }
        cx->n.corrupt++;
        e->corrupt++;
        e->partial_len = 0;
        /* drop the rest of the runaway line too */
        return nl ? take + 1 : len;
    }
    if (!nl)
        return len;
    take_line(cx, e, e->partial, e->partial_len, UNTRIMMED);
    e->partial_len = 0;
    return take + 1;
}

typedef struct elem_ctx {
    ingest_ctx *cx;
    cat_entry *e;
} elem_ctx;

/* One array element of a trace read by json_split: decoded like a line. */
static void take_elem(void *ud, const char *p, size_t n)
{
    elem_ctx *c = ud;
    if (p) {
        count_line(c->cx, c->e, p, n, UNTRIMMED);
        return;
    }
    c->e->line_no++;
    note_bad_line(c->cx, c->e);
    if (!c->cx->first_bad[0]) {
        snprintf(c->cx->first_bad, sizeof c->cx->first_bad, "%s",
                 "an event over 4 MB, or bytes outside the array");
    }
    c->cx->n.corrupt++;
    c->e->corrupt++;
}

/* A closed trace in another valid JSON layout (the whole array on one
 * line, or pretty-printed): its elements, streamed in bounded memory. */
static int scan_ingest_elements(ingest_ctx *cx, cat_entry *e, const char *p, size_t n,
                                size_t len, int is_final)
{
    elem_ctx c = {cx, e};
    predec *pre = cx->pre;   /* lines decoded ahead are no elements */
    cx->pre = NULL;
    /* An OOM drops the element in progress, counted corrupt: go on. */
    json_split_feed(e->js, p, n, take_elem, &c);
    cx->pre = pre;
    e->consumed += (int64_t)len;
    if (is_final)
        scan_ingest_finish_entry(cx, e);
    return 0;
}

/* Whether e's first bytes show a closed trace that is not one event per
 * line (then read through json_split); -1 on OOM. */
static int wants_elements(cat_entry *e, const char *data, size_t len, size_t data_offset)
{
    if (e->js)
        return 1;
    if (e->ki.kind != KEY_TRACE || e->consumed != 0 || data_offset != 0 ||
        json_split_one_per_line(data, len))
        return 0;
    return (e->js = json_split_new(INGEST_LINE_MAX)) ? 1 : -1;
}

int scan_ingest_bytes(ingest_ctx *cx, cat_entry *e, const char *data, size_t len,
                      size_t data_offset, int is_final)
{
    int elems = wants_elements(e, data, len, data_offset);
    if (elems != 0)
        return elems < 0 ? -1
                         : scan_ingest_elements(cx, e, data + data_offset, len - data_offset, len,
                                                is_final);
    const char *p = data + data_offset, *end = data + len;
    if (e->partial_len && p < end)
        p += finish_held_line(cx, e, p, (size_t)(end - p));
    while (p < end) {
        const predec_rec *r = predec_at(cx->pre, p);
        const char *nl = r ? predec_nl(cx->pre, r) : memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        take_line(cx, e, p, (size_t)(nl - p), r ? r->len : UNTRIMMED);
        p = nl + 1;
    }
    flush_held(cx, e);
    if (p < end) {
        int r = hold_partial(e, p, (size_t)(end - p));
        if (r < 0)
            return -1;
        if (r > 0) {
            cx->n.corrupt++;
            e->corrupt++;
        }
    }
    e->consumed += (int64_t)len;
    if (is_final) {
        scan_ingest_finish_entry(cx, e);
        if (e->tdec) {
            /* A closed file never grows: smdebug closes the array and
             * renames the .tmp, and S3 holds only closed objects (SPEC).
             * So its decoder goes (a day of 16 nodes read 23k of them);
             * a file that grows all the same is read again from its
             * start, said in the warnings (scan_list.c, closed_trace_grew). */
            event_sink sink = {cx, e};
            trace_decode_close_file(e->tdec, sink_event, &sink);
            trace_decode_free(e->tdec);
            e->tdec = NULL;
        }
    }
    return 0;
}

void scan_ingest_finish_entry(ingest_ctx *cx, cat_entry *e)
{
    if (e->js && json_split_finish(e->js))
        cx->n.partial++;   /* a closed file cut inside an event */
    if (!e->partial_len)
        return;
    /* A final line without its newline still counts when it decodes. */
    int64_t before = e->corrupt;
    count_line(cx, e, e->partial, e->partial_len, UNTRIMMED);
    if (e->corrupt != before) {
        e->corrupt = before;
        cx->n.corrupt--;
        cx->n.partial++;
    }
    e->partial_len = 0;
}
