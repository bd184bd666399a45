/* decoder_kineto: a PyTorch profiler (Kineto) trace (SPEC §1b) as one
 * record, its sm_trace_done; the "kineto" rows of the decoder table.
 *
 * The file's bytes go through the streaming decoder (kineto_decode) into
 * the rank's analysis (gpu_trace) and, for the model's step views, its
 * steps, user annotations and CPU ops on the trace's clock (the clock's
 * base may come after traceEvents), kept in blocks that go to a temporary
 * file past the first (kineto_keep). So a trace costs memory by its
 * events, not its bytes, and only while it is read. Only once the decoder
 * says the trace is complete does it become a record: a .gz still being
 * written gives none and is read again when it changes, so no trace
 * counts twice. A file that may be a trace (KEY_KINETO_MAYBE) is one only
 * if its head says so; once it says not, no more bytes are wanted.
 * Names kept are cleaned here, once (kineto_str_sanitize). Where the
 * trace goes (its node and rank, the job clock, a rank recorded twice) is
 * the sink's to say: it needs the job. */
#include <stdlib.h>
#include <string.h>

#include "io/decode/decoder.h"
#include "io/decode/kineto_decode.h"
#include "io/decode/kineto_keep.h"
#include "model/gpu/gpu_trace.h"

#define CHUNK ((size_t)1 << 20)
#define NAME_MAX_BYTES 256                  /* an event name kept for the model */
#define MODEL_EVENTS_MAX ((size_t)1 << 20)  /* per file: bounds the list */
#define SNIFF_BYTES ((size_t)64 << 10)

/* One file's read in progress. */
typedef struct kread {
    key_info ki;
    char *key;
    kineto_dec *d;
    gpu_trace *tr;
    kineto_keep *keep;      /* CPU ops and annotations for the model */
    int64_t dropped;        /* events past MODEL_EVENTS_MAX */
    int oom;
    int fed;                /* bytes came (the head was judged) */
    int not_kineto;         /* a KEY_KINETO_MAYBE whose head says it is not one */
    int stopped;            /* the decoder refused more (corrupt, OOM) */
} kread;

static int name_has(sm_str s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s.len >= n && !memcmp(s.ptr, prefix, n);
}

/* Keeps a CPU-side X event for the model. */
static void keep_event(kread *r, const sm_kevent *ev)
{
    if (kineto_keep_count(r->keep) >= (int64_t)MODEL_EVENTS_MAX) {
        r->dropped++;
        return;
    }
    char name[NAME_MAX_BYTES];
    size_t len = kineto_str_sanitize(ev->name, name, sizeof name);
    kineto_keep_ev k = {ev->ts_ns, ev->dur_ns > 0 ? ev->dur_ns : 0, ev->pid, ev->tid, ev->step,
                        0, 0, KINETO_KEEP_CPU};
    if (ev->cat == KCAT_USER_ANNOTATION)
        k.kind = ev->step >= 0 && name_has(ev->name, "ProfilerStep#") ? KINETO_KEEP_STEP
                 : name_has(ev->name, "enumerate(DataLoader)")          ? KINETO_KEEP_LOADER
                                                                         : KINETO_KEEP_USER;
    if (kineto_keep_add(r->keep, &k, name, len) != 0)
        r->oom = 1;
}

static void on_event(void *ud, const sm_kevent *ev)
{
    kread *r = ud;
    if (gpu_trace_add(r->tr, ev) != 0)
        r->oom = 1;
    if (ev->ph == 'X' && ev->ts_ns != SM_KEV_NONE &&
        (ev->cat == KCAT_CPU_OP || ev->cat == KCAT_USER_ANNOTATION))
        keep_event(r, ev);
}

static int kin_match(const key_info *ki, const void *head, size_t n)
{
    if (ki->kind != KEY_KINETO_MAYBE)
        return ki->kind == KEY_KINETO;
    kineto_sniff_verdict v = kineto_sniff(head, n < SNIFF_BYTES ? n : SNIFF_BYTES);
    return v == KINETO_SNIFF_YES ? 1 : v == KINETO_SNIFF_NO ? 0 : -1;
}

static int not_kineto_err(sm_err *err)
{
    return sm_err_set(err, SM_ERR_FORMAT, KINETO_NOT_A_TRACE " (no traceEvents with "
                      "schemaVersion, deviceProperties or distributedInfo)");
}

static void kin_drop(void *st)
{
    kread *r = st;
    if (!r)
        return;
    kineto_dec_free(r->d);
    gpu_trace_free(r->tr);
    kineto_keep_free(r->keep);
    free(r->key);
    free(r);
}

static void *kin_begin(const key_info *ki, const char *key, sm_err *err)
{
    kread *r = calloc(1, sizeof *r);
    if (!r)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    size_t n = strlen(key);
    kineto_dec_opts o = {.keep_python = 1, .gzip_name = n > 3 && !strcmp(key + n - 3, ".gz")};
    r->ki = *ki;
    r->key = strdup(key);
    r->d = kineto_dec_new(&o);
    r->tr = gpu_trace_new(NULL);
    r->keep = kineto_keep_new();
    if (!r->key || !r->d || !r->tr || !r->keep) {
        kin_drop(r);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    }
    return r;
}

