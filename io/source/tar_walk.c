/* tar_walk: tar members from a byte stream; see tar_walk.h. */
#include "io/source/tar_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512

enum { W_HDR, W_META, W_DATA, W_SKIP, W_END };
enum { META_NONE, META_LONGNAME, META_PAX };

struct tar_walk {
    tar_member_fn member;
    tar_data_fn data;
    void *ud;
    int state;
    int64_t pos;                 /* bytes of the stream seen */
    unsigned char hdr[BLOCK];
    size_t have;                 /* header bytes collected */
    int zeros;                   /* zero blocks in a row */
    int64_t left;                /* data (and padding) bytes still to pass */
    int64_t data_left;           /* of which data */
    int64_t data_off;            /* stream offset of the data now passing */
    int meta;                    /* the member now passing is a long name / pax */
    char *mbuf;                  /* its bytes, up to TAR_META_MAX */
    size_t mlen;
    char name[TAR_NAME_MAX];     /* the next member's name from meta; "" none */
    int64_t pax_size;            /* the next member's size from pax; -1 none */
};

tar_walk *tar_walk_new(tar_member_fn member, tar_data_fn data, void *ud)
{
    tar_walk *w = calloc(1, sizeof *w);
    if (!w || !(w->mbuf = malloc(TAR_META_MAX))) {
        free(w);
        return NULL;
    }
    w->member = member;
    w->data = data;
    w->ud = ud;
    w->pax_size = -1;
    return w;
}

void tar_walk_free(tar_walk *w)
{
    if (!w)
        return;
    free(w->mbuf);
    free(w);
}

/* An octal field (NUL or space ended), or GNU's base-256 (high bit set). */
static int64_t num(const unsigned char *f, size_t n)
{
    int64_t v = 0;
    if (f[0] & 0x80) {
        for (size_t i = 1; i < n; i++) {
            if (v > (INT64_MAX >> 8))
                return -1;
            v = (v << 8) | f[i];
        }
        return (f[0] & 0x40) ? -1 : v;   /* negative: not a size */
    }
    size_t i = 0;
    while (i < n && f[i] == ' ')
        i++;
    for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
        if (v > (INT64_MAX >> 3))
            return -1;
        v = v * 8 + (f[i] - '0');
    }
    return v;
}

static int checksum_ok(const unsigned char *h)
{
    int64_t want = num(h + 148, 8), sum = 0;
    for (int i = 0; i < BLOCK; i++)
        sum += (i >= 148 && i < 156) ? ' ' : h[i];
    return want == sum;
}

static int all_zero(const unsigned char *h)
{
    for (int i = 0; i < BLOCK; i++)
        if (h[i])
            return 0;
    return 1;
}

/* "./a/b" and "/a/b" are "a/b". */
static const char *plain(const char *n)
{
    while (n[0] == '.' && n[1] == '/')
        n += 2;
    while (n[0] == '/')
        n++;
    return n;
}

/* A decimal number in [p, end): its value, or -1 when there is no digit
 * or it does not fit; *next: the first byte after its digits. Bounded by
 * hand because the meta buffer is not NUL-terminated: strtol read past a
 * record's end (fuzz_targz). */
static int64_t dec(const char *p, const char *end, const char **next)
{
    const char *start = p;
    int64_t v = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        if (v > (INT64_MAX - (*p - '0')) / 10) {
            *next = p;
            return -1;
        }
        v = v * 10 + (*p - '0');
    }
    *next = p;
    return p > start ? v : -1;
}

/* pax records "LEN key=value\n": path and size. A record whose length
 * ends before its key, or runs past the data, ends the walk of them. */
static void pax_apply(tar_walk *w)
{
    size_t i = 0;
    while (i < w->mlen) {
        const char *rec = w->mbuf + i, *sp;
        int64_t len = dec(rec, w->mbuf + w->mlen, &sp);
        if (len <= 0 || (uint64_t)len > w->mlen - i)
            return;
        const char *kv = sp + 1, *stop = rec + len - 1;   /* at its '\n' */
        if (sp >= stop || *sp != ' ')
            return;
        const char *eq = memchr(kv, '=', (size_t)(stop - kv)), *after;
        if (eq && eq - kv == 4 && !memcmp(kv, "path", 4) && stop - eq - 1 < TAR_NAME_MAX)
            snprintf(w->name, sizeof w->name, "%.*s", (int)(stop - eq - 1), eq + 1);
        else if (eq && eq - kv == 4 && !memcmp(kv, "size", 4))
            w->pax_size = dec(eq + 1, stop, &after);
        i += (size_t)len;
    }
}

