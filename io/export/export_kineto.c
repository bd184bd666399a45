/* export_kineto: PyTorch profiler (Kineto) traces in the Perfetto export,
 * on the job clock beside the system counters (export_perfetto.h).
 *
 * The model keeps no Kineto events, so each trace is read again through
 * the source and decoded (kineto_decode) as a stream, twice: a first pass
 * finds what places the trace (baseTimeNanoseconds and distributedInfo,
 * which may follow traceEvents) and which (pid, tid) pairs are GPU
 * streams; the second writes the events. Two passes rather than holding a
 * file's events until its base is known: a trace inflates to GBs, and the
 * decoder's memory does not grow with it, so the export's does not either;
 * the price is decoding each trace twice.
 *
 * Each trace becomes one process, keyed by its node and rank as the
 * dashboard places it (kineto_ingest_place), named "rank N" (or the
 * writer) and labelled with its node; its GPU streams ("GPU D stream S")
 * and CPU threads ("thread T"; "pid P thread T" under a string pid such
 * as Kineto's "Spans", whose events are kept too) are its threads. X
 * events keep their duration, instants ([memory]) stay instants, flows
 * (ac2g, fwdbwd) keep their s/f/t with ids made unique per trace; the
 * trace's own metadata events (ph M) give way to these names. Names are unescaped, made safe
 * (control characters, bidi marks and bad UTF-8 become '?') and escaped
 * again for JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"
#include "io/export/export_internal.h"
#include "io/run/kineto_ingest.h"
#include "io/scan/scan_kineto.h"
#include "io/scan/scanner.h"
#include "model/util/fnv.h"
#include "model/util/vec.h"

#define KX_CHUNK SCAN_READ_CHUNK
#define KX_NAME 4096          /* bytes of an event name written at most */
#define KX_THREADS 4096       /* (pid, tid) pairs remembered per trace */
#define KX_SNIFF ((size_t)64 << 10)

static const char *const cat_name[KCAT_COUNT] = {
    "other", "cpu_op", "user_annotation", "gpu_user_annotation", "python_function",
    "cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy", "gpu_memset", "cuda_sync",
    "overhead", "Trace", "flow", "memory", "oom"};

/* Notes key (rel: as keyname_parse reads it) of src when it is or may be
 * a trace; 0, or -1 on OOM. */
static int note_in(xjob *x, source *src, const char *key, const char *rel)
{
    key_info ki;
    keyname_parse(rel, &ki);
    scan_kineto_classify(rel, &ki);
    if (ki.kind != KEY_KINETO && ki.kind != KEY_KINETO_MAYBE)
        return 0;
    for (size_t i = 0; i < x->nkin; i++)   /* listed inside and beyond the root */
        if (x->kin[i].src == src && !strcmp(x->kin[i].key, key))
            return 0;
    if (vec_grow(&x->kin, &x->capkin, x->nkin + 1, sizeof *x->kin, 16) != 0)
        return -1;
    xkin *k = &x->kin[x->nkin];
    if (!(k->key = strdup(key)))
        return -1;
    k->ki = ki;
    k->src = src;
    x->nkin++;
    return 0;
}

int export_kineto_note(xjob *x, const char *key, const char *rel)
{
    return note_in(x, x->src, key, rel);
}

static int klist_cb(void *ud, const source_entry *e)
{
    xjob *x = ud;
    if (e->error)
        return 0;
    int inside = !strncmp(e->key, x->root, x->rootlen);
    return export_kineto_note(x, e->key, inside ? e->key + x->rootlen : e->key) ? (x->oom = 1)
                                                                               : 0;
}

static int tlist_cb(void *ud, const source_entry *e)
{
    xjob *x = ud;
    if (e->error)
        return 0;
    return note_in(x, x->o->traces, e->key, e->key) ? (x->oom = 1) : 0;
}

int export_kineto_list(xjob *x, sm_err *err)
{
    if (scan_kineto_list(x->src, x->root, klist_cb, x, err) != 0)
        return -1;
    if (x->o->traces && scan_kineto_list(x->o->traces, "", tlist_cb, x, err) != 0)
        return -1;
    return x->oom ? sm_err_set(err, SM_ERR_NOMEM, "out of memory listing the job") : 0;
}

void export_kineto_free(xjob *x)
{
    for (size_t i = 0; i < x->nkin; i++)
        free(x->kin[i].key);
    free(x->kin);
}

/* A trace's (pid, tid) pair: whether a GPU event runs there, its tid. */
typedef struct kthr {
    int64_t pid, tid, out;
    int gpu;
} kthr;

