/* scan_pipe: decode-ahead for system metrics files — a second thread that
 * splits and decodes file k+1 while the scanner's thread feeds file k into
 * the model. Internal to io/scanner*.
 *
 * Results cannot change: the worker only runs the pure fast decoder
 * (sysdec_line_fast) over a private copy of the bytes, and the scanner's
 * thread still walks every line itself, in order, taking a pre-decoded
 * record only when it is for exactly that line (same address and length)
 * and came out of the fast path without scratch-backed strings. Anything
 * else (held partial lines, extra members, jansson fallbacks) is decoded
 * on the scanner's thread as before. Model updates, catalog state, counters
 * and messages stay on the scanner's thread and in file order. */
#ifndef SMTOP_SCAN_PIPE_H
#define SMTOP_SCAN_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include "../model/records.h"

/* Files larger than this are decoded synchronously (bounds the copies). */
#define SCAN_PIPE_FILE_MAX ((size_t)64 << 20)

typedef struct predec_rec {
    const char *line;   /* trimmed as scan_ingest trims */
    size_t len;
    int ok;             /* s is valid */
    sm_sample s;
} predec_rec;

/* A job's records in line order, with the scanner thread's read cursor. */
typedef struct predec {
    const predec_rec *v;
    size_t n, at;
} predec;

/* The record decoded ahead for exactly this line (same address and
 * length), or NULL when the caller must decode it itself. Skips records
 * of lines the caller passed over (it may trim differently). */
static inline const predec_rec *predec_take(predec *pre, const char *line, size_t len)
{
    if (!pre)
        return NULL;
    uintptr_t at = (uintptr_t)line;   /* line may lie outside the job's copy */
    while (pre->at < pre->n && (uintptr_t)pre->v[pre->at].line < at)
        pre->at++;
    if (pre->at == pre->n || pre->v[pre->at].line != line || pre->v[pre->at].len != len)
        return NULL;
    const predec_rec *r = &pre->v[pre->at++];
    return r->ok ? r : NULL;
}

/* Growable record storage for predec_decode. */
typedef struct predec_buf {
    predec_rec *v;
    size_t n, cap;
} predec_buf;

struct sysdec_scratch;
/* Decodes ahead the lines of data (a system file's new bytes) the way
 * scan_ingest will walk them, into b (reused). `skip_first`: the first line
 * completes a held partial line and is left alone. Uses only b and sc. */
void predec_decode(predec_buf *b, struct sysdec_scratch *sc, const char *data,
                   size_t len, int skip_first);
void predec_buf_free(predec_buf *b);

typedef struct scan_pipe scan_pipe;

/* Starts the worker. NULL when no thread could be started (the caller then
 * decodes everything itself). */
scan_pipe *scan_pipe_new(void);
/* Stops and joins the worker; pending jobs are dropped. NULL is a no-op. */
void scan_pipe_free(scan_pipe *p);

/* Jobs queued or being decoded and not yet released: at most 2. */
size_t scan_pipe_pending(const scan_pipe *p);

/* Copies data and queues it for decoding, tagged with `tag`. `skip_first`
 * means the first line completes a held partial line (not decoded ahead).
 * 0, or -1 (nothing queued) when 2 jobs are pending, len is 0, the file
 * is too big or the copy cannot be allocated. */
int scan_pipe_submit(scan_pipe *p, void *tag, const char *data, size_t len,
                     int skip_first);

/* Waits until the oldest pending job is decoded and returns its tag, its
 * copy of the bytes (valid until scan_pipe_release) and its records.
 * -1 when nothing is pending. */
int scan_pipe_oldest(scan_pipe *p, void **tag, const char **data, size_t *len,
                     predec *pre);
/* Frees the oldest job's slot for reuse. */
void scan_pipe_release(scan_pipe *p);

#endif
