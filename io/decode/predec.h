/* predec: lines decoded ahead of the thread that consumes them.
 *
 * A producer (scan_fetch's fetch thread, an ingest worker) splits a
 * file's bytes into lines exactly as their consumer will (decoder_lines,
 * for the scanner and the export) and runs the pure first step of
 * decoding on each: the fast system-metrics scanner
 * (sys_decode_line_fast) or the trace line reader (trace_decode_parse). The
 * consumer still walks every line itself, in order, and takes a record
 * only when it is for exactly that line (same address and length) and
 * came out of the fast path without scratch-backed strings; anything else
 * (held partial lines, extra members, jansson fallbacks) it decodes as
 * before. So results cannot change, only where the work runs. */
#ifndef SMTOP_PREDEC_H
#define SMTOP_PREDEC_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"
#include "io/decode/sys_decode.h"
#include "io/decode/trace_line.h"

/* What a file's lines are decoded ahead as. */
enum { PREDEC_NONE, PREDEC_SYSTEM, PREDEC_TRACE };

/* One line, compact (issue 15: the ring holds several files' records at
 * once, and a system file has thousands of lines): offsets into the
 * file's bytes, and for a system sample only what differs between the
 * samples of one key, its time and value; the strings are its key's
 * (predec_sample). A trace event is kept beside, in predec.ev. */
typedef struct predec_rec {
    uint32_t off;       /* the line starts at base + off, */
    uint32_t len;       /* trimmed (predec_trim), */
    uint32_t nl_off;    /* and its '\n' is at base + off + nl_off */
    uint32_t key;       /* ok PREDEC_SYSTEM: its (node, type, dimension,
                         * name) numbered in order of appearance in these
                         * bytes (never PREDEC_NO_KEY: a sample without a
                         * key is left to the consumer) */
    uint32_t next_same; /* the next record of the same key, or PREDEC_NO_KEY */
    uint32_t ok;        /* decoded ahead; else the consumer decodes it */
    int64_t ts_us;      /* ok PREDEC_SYSTEM: the sample's */
    double value;
} predec_rec;

#define PREDEC_NO_KEY UINT32_MAX

/* A job's records in line order, with the scanner thread's read cursor,
 * and the consumer's state per key and per record, set up by the
 * producer: rec_ref per key (zeroed), so the model finds a key's series
 * once per read, not once per line; and what decoder_lines holds back to
 * add series by series (model_add_sample_defer): a mark per record
 * (zeroed), a cursor per key into its records (at its first), and the
 * range of records waiting. */
typedef struct predec {
    const char *base;         /* the bytes decoded */
    const predec_rec *v;
    const sm_sample *proto;   /* per key, its first sample (the strings) */
    const tl_event *ev;       /* PREDEC_TRACE, per record */
    int kind;
    size_t n, at;
    rec_ref *refs;
    uint32_t *cur;
    uint8_t *mark;
    size_t nkeys;
    size_t wait_lo, wait_hi, nwait;
} predec;

/* A line's length without its trailing blanks ('\r', ' ', '\t'): the
 * ahead decode and its consumer trim alike, so a record is found for
 * exactly its line. */
static inline size_t predec_trim(const char *line, size_t n)
{
    while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        n--;
    return n;
}

/* The record decoded ahead for exactly this line (same address and
 * length), or NULL when the caller must decode it itself. Skips records
 * of lines the caller passed over (it may trim differently). */
static inline const predec_rec *predec_take(predec *pre, const char *line, size_t len,
                                            int kind)
{
    /* line may lie outside the job's copy (a held partial line): leave
     * the cursor alone then. */
    uintptr_t at = (uintptr_t)line, base = pre ? (uintptr_t)pre->base : 0;
    if (!pre || pre->n == 0 || at < base + pre->v[0].off || at > base + pre->v[pre->n - 1].off)
        return NULL;
    uint32_t off = (uint32_t)(at - base);
    while (pre->at < pre->n && pre->v[pre->at].off < off)
        pre->at++;
    if (pre->at == pre->n || pre->v[pre->at].off != off || pre->v[pre->at].len != len)
        return NULL;
    const predec_rec *r = &pre->v[pre->at++];
    return r->ok && pre->kind == kind ? r : NULL;
}

/* The sample of an ok PREDEC_SYSTEM record, as the decoder gave it: its
 * key's strings (the same bytes, from the key's first line) with its own
 * time and value. */
static inline void predec_sample(const predec *pre, const predec_rec *r, sm_sample *out)
{
    *out = pre->proto[r->key];
    out->ts_us = r->ts_us;
    out->value = r->value;
}

/* The event of an ok PREDEC_TRACE record. */
static inline const tl_event *predec_event(const predec *pre, const predec_rec *r)
{
    return &pre->ev[r - pre->v];
}

/* Where record r's line ends: its '\n'. */
static inline const char *predec_nl(const predec *pre, const predec_rec *r)
{
    return pre->base + r->off + r->nl_off;
}

/* A key's latest line, the model its next lines are compared with
 * (sys_decode_numbers_like): offset, length and where its numbers lie. */
typedef struct predec_like {
    uint32_t off, len;
    sys_spans sp;
    int ok;
} predec_like;

/* Growable record storage for predec_decode. */
typedef struct predec_buf {
    const char *base;
    int kind;
    predec_rec *v;
    size_t n, cap;
    tl_event *ev;           /* PREDEC_TRACE, per record (capev) */
    size_t capev;
    sm_sample *proto;       /* per key, its first sample */
    predec_like *like;      /* per key */
    uint32_t *first;        /* per key, the record that showed it first */
    uint32_t *last;         /* per key, its latest record so far */
    rec_ref *refs;        /* per key, for the consumer */
    uint32_t *cur;          /* per key, for the consumer */
    uint8_t *mark;          /* per record (cap), for the consumer */
    size_t nkeys, capkeys;
    uint32_t last_key;      /* the previous sample's: lines cycle in order */
} predec_buf;

struct sysdec_scratch;
/* Decodes ahead, as `kind` (PREDEC_SYSTEM or PREDEC_TRACE), every line of
 * data (a file's new bytes) the way decoder_lines will walk them, into b
 * (reused). A first line that only completes a held partial line is
 * decoded too, harmlessly: its consumer never asks for that address. Uses
 * only b and sc, so it may run on any thread. */
void predec_decode(predec_buf *b, struct sysdec_scratch *sc, const char *data,
                   size_t len, int kind);
void predec_buf_free(predec_buf *b);
/* The consumer's view of b's records (what scan_fetch_take hands out). */
predec predec_view(const predec_buf *b);

/* The next record when it is the line that starts at p (its nl was found
 * by the same memchr over the same bytes, its len trimmed the same way);
 * NULL when the caller must search. Does not move the cursor. */
static inline const predec_rec *predec_at(const predec *pre, const char *p)
{
    if (pre && pre->at < pre->n && pre->base + pre->v[pre->at].off == p)
        return &pre->v[pre->at];
    return NULL;
}

#endif
