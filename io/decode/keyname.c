/* keyname: classification of keys by name. Works on (pointer, length)
 * slices of the key and copies only into the bounded node field, so no key,
 * however long or odd, can overflow anything; what does not match a known
 * layout exactly is KEY_OTHER. */
#include "io/decode/keyname.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "io/decode/statsdir.h"
#include "io/decode/tf_meta.h"

typedef struct slice {
    const char *p;
    size_t n;
} slice;

static const struct {
    const char *suffix;
    trace_kind kind;
} trace_kinds[] = {
    {"_pythontimeline.json", TRACE_PYTHON},
    {"_model_timeline.json", TRACE_MODEL},
    {"_horovod_timeline.json", TRACE_HOROVOD},
    {"_smdataparallel_timeline.json", TRACE_SMDP},
};

static int starts(slice s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p, lit, n) == 0;
}

static int ends(slice s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p + s.n - n, lit, n) == 0;
}

static int eq(slice s, const char *lit)
{
    return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

static int all_digits(slice s)
{
    if (s.n == 0)
        return 0;
    for (size_t i = 0; i < s.n; i++)
        if (s.p[i] < '0' || s.p[i] > '9')
            return 0;
    return 1;
}

/* Splits key into '/'-separated parts; -1 when there are too many, or an
 * empty, "." or ".." part (hostile or not ours). */
static int split(const char *key, slice *parts, int max)
{
    int n = 0;
    const char *p = key;
    for (;;) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (n == max || len == 0 || (len == 1 && p[0] == '.') ||
            (len == 2 && p[0] == '.' && p[1] == '.'))
            return -1;
        parts[n++] = (slice){p, len};
        if (!e)
            return n;
        p = e + 1;
    }
}

/* Node ids go to the terminal and into file names of the cache: printable
 * ASCII only, and they must fit. */
static int printable_id(slice s)
{
    for (size_t i = 0; i < s.n; i++)
        if ((unsigned char)s.p[i] <= 0x20 || (unsigned char)s.p[i] >= 0x7f)
            return 0;
    return 1;
}

static int set_node(key_info *out, slice s)
{
    if (s.n == 0 || s.n >= sizeof out->node || !printable_id(s))
        return -1;
    memcpy(out->node, s.p, s.n);
    out->node[s.n] = '\0';
    return 0;
}

static int64_t to_int(slice s)
{
    int64_t v = 0;
    for (size_t i = 0; i < s.n && v < INT64_MAX / 10 - 10; i++)
        v = v * 10 + (s.p[i] - '0');
    return v;
}

void keyname_node_from_part(const char *part, size_t len, char *out, size_t cap)
{
    if (!out || cap == 0)
        return;
    slice s = {part ? part : "", part ? len : 0};
    /* "1234-algo-1" → "algo-1": the writer's rank or pid before the host. */
    int algo = 0;
    for (size_t i = s.n; i-- > 0;) {
        slice tail = {s.p + i, s.n - i};
        if (starts(tail, "algo-") && all_digits((slice){tail.p + 5, tail.n - 5}) &&
            (i == 0 || s.p[i - 1] == '-' || s.p[i - 1] == '_')) {
            s = tail;
            algo = 1;
            break;
        }
    }
    /* "905-b88ab1bb8259" → "b88ab1bb8259": a host not named algo-N (a
     * container's host name outside SageMaker). */
    const char *dash = algo ? NULL : memchr(s.p, '-', s.n);
    if (dash && dash > s.p && all_digits((slice){s.p, (size_t)(dash - s.p)}) &&
        dash + 1 < s.p + s.n)
        s = (slice){dash + 1, s.n - (size_t)(dash + 1 - s.p)};
    size_t n = s.n < cap - 1 ? s.n : cap - 1;
    memcpy(out, s.p, n);
    out[n] = '\0';
}