static int kin_feed(void *st, const void *data, size_t len, const rec_sink *out)
{
    kread *r = st;
    (void)out;   /* a trace is one record, at its end */
    if (r->not_kineto || r->stopped)
        return 1;
    /* A file's first bytes come in one piece (the whole file, or a piece
     * of at least SNIFF_BYTES): its head is judged as a whole read would. */
    if (!r->fed && kin_match(&r->ki, data, len) == 0) {
        r->not_kineto = 1;
        return 1;
    }
    r->fed = 1;
    const char *p = data;
    for (size_t at = 0; at < len; at += CHUNK)
        if (kineto_dec_feed(r->d, p + at, len - at < CHUNK ? len - at : CHUNK, on_event, r) != 0) {
            r->stopped = 1;
            return 1;
        }
    return 0;
}

/* A name of the trace's tables, raw JSON body, cleaned once (unescaped,
 * made safe for a terminal) when the trace is kept: every pane and
 * report then shows it as it is. */
static char *clean_name(void *ud, const char *raw, size_t len, size_t *out_len)
{
    (void)ud;
    sm_str s = {raw, len};
    size_t n = kineto_str_copy(s, NULL, 0);   /* its length unescaped */
    char *out = malloc(n + 1);
    if (out)
        *out_len = kineto_str_sanitize(s, out, n + 1);
    return out;
}

/* The end of r's bytes: its metadata in *meta. 0 complete; -1 with err
 * (SM_ERR_PARTIAL: one that ends early is read again once it changes). */
static int read_finish(kread *r, sm_kmeta *meta, sm_err *err)
{
    if (r->not_kineto || (!r->fed && kin_match(&r->ki, "", 0) == 0))
        return not_kineto_err(err);
    int rc = kineto_dec_finish(r->d, meta, err);
    if (rc != 0)
        return -1;
    if (r->oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory reading the trace");
    if (r->ki.kind == KEY_KINETO_MAYBE && !kineto_meta_is_kineto(meta))
        return not_kineto_err(err);
    if (gpu_trace_end(r->tr, meta) != 0 || gpu_trace_rename(r->tr, clean_name, NULL) != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory analysing the trace");
    return 0;
}

/* r's finished trace as its record: what it owns moves into it, its
 * strings are copied out of the decoder (the host's cleaned: it may name
 * a node). NULL on OOM (r keeps what it owns). */
static sm_trace_done *make_done(kread *r, const sm_kmeta *meta, int64_t len)
{
    sm_trace_done *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->meta = *meta;
    size_t hl = meta->host_name.len ? kineto_str_sanitize(meta->host_name, t->host, sizeof t->host)
                                    : 0;
    kineto_str_copy(meta->backend, t->backend, sizeof t->backend);
    t->meta.host_name = (sm_str){t->host, hl};
    t->meta.backend = (sm_str){t->backend, strlen(t->backend)};
    memcpy(t->node, r->ki.node, sizeof t->node);
    memcpy(t->process, r->ki.process, sizeof t->process);
    t->key = r->key;
    t->len = len;
    t->tr = r->tr;
    t->keep = r->keep;
    t->dropped = r->dropped;
    r->key = NULL;
    r->tr = NULL;
    r->keep = NULL;
    return t;
}

static int kin_end(void *st, int64_t len, const rec_sink *out, sm_err *err)
{
    kread *r = st;
    sm_kmeta meta;
    sm_trace_done *t = NULL;
    if (read_finish(r, &meta, err) == 0 && !(t = make_done(r, &meta, len)))
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    kin_drop(r);
    if (!t)
        return -1;
    if (!out->trace) {
        decoder_kineto_free_done(t);
        return 0;
    }
    return out->trace(out->ud, t, err);
}

/* The decoder's own: an event held at most (1 MiB) and its inflate state. */
#define DEC_BYTES ((size_t)3 << 19)

static size_t kin_held(const void *st)
{
    const kread *r = st;
    return DEC_BYTES + gpu_trace_memory_bytes(r->tr) + kineto_keep_memory_bytes(r->keep);
}

size_t decoder_kineto_done_bytes(const sm_trace_done *t)
{
    return sizeof *t + gpu_trace_memory_bytes(t->tr) + kineto_keep_memory_bytes(t->keep);
}

void decoder_kineto_free_done(sm_trace_done *t)
{
    if (!t)
        return;
    gpu_trace_free(t->tr);
    kineto_keep_free(t->keep);
    free(t->key);
    free(t);
}

const decoder decoder_kineto = {
    .name = "kineto",
    .kind = KEY_KINETO,
    .match = kin_match,
    .begin = kin_begin,
    .feed = kin_feed,
    .end = kin_end,
    .drop = kin_drop,
    .streamed = 1,
    .held = kin_held,
};
const decoder decoder_kineto_maybe = {
    .name = "kineto",
    .kind = KEY_KINETO_MAYBE,
    .match = kin_match,
    .begin = kin_begin,
    .feed = kin_feed,
    .end = kin_end,
    .drop = kin_drop,
    .streamed = 1,
    .held = kin_held,
};
