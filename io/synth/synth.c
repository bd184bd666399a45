/* synth: options and the two drivers of the synthetic generator.
 *
 * Batch mode writes node after node, each from the job's start to its end
 * (system samples and trace events of a node advance together so EVAL dips
 * line up). Live mode writes the history up to now for every node, then
 * wakes every 100 ms and writes what became due, flushing as it goes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/synth/synth_internal.h"

#define SEC_US 1000000LL

static int synth_kineto_check(const synth_opts *o, sm_err *err);

void synth_opts_init(synth_opts *o)
{
    memset(o, 0, sizeof *o);
    o->nodes = 2;
    o->gpus = 1;
    o->cpus = 4;
    o->minutes = 5;
    o->interval_ms = 500;
    o->seed = 1;
    o->slow_node = -1;
    o->ranks = 1;
    o->slow_rank = -1;
    o->outlier_rate = 0.01;
    o->step_ms = 120;
    o->hour_dirs = 1;
    o->traces = 1;
    o->kineto_gzip = 1;
    o->kineto_every = 100;
    o->kineto_active = 3;
}

int synth_opts_check(const synth_opts *o, sm_err *err)
{
    if (!o->out || !*o->out)
        return sm_err_set(err, SM_ERR_USAGE, "no output directory given (--out DIR)");
    if (strlen(o->out) > 3800) /* leaves room for the file names below it */
        return sm_err_set(err, SM_ERR_USAGE, "output directory path is too long");
    if (o->nodes < 1 || o->nodes > 256)
        return sm_err_set(err, SM_ERR_USAGE, "--nodes must be 1..256, not %d", o->nodes);
    if (o->gpus < 0 || o->gpus > 64)
        return sm_err_set(err, SM_ERR_USAGE, "--gpus must be 0..64, not %d", o->gpus);
    if (o->cpus < 1 || o->cpus > 1024)
        return sm_err_set(err, SM_ERR_USAGE, "--cpus must be 1..1024, not %d", o->cpus);
    if (o->minutes < (o->live ? 0 : 1) || o->minutes > 10080)
        return sm_err_set(err, SM_ERR_USAGE, "--minutes must be %d..10080, not %d",
                          o->live ? 0 : 1, o->minutes);
    if (o->interval_ms < 10 || o->interval_ms > 60000 || 60000 % o->interval_ms)
        return sm_err_set(err, SM_ERR_USAGE, "--interval-ms must divide 60000 "
                          "(e.g. 100, 200, 500, 1000, 5000, 60000), not %d",
                          o->interval_ms);
    if (o->slow_node < -1 || o->slow_node >= o->nodes)
        return sm_err_set(err, SM_ERR_USAGE, "--slow-node must be -1..%d, not %d",
                          o->nodes - 1, o->slow_node);
    if (o->ranks < 1 || o->ranks > 64)
        return sm_err_set(err, SM_ERR_USAGE, "--ranks must be 1..64, not %d", o->ranks);
    if (o->slow_rank < -1 || o->slow_rank >= o->ranks)
        return sm_err_set(err, SM_ERR_USAGE, "--slow-rank must be -1..%d, not %d",
                          o->ranks - 1, o->slow_rank);
    if (!(o->outlier_rate >= 0 && o->outlier_rate <= 1))
        return sm_err_set(err, SM_ERR_USAGE, "--outlier-rate must be 0..1");
    if (!(o->step_ms >= 1 && o->step_ms <= 600000))
        return sm_err_set(err, SM_ERR_USAGE, "--step-ms must be 1..600000");
    if (o->start_us < 0)
        return sm_err_set(err, SM_ERR_USAGE, "--start must not be negative");
    if (o->python_every != 0 &&
        (o->python_every < SYNTH_PY_WINDOW_STEPS || o->python_every > 1000000))
        return sm_err_set(err, SM_ERR_USAGE, "--python-stats must be %d..1000000 steps, not %d",
                          SYNTH_PY_WINDOW_STEPS, o->python_every);
    return synth_kineto_check(o, err);
}