/* One trace being exported. */
typedef struct kx {
    xjob *x;
    kineto_dec *d;
    int pass;              /* 1: metadata and threads; 2: writing */
    int64_t base_ns, flow_base, pid, events;
    char node[128], proc[128], key[300];
    kthr *thr;
    size_t nthr, capthr;
    size_t last;           /* the last pair looked up */
    int failed, sniffed, not_kineto, maybe;
    size_t got;
    char name[KX_NAME];
} kx;

static int is_gpu_cat(int cat)
{
    return cat == KCAT_KERNEL || cat == KCAT_GPU_MEMCPY || cat == KCAT_GPU_MEMSET ||
           cat == KCAT_GPU_USER_ANNOTATION;
}

/* An id as a key: the number, or for a string id ("Spans", "") a stable
 * hash of its bytes in the range below every number a trace uses (-1 and
 * up) but SM_KEV_NONE, so one string always names one thread. */
static int64_t id_key(int64_t v, sm_str s)
{
    if (v != SM_KEV_NONE || !s.ptr)
        return v;
    uint64_t h = fnv_add(FNV_SEED, s.ptr, s.len) >> 2;
    return INT64_MIN + 1 + (int64_t)h;
}

static int64_t pid_key(const sm_kevent *ev)
{
    return id_key(ev->pid, ev->pid_str);
}

static int64_t tid_key(const sm_kevent *ev)
{
    return id_key(ev->tid, ev->tid_str);
}

static kthr *thr_find(kx *k, int64_t pid, int64_t tid)
{
    if (k->last < k->nthr && k->thr[k->last].pid == pid && k->thr[k->last].tid == tid)
        return &k->thr[k->last];
    for (size_t i = 0; i < k->nthr; i++)
        if (k->thr[i].pid == pid && k->thr[i].tid == tid) {
            k->last = i;
            return &k->thr[i];
        }
    return NULL;
}

/* Pass 1: remembers where GPU events run, so a flow that reaches a stream
 * before any kernel there names the same thread. */
static void note_thread(kx *k, const sm_kevent *ev)
{
    int64_t pid = pid_key(ev), tid = tid_key(ev);
    if (!is_gpu_cat(ev->cat) || thr_find(k, pid, tid) || k->nthr >= KX_THREADS)
        return;
    if (vec_grow(&k->thr, &k->capthr, k->nthr + 1, sizeof *k->thr, 16) != 0)
        return;   /* the stream is then named as a thread: still exported */
    k->thr[k->nthr++] = (kthr){pid, tid, 0, 1};
}

/* An id as a thread name shows it: the number, or the string made safe
 * (an empty one as ""). */
static int id_label(int64_t v, sm_str s, char *out, size_t cap)
{
    if (v != SM_KEV_NONE || !s.ptr)
        return snprintf(out, cap, "%" PRId64, v);
    if (s.len == 0)
        return snprintf(out, cap, "\"\"");
    return (int)kineto_str_sanitize(s, out, cap);
}

/* The exported tid of the event's (pid, tid), named on first use: "GPU
 * <pid> stream <tid>" where GPU work runs, else "thread <tid>", "pid
 * <pid> thread <tid>" under a string pid (Kineto's "Spans", "Traces"). */
static int64_t out_tid(kx *k, const sm_kevent *ev)
{
    int64_t pid = pid_key(ev), tid = tid_key(ev);
    kthr *t = thr_find(k, pid, tid);
    if (t && t->out)
        return t->out;
    char nm[300], p[128], th[128];
    id_label(ev->pid, ev->pid_str, p, sizeof p);
    id_label(ev->tid, ev->tid_str, th, sizeof th);
    int gpu = t ? t->gpu : is_gpu_cat(ev->cat);
    int n = gpu                         ? snprintf(nm, sizeof nm, "GPU %s stream %s", p, th)
            : ev->pid == SM_KEV_NONE    ? snprintf(nm, sizeof nm, "pid %s thread %s", p, th)
                                        : snprintf(nm, sizeof nm, "thread %s", th);
    n = n < (int)sizeof nm ? n : (int)sizeof nm - 1;
    int64_t otid = export_writer_thread(k->x->w, k->pid, (sm_str){nm, (size_t)n});
    if (!t && k->nthr < KX_THREADS &&
        vec_grow(&k->thr, &k->capthr, k->nthr + 1, sizeof *k->thr, 16) == 0)
        t = &k->thr[k->nthr++];
    if (t)
        *t = (kthr){pid, tid, otid, gpu};
    return otid;
}

/* Job-clock µs with the ns kept as 3 decimals. */
static void put_ts(FILE *f, const char *key, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    fprintf(f, ",\"%s\":%s%" PRIu64 ".%03u", key, ns < 0 ? "-" : "", a / 1000,
            (unsigned)(a % 1000));
}

