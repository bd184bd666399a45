/* job: see job.h. */
#include "io/run/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/decode/pystats_load.h"
#include "io/decode/tf_trace.h"
#include "io/run/job_watch.h"
#include "io/run/kineto_ingest.h"
#include "io/source/source_traces.h"
#include "io/source/source_union.h"
#include "model/util/vec.h"

struct job {
    source *src;
    scanner *sc;
    source *tsrc;           /* --traces: its own source and scanner, NULL none */
    scanner *tsc;
    model *m;
    pystats_store *py;      /* Python profiler stats, fed by on_file */
    kineto_ingest *kin;     /* PyTorch profiler traces, fed by on_file */
    job_watch *watch;       /* the SageMaker API's view, NULL none */
    pthread_mutex_t lock;
    int desc_final;         /* desc names profiler-output (root found) */
    int filtered;           /* a time filter (--since/--until) is set */
    char desc[2048];        /* written under lock by job_scan */
};

/* Whole-file kinds from the scanner (lock held): each to its store. */
static int job_on_file(void *ud, const key_info *ki, const char *key,
                       const void *data, size_t len, sm_err *err)
{
    job *j = ud;
    if (ki->kind == KEY_CPROFILE || ki->kind == KEY_PYINSTRUMENT)
        return pystats_load_file(j->py, ki, key, data, len, err);
    if (ki->kind == KEY_KINETO || ki->kind == KEY_KINETO_MAYBE)
        return kineto_ingest_file(j->kin, ki, key, data, len, err);
    if (ki->kind == KEY_TF_TRACE)
        return tf_trace_ingest(j->m, ki->node, key, ki->time_us ? ki->time_us : TF_TRACE_NO_BASE,
                               data, len, err);
    return 0;
}

/* PyTorch profiler traces, streamed (scanner_stream_ops): read piece by
 * piece without the lock, added to the model at their end with it. */
static void *job_stream_begin(void *ud, const key_info *ki, const char *key, sm_err *err)
{
    (void)ud;
    kineto_read *r = kineto_read_begin(ki, key);
    if (!r)
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    return r;
}

static int job_stream_feed(void *rd, const void *p, size_t n)
{
    return kineto_read_feed(rd, p, n);
}

static int job_stream_end(void *ud, void *rd, int64_t len, sm_err *err)
{
    return kineto_ingest_end(((job *)ud)->kin, rd, len, err);
}

static void job_stream_drop(void *rd)
{
    kineto_read_drop(rd);
}

static const scanner_stream_ops job_stream = {job_stream_begin, job_stream_feed, job_stream_end,
                                              job_stream_drop};

/* "<source>/<root>" with one slash between and none at the end (an S3
 * source describes itself as "s3://b/job/"). */
static void job_set_desc(job *j, const char *root)
{
    const char *src = source_describe(j->src);
    if (source_union_is(j->src)) {   /* a job's places: each says where it is */
        snprintf(j->desc, sizeof j->desc, "%s", src);
        return;
    }
    int sl = (int)strlen(src);
    while (sl > 1 && src[sl - 1] == '/')
        sl--;
    snprintf(j->desc, sizeof j->desc, "%.*s%s%s", sl, src, root[0] ? "/" : "", root);
    size_t dl = strlen(j->desc);
    if (dl > 1 && j->desc[dl - 1] == '/')
        j->desc[dl - 1] = '\0';
}

/* SMTOP_INGEST_THREADS (smtop.1): 0 reads and decodes on the scanning
 * thread alone, N on N threads; unset or not a count, the cores. The
 * results are the same whatever it says: tests and benchmarks compare. */
static void ingest_threads(scanner_opts *o)
{
    const char *v = getenv("SMTOP_INGEST_THREADS");
    char *end;
    long n = v && *v ? strtol(v, &end, 10) : -1;
    if (n < 0 || n > 4096 || *end)
        return;
    o->sequential = n == 0;
    o->threads = (size_t)n;
}

job *job_open(const char *spec, const source_opts *so, const model_config *mc,
              sm_err *err)
{
    source *src = source_open(spec, so, err);
    return src ? job_open_source(src, so, mc, err) : NULL;
}

job *job_open_source(source *src, const source_opts *so, const model_config *mc,
                     sm_err *err)
{
    return job_open_source_at(src, NULL, so, mc, err);
}

job *job_open_source_at(source *src, const char *root, const source_opts *so,
                        const model_config *mc, sm_err *err)
{
    job *j = calloc(1, sizeof *j);
    if (!j) {
        source_free(src);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    }
    pthread_mutex_init(&j->lock, NULL);
    j->src = src;
    job_set_desc(j, "");
    j->filtered = mc && (mc->since_us || mc->until_us);
    if (!(j->m = model_new(mc))) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if (!(j->py = pystats_store_new()) || !(j->kin = kineto_ingest_new(j->m))) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    /* The root is found by the first pass: opening does no I/O, so the
     * dashboard draws before a slow or empty source has answered. */
    scanner_opts o = {.lock = &j->lock, .on_file = job_on_file, .on_file_ud = j,
                      .stream = &job_stream, .wait = so && so->wait_for_data};
    ingest_threads(&o);
    if (!(j->sc = scanner_new(j->src, root, j->m, &o, err)))
        goto fail;
    /* --traces: searched whole from its top (root ""), into the same model */
    if (so && so->traces && !(j->tsrc = source_traces_open(so->traces, so, err))) {
        if (err) {
            char why[sizeof err->msg];
            memcpy(why, err->msg, sizeof why);
            sm_err_set(err, err->code, "--traces: %.400s", why);
        }
        goto fail;
    }
    if (j->tsrc && !(j->tsc = scanner_new(j->tsrc, "", j->m, &o, err)))
        goto fail;
    return j;
fail:
    job_close(j);
    return NULL;
}

