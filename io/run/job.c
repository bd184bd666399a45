/* job: see job.h. */
#include "io/run/job.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/run/job_cw.h"
#include "io/run/job_watch.h"
#include "io/run/job_warn.h"
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
    pystats_store *py;      /* Python profiler stats, from the sink */
    kineto_ingest *kin;     /* PyTorch profiler traces, from the sink */
    rec_sink sink;          /* the scanners' records beyond the model's */
    job_watch *watch;       /* the SageMaker API's view, NULL none */
    job_cw *cw;             /* its CloudWatch answers on the ingest path */
    atomic_long passes;     /* for the watch: the scanner's passes done, */
    atomic_int has_system;  /* and whether they gave a system sample */
    pthread_mutex_t lock;
    int desc_final;         /* desc names profiler-output (root found) */
    int filtered;           /* a time filter (--since/--until) is set */
    char desc[2048];        /* written under lock by job_scan */
};

/* The job's records beyond the model's (lock held): a Python stats window
 * to its store, a finished trace to the Kineto ingest. */
static int job_take_pywindow(void *ud, const sm_pywindow *w)
{
    return pystats_store_take(((job *)ud)->py, w);
}

static int job_take_trace(void *ud, sm_trace_done *t, sm_err *err)
{
    return kineto_ingest_take(((job *)ud)->kin, t, err);
}

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
    if (!(j->py = pystats_store_new()) || !(j->kin = kineto_ingest_new(j->m)) ||
        !(j->cw = job_cw_new())) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    /* The root is found by the first pass: opening does no I/O, so the
     * dashboard draws before a slow or empty source has answered. */
    j->sink = (rec_sink){.ud = j, .pywindow = job_take_pywindow, .trace = job_take_trace};
    scanner_opts o = {.lock = &j->lock, .sink = &j->sink, .wait = so && so->wait_for_data};
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
    job_watch_free(j->watch);   /* first: its thread asks the job */
    scanner_free(j->sc);
    scanner_free(j->tsc);
    source_free(j->tsrc);
    model_free(j->m);
    pystats_store_free(j->py);
    kineto_ingest_free(j->kin);
    job_cw_free(j->cw);
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
    job_warn_count_traces(j);
    pthread_mutex_lock(&j->lock);
    atomic_store(&j->has_system, model_last_sample_us(j->m) != 0);
    pthread_mutex_unlock(&j->lock);
    scan_stats st;
    scanner_get_stats(j->sc, &st);
    atomic_store(&j->passes, (long)st.passes);   /* completed passes only */
    if (j->watch)   /* CloudWatch's answers, decoded in the pass */
        job_cw_drain(j->cw, j->watch, j->m, &j->lock);
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

/* What the files gave, for the watch's choice of CloudWatch. */
static void job_files(void *ud, job_watch_files *out)
{
    job *j = ud;
    out->passes = atomic_load(&j->passes);
    out->has_system = atomic_load(&j->has_system);
}

int job_set_watch(job *j, job_watch *w, int thread, sm_err *err)
{
    job_watch_free(j->watch);
    j->watch = NULL;
    if (w && thread && job_watch_start(w, job_files, j, err) < 0) {
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
    job_watch_files f;
    job_files(j, &f);
    job_watch_poll(j->watch, &f, (double)time(NULL));
    job_cw_drain(j->cw, j->watch, j->m, &j->lock);
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

int64_t job_traces_read(job *j)
{
    return kineto_ingest_traces(j->kin);
}

static job *probe_open(const char *url, const source_opts *so, sm_err *err)
{
    return job_open(url, so, NULL, err);
}

const job_probe_ops *job_probe_ops_run(void)
{
    static const job_probe_ops ops = {probe_open, job_scan, job_poll_watch, job_cancel,
                                      job_lock, job_model, job_close, job_source};
    return &ops;
}
