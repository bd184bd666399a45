#include "io/decode/statsdir.h"

#include <stdint.h>
#include <string.h>

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
        pystats_phase_parse(ph.p, ph.len, phase) < 0 || parse_i64(rest, 0, us) < 0)
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

/* <start_us>_<end_us>_<pid>-<node>_<step>: the node may hold '-' and '_'
 * itself, so the step is after the last '_' and the pid before the first '-'. */
static int parse_legacy(span s, pystats_window *w)
{
    span a, b, rest, pid, node;
    int64_t t0, t1, step, pidv;
    if (split(s, '_', &a, &rest) < 0 || split(rest, '_', &b, &rest) < 0 ||
        parse_i64(a, 0, &t0) < 0 || parse_i64(b, 0, &t1) < 0)
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
        parse_i64(pid, 0, &pidv) < 0 || node.len == 0 || node.len >= sizeof w->node)
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

int statsdir_parse_key(const char *key, pystats_window *w, sm_err *err)
{
    /* The last six components: framework fw profiler node stats_dir file. */
    span c[6];
    size_t end = strlen(key), n = 0;
    while (n < 6) {
        size_t start = end;
        while (start > 0 && key[start - 1] != '/')
            start--;
        c[5 - n++] = (span){key + start, end - start};
        if (start == 0)
            break;
        end = start - 1;
    }
    pystats_window t;
    memset(&t, 0, sizeof t);
    if (n < 6 || c[0].len != 9 || memcmp(c[0].p, "framework", 9) != 0 ||
        copy_span(c[1], t.framework, sizeof t.framework) < 0 ||
        copy_span(c[3], t.node, sizeof t.node) < 0)
        return sm_err_set(err, SM_ERR_FORMAT, "not under framework/<framework>/"
                          "<profiler>/<node>/<stats_dir>/");
    if (c[2].len == 8 && memcmp(c[2].p, "cprofile", 8) == 0)
        t.profiler = PYPROF_CPROFILE;
    else if (c[2].len == 12 && memcmp(c[2].p, "pyinstrument", 12) == 0)
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
