/* kineto_file: see kineto_file.h. */
#include "io/decode/kineto_file.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int is_gzip(const void *data, size_t len)
{
    const unsigned char *p = data;
    return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* Plain text: whole when its last non-space byte closes the object. */
static int stream_plain(const char *p, size_t len, kineto_file_feed feed, void *ud,
                        int *incomplete, sm_err *err)
{
    size_t end = len;
    while (end && (p[end - 1] == ' ' || p[end - 1] == '\n' || p[end - 1] == '\r' ||
                   p[end - 1] == '\t'))
        end--;
    if (!end || p[end - 1] != '}') {
        *incomplete = 1;
        return sm_err_set(err, SM_ERR_FORMAT, "the JSON ends early (%zu bytes): truncated", len);
    }
    for (size_t at = 0; at < len; at += KINETO_FILE_CHUNK) {
        size_t n = len - at < KINETO_FILE_CHUNK ? len - at : KINETO_FILE_CHUNK;
        if (feed(ud, p + at, n, err) != 0)
            return -1;
    }
    return 0;
}

/* Inflates every gzip member into out, handing each full buffer to feed. */
static int inflate_members(z_stream *zs, char *out, kineto_file_feed feed, void *ud,
                           int *incomplete, sm_err *err)
{
    for (;;) {
        zs->next_out = (Bytef *)out;
        zs->avail_out = (uInt)KINETO_FILE_CHUNK;
        int rc = inflate(zs, Z_NO_FLUSH);
        size_t got = KINETO_FILE_CHUNK - zs->avail_out;
        if (got && feed(ud, out, got, err) != 0)
            return -1;
        if (rc == Z_STREAM_END) {
            if (zs->avail_in == 0)
                return 0;
            if (inflateReset(zs) != Z_OK)   /* a next member */
                return sm_err_set(err, SM_ERR_FORMAT, "corrupt gzip data");
            continue;
        }
        if (rc == Z_BUF_ERROR || (rc == Z_OK && zs->avail_in == 0 && zs->avail_out != 0)) {
            *incomplete = 1;
            return sm_err_set(err, SM_ERR_FORMAT, "the gzip stream ends early (%lu bytes "
                              "inflated): still being written?", (unsigned long)zs->total_out);
        }
        if (rc != Z_OK)
            return sm_err_set(err, SM_ERR_FORMAT, "corrupt gzip data (%s)",
                              zs->msg ? zs->msg : "inflate failed");
    }
}

int kineto_file_stream(const void *data, size_t len, kineto_file_feed feed, void *ud,
                       int *incomplete, sm_err *err)
{
    *incomplete = 0;
    if (!is_gzip(data, len))
        return stream_plain(data, len, feed, ud, incomplete, err);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory starting zlib");
    char *out = malloc(KINETO_FILE_CHUNK);
    int rc;
    if (!out) {
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory inflating a trace");
    } else {
        /* zlib's counts are 32-bit: a file past 4 GB is fed in slices */
        const unsigned char *p = data;
        size_t left = len;
        zs.next_in = (Bytef *)p;
        zs.avail_in = (uInt)(left > 0x40000000u ? 0x40000000u : left);
        for (;;) {
            rc = inflate_members(&zs, out, feed, ud, incomplete, err);
            size_t used = (size_t)((const unsigned char *)zs.next_in - p);
            if (used >= len || (rc != 0 && !*incomplete))
                break;
            /* the slice ran out, not the file: go on with the next (a
             * member that ended with the slice is followed by another) */
            if (rc == 0 && inflateReset(&zs) != Z_OK) {
                rc = sm_err_set(err, SM_ERR_FORMAT, "corrupt gzip data");
                break;
            }
            *incomplete = 0;
            left = len - used;
            zs.avail_in = (uInt)(left > 0x40000000u ? 0x40000000u : left);
        }
    }
    free(out);
    inflateEnd(&zs);
    return rc;
}

/* Kineto's categories, modern and legacy, as the first events show them. */
static int kineto_cat_at(const char *p, const char *end)
{
    static const char *const cats[] = {"cpu_op", "user_annotation", "python_function",
                                       "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset",
                                       "Operator", "Runtime", "Kernel", "cpu_instant_event",
                                       "ac2g", "gpu_user_annotation", "cuda_driver"};
    while (p < end && (*p == ' ' || *p == ':' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    if (p >= end || *p != '"')
        return 0;
    p++;
    for (size_t i = 0; i < sizeof cats / sizeof *cats; i++) {
        size_t n = strlen(cats[i]);
        if ((size_t)(end - p) > n && !memcmp(p, cats[i], n) && p[n] == '"')
            return 1;
    }
    return 0;
}

static const char *find(const char *h, size_t n, const char *lit)
{
    size_t ln = strlen(lit);
    for (const char *p = h; n >= ln && p <= h + n - ln; p++) {
        p = memchr(p, lit[0], (size_t)(h + n - p));
        if (!p || (size_t)(h + n - p) < ln)
            return NULL;
        if (!memcmp(p, lit, ln))
            return p;
    }
    return NULL;
}

int kineto_file_sniff(const char *head, size_t n)
{
    size_t i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        i++;
    if (i >= n || head[i] != '{')
        return 0;
    const char *te = find(head, n, "\"traceEvents\"");
    if (!te)
        return 0;
    if (find(head, n, "\"schemaVersion\"") || find(head, n, "\"deviceProperties\"") ||
        find(head, n, "\"distributedInfo\""))
        return 1;
    /* metadata after the events: the first events' categories decide */
    const char *end = head + n;
    int seen = 0;
    for (const char *c = te; c && seen < 8; seen++) {
        c = find(c + 1, (size_t)(end - c - 1), "\"cat\"");
        if (c && kineto_cat_at(c + 5, end))
            return 1;
    }
    return 0;
}