static void put_arg(FILE *f, int *first, const char *key, int64_t v)
{
    if (v == SM_KEV_NONE)
        return;
    fprintf(f, "%s\"%s\":%" PRId64, *first ? ",\"args\":{" : ",", key, v);
    *first = 0;
}

static void put_args(FILE *f, const sm_kevent *ev)
{
    int first = 1;
    put_arg(f, &first, "correlation", ev->correlation);
    put_arg(f, &first, "External id", ev->external_id);
    put_arg(f, &first, "device", ev->device);
    put_arg(f, &first, "stream", ev->stream);
    put_arg(f, &first, "step", ev->step >= 0 ? ev->step : SM_KEV_NONE);
    if (ev->cat == KCAT_MEMORY) {
        put_arg(f, &first, "Bytes", ev->mem_bytes);
        put_arg(f, &first, "Total Allocated", ev->mem_total_allocated);
        put_arg(f, &first, "Total Reserved", ev->mem_total_reserved);
        put_arg(f, &first, "Device Id", ev->mem_device);
    }
    if (!first)
        fputc('}', f);
}

static void write_event(kx *k, const sm_kevent *ev)
{
    int flow = ev->ph == 's' || ev->ph == 'f' || ev->ph == 't';
    if ((ev->ph != 'X' && ev->ph != 'i' && ev->ph != 'I' && !flow) || ev->ts_ns == SM_KEV_NONE ||
        pid_key(ev) == SM_KEV_NONE || tid_key(ev) == SM_KEV_NONE ||
        (flow && ev->correlation == SM_KEV_NONE))
        return;
    int64_t t = k->base_ns + ev->ts_ns, dur = ev->ph == 'X' ? ev->dur_ns : 0;
    sm_str node = sm_str_c(k->node);
    if (!export_perfetto_in_window(k->x, node, t / 1000, dur / 1000))
        return;
    int64_t tid = out_tid(k, ev);
    size_t nl = kineto_str_sanitize(ev->name, k->name, sizeof k->name);
    sm_str name = nl ? (sm_str){k->name, nl} : sm_str_c("(unnamed)");
    FILE *f = export_writer_record(k->x->w);
    fputs("{\"name\":", f);
    export_writer_str(f, name);
    fputs(",\"cat\":", f);
    export_writer_str(f, flow ? name : sm_str_c(cat_name[ev->cat < KCAT_COUNT ? ev->cat : 0]));
    fprintf(f, ",\"ph\":\"%c\"", ev->ph == 'I' ? 'i' : ev->ph);
    put_ts(f, "ts", t);
    if (ev->ph == 'X')
        put_ts(f, "dur", dur);
    fprintf(f, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64, k->pid, tid);
    if (flow) {
        /* ids repeat across traces: each trace gets its own range */
        fprintf(f, ",\"id\":%" PRId64 "%s}",
                k->flow_base + (int64_t)((uint64_t)ev->correlation & ((1ull << 40) - 1)),
                ev->ph == 'f' ? ",\"bp\":\"e\"" : "");
    } else {
        if (ev->ph != 'X')
            fputs(",\"s\":\"t\"", f);
        put_args(f, ev);
        fputc('}', f);
    }
    k->events++;
}

static void on_event(void *ud, const sm_kevent *ev)
{
    kx *k = ud;
    if (k->pass == 1)
        note_thread(k, ev);
    else
        write_event(k, ev);
}

static void read_cb(void *ud, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err)
{
    kx *k = ud;
    (void)etag;
    if (err) {
        snprintf(k->x->st->last_error, sizeof k->x->st->last_error, "%.200s: %.300s", req->key,
                 err->msg);
        k->failed = 1;
        return;
    }
    k->got = len;
    if (!k->sniffed) {
        k->sniffed = 1;
        if (k->maybe &&
            kineto_sniff(data, len < KX_SNIFF ? len : KX_SNIFF) == KINETO_SNIFF_NO) {
            k->not_kineto = 1;
            return;
        }
    }
    if (kineto_dec_feed(k->d, data, len, on_event, k) != 0)
        k->failed = 1;
}

/* One pass over the file. 0 read whole (decoded or not: see k and meta),
 * -1 when the source could not attempt a read. */
static int read_pass(kx *k, const xkin *f, sm_kmeta *meta, int *dec_rc, sm_err *derr,
                     sm_err *err)
{
    kineto_dec_opts o = {.keep_python = 1};
    if (!(k->d = kineto_dec_new(&o))) {
        k->failed = 1;
        *dec_rc = -1;
        sm_err_set(derr, SM_ERR_NOMEM, "out of memory");
        return 0;
    }
    k->sniffed = k->not_kineto = 0;
    int rc = 0;
    for (int64_t off = 0;; off += (int64_t)k->got) {
        source_req r = {.key = f->key, .offset = off, .len = (int64_t)KX_CHUNK};
        k->got = 0;
        if (source_fetch(f->src, &r, 1, read_cb, k, err) != 0) {
            rc = -1;
            break;
        }
        if (k->failed || k->not_kineto || k->got < KX_CHUNK)
            break;
    }
    *dec_rc = k->not_kineto ? -1 : kineto_dec_finish(k->d, meta, derr);
    return rc;
}

