/* json_split: see json_split.h. A byte-at-a-time state machine over the
 * array's structure; an element wholly inside one fed piece is handed over
 * in place, one that spans pieces is gathered in a bounded buffer. */
#include "io/decode/json_split.h"

#include <stdlib.h>
#include <string.h>

enum { JS_START, JS_ARRAY, JS_ELEM, JS_END, JS_JUNK };

struct jsplit {
    int state;
    int depth, in_str, esc;
    int scalar;            /* the element is not an object or array */
    int dropping;          /* past the bound: scanning to its end */
    char *buf;             /* the element so far, when it spans pieces */
    size_t len, cap, max;
};

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

jsplit *json_split_new(size_t max_elem)
{
    jsplit *s = calloc(1, sizeof *s);
    if (s)
        s->max = max_elem;
    return s;
}

void json_split_free(jsplit *s)
{
    if (!s)
        return;
    free(s->buf);
    free(s);
}

size_t json_split_held(const jsplit *s)
{
    return s->len;
}

/* Keeps p[0..n) of the element in progress; 0, or -1 on OOM. Past the
 * bound the element is dropped (its bytes are not kept). */
static int hold(jsplit *s, const char *p, size_t n)
{
    if (s->dropping)
        return 0;
    if (s->len + n > s->max) {
        s->dropping = 1;
        s->len = 0;
        return 0;
    }
    if (s->len + n > s->cap) {
        size_t nc = s->cap ? s->cap : 4096;
        while (nc < s->len + n)
            nc *= 2;
        if (nc > s->max)
            nc = s->max;
        char *nb = realloc(s->buf, nc);
        if (!nb) {
            s->dropping = 1;
            s->len = 0;
            return -1;
        }
        s->buf = nb;
        s->cap = nc;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    return 0;
}

/* Advances *pi over the element's bytes: 1 when it ended (an object or
 * array at its closing bracket, included; a scalar before the ',' or ']'
 * that ends it, not included), 0 when p ran out first. */
static int scan_elem(jsplit *s, const char *p, size_t *pi, size_t n)
{
    for (size_t i = *pi; i < n; i++) {
        char c = p[i];
        if (s->in_str) {
            if (s->esc)
                s->esc = 0;
            else if (c == '\\')
                s->esc = 1;
            else if (c == '"')
                s->in_str = 0;
        } else if (c == '"') {
            s->in_str = 1;
        } else if (c == '{' || c == '[') {
            s->depth++;
        } else if ((c == '}' || c == ']') && s->depth > 0) {
            if (--s->depth == 0 && !s->scalar) {
                *pi = i + 1;
                return 1;
            }
        } else if (s->depth == 0 && (c == ',' || c == ']')) {
            *pi = i;
            return 1;
        }
    }
    *pi = n;
    return 0;
}

/* Hands the finished element (held bytes + p[0..n)) to cb. */
static int emit(jsplit *s, const char *p, size_t n, jsplit_cb cb, void *ud)
{
    int rc = 0;
    if (!s->dropping && s->len == 0) {
        cb(ud, p, n);
    } else {
        rc = hold(s, p, n);
        if (s->dropping)
            cb(ud, NULL, 0);
        else
            cb(ud, s->buf, s->len);
    }
    s->len = 0;
    s->dropping = 0;
    s->state = JS_ARRAY;
    return rc;
}

/* One step of the machine from p[*pi]; returns -1 on OOM, else 0. */
static int step(jsplit *s, const char *p, size_t *pi, size_t n, jsplit_cb cb, void *ud)
{
    size_t i = *pi;
    switch (s->state) {
    case JS_START:
    case JS_END:
        while (i < n && is_ws(p[i]))
            i++;
        if (i < n && s->state == JS_START && p[i] == '[') {
            s->state = JS_ARRAY;
            i++;
        } else if (i < n) {
            cb(ud, NULL, 0);   /* not an array, or bytes after its end */
            s->state = JS_JUNK;
        }
        break;
    case JS_ARRAY:
        while (i < n && (is_ws(p[i]) || p[i] == ','))
            i++;
        if (i < n && p[i] == ']') {
            s->state = JS_END;
            i++;
        } else if (i < n) {
            s->state = JS_ELEM;
            s->depth = s->in_str = s->esc = 0;
            s->scalar = p[i] != '{' && p[i] != '[';
        }
        break;
    case JS_ELEM: {
        size_t start = i;
        if (scan_elem(s, p, &i, n)) {
            *pi = i;
            return emit(s, p + start, i - start, cb, ud);
        }
        *pi = i;
        return hold(s, p + start, i - start);
    }
    default:
        i = n;
    }
    *pi = i;
    return 0;
}

int json_split_feed(jsplit *s, const char *p, size_t n, jsplit_cb cb, void *ud)
{
    int rc = 0;
    size_t i = 0;
    while (i < n)
        if (step(s, p, &i, n, cb, ud) != 0)
            rc = -1;
    return rc;
}

int json_split_finish(jsplit *s)
{
    int partial = s->state == JS_ELEM;
    if (partial)
        s->state = JS_ARRAY;
    s->len = 0;
    s->dropping = 0;
    return partial;
}

int json_split_one_per_line(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && is_ws(p[i]))
        i++;
    if (i == n || p[i] != '[')
        return 1;
    for (i++; i < n && is_ws(p[i]); i++)
        ;
    if (i == n || p[i] != '{')
        return 1;
    jsplit s = {.state = JS_ELEM};
    size_t end = i;
    const char *nl = memchr(p + i, '\n', n - i);
    if (!scan_elem(&s, p, &end, nl ? (size_t)(nl - p) : n))
        return nl != NULL ? 0 : 1;   /* spans lines: pretty-printed */
    for (i = end; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'); i++)
        ;
    if (i < n && p[i] == ',')
        for (i++; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'); i++)
            ;
    /* The next element on the same line: the whole array is one line. */
    return !(i < n && p[i] == '{');
}
