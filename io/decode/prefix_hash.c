#include "io/decode/prefix_hash.h"

#include <string.h>

#include "model/util/fnv.h"

void prefix_hash_init(prefix_hash *p)
{
    p->lines = 0;
    p->hash = FNV_SEED;
    p->head = 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t trim_tail(const char *p, size_t n)
{
    while (n && (is_space(p[n - 1]) || p[n - 1] == ','))
        n--;
    return n;
}

/* The canonical form of a line: trimmed, with every trailing ',' and one
 * closing ']' dropped, as the trace decoder trims it. close() takes one
 * ',' off the last line, so "x,," in the .tmp reads "x," in the closed
 * file; a .tmp line read as "x," then "]\n" (close() came between) reads
 * "x" then "]" there. Unequal hashes would leave the closed file
 * unadopted and the .tmp's lines counted twice. The leading '[' stays:
 * the "[" line is part of the head. */
static void canonical(const char **line, size_t *len)
{
    const char *p = *line;
    size_t n = *len;
    while (n && is_space(*p))
        p++, n--;
    n = trim_tail(p, n);
    if (n && p[n - 1] == ']')
        n = trim_tail(p, n - 1);
    *line = p;
    *len = n;
}

void prefix_hash_add(prefix_hash *p, const char *line, size_t len)
{
    canonical(&line, &len);
    if (len == 0)
        return;
    p->hash = fnv_add(fnv_add(p->hash, line, len), "\n", 1);
    if (++p->lines == PREFIX_HEAD_LINES)
        p->head = p->hash;
}

/* Hashes data's lines until `want` non-blank ones were added to *acc;
 * returns the offset past the last one, or -1 when data ends first. */
static int64_t hash_lines(prefix_hash *acc, int64_t want, const char *data, size_t len)
{
    size_t at = 0;
    while (acc->lines < want) {
        if (at >= len)
            return -1;
        const char *nl = memchr(data + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - data) : len;
        prefix_hash_add(acc, data + at, end - at);
        at = nl ? end + 1 : len;
    }
    return (int64_t)at;
}

int64_t prefix_hash_match(const prefix_hash *p, const char *data, size_t len)
{
    prefix_hash acc;
    prefix_hash_init(&acc);
    int64_t at = hash_lines(&acc, p->lines, data, len);
    return at >= 0 && acc.hash == p->hash ? at : -1;
}

uint64_t prefix_hash_head(const char *data, size_t len)
{
    prefix_hash acc;
    prefix_hash_init(&acc);
    return hash_lines(&acc, PREFIX_HEAD_LINES, data, len) >= 0 ? acc.head : 0;
}
