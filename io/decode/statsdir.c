#include "io/decode/statsdir.h"

#include <stdint.h>
#include <string.h>

#include "io/decode/name_us.h"

typedef struct span {
    const char *p;
    size_t len;
} span;

/* Non-empty decimal digits (optionally after one '-' when neg_ok) that
 * fit in int64. */
static int parse_i64(span s, int neg_ok, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (neg_ok && s.len > 0 && s.p[0] == '-') {
        neg = 1;
        i = 1;
    }
    if (i >= s.len)
        return -1;
    int64_t v = 0;
    for (; i < s.len; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return -1;
        if (v > (INT64_MAX - (s.p[i] - '0')) / 10)
            return -1;
        v = v * 10 + (s.p[i] - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

/* Splits s at the first `c` into *head and *rest; -1 when absent. */
static int split(span s, char c, span *head, span *rest)
{
    const char *at = memchr(s.p, c, s.len);
    if (!at)
        return -1;
    *head = (span){s.p, (size_t)(at - s.p)};
    *rest = (span){at + 1, s.len - (size_t)(at - s.p) - 1};
    return 0;
}

/* <mode>-<step>-<phase>-<us> */
static int parse_half(span s, pystats_mode *mode, int64_t *step, pystats_phase *phase,
                      int64_t *us)
{
    span m, st, ph, rest;
    if (split(s, '-', &m, &rest) < 0 || split(rest, '-', &st, &rest) < 0 ||
        split(rest, '-', &ph, &rest) < 0)
        return -1;
    if (pystats_mode_parse(m.p, m.len, mode) < 0 ||
        pystats_phase_parse(ph.p, ph.len, phase) < 0 || name_us_parse(rest.p, rest.len, us) < 0)
        return -1;
    if (st.len == 1 && st.p[0] == '*')
        *step = PYSTATS_NO_STEP;
    else if (parse_i64(st, 0, step) < 0)
        return -1;
    return 0;
}

static int parse_current(span s, pystats_window *w)
{
    span a, b;
    pystats_window t = *w;
    if (split(s, '_', &a, &b) < 0 ||
        parse_half(a, &t.start_mode, &t.start_step, &t.start_phase, &t.start_us) < 0 ||
        parse_half(b, &t.end_mode, &t.end_step, &t.end_phase, &t.end_us) < 0)
        return -1;
    t.legacy = 0;
    *w = t;
    return 0;
}

/* A node id goes to terminals and into cache file names: printable
 * ASCII, no blank (as keyname requires of the ids it takes from keys). */
static int printable(span s)
{
    for (size_t i = 0; i < s.len; i++)
        if ((unsigned char)s.p[i] <= 0x20 || (unsigned char)s.p[i] >= 0x7f)
            return 0;
    return 1;
}

/* <start_us>_<end_us>_<pid>-<node>_<step>: the node may hold '-' and '_'
 * itself, so the step is after the last '_' and the pid before the first '-'. */
static int parse_legacy(span s, pystats_window *w)
{
    span a, b, rest, pid, node;
    int64_t t0, t1, step, pidv;
    if (split(s, '_', &a, &rest) < 0 || split(rest, '_', &b, &rest) < 0 ||
        name_us_parse(a.p, a.len, &t0) < 0 || name_us_parse(b.p, b.len, &t1) < 0)
        return -1;
    const char *last = NULL;
    for (size_t i = 0; i < rest.len; i++)
        if (rest.p[i] == '_')
            last = rest.p + i;
    if (!last)
        return -1;
    span head = {rest.p, (size_t)(last - rest.p)};
    span st = {last + 1, rest.len - head.len - 1};
    if (parse_i64(st, 1, &step) < 0 || split(head, '-', &pid, &node) < 0 ||
        parse_i64(pid, 0, &pidv) < 0 || node.len == 0 || node.len >= sizeof w->node ||
        !printable(node))
        return -1;
    w->legacy = 1;
    w->start_us = t0;
    w->end_us = t1;
    w->start_step = w->end_step = step < 0 ? PYSTATS_NO_STEP : step;
    w->start_mode = w->end_mode = PYMODE_NONE;
    w->start_phase = w->end_phase = PYPHASE_NONE;
    memcpy(w->node, node.p, node.len);
    w->node[node.len] = '\0';
    return 0;
}

int statsdir_parse_name(const char *name, size_t len, pystats_window *w, sm_err *err)
{
    span s = {name, len};
    int rc = len > 0 && name[0] >= '0' && name[0] <= '9' ? parse_legacy(s, w)
                                                          : parse_current(s, w);
    if (rc < 0)
        return sm_err_set(err, SM_ERR_FORMAT,
                          "unrecognised Python stats directory name '%.*s' (expected "
                          "<mode>-<step>-<phase>-<us>_<mode>-<step>-<phase>-<us>)",
                          (int)(len > 200 ? 200 : len), name);
    return 0;
}

static int copy_span(span s, char *out, size_t cap)
{
    if (s.len == 0 || s.len >= cap)
        return -1;
    memcpy(out, s.p, s.len);
    out[s.len] = '\0';
    return 0;
}

/* Splits the last `max` '/'-separated components of key into c (c[max-1]
 * is the file name); returns how many there were, up to max. */
static size_t last_components(const char *key, span *c, size_t max)
{
    size_t end = strlen(key), n = 0;
    while (n < max) {
        size_t start = end;
        while (start > 0 && key[start - 1] != '/')
            start--;
        c[max - 1 - n++] = (span){key + start, end - start};
        if (start == 0)
            break;
        end = start - 1;
    }
    return n;
}

static int span_is(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.p, lit, n) == 0;
}

/* framework/<fw>/cProfile/<start>_<end>_<pid>-<node>_<step>/python_stats:
 * the older layout, whose node is in the name. 1 when key has that shape
 * (w then filled, or -1 with err for a bad name), 0 when it does not. */
static int parse_legacy_key(const char *key, pystats_window *w, sm_err *err)
{
    span c[5];
    if (last_components(key, c, 5) < 5 || !span_is(c[0], "framework") ||
        !span_is(c[2], "cProfile") || !span_is(c[4], "python_stats"))
        return 0;
    pystats_window t;
    memset(&t, 0, sizeof t);
    if (copy_span(c[1], t.framework, sizeof t.framework) < 0)
        return sm_err_set(err, SM_ERR_FORMAT, "not under framework/<framework>/cProfile/");
    t.profiler = PYPROF_CPROFILE;
    if (statsdir_parse_name(c[3].p, c[3].len, &t, err) < 0)
        return -1;
    if (!t.legacy)
        return sm_err_set(err, SM_ERR_FORMAT, "a cProfile/ directory without a node folder "
                          "needs the <start>_<end>_<pid>-<node>_<step> naming");
    *w = t;
    return 1;
}

int statsdir_parse_key(const char *key, pystats_window *w, sm_err *err)
{
    int legacy = parse_legacy_key(key, w, err);
    if (legacy != 0)
        return legacy < 0 ? -1 : 0;
    /* The last six components: framework fw profiler node stats_dir file. */
    span c[6];
    pystats_window t;
    memset(&t, 0, sizeof t);
    if (last_components(key, c, 6) < 6 || !span_is(c[0], "framework") ||
        copy_span(c[1], t.framework, sizeof t.framework) < 0 ||
        copy_span(c[3], t.node, sizeof t.node) < 0)
        return sm_err_set(err, SM_ERR_FORMAT, "not under framework/<framework>/"
                          "<profiler>/<node>/<stats_dir>/");
    if (span_is(c[2], "cprofile"))
        t.profiler = PYPROF_CPROFILE;
    else if (span_is(c[2], "pyinstrument"))
        t.profiler = PYPROF_PYINSTRUMENT;
    else
        return sm_err_set(err, SM_ERR_FORMAT, "unknown Python profiler '%.*s'",
                          (int)c[2].len, c[2].p);
    char node[sizeof t.node];
    memcpy(node, t.node, sizeof node);
    if (statsdir_parse_name(c[4].p, c[4].len, &t, err) < 0)
        return -1;
    memcpy(t.node, node, sizeof node);   /* the path's node wins over the name's */
    *w = t;
    return 0;
}
