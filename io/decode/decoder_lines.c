/* decoder_lines: see decoder_lines.h. */
#include "io/decode/decoder_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/decoder_impl.h"
#include "io/decode/json_split.h"

/* One per line file being read: small, as a job lists thousands. */
struct lines_rd {
    key_kind kind;
    lines_opts o;
    predec *pre;              /* lent for one feed */
    sysdec_scratch *scratch;  /* lent for one feed, else own */
    sysdec_scratch *own;      /* made when first needed */
    const rec_sink *out;      /* the feed's */
    rec_lines *t;             /* the feed's tally */
    char *partial;            /* trailing bytes of an incomplete line */
    uint32_t partial_len, partial_cap;   /* at most DECODER_LINE_MAX */
    trace_dec *tdec;          /* trace kinds, made at begin */
    jsplit *js;               /* a closed trace not one event per line */
    prefix_hash done;         /* .tmp: the lines decoded so far */
    int64_t fed;              /* bytes fed, o.from included */
    int64_t line_no;          /* lines (elements) taken: a message names a
                                 bad one by number */
    int adopted;              /* continues a .tmp's lines */
};

static rec_lines *tally(lines_rd *rd)
{
    return rd->t;
}

/* The feed's sink and tally (the sink's, else `spare`), and a scratch. 0,
 * or -1 on OOM. */
static int lend_out(lines_rd *rd, const rec_sink *out, rec_lines *spare)
{
    rd->out = out;
    rd->t = out->lines ? out->lines : spare;
    if (rd->scratch)
        return 0;
    if (!rd->own && !(rd->own = calloc(1, sizeof *rd->own)))
        return -1;
    rd->scratch = rd->own;
    return 0;
}

/* What a feed was lent goes back. */
static void unlend(lines_rd *rd)
{
    rd->pre = NULL;
    rd->scratch = NULL;
    rd->out = NULL;
    rd->t = NULL;
}

static void on_event(void *ud, const sm_event *ev)
{
    lines_rd *rd = ud;
    if (sm_event_end(ev) <= rd->o.skip_until_us || !rd->out->event)
        return;
    rd->out->event(rd->out->ud, ev);
}

static trace_dec *new_trace(const key_info *ki, trace_carry *carry)
{
    trace_dec *d = trace_decode_new(ki->node);
    if (d && trace_decode_set_writer(d, ki->process, carry, (int)ki->tkind) != 0) {
        trace_decode_free(d);
        return NULL;
    }
    return d;
}

enum { WAITING = 1, ADDED };

/* One key's held samples, up to REC_RUN_MAX, gathered for one run. */
typedef struct held_run {
    uint32_t at[REC_RUN_MAX];     /* their records */
    int64_t ts[REC_RUN_MAX];
    double v[REC_RUN_MAX];
    unsigned char taken[REC_RUN_MAX];
    size_t n;
} held_run;

/* Hands run r of key k over, and marks what the sink took as ADDED. */
static void give_run(lines_rd *rd, size_t k, held_run *r)
{
    predec *pre = rd->pre;
    if (!r->n)
        return;
    rd->out->run(rd->out->ud, &pre->refs[k], &pre->proto[k], r->ts, r->v, r->n, r->taken);
    for (size_t j = 0; j < r->n; j++)
        if (r->taken[j])
            pre->mark[r->at[j]] = ADDED;
    r->n = 0;
}

/* Hands the samples held back (hold_sample) over series by series, then
 * each taken one again in line order (rec_sink.run_taken). Each key's
 * records are chained in line order (next_same), and its cursor skips
 * what an earlier flush passed. */
static void flush_held(lines_rd *rd)
{
    predec *pre = rd->pre;
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
            if (pre->v[i].ts_us <= rd->o.skip_until_us)
                continue;
            r.at[r.n] = i;
            r.ts[r.n] = pre->v[i].ts_us;
            r.v[r.n++] = pre->v[i].value;
            if (r.n == REC_RUN_MAX)
                give_run(rd, k, &r);
        }
        give_run(rd, k, &r);
        pre->cur[k] = i;
    }
    for (size_t i = pre->wait_lo; i <= pre->wait_hi; i++)
        if (pre->mark[i] == ADDED) {
            pre->mark[i] = 0;
            sm_sample s;
            predec_sample(pre, &pre->v[i], &s);
            if (rd->out->run_taken)
                rd->out->run_taken(rd->out->ud, &pre->refs[pre->v[i].key], &s);
        }
    pre->nwait = 0;
}

/* Holds back a sample decoded ahead whose key the sink already filled
 * in this read. A sample whose key is new here, or with an implausible
 * time, goes over at once, after those held. */