/* <epoch10>.<node>.json */
static void parse_system(slice file, key_info *out)
{
    const char *dot = memchr(file.p, '.', file.n);
    if (!dot || !ends(file, ".json"))
        return;
    slice secs = {file.p, (size_t)(dot - file.p)};
    if (file.n < secs.n + 7 || !all_digits(secs) || secs.n > 12)
        return;   /* need <digits>.<node of 1+ chars>.json */
    if (set_node(out, (slice){dot + 1, file.n - secs.n - 1 - 5}) != 0)
        return;
    out->time_us = to_int(secs) * 1000000;
    out->kind = KEY_SYSTEM;
}

/* Matches a trace kind suffix (after stripping `ext`); returns the stem. */
static int trace_stem(slice file, const char *ext, slice *stem, trace_kind *tk)
{
    if (!ends(file, ext))
        return -1;
    slice base = {file.p, file.n - strlen(ext) + strlen(".json")};
    for (size_t i = 0; i < sizeof trace_kinds / sizeof trace_kinds[0]; i++)
        if (ends(base, trace_kinds[i].suffix)) {
            *stem = (slice){base.p, base.n - strlen(trace_kinds[i].suffix)};
            *tk = trace_kinds[i].kind;
            return 0;
        }
    return -1;
}

static void set_trace_node(key_info *out, slice part, key_kind kind)
{
    char node[sizeof out->node];
    if (part.n == 0 || part.n >= sizeof node || !printable_id(part))
        return;
    keyname_node_from_part(part.p, part.n, node, sizeof node);
    if (set_node(out, (slice){node, strlen(node)}) != 0)
        return;
    out->kind = kind;
    if (kind == KEY_TRACE || kind == KEY_TRACE_TMP) {
        memcpy(out->process, part.p, part.n);
        out->process[part.n] = '\0';
    }
}

/* A trace file's end time: 16 digits of epoch µs, or 19 of epoch ns. */
static int64_t trace_end_us(slice end)
{
    int64_t v = to_int(end);
    return end.n == 19 ? v / 1000 : v;
}

/* <end_us>_<node-part>_<kind>.json, or <node-part>_<kind>.json.tmp */
static void parse_trace(slice file, key_info *out)
{
    slice stem;
    if (trace_stem(file, ".json.tmp", &stem, &out->tkind) == 0) {
        const char *us = memchr(stem.p, '_', stem.n);
        slice lead = {stem.p, us ? (size_t)(us - stem.p) : 0};
        if (us && lead.n >= 13 && all_digits(lead))   /* a time prefix */
            stem = (slice){us + 1, stem.n - lead.n - 1};
        set_trace_node(out, stem, KEY_TRACE_TMP);
        return;
    }
    if (trace_stem(file, ".json", &stem, &out->tkind) != 0)
        return;
    const char *us = memchr(stem.p, '_', stem.n);
    if (!us)
        return;
    slice end = {stem.p, (size_t)(us - stem.p)};
    if (!all_digits(end) || end.n > 19)
        return;
    set_trace_node(out, (slice){us + 1, stem.n - end.n - 1}, KEY_TRACE);
    if (out->kind == KEY_TRACE)
        out->time_us = trace_end_us(end);
}

/* framework/tensorflow/detailed_profiling/<hour>/<step>/...: the trace
 * (node = its host name until placed, see tf_meta.h) or smdebug's record
 * of the session directly in the step directory. */
static void parse_detailed(const slice *pt, int n, key_info *out)
{
    slice f = pt[n - 1];
    if (ends(f, ".trace.json.gz") && f.n > 14 &&
        set_node(out, (slice){f.p, f.n - 14}) == 0) {
        out->kind = KEY_TF_TRACE;
        return;
    }
    tf_meta_name nm;
    if (n == 6 && all_digits(pt[3]) && all_digits(pt[4]) &&
        tf_meta_parse_name(f.p, f.n, &nm) == 0 &&
        set_node(out, (slice){nm.node, strlen(nm.node)}) == 0) {
        out->kind = KEY_TF_META;
        out->time_us = nm.start_us;
    }
}