void job_close(job *j)
{
    if (!j)
        return;
    job_watch_free(j->watch);   /* first: its thread adds to the model */
    scanner_free(j->sc);
    scanner_free(j->tsc);
    source_free(j->tsrc);
    model_free(j->m);
    pystats_store_free(j->py);
    kineto_ingest_free(j->kin);
    source_free(j->src);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

/* A trace note, kept until the lock is let go: the scanner's messages
 * take its own mutex, never under the model's lock. */
typedef struct clock_notes {
    char (*msg)[2][SCANNER_MSG_LEN];
    size_t n, cap;
} clock_notes;

static void keep_note(void *ud, const char *key, const char *why)
{
    clock_notes *c = ud;
    if (vec_grow(&c->msg, &c->cap, c->n + 1, sizeof *c->msg, 4) != 0)
        return;     /* out of memory: this note is lost, nothing else */
    snprintf(c->msg[c->n][0], SCANNER_MSG_LEN, "%s", key);
    snprintf(c->msg[c->n][1], SCANNER_MSG_LEN, "%s", why);
    c->n++;
}

/* After a pass: the traces far off the job's clock and the unplaced ones
 * into the warnings (kineto_ingest_name_clocks), against the system
 * metrics' span. A time filter (--since/--until) cuts the system metrics
 * short of the job, so then there is no clock to judge by. */
static void job_name_clocks(job *j)
{
    clock_notes c = {0};
    pthread_mutex_lock(&j->lock);
    gpu_span sys;
    int has_sys = model_sample_span(j->m, &sys.t0_us, &sys.t1_us);
    if (!j->filtered)
        kineto_ingest_name_clocks(j->kin, has_sys ? &sys : NULL, keep_note, &c);
    pthread_mutex_unlock(&j->lock);
    for (size_t i = 0; i < c.n; i++)
        scanner_note(j->sc, c.msg[i][0], c.msg[i][1]);
    free(c.msg);
}

int job_scan(job *j, sm_err *err)
{
    int rc = scanner_scan(j->sc, err);
    sm_err terr = {0};
    if (j->tsc && scanner_scan(j->tsc, &terr) != 0 && rc == 0) {
        rc = -1;
        if (err)
            sm_err_set(err, terr.code, "--traces %s: %s", source_describe(j->tsrc), terr.msg);
    }
    job_name_clocks(j);
    /* What reading finds (a bucket in another region) is the source's
     * problem, even where the message names the option that fixes it:
     * only the command line itself makes a usage error (exit 2). */
    if (rc != 0 && err && err->code == SM_ERR_USAGE)
        err->code = SM_ERR_IO;
    char root[256];
    if (source_union_is(j->src)) {   /* its places say what each held this pass */
        pthread_mutex_lock(&j->lock);
        job_set_desc(j, "");
        pthread_mutex_unlock(&j->lock);
    }
    if (!j->desc_final && scanner_root(j->sc, root, sizeof root)) {
        pthread_mutex_lock(&j->lock);
        job_set_desc(j, root);
        j->desc_final = 1;
        pthread_mutex_unlock(&j->lock);
    }
    return rc;
}

int job_set_watch(job *j, job_watch *w, int thread, sm_err *err)
{
    job_watch_free(j->watch);
    j->watch = NULL;
    if (w && thread && job_watch_start(w, j->m, &j->lock, j->sc, err) < 0) {
        job_watch_free(w);
        return -1;
    }
    j->watch = w;
    return 0;
}

void job_poll_watch(job *j)
{
    if (!j->watch)
        return;
    scan_stats st;
    scanner_get_stats(j->sc, &st);
    job_watch_poll(j->watch, j->m, &j->lock, (long)st.passes, (double)time(NULL));
}

job_watch *job_get_watch(job *j)
{
    return j->watch;
}

void job_cancel(job *j, int on)
{
    source_cancel(j->src, on);
    job_watch_cancel(j->watch, on);
}

void job_finish(job *j)
{
    scanner_finish(j->sc);
    scanner_shed(j->sc);
    if (j->tsc) {
        scanner_finish(j->tsc);
        scanner_shed(j->tsc);
    }
}

scanner *job_traces_scanner(job *j)
{
    return j->tsc;
}

const char *job_traces_describe(job *j)
{
    return j->tsrc ? source_describe(j->tsrc) : NULL;
}

pystats_store *job_pystats(job *j)
{
    return j->py;
}

model *job_model(job *j)
{
    return j->m;
}

scanner *job_scanner(job *j)
{
    return j->sc;
}

size_t job_threads(job *j)
{
    return scan_threads(j->sc);
}

source *job_source(job *j)
{
    return j->src;
}

pthread_mutex_t *job_lock(job *j)
{
    return &j->lock;
}

const char *job_describe(job *j)
{
    return j->desc;
}