static int hold_sample(lines_rd *rd, const predec_rec *r)
{
    predec *pre = rd->pre;
    if (!rd->out->run || !pre->refs[r->key].ent || !sm_time_plausible(r->ts_us))
        return 0;
    size_t i = (size_t)(r - pre->v);
    pre->mark[i] = WAITING;
    if (!pre->nwait++)
        pre->wait_lo = i;
    pre->wait_hi = i;
    return 1;
}

static void give_sample(lines_rd *rd, const sm_sample *s, rec_ref *ref)
{
    const rec_sink *out = rd->out;
    if (out->sample_ref)
        out->sample_ref(out->ud, s, ref);
    else if (out->sample)
        out->sample(out->ud, s);
}

/* A line's trimmed length not known yet. */
#define UNTRIMMED SIZE_MAX

static int decode_sample(lines_rd *rd, const char *line, size_t len)
{
    sm_sample own;
    const predec_rec *r = predec_take(rd->pre, line, len, PREDEC_SYSTEM);
    if (r && hold_sample(rd, r))
        return 0;
    flush_held(rd);
    if (r)
        predec_sample(rd->pre, r, &own);
    else if (sys_decode_line(line, len, &own, rd->scratch) != 0)
        return -1;
    if (own.ts_us <= rd->o.skip_until_us)
        return 0;
    give_sample(rd, &own, r ? &rd->pre->refs[r->key] : NULL);
    return 0;
}

/* Returns 0 for a decoded (or structural) line, -1 for a corrupt one.
 * `trimmed`: len without trailing blanks when the decode threads found it
 * (this thread then need not touch the line's last bytes), or UNTRIMMED. */
static int decode_line(lines_rd *rd, const char *line, size_t len, size_t trimmed)
{
    len = trimmed != UNTRIMMED ? trimmed : predec_trim(line, len);
    if (len == 0)
        return 0;
    tally(rd)->lines++;
    if (rd->kind == KEY_SYSTEM)
        return decode_sample(rd, line, len);
    if (!rd->tdec)
        return -1;   /* begin could not make one: every line is corrupt */
    const predec_rec *r = predec_take(rd->pre, line, len, PREDEC_TRACE);
    int rc = r ? trace_decode_event(rd->tdec, predec_event(rd->pre, r), on_event, rd) : 1;
    return rc != 1 ? rc : trace_decode_line(rd->tdec, line, len, on_event, rd);
}

/* Keeps the number of the current line among the first few bad ones: the
 * warning names them, so a user can open the file there. */
static void note_bad_line(lines_rd *rd)
{
    rec_lines *t = tally(rd);
    if (t->nbad < sizeof t->bad_line / sizeof t->bad_line[0])
        t->bad_line[t->nbad++] = rd->line_no;
}

static void bad_said(lines_rd *rd, const char *what)
{
    rec_lines *t = tally(rd);
    if (!t->first_bad[0])
        snprintf(t->first_bad, sizeof t->first_bad, "%s", what);
}