/* The end of a long name or pax member's data: it names the next one. */
static void meta_end(tar_walk *w)
{
    if (w->meta == META_LONGNAME && w->mlen < TAR_META_MAX)
        snprintf(w->name, sizeof w->name, "%.*s", (int)w->mlen, w->mbuf);
    else if (w->meta == META_PAX && w->mlen < TAR_META_MAX)
        pax_apply(w);
    w->meta = META_NONE;
}

/* A whole header: what follows it. 1 the callback stopped, 0, -1 with err. */
static int header(tar_walk *w, sm_err *err)
{
    const unsigned char *h = w->hdr;
    if (all_zero(h)) {
        if (++w->zeros == 2)
            w->state = W_END;
        return w->zeros == 2;
    }
    w->zeros = 0;
    if (!checksum_ok(h))
        return sm_err_set(err, SM_ERR_FORMAT, "not a tar archive: bad header checksum at byte %lld",
                          (long long)(w->pos - BLOCK));
    int64_t size = num(h + 124, 12);
    char type = (char)h[156];
    if (w->pax_size >= 0 && type != 'x' && type != 'L')
        size = w->pax_size;
    if (size < 0)
        return sm_err_set(err, SM_ERR_FORMAT, "tar header at byte %lld: bad size",
                          (long long)(w->pos - BLOCK));
    w->data_left = size;
    w->left = (size + BLOCK - 1) / BLOCK * BLOCK;
    w->data_off = w->pos;
    w->meta = type == 'L' ? META_LONGNAME : type == 'x' ? META_PAX : META_NONE;
    w->mlen = 0;
    int regular = type == '0' || type == '\0' || type == '7';
    w->state = !w->left ? W_HDR : w->meta ? W_META : regular ? W_DATA : W_SKIP;
    if (w->meta || type == 'g') {
        if (!w->left)
            meta_end(w);
        return 0;
    }
    int rc = 0;
    if (regular) {
        char full[TAR_NAME_MAX + 160];
        if (w->name[0])
            snprintf(full, sizeof full, "%s", w->name);
        else if (!memcmp(h + 257, "ustar", 5) && h[345])
            snprintf(full, sizeof full, "%.155s/%.100s", (const char *)h + 345, (const char *)h);
        else
            snprintf(full, sizeof full, "%.100s", (const char *)h);
        tar_member m = {plain(full), w->pos, size, num(h + 136, 12)};
        if (m.name[0])
            rc = w->member(w->ud, &m) ? 1 : 0;
    }
    w->name[0] = '\0';
    w->pax_size = -1;
    return rc;
}

int tar_walk_feed(tar_walk *w, const void *p, size_t n, sm_err *err)
{
    const unsigned char *b = p;
    while (n > 0) {
        if (w->state == W_END)
            return 1;
        if (w->state == W_HDR) {
            size_t k = BLOCK - w->have < n ? BLOCK - w->have : n;
            memcpy(w->hdr + w->have, b, k);
            w->have += k, b += k, n -= k, w->pos += (int64_t)k;
            if (w->have < BLOCK)
                return 0;
            w->have = 0;
            int rc = header(w, err);
            if (rc)
                return rc;
            continue;
        }
        size_t k = (int64_t)n < w->left ? n : (size_t)w->left;
        size_t d = (int64_t)k < w->data_left ? k : (size_t)w->data_left;
        if (w->state == W_META && w->mlen + d <= TAR_META_MAX) {
            memcpy(w->mbuf + w->mlen, b, d);
            w->mlen += d;
        } else if (w->state == W_META) {
            w->mlen = TAR_META_MAX;   /* too long: passed over */
        } else if (d && w->data && w->state == W_DATA) {
            w->data(w->ud, w->pos, b, d);
        }
        w->left -= (int64_t)k, w->data_left -= (int64_t)d;
        b += k, n -= k, w->pos += (int64_t)k;
        if (!w->left) {
            if (w->state == W_META)
                meta_end(w);
            w->state = W_HDR;
        }
    }
    return w->state == W_END;
}

int tar_walk_end(tar_walk *w, sm_err *err)
{
    if (w->state == W_END || (w->state == W_HDR && w->have == 0))
        return 0;
    return sm_err_set(err, SM_ERR_FORMAT, "tar archive cut short at byte %lld (inside %s)",
                      (long long)w->pos, w->state == W_HDR ? "a header" : "a member");
}
