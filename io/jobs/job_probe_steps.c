/* job_probe_steps: a job-list row's step p50 from smdebug's framework
 * events, else from the newest PyTorch profiler trace; see job_probe.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/keyname.h"
#include "io/decode/kineto_decode.h"
#include "io/decode/trace_decode.h"
#include "io/jobs/job_probe.h"
#include "io/jobs/job_probe_internal.h"

#define PO "profiler-output/"
#define PEV_FILES_MAX 256          /* the newest framework files read a call */
#define TRACE_CHUNK ((int64_t)8 << 20)

/* ---- smdebug: Step:ModeKeys.TRAIN in framework/pevents/ --------------- */

typedef struct pev_ctx {
    jobfig_steps *steps;
    const probe_key *cur;
    trace_dec *dec;
    size_t rel;           /* bytes before the key's framework/ */
    int oom;
} pev_ctx;

static void pev_sink(void *ud, const sm_event *ev)
{
    pev_ctx *c = ud;
    if (sm_str_eq(ev->phase, "Step:ModeKeys.TRAIN") &&
        jobfig_steps_add(c->steps, ev->step, ev->start_us, ev->dur_us) < 0)
        c->oom = 1;
}

static void pev_line(void *ud, const probe_key *k, const char *line, size_t len)
{
    pev_ctx *c = ud;
    if (k != c->cur) {   /* a new file: a decoder of its own, named by its node */
        key_info ki;
        keyname_parse(k->key + c->rel, &ki);
        trace_decode_free(c->dec);
        c->dec = trace_decode_new(ki.node);
        c->cur = k;
        if (!c->dec)
            c->oom = 1;
    }
    if (c->dec && len)
        trace_decode_line(c->dec, line, len, pev_sink, c);
}

/* Where a first listing starts: two windows before the newest system
 * sample, when there is one (a long job's older files are not listed). */
static void pev_after(const char *job, const probe_job *pj, int64_t anchor_us, char *out,
                      size_t cap)
{
    char rel[128];
    if (pj->pev_cursor[0])
        snprintf(out, cap, "%s", pj->pev_cursor);
    else if (anchor_us > 0)
        snprintf(out, cap, "%s" PO "%s", job,
                 keyname_trace_after(anchor_us - 2 * JOBFIG_WINDOW_US, rel, sizeof rel));
    else
        out[0] = '\0';
}

static int pev_update(source *src, const char *job, probe_job *pj, int64_t anchor_us,
                      sm_err *err)
{
    char prefix[PROBE_KEY_MAX], after[PROBE_KEY_MAX];
    snprintf(prefix, sizeof prefix, "%s" PO "framework/pevents/", job);
    pev_after(job, pj, anchor_us, after, sizeof after);
    probe_keys k = {.rel = strlen(job) + strlen(PO), .want = KEY_TRACE};
    if (job_probe_list(src, prefix, after, &k, err) < 0) {
        job_probe_keys_free(&k);
        return -1;
    }
    int64_t newest = 0;
    for (size_t i = 0; i < k.n; i++)
        newest = k.v[i].time_us > newest ? k.v[i].time_us : newest;
    size_t from = k.n > PEV_FILES_MAX ? k.n - PEV_FILES_MAX : 0;
    while (from < k.n && k.v[from].time_us <= newest - 2 * JOBFIG_WINDOW_US)
        from++;
    pev_ctx c = {.steps = pj->steps, .rel = k.rel};
    int rc = job_probe_read_lines(src, k.v + from, k.n - from, pev_line, &c, err);
    trace_decode_free(c.dec);
    if (rc == 0 && c.oom)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (rc == 0 && k.n)
        snprintf(pj->pev_cursor, sizeof pj->pev_cursor, "%s", k.v[k.n - 1].key);
    job_probe_keys_free(&k);
    return rc;
}

/* ---- Kineto: ProfilerStep#N of the newest trace ------------------------ */

/* The newest trace under the job folder by the time in its name (the
 * last listed on a tie): outside system metrics, smdebug's events and
 * Debugger's tensors. 1 with *out (caller frees out->key), 0 none. */