static void count_line(lines_rd *rd, const char *line, size_t len, size_t trimmed)
{
    rd->line_no++;
    if (decode_line(rd, line, len, trimmed) == 0)
        return;
    rec_lines *t = tally(rd);
    note_bad_line(rd);
    if (!t->first_bad[0]) {
        /* Shown to the user, who wants to know what was skipped: keep
         * it printable so a binary line cannot reach the terminal. */
        size_t n = len < sizeof t->first_bad - 1 ? len : sizeof t->first_bad - 1;
        for (size_t i = 0; i < n; i++)
            t->first_bad[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
        t->first_bad[n] = '\0';
    }
    t->corrupt++;
}

static int hold_partial(lines_rd *rd, const char *p, size_t len)
{
    size_t need = rd->partial_len + len;
    if (need > DECODER_LINE_MAX)
        return 1;   /* a runaway line: the caller counts it corrupt */
    if (need > rd->partial_cap) {
        size_t ncap = rd->partial_cap ? rd->partial_cap : 256;
        while (ncap < need)
            ncap *= 2;
        char *np = realloc(rd->partial, ncap);
        if (!np)
            return -1;
        rd->partial = np;
        rd->partial_cap = (uint32_t)ncap;   /* both under DECODER_LINE_MAX */
    }
    memcpy(rd->partial + rd->partial_len, p, len);
    rd->partial_len = (uint32_t)need;
    return 0;
}

/* Decodes one whole line (its "\n" consumed too) and, for the open
 * trace, adds it to the prefix that scan_adopt matches closed files by. */
static void take_line(lines_rd *rd, const char *line, size_t len, size_t trimmed)
{
    if (rd->kind == KEY_TRACE_TMP)
        prefix_hash_add(&rd->done, line, len);
    count_line(rd, line, len, trimmed);
}

/* Completes a held partial line with the first line of `p`; returns how
 * many bytes of p it used. A held "{...}," that close() completes (",\n"
 * truncated under it, "\n]\n" appended) becomes "{...},]": decoded and
 * hashed as "{...}", like the closed file's "{...}" and "]". Taking the
 * held line early on a "]" guessed at bytes not yet seen ("x," then "]"
 * may as well be the one line "x,]abc"). */
static size_t finish_held_line(lines_rd *rd, const char *p, size_t len)
{
    const char *nl = memchr(p, '\n', len);
    size_t take = nl ? (size_t)(nl - p) : len;
    if (hold_partial(rd, p, take) != 0) {
        rd->line_no += nl != NULL;
        note_bad_line(rd);
        if (nl)
            bad_said(rd, "a line over the size limit");
        tally(rd)->corrupt++;
        rd->partial_len = 0;
        /* drop the rest of the runaway line too */
        return nl ? take + 1 : len;
    }
    if (!nl)
        return len;
    take_line(rd, rd->partial, rd->partial_len, UNTRIMMED);
    rd->partial_len = 0;
    return take + 1;
}

/* One array element of a trace read by json_split: decoded like a line. */
static void take_elem(void *ud, const char *p, size_t n)
{
    lines_rd *rd = ud;
    if (p) {
        count_line(rd, p, n, UNTRIMMED);
        return;
    }
    rd->line_no++;
    note_bad_line(rd);
    bad_said(rd, "an event over 4 MB, or bytes outside the array");
    tally(rd)->corrupt++;
}

/* Whether the first bytes show a closed trace that is not one event per
 * line (then read through json_split); -1 on OOM. */
static int wants_elements(lines_rd *rd, const char *data, size_t len)
{
    if (rd->js)
        return 1;
    if (rd->kind != KEY_TRACE || rd->fed != 0 || rd->adopted ||
        json_split_one_per_line(data, len))
        return 0;
    return (rd->js = json_split_new(DECODER_LINE_MAX)) ? 1 : -1;
}

/* Complete lines decoded, a trailing incomplete one held. 0, or -1 on
 * OOM (the bytes not taken). */
static int feed_lines(lines_rd *rd, const char *p, const char *end)
{
    if (rd->partial_len && p < end)
        p += finish_held_line(rd, p, (size_t)(end - p));
    while (p < end) {
        const predec_rec *r = predec_at(rd->pre, p);
        const char *nl = r ? predec_nl(rd->pre, r) : memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        take_line(rd, p, (size_t)(nl - p), r ? r->len : UNTRIMMED);
        p = nl + 1;
    }
    flush_held(rd);
    if (p < end) {
        int r = hold_partial(rd, p, (size_t)(end - p));
        if (r < 0)
            return -1;
        if (r > 0)
            tally(rd)->corrupt++;
    }
    return 0;
}

/* The row's feed: 0, or -1 on OOM (nothing of p taken; feed it again). */
static int lines_feed(void *st, const void *p, size_t n, const rec_sink *out)
{
    lines_rd *rd = st;
    rec_lines spare = {0};
    if (lend_out(rd, out, &spare) != 0) {
        unlend(rd);
        return -1;
    }
    int elems = wants_elements(rd, p, n);
    int rc = elems < 0 ? -1 : 0;
    if (elems > 0) {
        rd->pre = NULL;   /* lines decoded ahead are no elements */
        /* An OOM drops the element in progress, counted corrupt: go on. */
        json_split_feed(rd->js, p, n, take_elem, rd);
    }
    else if (elems == 0)
        rc = feed_lines(rd, p, (const char *)p + n);
    if (rc == 0)
        rd->fed += (int64_t)n;
    unlend(rd);
    return rc;
}

/* decoder_lines_flush with the feed's loans made. */
static void flush_lent(lines_rd *rd)
{
    if (rd->js && json_split_finish(rd->js))
        tally(rd)->partial++;   /* a closed file cut inside an event */
    if (!rd->partial_len)
        return;
    /* A final line without its newline still counts when it decodes. */
    rec_lines *t = tally(rd);
    int64_t before = t->corrupt;
    count_line(rd, rd->partial, rd->partial_len, UNTRIMMED);
    if (t->corrupt != before) {
        t->corrupt--;
        t->partial++;
    }
    rd->partial_len = 0;
}

void decoder_lines_flush(lines_rd *rd, const rec_sink *out)
{
    rec_lines spare = {0};
    if (!rd)
        return;
    if (decoder_lines_holding(rd) && lend_out(rd, out, &spare) == 0)
        flush_lent(rd);
    unlend(rd);
}

static void lines_drop(void *st)
{
    lines_rd *rd = st;
    if (!rd)
        return;
    free(rd->partial);
    trace_decode_free(rd->tdec);
    json_split_free(rd->js);
    if (rd->own)
        sys_decode_scratch_free(rd->own);
    free(rd->own);
    free(rd);
}

/* The file is closed. A closed file never grows: smdebug closes the array
 * and renames the .tmp, and S3 holds only closed objects (SPEC). So its
 * reader goes (a day of 16 nodes read 23k of them); a file that grows all
 * the same is read again from its start (scan_list.c, closed_trace_grew).
 * A trace read line by line hands its open B events to the carry. */
static int lines_end(void *st, int64_t len, const rec_sink *out, sm_err *err)
{
    lines_rd *rd = st;
    rec_lines spare = {0};
    (void)len;
    int rc = lend_out(rd, out, &spare);
    if (rc == 0) {
        int by_lines = !rd->js;
        flush_lent(rd);
        if (rd->tdec && by_lines)
            trace_decode_close_file(rd->tdec, on_event, rd);
    } else {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    }
    lines_drop(rd);
    return rc;
}

lines_rd *decoder_lines_begin(const key_info *ki, const lines_opts *o, sm_err *err)
{
    lines_rd *rd = calloc(1, sizeof *rd);
    if (!rd) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    rd->kind = ki->kind;
    rd->o = *o;
    rd->fed = o->from;
    prefix_hash_init(&rd->done);
    /* No trace decoder (out of memory, or the carry's writers full):
     * its lines are counted corrupt, and named. */
    if (ki->kind != KEY_SYSTEM)
        rd->tdec = new_trace(ki, o->carry);
    return rd;
}

static void *lines_begin(const key_info *ki, const char *key, sm_err *err)
{
    (void)key;
    lines_opts o = {.carry = NULL, .skip_until_us = INT64_MIN, .from = 0};
    return decoder_lines_begin(ki, &o, err);
}

void decoder_lines_lend(lines_rd *rd, predec *pre, sysdec_scratch *scratch)
{
    rd->pre = pre;
    rd->scratch = scratch;
}

const prefix_hash *decoder_lines_prefix(const lines_rd *rd)
{
    return rd ? &rd->done : NULL;
}

trace_dec *decoder_lines_take_trace(lines_rd *rd)
{
    trace_dec *d = rd ? rd->tdec : NULL;
    if (rd)
        rd->tdec = NULL;
    return d;
}

void decoder_lines_free(lines_rd *rd)
{
    lines_drop(rd);
}

void decoder_lines_adopt(lines_rd *rd, trace_dec *d)
{
    if (d) {   /* none: the .tmp had decoded no event; rd's own is as new */
        trace_decode_free(rd->tdec);
        rd->tdec = d;
    }
    rd->adopted = 1;
}

int decoder_lines_holding(const lines_rd *rd)
{
    return rd && (rd->partial_len || rd->js);
}

size_t decoder_lines_bytes(const lines_rd *rd)
{
    return rd ? sizeof *rd + rd->partial_cap + (rd->js ? json_split_held(rd->js) : 0) : 0;
}

static size_t lines_held(const void *st)
{
    return decoder_lines_bytes(st);
}

static int match_kind(const key_info *ki, int kind)
{
    return (int)ki->kind == kind;
}

static int match_system(const key_info *ki, const void *head, size_t n)
{
    (void)head;
    (void)n;
    return match_kind(ki, KEY_SYSTEM);
}

static int match_trace(const key_info *ki, const void *head, size_t n)
{
    (void)head;
    (void)n;
    return match_kind(ki, KEY_TRACE) || match_kind(ki, KEY_TRACE_TMP);
}

#define LINES_ROW(row_name, row_kind, row_match)                                          \
    {.name = row_name, .kind = row_kind, .match = row_match, .begin = lines_begin,       \
     .feed = lines_feed, .end = lines_end, .drop = lines_drop, .streamed = 0,            \
     .grows = 1, .held = lines_held}

const decoder decoder_system = LINES_ROW("system", KEY_SYSTEM, match_system);
const decoder decoder_smdebug_trace = LINES_ROW("smdebug-trace", KEY_TRACE, match_trace);
const decoder decoder_smdebug_tmp = LINES_ROW("smdebug-trace-tmp", KEY_TRACE_TMP, match_trace);
