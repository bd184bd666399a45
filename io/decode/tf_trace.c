/* tf_trace: see tf_trace.h. */
#include "io/decode/tf_trace.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ts at or above this (µs) is already epoch time: 2001-09-09. */
#define TF_ABS_TS_MIN 1e15
/* Open B events remembered across the whole file. */
#define TF_OPEN_MAX 65536

static int inflate_grow(char **buf, size_t *cap, size_t max)
{
    size_t ncap = *cap * 2;
    if (ncap > max + 1)
        ncap = max + 1;
    char *nb = realloc(*buf, ncap);
    if (!nb)
        return -1;
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* Inflates all gzip members of src into buf; -1 on error with err set. */
static int inflate_all(z_stream *zs, const void *gz, size_t len, char **buf,
                       size_t *cap, size_t max, size_t *outn, sm_err *err)
{
    zs->next_in = (Bytef *)gz;
    zs->avail_in = (uInt)len;
    size_t n = 0;
    for (;;) {
        if (n + 1 >= *cap) {
            if (*cap >= max + 1)
                return sm_err_set(err, SM_ERR_FORMAT,
                                  "TF trace inflates to more than %zu MB: refusing it",
                                  max >> 20);
            if (inflate_grow(buf, cap, max) != 0)
                return sm_err_set(err, SM_ERR_NOMEM, "out of memory inflating a TF trace");
        }
        zs->next_out = (Bytef *)*buf + n;
        zs->avail_out = (uInt)(*cap - 1 - n);
        int rc = inflate(zs, Z_NO_FLUSH);
        n = (size_t)((char *)zs->next_out - *buf);
        if (rc == Z_STREAM_END) {
            if (zs->avail_in == 0)
                break;
            if (inflateReset(zs) != Z_OK)  /* next gzip member */
                return sm_err_set(err, SM_ERR_FORMAT, "corrupt gzip data");
            continue;
        }
        if (rc == Z_BUF_ERROR && zs->avail_in == 0)
            return sm_err_set(err, SM_ERR_FORMAT,
                              "gzip data is truncated (%zu bytes inflated): "
                              "the file may still be uploading", n);
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return sm_err_set(err, SM_ERR_FORMAT, "corrupt gzip data (%s)",
                              zs->msg ? zs->msg : "inflate failed");
    }
    *outn = n;
    return 0;
}

int tf_trace_gunzip(const void *gz, size_t len, size_t max, char **out,
                    size_t *out_len, sm_err *err)
{
    if (len < 18)
        return sm_err_set(err, SM_ERR_FORMAT,
                          "not a gzip file (%zu bytes, a gzip member needs 18)", len);
    if (len > UINT32_MAX)
        return sm_err_set(err, SM_ERR_FORMAT, "gzip file too large");
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory starting zlib");
    size_t cap = len * 4 + 64;
    if (cap > max + 1)
        cap = max + 1;
    char *buf = malloc(cap);
    size_t n = 0;
    int rc = buf ? inflate_all(&zs, gz, len, &buf, &cap, max, &n, err)
                 : sm_err_set(err, SM_ERR_NOMEM, "out of memory inflating a TF trace");
    inflateEnd(&zs);
    if (rc != 0) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return 0;
}

/* ---- events ---------------------------------------------------------- */

typedef struct tf_open {
    int64_t pid, tid;
    const char *name;
    double ts;
    int64_t step;
} tf_open;

typedef struct tf_ctx {
    json_t *pids;        /* pid (as decimal key) → name string */
    sm_str node;
    int64_t step, base;
    tf_trace_sink sink;
    void *ud;
    tf_open *open;
    size_t nopen;
    int count;
} tf_ctx;

static int64_t json_int_or(const json_t *v, int64_t dflt)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v);
    if (json_is_real(v) && fabs(json_real_value(v)) < 9e18)  /* also rejects NaN */
        return (int64_t)json_real_value(v);
    if (json_is_string(v)) {
        char *end;
        long long x = strtoll(json_string_value(v), &end, 10);
        if (end != json_string_value(v) && *end == '\0')
            return x;
    }
    return dflt;
}

/* ts/dur are numbers (µs, maybe fractional); rejects non-finite and absurd. */
static int json_time(const json_t *v, double *out)
{
    if (!json_is_number(v))
        return -1;
    double x = json_number_value(v);
    if (!isfinite(x) || fabs(x) > 9e15)
        return -1;
    *out = x;
    return 0;
}

static sm_str pid_name(tf_ctx *c, int64_t pid)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)pid);
    const json_t *n = json_object_get(c->pids, key);
    sm_str s = {"", 0};
    if (json_is_string(n)) {
        s.ptr = json_string_value(n);
        s.len = json_string_length(n);
    }
    return s;
}

static void emit(tf_ctx *c, int64_t pid, int64_t tid, const char *name,
                 double ts, double dur, int64_t step)
{
    if (dur < 0)
        dur = 0;
    sm_event e = {
        .node = c->node,
        .phase = pid_name(c, pid),
        .name = sm_str_c(name ? name : ""),
        .start_us = c->base + llround(ts),
        .dur_us = llround(dur),
        .step = step,
        .pid = pid,
        .tid = tid,
    };
    c->sink(c->ud, &e);
    c->count++;
}

