/* tf_meta: see tf_meta.h. The book is a flat array searched by step
 * directory: a job profiles a handful of steps in detail, so its records
 * number in the tens. */
#include "io/decode/tf_meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/decode/keyname.h"
#include "io/decode/name_us.h"
#include "model/util/vec.h"

#define SLACK_US 2000000LL   /* the <date> folder is named to the second */

typedef struct meta_rec {
    char *key;              /* owned */
    size_t dir_len;         /* its step directory prefix */
    tf_meta_name nm;
} meta_rec;

struct tf_meta_book {
    meta_rec *v;
    size_t n, cap;
};

static int printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
            return 0;
    return 1;
}

int tf_meta_parse_name(const char *name, size_t len, tf_meta_name *out)
{
    static const char suf[] = ".metadata";
    size_t sl = sizeof suf - 1;
    if (len <= sl || memcmp(name + len - sl, suf, sl) != 0)
        return -1;
    len -= sl;
    const char *e = memrchr(name, '_', len);
    const char *s = e ? memrchr(name, '_', (size_t)(e - name)) : NULL;
    if (!s || s == name)
        return -1;
    tf_meta_name t;
    size_t wl = (size_t)(s - name);
    if (wl >= sizeof t.writer || !printable(name, wl) ||
        name_us_parse(s + 1, (size_t)(e - s - 1), &t.start_us) != 0 ||
        name_us_parse(e + 1, len - (size_t)(e - name) - 1, &t.end_us) != 0)
        return -1;
    memcpy(t.writer, name, wl);
    t.writer[wl] = '\0';
    keyname_node_from_part(name, wl, t.node, sizeof t.node);
    *out = t;
    return 0;
}

size_t tf_meta_step_dir_len(const char *key)
{
    static const char dp[] = "detailed_profiling/";
    const char *p = key;
    while ((p = strstr(p, dp)) && p != key && p[-1] != '/')
        p++;
    if (!p)
        return 0;
    const char *hour = p + sizeof dp - 1;
    const char *step = strchr(hour, '/');
    if (!step || step == hour)
        return 0;
    const char *end = strchr(step + 1, '/');
    if (!end || end == step + 1)
        return 0;
    return (size_t)(end - key) + 1;
}

tf_meta_book *tf_meta_book_new(void)
{
    return calloc(1, sizeof(tf_meta_book));
}

void tf_meta_book_free(tf_meta_book *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->v[i].key);
    free(b->v);
    free(b);
}

int tf_meta_book_note(tf_meta_book *b, const char *key)
{
    size_t dl = tf_meta_step_dir_len(key);
    tf_meta_name nm;
    if (!dl || strchr(key + dl, '/') ||
        tf_meta_parse_name(key + dl, strlen(key + dl), &nm) != 0)
        return 0;
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->v[i].key, key))
            return 0;
    if (vec_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v, 16) != 0)
        return -1;
    char *k = strdup(key);
    if (!k)
        return -1;
    b->v[b->n++] = (meta_rec){k, dl, nm};
    return 1;
}

/* The host of a writer id "<rank or pid>-<host>" (the whole id when it
 * has no numeric prefix). */
static const char *writer_host(const char *writer)
{
    const char *p = writer;
    while (*p >= '0' && *p <= '9')
        p++;
    return p != writer && *p == '-' ? p + 1 : writer;
}

/* The trace's <date> folder ("2020_08_05_20_37_44") as epoch µs, or -1. */
static int64_t date_folder_us(const char *key, size_t file_at)
{
    if (file_at < 21 || key[file_at - 1] != '/')
        return -1;
    const char *d = key + file_at - 20;
    struct tm tm = {0};
    char *end = strptime(d, "%Y_%m_%d_%H_%M_%S", &tm);
    if (!end || end != key + file_at - 1 || (d > key && d[-1] != '/'))
        return -1;
    return (int64_t)timegm(&tm) * 1000000;
}

/* Picks the record for the trace among n candidates (indices in idx). */
static const meta_rec *choose(const tf_meta_book *b, const size_t *idx, size_t n,
                              const char *host, int64_t date_us)
{
    const meta_rec *pick = NULL;
    for (size_t k = 0; k < n; k++) {
        const meta_rec *r = &b->v[idx[k]];
        if (!strcmp(writer_host(r->nm.writer), host) || !strcmp(r->nm.node, host))
            return r;
    }
    if (n == 1)
        return &b->v[idx[0]];
    size_t hits = 0;
    for (size_t k = 0; date_us >= 0 && k < n; k++) {
        const meta_rec *r = &b->v[idx[k]];
        if (date_us >= r->nm.start_us - SLACK_US && date_us <= r->nm.end_us + SLACK_US) {
            pick = r;
            hits++;
        }
    }
    return hits == 1 ? pick : NULL;
}

int tf_meta_place(const tf_meta_book *b, const char *trace_key, tf_place *out, sm_err *err)
{
    size_t dl = tf_meta_step_dir_len(trace_key);
    if (!dl)
        return sm_err_set(err, SM_ERR_FORMAT, "not a TF detailed-profiling trace");
    const char *file = strrchr(trace_key, '/') + 1;
    static const char ext[] = ".trace.json.gz";
    size_t fl = strlen(file), el = sizeof ext - 1;
    char host[128];
    size_t hl = fl > el ? fl - el : fl;
    snprintf(host, sizeof host, "%.*s", (int)hl, file);
    size_t idx[64], n = 0, total = 0;
    for (size_t i = 0; b && i < b->n; i++)
        if (b->v[i].dir_len == dl && !memcmp(b->v[i].key, trace_key, dl)) {
            total++;
            if (n < sizeof idx / sizeof *idx)
                idx[n++] = i;
        }
    if (total == 0)
        return sm_err_set(err, SM_ERR_NOTFOUND, "not placed on the job clock: no "
                          "<writer>_<start_us>_<end_us>.metadata in %.*s",
                          (int)(dl > 300 ? 300 : dl), trace_key);
    const meta_rec *r = choose(b, idx, n, host,
                               date_folder_us(trace_key, (size_t)(file - trace_key)));
    if (!r)
        return sm_err_set(err, SM_ERR_FORMAT, "not placed on the job clock: %zu .metadata "
                          "files in %.*s and none names host '%.100s' or spans the "
                          "trace's date folder", total, (int)(dl > 300 ? 300 : dl),
                          trace_key, host);
    snprintf(out->node, sizeof out->node, "%s", r->nm.node);
    snprintf(out->writer, sizeof out->writer, "%s", r->nm.writer);
    out->base_us = r->nm.start_us;
    return 0;
}
