/* kineto_jansson: the REFERENCE loader of PyTorch profiler (Kineto) traces
 * for tests: the whole file inflated with zlib, parsed with jansson, and
 * turned into the records of model/records.h (sm_kevent in file order,
 * then sm_kmeta). Slow and plain on purpose: it is what the streaming
 * decoder (io/decode/kineto_*) is checked against.
 *
 * What it decides, as the contract says (records.h, SPEC §1b):
 * - names are the raw JSON string bodies: jansson's unescaped string
 *   re-escaped by json_dumps (quotes, backslashes, control characters and
 *   non-ASCII as \uXXXX only when the file did so too is NOT guaranteed:
 *   jansson writes UTF-8 as is, which is what PyTorch writes);
 * - ts in ns: the integer part times 1000 plus the fraction rounded to the
 *   ns (exact for 3-decimal ts below 2^53 / 1000 µs, and for every integer
 *   ts; an epoch ts with a fraction is within 1 ns of the decimal);
 * - legacy categories folded, `[memory]` / `[OutOfMemory]` by name;
 * - numbers quoted in args ("12") are read, words ("N/A") are absent;
 *   an integer past int64 makes jansson fail the file (said in the error).
 *
 * Header-only, for tests; needs jansson and zlib (the io library links
 * both). */
#ifndef SMTOP_TEST_KINETO_JANSSON_H
#define SMTOP_TEST_KINETO_JANSSON_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model/records.h"

typedef int (*kj_event_fn)(const sm_kevent *ev, void *ctx);

typedef struct kj_file {
    json_t *root;       /* meta's strings point into it */
    sm_kmeta meta;
    char err[1536];
} kj_file;

/* The file's bytes, inflated when gzip (gzread passes plain files
 * through). NULL on error; *len set. */
static char *kj_read_all(const char *path, size_t *len)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            break;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        int k = gzread(f, buf + n, (unsigned)(cap - n));
        if (k < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    gzclose(f);
    *len = n;
    return buf;
}

static int64_t kj_i64(json_t *v)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v);
    if (json_is_real(v) && isfinite(json_real_value(v)))
        return (int64_t)json_real_value(v);
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        long long x = strtoll(s, &end, 10);
        if (*s && !*end)
            return x;
    }
    return SM_KEV_NONE;
}

static int64_t kj_arg(json_t *args, const char *key)
{
    return args ? kj_i64(json_object_get(args, key)) : SM_KEV_NONE;
}

/* µs (integer or decimal) to ns, see the header comment. */
static int64_t kj_ns(json_t *v)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v) * 1000;
    if (!json_is_real(v) || !isfinite(json_real_value(v)))
        return SM_KEV_NONE;
    double x = json_real_value(v), ip = floor(x);
    return (int64_t)ip * 1000 + (int64_t)llround((x - ip) * 1000.0);
}

static uint8_t kj_cat(const char *cat, const char *name)
{
    static const struct { const char *s; uint8_t c; } map[] = {
        {"cpu_op", KCAT_CPU_OP}, {"Operator", KCAT_CPU_OP},
        {"user_annotation", KCAT_USER_ANNOTATION},
        {"gpu_user_annotation", KCAT_GPU_USER_ANNOTATION},
        {"python_function", KCAT_PYTHON_FUNCTION},
        {"cuda_runtime", KCAT_CUDA_RUNTIME}, {"Runtime", KCAT_CUDA_RUNTIME},
        {"cuda_driver", KCAT_CUDA_DRIVER},
        {"kernel", KCAT_KERNEL}, {"Kernel", KCAT_KERNEL},
        {"gpu_memcpy", KCAT_GPU_MEMCPY}, {"Memcpy", KCAT_GPU_MEMCPY},
        {"gpu_memset", KCAT_GPU_MEMSET}, {"Memset", KCAT_GPU_MEMSET},
        {"cuda_sync", KCAT_CUDA_SYNC}, {"overhead", KCAT_OVERHEAD},
        {"Trace", KCAT_TRACE}, {"ac2g", KCAT_FLOW}, {"fwdbwd", KCAT_FLOW},
        {"async", KCAT_FLOW}, {"async_cpu_to_gpu", KCAT_FLOW},
    };
    if (name && strcmp(name, "[memory]") == 0)
        return KCAT_MEMORY;
    if (name && strcmp(name, "[OutOfMemory]") == 0)
        return KCAT_OOM;
    for (size_t i = 0; cat && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(cat, map[i].s) == 0)
            return map[i].c;
    return KCAT_OTHER;
}

/* The raw JSON body of a string (re-escaped), malloc'd; "" when absent. */
static char *kj_raw(json_t *s)
{
    if (!json_is_string(s))
        return strdup("");
    char *q = json_dumps(s, JSON_ENCODE_ANY);
    if (!q)
        return NULL;
    size_t n = strlen(q);
    memmove(q, q + 1, n - 2);   /* drop the quotes */
    q[n - 2] = 0;
    return q;
}

static void kj_id(json_t *v, int64_t *num, sm_str *str)
{
    *num = SM_KEV_NONE;
    *str = (sm_str){"", 0};
    if (json_is_integer(v))
        *num = (int64_t)json_integer_value(v);
    else if (json_is_string(v))
        *str = sm_str_c(json_string_value(v));
}

static int64_t kj_step(const char *name)
{
    const char *p = "ProfilerStep#";
    if (!name || strncmp(name, p, strlen(p)) != 0)
        return -1;
    char *end;
    long long n = strtoll(name + strlen(p), &end, 10);
    return end != name + strlen(p) && !*end ? n : -1;
}