/* Whether system metrics name node (the dashboard's placement rule). */
static int node_has_metrics(const void *xv, const char *node)
{
    const xjob *x = xv;
    for (size_t i = 0; node[0] && i < x->n; i++)
        if (x->files[i].kind == KEY_SYSTEM && !strcmp(x->files[i].node, node))
            return 1;
    return 0;
}

static void skip_file(kx *k, const char *why)
{
    k->x->st->skipped_files++;
    snprintf(k->x->st->last_error, sizeof k->x->st->last_error, "%.200s: %.300s", k->key, why);
}

/* Pass 1; 1 when the trace is to be written (k placed), 0 skipped. */
static int first_pass(kx *k, const xkin *f, int *rc, sm_err *err)
{
    sm_kmeta meta;
    sm_err derr = {0};
    int dec_rc;
    k->pass = 1;
    *rc = read_pass(k, f, &meta, &dec_rc, &derr, err);
    if (*rc != 0 || k->not_kineto)
        return 0;
    if (dec_rc != 0 || k->failed) {
        skip_file(k, derr.msg[0] ? derr.msg : "could not be read");
        return 0;
    }
    if (k->maybe && !kineto_meta_is_kineto(&meta))
        return 0;   /* JSON, but not a profiler trace: nothing to say */
    k->x->st->corrupt_lines += meta.bad_events;
    if (!meta.has_base && !meta.ts_epoch) {
        skip_file(k, "no baseTimeNanoseconds and ts not epoch µs: cannot be placed on the job "
                     "clock");
        return 0;
    }
    k->base_ns = meta.has_base ? meta.base_ns : 0;
    key_info ki = f->ki;
    kineto_ingest_node_of(f->ki.node, node_has_metrics, k->x, ki.node, sizeof ki.node);
    kineto_ingest_place(&ki, f->key, &meta, node_has_metrics(k->x, ki.node), k->node, k->proc,
                        sizeof k->node);
    return 1;
}

/* The process of the trace: keyed by node and process apart from any node
 * name (a name never holds a control character). */
static int open_process(kx *k)
{
    char key[300];
    int n = snprintf(key, sizeof key, "\x01%s\x01%s", k->node, k->proc);
    k->pid = export_writer_process(k->x->w, (sm_str){key, (size_t)n}, sm_str_c(k->proc),
                                   sm_str_c(k->node));
    return k->pid ? 0 : -1;
}

static int export_one(xjob *x, const xkin *f, size_t idx, sm_err *err)
{
    kx *k = calloc(1, sizeof *k);
    if (!k) {
        x->st->skipped_files++;
        return 0;
    }
    *k = (kx){.x = x, .maybe = f->ki.kind == KEY_KINETO_MAYBE,
              .flow_base = (int64_t)(idx + 1) << 40};
    snprintf(k->key, sizeof k->key, "%s", f->key);
    int rc = 0;
    int go = first_pass(k, f, &rc, err);
    kineto_dec_free(k->d);
    k->d = NULL;
    if (go && open_process(k) == 0) {
        sm_kmeta meta;
        sm_err derr = {0};
        int dec_rc;
        k->pass = 2;
        rc = read_pass(k, f, &meta, &dec_rc, &derr, err);
        if (rc == 0 && (dec_rc != 0 || k->failed))   /* changed since pass 1 */
            skip_file(k, derr.msg[0] ? derr.msg : "changed while exported");
        x->st->kineto_files++;
        x->st->kineto_events += k->events;
    }
    if (go || rc != 0)
        x->st->files++;
    kineto_dec_free(k->d);
    free(k->thr);
    free(k);
    return rc;
}

int export_kineto_run(xjob *x, sm_err *err)
{
    /* idx << 40 keeps flow ids below 2^53, exact in a JSON reader's double */
    for (size_t i = 0; i < x->nkin; i++) {
        if (i >= 8000) {
            x->st->skipped_files += (int64_t)(x->nkin - i);
            snprintf(x->st->last_error, sizeof x->st->last_error,
                     "more than 8000 PyTorch profiler traces: the rest were not exported");
            break;
        }
        if (export_one(x, &x->kin[i], i, err) != 0)
            return -1;
    }
    return 0;
}