static int newest_trace(source *src, const char *job, probe_key *out, sm_err *err)
{
    char r[4][2][PROBE_KEY_MAX];
    snprintf(r[0][0], PROBE_KEY_MAX, "%s", "");
    snprintf(r[0][1], PROBE_KEY_MAX, "%sdebug-output/", job);
    snprintf(r[1][0], PROBE_KEY_MAX, "%sdebug-output0", job);
    snprintf(r[1][1], PROBE_KEY_MAX, "%s" PO "framework/pevents/", job);
    snprintf(r[2][0], PROBE_KEY_MAX, "%s" PO "framework/pevents0", job);
    snprintf(r[2][1], PROBE_KEY_MAX, "%s" PO "system/", job);
    snprintf(r[3][0], PROBE_KEY_MAX, "%s" PO "system0", job);
    r[3][1][0] = '\0';
    probe_keys k = {.rel = strlen(job), .want = KEY_KINETO};
    for (int i = 0; i < 4; i++) {
        k.stop = r[i][1][0] ? r[i][1] : NULL;
        if (job_probe_list(src, job, r[i][0], &k, err) < 0) {
            job_probe_keys_free(&k);
            return -1;
        }
    }
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < k.n; i++)
        if (best == SIZE_MAX || k.v[i].time_us >= k.v[best].time_us)
            best = i;
    if (best != SIZE_MAX) {
        *out = k.v[best];
        k.v[best].key = NULL;
    }
    job_probe_keys_free(&k);
    return best != SIZE_MAX;
}

typedef struct kin_ctx {
    kineto_dec *dec;
    jobfig_steps *steps;
    size_t got;
    int failed, oom;
    sm_err *err;
} kin_ctx;

static void kin_event(void *ud, const sm_kevent *ev)
{
    kin_ctx *c = ud;
    if (ev->ph == 'X' && ev->step >= 0 && ev->cat == KCAT_USER_ANNOTATION &&
        ev->ts_ns != SM_KEV_NONE && ev->dur_ns != SM_KEV_NONE &&
        jobfig_steps_add(c->steps, ev->step, ev->ts_ns / 1000, ev->dur_ns / 1000) < 0)
        c->oom = 1;
}

static void kin_chunk(void *ud, const source_req *req, const void *data, size_t len,
                      const char *etag, const sm_err *e)
{
    kin_ctx *c = ud;
    (void)req;
    (void)etag;
    if (!data) {
        if (e)
            *c->err = *e;
        c->failed = 1;
        return;
    }
    c->got = len;
    kineto_dec_feed(c->dec, data, len, kin_event, c);
}

/* Reads the trace at key in chunks into steps: 0 complete, 1 not (still
 * being written, or bad), -1 with err (a read failed). */
static int kin_read(source *src, const probe_key *key, jobfig_steps *steps, sm_err *err)
{
    kineto_dec_opts o = {.keep_python = 0};
    kin_ctx c = {.dec = kineto_dec_new(&o), .steps = steps, .err = err};
    if (!c.dec)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    /* up to the listed size: a range past the end is an error on S3 */
    for (int64_t off = 0; off < key->size && !c.failed && !c.oom; off += TRACE_CHUNK) {
        source_req q = {.key = key->key, .offset = off, .len = TRACE_CHUNK};
        c.got = 0;
        if (source_fetch(src, &q, 1, kin_chunk, &c, err) < 0)
            c.failed = 1;
        if ((int64_t)c.got < TRACE_CHUNK)
            break;
    }
    sm_kmeta meta;
    sm_err derr = {0};
    int rc = c.failed ? -1 : c.oom ? sm_err_set(err, SM_ERR_NOMEM, "out of memory")
                                   : (kineto_dec_finish(c.dec, &meta, &derr) == 0 ? 0 : 1);
    kineto_dec_free(c.dec);
    return rc;
}

static int kineto_update(source *src, const char *job, probe_job *pj, sm_err *err)
{
    probe_key t = {0};
    int found = newest_trace(src, job, &t, err);
    if (found <= 0)
        return found;
    int rc = 0;
    if (strcmp(t.key, pj->kineto_key) && t.size <= PROBE_TRACE_MAX) {
        jobfig_steps *st = jobfig_steps_new();
        rc = st ? kin_read(src, &t, st, err) : sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        if (rc == 0) {   /* the whole trace is the newest window */
            pj->kineto_p50_ms = jobfig_steps_p50_ms(st, INT64_MAX / 4, 1);
            snprintf(pj->kineto_key, sizeof pj->kineto_key, "%s", t.key);
        }
        jobfig_steps_free(st);
    }
    free(t.key);
    return rc < 0 ? -1 : 0;
}

int job_probe_steps_update(source *src, const char *job, probe_job *pj, int64_t anchor_us,
                       sm_err *err)
{
    if (pev_update(src, job, pj, anchor_us, err) < 0)
        return -1;
    if (jobfig_steps_newest_us(pj->steps) > 0)
        return 0;   /* smdebug's steps: no trace needed */
    return kineto_update(src, job, pj, err);
}