/* The Kineto options, when --kineto is on. */
static int synth_kineto_check(const synth_opts *o, sm_err *err)
{
    if (!o->kineto) {
        if (o->kineto_only || o->kineto_python || o->kineto_dir || o->host_bound ||
            o->kineto_shape || o->kineto_worker)
            return sm_err_set(err, SM_ERR_USAGE, "the Kineto options need --kineto");
        return 0;
    }
    if (o->kineto_shape < 0 || o->kineto_shape >= SYNTH_SHAPE_COUNT)
        return sm_err_set(err, SM_ERR_USAGE, "unknown --shape");
    if ((o->kineto_shape == SYNTH_SHAPE_GLOO || o->kineto_shape == SYNTH_SHAPE_NCCL_EXPOSED) &&
        o->nodes * o->ranks < 2)
        return sm_err_set(err, SM_ERR_USAGE, "--shape %s needs two ranks or more (--ranks 2)",
                          synth_shape_name(o->kineto_shape));
    if (o->kineto_shape == SYNTH_SHAPE_GLOO && o->gpus < 1)
        return sm_err_set(err, SM_ERR_USAGE, "--shape gloo is DDP over gloo with CUDA tensors: "
                          "it needs --gpus 1 or more");
    const char *w = o->kineto_worker;
    if (w && (!*w || strlen(w) > 40 || strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789-") != strlen(w)))
        return sm_err_set(err, SM_ERR_USAGE, "--kineto-worker must be 1-40 letters, digits or '-'");
    if (w && o->ranks > 1)
        return sm_err_set(err, SM_ERR_USAGE, "--kineto-worker names one process a node: "
                          "it needs --ranks 1");
    if (o->kineto_form < SYNTH_KINETO_MODERN || o->kineto_form > SYNTH_KINETO_LEGACY)
        return sm_err_set(err, SM_ERR_USAGE, "--kineto-form must be modern, 2024 or legacy");
    /* A long active window is how a real job writes a trace of GBs
     * (schedule(active=N)); the writer holds one cycle in memory. */
    if (o->kineto_active < 1 || o->kineto_active > 100000)
        return sm_err_set(err, SM_ERR_USAGE, "--kineto-active must be 1..100000, not %d",
                          o->kineto_active);
    if (o->kineto_every < o->kineto_active + 1 || o->kineto_every > 1000000)
        return sm_err_set(err, SM_ERR_USAGE, "--kineto-every must be %d..1000000 steps, not %d",
                          o->kineto_active + 1, o->kineto_every);
    const char *d = o->kineto_dir;
    if (d && (!*d || *d == '/' || strstr(d, "..") || strlen(d) > 200))
        return sm_err_set(err, SM_ERR_USAGE, "--kineto-dir must be a relative path inside "
                          "the job directory, e.g. tensorboard-output or profiler-output/kineto");
    return 0;
}

static int64_t clock_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * SEC_US + ts.tv_nsec / 1000;
}

static int64_t clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Lays out the job's phases: ~1/5 initialization (5-60 s), and in batch
 * mode ~1/30 finalization (2-30 s). */
static void synth_job_plan(synth_job *j, const synth_opts *o, int64_t now_us)
{
    int64_t total = (int64_t)o->minutes * 60 * SEC_US;
    j->o = o;
    j->kin_dir = NULL;
    j->start_us = o->start_us ? o->start_us : now_us - total;
    j->train_start_us = j->start_us + clamp_i64(total / 5, 5 * SEC_US, 60 * SEC_US);
    if (o->live) {
        j->end_us = j->train_end_us = INT64_MAX;
    } else {
        j->end_us = j->start_us + total;
        j->train_end_us = j->end_us - clamp_i64(total / 30, 2 * SEC_US, 30 * SEC_US);
    }
}

static int synth_make_dirs(const synth_opts *o, const synth_job *j, sm_err *err)
{
    char dir[4096];
    if (j->kin_dir && synth_mkdirs(j->kin_dir, err))
        return -1;
    snprintf(dir, sizeof dir, "%s/system/incremental", o->out);
    if (!o->kineto_only && synth_mkdirs(dir, err))
        return -1;
    snprintf(dir, sizeof dir, "%s/framework", o->out);
    return o->traces ? synth_mkdirs(dir, err) : 0;
}

/* Ranks 1.. of a node, written after rank 0 (which the system sampler
 * follows): each from the start to the end of the job. */
static int synth_batch_ranks(const synth_job *j, int n, sm_err *err)
{
    for (int r = 1; r < j->o->ranks; r++) {
        synth_trace tr;
        synth_trace_init(&tr, j, n, r);
        int rc = synth_trace_advance(&tr, INT64_MAX, err);
        rc = rc ? rc : synth_trace_close(&tr, 1, err);
        if (rc) {
            synth_trace_close(&tr, 0, NULL);
            return -1;
        }
    }
    return 0;
}

static int synth_batch(const synth_job *j, sm_err *err)
{
    for (int n = 0; n < j->o->nodes; n++) {
        synth_sys sys;
        synth_trace tr;
        if (synth_sys_init(&sys, j, n, err))
            return -1;
        synth_trace_init(&tr, j, n, 0);
        int rc = j->o->kineto_only ? 0 : synth_sys_advance(&sys, &tr, j->end_us, 0, err);
        /* a last long step may end after the last sample */
        rc = rc ? rc : synth_trace_advance(&tr, INT64_MAX, err);
        rc = rc ? rc : synth_trace_close(&tr, 1, err);
        if (rc)
            synth_trace_close(&tr, 0, NULL);
        if (synth_sys_close(&sys, rc ? NULL : err))
            rc = -1;
        if (rc || synth_batch_ranks(j, n, err))
            return -1;
    }
    return 0;
}

/* Node n's writers are tr[n * ranks .. (n + 1) * ranks); the system
 * sampler follows rank 0. */
static int synth_live_step(synth_sys *sys, synth_trace *tr, int nodes, int ranks, int flush,
                           sm_err *err)
{
    int64_t now = clock_now_us();
    for (int n = 0; n < nodes; n++) {
        if (!sys[n].job->o->kineto_only &&
            synth_sys_advance(&sys[n], &tr[n * ranks], now, flush, err))
            return -1;
        for (int r = 0; r < ranks; r++)
            if (synth_trace_advance(&tr[n * ranks + r], now, err) ||
                synth_trace_flush(&tr[n * ranks + r], err))
                return -1;
    }
    return 0;
}

static int synth_live(const synth_job *j, const atomic_int *stop, sm_err *err)
{
    int nodes = j->o->nodes, ranks = j->o->ranks, rc = 0, ready = 0;
    synth_sys *sys = calloc((size_t)nodes, sizeof *sys);
    synth_trace *tr = calloc((size_t)nodes * (size_t)ranks, sizeof *tr);
    if (!sys || !tr)
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    for (; !rc && ready < nodes; ready++) {
        rc = synth_sys_init(&sys[ready], j, ready, err);
        for (int r = 0; !rc && r < ranks; r++)
            synth_trace_init(&tr[ready * ranks + r], j, ready, r);
    }
    /* history without per-group flushes, then real time */
    rc = rc ? rc : synth_live_step(sys, tr, nodes, ranks, 0, err);
    while (!rc && !(stop && atomic_load(stop))) {
        struct timespec d = {0, 100 * 1000 * 1000};
        nanosleep(&d, NULL);
        rc = synth_live_step(sys, tr, nodes, ranks, 1, err);
    }
    for (int n = 0; n < ready; n++) {
        for (int r = 0; r < ranks; r++)
            if (synth_trace_close(&tr[n * ranks + r], 0, rc ? NULL : err))
                rc = -1;
        if (synth_sys_close(&sys[n], rc ? NULL : err))
            rc = -1;
    }
    free(sys);
    free(tr);
    return rc;
}

int synth_run(const synth_opts *o, const atomic_int *stop, sm_err *err)
{
    if (synth_opts_check(o, err))
        return -1;
    /* With Kineto traces `out` is the job directory: the system metrics
     * go to its profiler-output/, smdebug's traces are off. */
    synth_opts ko = *o;
    char po[4096], kd[4096];
    if (o->kineto) {
        snprintf(po, sizeof po, "%s/profiler-output", o->out);
        snprintf(kd, sizeof kd, "%s/%s", o->out, o->kineto_dir ? o->kineto_dir : "tensorboard-output");
        ko.out = po;
        ko.traces = 0;
    }
    synth_job j;
    synth_job_plan(&j, &ko, clock_now_us());
    j.kin_dir = o->kineto ? kd : NULL;
    if (synth_make_dirs(&ko, &j, err))
        return -1;
    return o->live ? synth_live(&j, stop, err) : synth_batch(&j, err);
}