/* framework/<fw>/cProfile/<start>_<end>_<pid>-<node>_<step>/python_stats:
 * the older layout; its node is in the directory name. */
static void parse_legacy_stats(slice dir, key_info *out)
{
    pystats_window w;
    memset(&w, 0, sizeof w);
    if (statsdir_parse_name(dir.p, dir.n, &w, NULL) == 0 && w.legacy)
        set_trace_node(out, (slice){w.node, strlen(w.node)}, KEY_CPROFILE);
}

static int python_framework(slice s)
{
    return eq(s, "pytorch") || eq(s, "tensorflow");
}

static void parse_framework(const slice *pt, int n, key_info *out)
{
    if (n >= 3 && eq(pt[1], "pevents") && (n == 3 || (n == 4 && all_digits(pt[2])))) {
        parse_trace(pt[n - 1], out);
        return;
    }
    if (n == 2) {
        parse_trace(pt[1], out);
        if (out->kind != KEY_TRACE_TMP)
            out->kind = KEY_OTHER;   /* closed traces live in pevents/ */
        return;
    }
    if (n >= 5 && eq(pt[1], "tensorflow") && eq(pt[2], "detailed_profiling")) {
        parse_detailed(pt, n, out);
        return;
    }
    if (n == 5 && python_framework(pt[1]) && eq(pt[2], "cProfile") &&
        eq(pt[4], "python_stats")) {
        parse_legacy_stats(pt[3], out);
        return;
    }
    if (n == 6 && python_framework(pt[1]) &&
        (eq(pt[2], "cprofile") || eq(pt[2], "pyinstrument"))) {
        key_kind k = eq(pt[5], "python_stats")        ? KEY_CPROFILE
                     : eq(pt[5], "python_stats.json") ? KEY_PYINSTRUMENT
                                                      : KEY_OTHER;
        if (k != KEY_OTHER)
            set_trace_node(out, pt[3], k);
    }
}

/* <worker>.<time>.pt.trace.json[.gz]: the worker is the writer (one
 * process: a rank), its host part before "_<pid>" the node. A time of
 * 13 digits is epoch ms, 19 epoch ns; other digits are part of a custom
 * worker name ("rank-34.Jul_15_10_52_41.1074"). */
static int parse_kineto(slice file, key_info *out)
{
    size_t ext = ends(file, ".pt.trace.json")      ? 14
                 : ends(file, ".pt.trace.json.gz") ? 17 : 0;
    if (!ext || file.n <= ext)
        return -1;
    slice stem = {file.p, file.n - ext};
    const char *dot = NULL;
    for (size_t i = stem.n; i-- > 0;)
        if (stem.p[i] == '.') {
            dot = stem.p + i;
            break;
        }
    slice worker = stem;
    if (dot && dot > stem.p) {
        slice t = {dot + 1, stem.n - (size_t)(dot + 1 - stem.p)};
        if (all_digits(t) && (t.n == 13 || t.n == 19)) {
            out->time_us = t.n == 19 ? to_int(t) / 1000 : to_int(t) * 1000;
            worker = (slice){stem.p, (size_t)(dot - stem.p)};
        }
    }
    if (worker.n == 0 || worker.n >= sizeof out->process || !printable_id(worker))
        return -1;
    slice host = worker;
    const char *us = NULL;
    for (size_t i = worker.n; i-- > 0;)
        if (worker.p[i] == '_') {
            us = worker.p + i;
            break;
        }
    if (us && us > worker.p && all_digits((slice){us + 1, worker.n - (size_t)(us + 1 - worker.p)}))
        host = (slice){worker.p, (size_t)(us - worker.p)};
    if (set_node(out, host) != 0)
        return -1;
    memcpy(out->process, worker.p, worker.n);
    out->process[worker.n] = '\0';
    out->kind = KEY_KINETO;
    return 0;
}