static void on_end(tf_ctx *c, int64_t pid, int64_t tid, double ts)
{
    for (size_t i = c->nopen; i-- > 0;) {
        tf_open *o = &c->open[i];
        if (o->pid != pid || o->tid != tid)
            continue;
        tf_open b = *o;
        memmove(o, o + 1, (c->nopen - i - 1) * sizeof *o);
        c->nopen--;
        emit(c, pid, tid, b.name, b.ts, ts - b.ts, b.step);
        return;
    }
    /* An E without its B carries no duration: dropped, as Chrome does. */
}

static void on_event(tf_ctx *c, const json_t *ev)
{
    const char *ph = json_string_value(json_object_get(ev, "ph"));
    double ts, dur;
    if (!ph || json_time(json_object_get(ev, "ts"), &ts) != 0)
        return;
    int64_t pid = json_int_or(json_object_get(ev, "pid"), 0);
    int64_t tid = json_int_or(json_object_get(ev, "tid"), 0);
    const char *name = json_string_value(json_object_get(ev, "name"));
    int64_t step = json_int_or(json_object_get(json_object_get(ev, "args"), "step_num"),
                               c->step);
    if (!strcmp(ph, "X")) {
        if (json_time(json_object_get(ev, "dur"), &dur) != 0)
            dur = 0;
        emit(c, pid, tid, name, ts, dur, step);
    } else if (!strcmp(ph, "B")) {
        if (c->nopen < TF_OPEN_MAX)
            c->open[c->nopen++] = (tf_open){pid, tid, name, ts, step};
    } else if (!strcmp(ph, "E")) {
        on_end(c, pid, tid, ts);
    }
}

/* Names every pid from process_name metadata, and finds whether the file's
 * times are already on the epoch clock. */
static int scan_meta(tf_ctx *c, const json_t *events, int *absolute)
{
    size_t i;
    const json_t *ev;
    *absolute = 0;
    json_array_foreach(events, i, ev) {
        const char *ph = json_string_value(json_object_get(ev, "ph"));
        const char *nm = json_string_value(json_object_get(ev, "name"));
        double ts;
        if (ph && !strcmp(ph, "M") && nm && !strcmp(nm, "process_name")) {
            json_t *pn = json_object_get(json_object_get(ev, "args"), "name");
            char key[32];
            snprintf(key, sizeof key, "%lld",
                     (long long)json_int_or(json_object_get(ev, "pid"), 0));
            if (json_is_string(pn) && json_object_set(c->pids, key, pn) != 0)
                return -1;
        } else if (json_time(json_object_get(ev, "ts"), &ts) == 0 && ts >= TF_ABS_TS_MIN) {
            *absolute = 1;
        }
    }
    return 0;
}

static int load_doc(json_t *root, const char *node, int64_t step,
                    int64_t base_us, tf_trace_sink sink, void *ud, sm_err *err)
{
    const json_t *events = json_object_get(root, "traceEvents");
    if (!json_is_array(events))
        return sm_err_set(err, SM_ERR_FORMAT,
                          "TF trace has no \"traceEvents\" array");
    tf_ctx c = {.pids = json_object(), .node = sm_str_c(node ? node : ""),
                .step = step, .sink = sink, .ud = ud};
    size_t nev = json_array_size(events);
    c.open = malloc((nev < TF_OPEN_MAX ? nev : TF_OPEN_MAX) * sizeof *c.open + 1);
    int absolute = 0;
    int rc = -1;
    if (!c.pids || !c.open || scan_meta(&c, events, &absolute) != 0) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory reading a TF trace");
        goto out;
    }
    if (!absolute && base_us == TF_TRACE_NO_BASE) {
        sm_err_set(err, SM_ERR_NOTFOUND,
                   "TF trace of node %s step %lld has session-relative times and "
                   "that step's start is not known: not placed on the job clock",
                   node ? node : "?", (long long)step);
        goto out;
    }
    c.base = absolute ? 0 : base_us;
    size_t i;
    const json_t *ev;
    json_array_foreach(events, i, ev)
        if (json_is_object(ev))
            on_event(&c, ev);
    rc = c.count;
out:
    free(c.open);
    json_decref(c.pids);
    return rc;
}

int tf_trace_load_at(const void *gz, size_t len, const char *node,
                     int64_t step, int64_t base_us, tf_trace_sink sink,
                     void *ud, sm_err *err)
{
    char *txt;
    size_t n;
    if (tf_trace_gunzip(gz, len, TF_TRACE_MAX_BYTES, &txt, &n, err) != 0)
        return -1;
    json_error_t je;
    json_t *root = json_loadb(txt, n, JSON_DECODE_ANY, &je);
    free(txt);
    if (!json_is_object(root)) {
        int rc = root ? sm_err_set(err, SM_ERR_FORMAT, "TF trace is not a JSON object")
                      : sm_err_set(err, SM_ERR_FORMAT, "TF trace JSON is invalid at line %d: %s",
                                   je.line, je.text);
        json_decref(root);
        return rc;
    }
    int rc = load_doc(root, node, step, base_us, sink, ud, err);
    json_decref(root);
    return rc;
}

int tf_trace_load(const void *gz, size_t len, const char *node, int64_t step,
                  tf_trace_sink sink, void *ud, sm_err *err)
{
    return tf_trace_load_at(gz, len, node, step, 0, sink, ud, err);
}