static int kj_event(json_t *e, kj_event_fn fn, void *ctx)
{
    sm_kevent ev;
    memset(&ev, 0, sizeof ev);
    const char *ph = json_string_value(json_object_get(e, "ph"));
    const char *cat = json_string_value(json_object_get(e, "cat"));
    json_t *name = json_object_get(e, "name"), *args = json_object_get(e, "args");
    ev.ph = ph ? ph[0] : 0;
    ev.cat = kj_cat(cat, json_string_value(name));
    char *raw = kj_raw(name);
    char *coll = kj_raw(args ? json_object_get(args, "Collective name") : NULL);
    if (!raw || !coll) {
        free(raw);
        free(coll);
        return -1;
    }
    ev.name = sm_str_c(raw);
    ev.collective = sm_str_c(coll);
    ev.ts_ns = kj_ns(json_object_get(e, "ts"));
    ev.dur_ns = ev.ph == 'X' ? kj_ns(json_object_get(e, "dur")) : SM_KEV_NONE;
    if (ev.ph == 'X' && ev.dur_ns == SM_KEV_NONE)
        ev.dur_ns = 0;
    kj_id(json_object_get(e, "pid"), &ev.pid, &ev.pid_str);
    kj_id(json_object_get(e, "tid"), &ev.tid, &ev.tid_str);
    ev.correlation = kj_arg(args, "correlation");
    if (ev.cat == KCAT_FLOW)
        ev.correlation = kj_i64(json_object_get(e, "id"));
    ev.external_id = kj_arg(args, "External id");
    ev.device = kj_arg(args, "device");
    ev.stream = kj_arg(args, "stream");
    ev.step = kj_step(json_string_value(name));
    ev.mem_bytes = kj_arg(args, "Bytes");
    ev.mem_total_allocated = kj_arg(args, "Total Allocated");
    ev.mem_total_reserved = kj_arg(args, "Total Reserved");
    ev.mem_device = kj_arg(args, "Device Id");
    ev.msg_bytes = kj_arg(args, "bytes");
    ev.wait_stream = kj_arg(args, "wait_on_stream");
    ev.wait_corr = kj_arg(args, "wait_on_cuda_event_record_corr_id");
    int rc = fn(&ev, ctx);
    free(raw);
    free(coll);
    return rc;
}

static void kj_meta(kj_file *f)
{
    sm_kmeta *m = &f->meta;
    json_t *r = f->root, *v;
    m->rank = m->world_size = -1;
    m->backend = m->host_name = (sm_str){"", 0};
    if ((v = json_object_get(r, "schemaVersion"))) {
        m->has_schema = 1;
        m->schema_version = kj_i64(v);
    }
    if ((v = json_object_get(r, "baseTimeNanoseconds")) && kj_i64(v) != SM_KEV_NONE) {
        m->has_base = 1;
        m->base_ns = kj_i64(v);
    }
    json_t *d = json_object_get(r, "distributedInfo");
    if (json_is_object(d)) {
        m->has_dist = 1;
        if ((v = json_object_get(d, "rank")))
            m->rank = kj_i64(v);
        if ((v = json_object_get(d, "world_size")))
            m->world_size = kj_i64(v);
        if (json_is_string(v = json_object_get(d, "backend")))
            m->backend = sm_str_c(json_string_value(v));
    }
    if (json_is_string(v = json_object_get(r, "host_name")))
        m->host_name = sm_str_c(json_string_value(v));
    json_t *props = json_object_get(r, "deviceProperties");
    for (size_t i = 0; i < json_array_size(props) && i < SM_KMETA_MAX_DEVICES; i++) {
        int64_t tgm = kj_i64(json_object_get(json_array_get(props, i), "totalGlobalMem"));
        m->total_global_mem[i] = tgm == SM_KEV_NONE ? 0 : tgm;
        m->n_devices = i + 1;
    }
}

/* Loads path, calls fn for each traceEvents element in file order (a
 * non-zero return stops it), then fills f->meta. 0, or -1 with f->err. */
static int kj_load(kj_file *f, const char *path, kj_event_fn fn, void *ctx)
{
    memset(f, 0, sizeof *f);
    size_t len = 0;
    char *buf = kj_read_all(path, &len);
    if (!buf) {
        snprintf(f->err, sizeof f->err, "cannot read %s", path);
        return -1;
    }
    json_error_t je;
    f->root = json_loadb(buf, len, 0, &je);
    free(buf);
    if (!f->root) {
        snprintf(f->err, sizeof f->err, "%s: %s (line %d)", path, je.text, je.line);
        return -1;
    }
    json_t *evs = json_object_get(f->root, "traceEvents");
    int epoch = 0;
    for (size_t i = 0; i < json_array_size(evs); i++) {
        json_t *e = json_array_get(evs, i);
        if (!json_is_object(e))
            continue;
        f->meta.events++;
        int64_t ts = kj_ns(json_object_get(e, "ts"));
        epoch |= ts != SM_KEV_NONE && ts > (int64_t)1000000000000000000LL;
        if (kj_event(e, fn, ctx) != 0) {
            snprintf(f->err, sizeof f->err, "%s: event %zu refused", path, i);
            return -1;
        }
    }
    kj_meta(f);
    f->meta.ts_epoch = !f->meta.has_base && epoch;
    return 0;
}

static void kj_free(kj_file *f)
{
    json_decref(f->root);
    f->root = NULL;
}

#endif