int keyname_kineto_candidate(const char *key)
{
    if (!key)
        return 0;
    key_info ki;
    keyname_parse(key, &ki);
    if (ki.kind != KEY_OTHER)
        return 0;
    slice k = {key, strlen(key)};
    if (!ends(k, ".json") && !ends(k, ".json.gz"))
        return 0;
    /* smdebug's own folders keep their names and reasons: only a
     * .pt.trace.json name is a Kineto trace there */
    return !starts(k, "system/") && !starts(k, "framework/") && !starts(k, "rule-output/");
}

void keyname_parse(const char *key, key_info *out)
{
    memset(out, 0, sizeof *out);
    if (!key)
        return;
    if (!strncmp(key, "../rule-output/", 15))
        key += 3;
    slice pt[16];
    int n = split(key, pt, 16);
    if (n < 1)
        return;
    if (parse_kineto(pt[n - 1], out) == 0)
        return;
    memset(out, 0, sizeof *out);
    if (n < 2)
        return;
    if (eq(pt[0], "system") && n >= 3 && eq(pt[1], "incremental") &&
        (n == 3 || (n == 4 && all_digits(pt[2]) && pt[2].n == 10)))
        parse_system(pt[n - 1], out);
    else if (eq(pt[0], "framework"))
        parse_framework(pt, n, out);
    else if (n == 5 && eq(pt[0], "rule-output") && starts(pt[1], "ProfilerReport-") &&
             eq(pt[2], "profiler-output") && eq(pt[3], "profiler-reports") &&
             ends(pt[4], ".json") && pt[4].n > 5)
        out->kind = KEY_RULE_REPORT;
    if (out->kind == KEY_OTHER) {
        out->node[0] = '\0';
        out->process[0] = '\0';
        out->time_us = 0;
        out->tkind = TRACE_PYTHON;
    }
}

const char *keyname_unread_reason(const char *key)
{
    if (!key)
        return NULL;
    slice k = {key, strlen(key)};
    if (!starts(k, "framework/") && !starts(k, "system/"))
        return NULL;
    if (ends(k, "/python_stats.html"))
        return "not read: pyinstrument's HTML view (its numbers are read from "
               "python_stats.json)";
    if (strstr(key, "/detailed_profiling/") && strstr(key, "/plugins/profile/"))
        return "not read: TensorBoard profile data smtop does not show (it reads "
               "<host>.trace.json.gz)";
    if (strstr(key, "/cprofile/") || strstr(key, "/pyinstrument/") || strstr(key, "/cProfile/"))
        return "not read: unknown file name in a Python stats folder (expected "
               "<node>/<stats_dir>/python_stats or python_stats.json)";
    return "not read: unknown file name";
}

static int hour_dir(int64_t t_us, char *buf, size_t cap)
{
    time_t secs = (time_t)(t_us / 1000000);
    struct tm tm;
    if (!gmtime_r(&secs, &tm))
        return -1;
    return strftime(buf, cap, "%Y%m%d%H", &tm) ? 0 : -1;
}

char *keyname_system_after(int64_t t_us, int hour_dirs, char *out, size_t cap)
{
    if (!out || cap == 0)
        return out;
    if (t_us < 0)
        t_us = 0;
    char hour[32];
    long long secs = (long long)(t_us / 1000000);
    if (hour_dirs && hour_dir(t_us, hour, sizeof hour) == 0)
        snprintf(out, cap, "system/incremental/%s/%010lld", hour, secs);
    else
        snprintf(out, cap, "system/incremental/%010lld", secs);
    return out;
}

char *keyname_trace_after(int64_t t_us, char *out, size_t cap)
{
    if (!out || cap == 0)
        return out;
    if (t_us < 0)
        t_us = 0;
    char hour[32] = "0000000000";
    hour_dir(t_us, hour, sizeof hour);
    snprintf(out, cap, "framework/pevents/%s/%016lld", hour, (long long)t_us);
    return out;
}
