/* synth_trace: one node's step schedule and its pythontimeline writer.
 *
 * The writer imitates smdebug's TimelineFileWriter: the open file is
 * framework/<pid>-<host>_pythontimeline.json.tmp, "[" then one event per
 * line ending in ",". A pid's process_name/process_sort_index lines are
 * written when its phase first appears in the file. An event arriving more
 * than 60 s after the previous rotation, in another UTC hour, or past 10 MB
 * closes the file (last ",\n" replaced by "\n]\n") and renames it to
 * framework/pevents/<hour of end>/<end_us>_<pid>-<host>_pythontimeline.json,
 * end_us being the end of its last event. Events are written when they end,
 * as the hooks record them: a step's DataIterator, Forward and Backward
 * events precede its Step event. With several ranks per node each rank is
 * a writer of its own, <rank>-algo-<n>, with its own schedule; rank 0
 * alone writes Python stats. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "io/synth/synth_internal.h"

enum { PH_TRAIN, PH_EVAL, PH_FORWARD, PH_BACKWARD, PH_DATA };

static const char *const phase_names[] = {
    "Step:ModeKeys.TRAIN", "Step:ModeKeys.EVAL", "Forward",
    "Backward(post-forward)", "DataIterator",
};

#define EVAL_EVERY 500            /* TRAIN steps between EVAL phases */
#define EVAL_STEPS 50
#define ROTATE_US (60 * 1000000LL)
#define ROTATE_BYTES (10LL << 20)
#define HOUR_US (3600 * 1000000LL)

void synth_trace_init(synth_trace *t, const synth_job *job, int node, int rank)
{
    const synth_opts *o = job->o;
    memset(t, 0, sizeof *t);
    t->job = job;
    t->node = node;
    t->rank = rank;
    /* rank 0 keeps the one-writer stream: default output is unchanged */
    synth_rng_seed(&t->rng, o->seed, 0x7100 + (uint64_t)node + 0x10000 * (uint64_t)rank);
    t->ospid = 100 + (int)(synth_rng_next(&t->rng) % 30000);
    t->scale = node == o->slow_node ? 1.3 : 1.0 + 0.02 * synth_rng_unit(&t->rng);
    if (node == 0 && rank == o->slow_rank)
        t->scale = 1.3;
    snprintf(t->node_part, sizeof t->node_part, "%d-algo-%d",
             o->ranks > 1 ? rank : t->ospid, node + 1);
    snprintf(t->tmp_path, sizeof t->tmp_path, "%s/framework/%s_pythontimeline.json.tmp",
             o->out, t->node_part);
    /* the hook is created a little after the container starts */
    t->base_us = job->start_us + 1000 * (int64_t)(synth_rng_next(&t->rng) % 3000);
    t->close_us = t->base_us;
    t->last_step_end_us = job->train_start_us +
                          (int64_t)(synth_rng_next(&t->rng) % 200000);
}

/* A TRAIN step's data / forward / backward shares by the Kineto job
 * shape; the rest is the optimizer (or, over gloo, the wait for the
 * all-reduce). */
static void step_split(const synth_opts *o, double *data, double *fwd, double *bwd)
{
    static const double split[SYNTH_SHAPE_COUNT][3] = {
        [SYNTH_SHAPE_GPU_BOUND] = {0.05, 0.32, 0.55},
        [SYNTH_SHAPE_HOST_BOUND] = {0.05, 0.32, 0.55},
        [SYNTH_SHAPE_GLOO] = {0.0004, 0.04, 0.05},
        [SYNTH_SHAPE_MAIN_LOADER] = {0.51, 0.15, 0.25},
        [SYNTH_SHAPE_LAUNCH_BOUND] = {0.02, 0.38, 0.45},
        [SYNTH_SHAPE_NCCL_EXPOSED] = {0.04, 0.20, 0.34},
        [SYNTH_SHAPE_MEMORY_FULL] = {0.05, 0.32, 0.55},
    };
    int s = o->kineto && o->kineto_shape > 0 && o->kineto_shape < SYNTH_SHAPE_COUNT
                ? o->kineto_shape : 0;
    *data = split[s][0];
    *fwd = split[s][1];
    *bwd = split[s][2];
}

/* Draws the next step after the last one, or marks the schedule done. */
static void trace_next_step(synth_trace *t)
{
    const synth_opts *o = t->job->o;
    int64_t start = t->last_step_end_us + 200 + (int64_t)(synth_rng_next(&t->rng) % 1300);
    if (start >= t->job->train_end_us) {
        t->done = 1;
        return;
    }
    synth_step *s = &t->pending;
    s->eval = 0;
    if (t->eval_left > 0) {
        s->eval = 1;
        t->eval_left--;
    } else if (t->since_eval >= EVAL_EVERY) {
        s->eval = 1;
        t->eval_left = EVAL_STEPS - 1;
        t->since_eval = 0;
    } else {
        t->since_eval++;
    }
    double d = o->step_ms * 1000.0 * t->scale * (1.0 + 0.04 * synth_rng_normal(&t->rng));
    if (d < o->step_ms * 500.0)
        d = o->step_ms * 500.0;
    if (s->eval) {
        d *= 0.5; /* no backward pass */
        s->data_us = (int64_t)(d * 0.06);
        s->fwd_us = (int64_t)(d * 0.85);
        s->bwd_us = 0;
        s->num = t->eval_num++;
    } else {
        double fd, ff, fb;
        step_split(o, &fd, &ff, &fb);
        s->data_us = (int64_t)(d * fd);
        s->fwd_us = (int64_t)(d * ff);
        s->bwd_us = (int64_t)(d * fb);
        if (synth_rng_unit(&t->rng) < o->outlier_rate) {
            /* an outlier is a data stall: 3-6x the whole step */
            double extra = d * (2.0 + 3.0 * synth_rng_unit(&t->rng));
            s->data_us += (int64_t)extra;
            d += extra;
        }
        s->num = t->train_num++;
    }
    s->start_us = start;
    s->dur_us = (int64_t)d;
    if (s->dur_us < s->data_us + s->fwd_us + s->bwd_us + 40)
        s->dur_us = s->data_us + s->fwd_us + s->bwd_us + 40;
    t->have_pending = 1;
}

static int trace_put(synth_trace *t, const char *line, int n, sm_err *err)
{
    if (synth_write(t->f, line, (size_t)n, t->tmp_path, err))
        return -1;
    t->bytes += n;
    return 0;
}

static int trace_open(synth_trace *t, sm_err *err)
{
    t->f = fopen(t->tmp_path, "w");
    if (!t->f)
        return sm_err_set(err, SM_ERR_IO, "cannot create %s: %s", t->tmp_path,
                          strerror(errno));
    setvbuf(t->f, NULL, _IOFBF, 1 << 16);
    t->bytes = 0;
    t->next_pid = 1;
    t->last_end_us = 0;
    memset(t->phase_pid, 0, sizeof t->phase_pid);
    char line[256];
    int n = snprintf(line, sizeof line,
                     "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, "
                     "\"args\": {\"start_time_since_epoch_in_micros\": %lld}},\n"
                     "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": 0, "
                     "\"args\": {\"sort_index\": 0}},\n",
                     (long long)t->base_us);
    return trace_put(t, line, n, err);
}

/* Closes the open file properly and moves it into pevents/. */
static int trace_rotate(synth_trace *t, sm_err *err)
{
    FILE *f = t->f;
    t->f = NULL;
    /* the last event's ",\n" becomes "\n]\n", as smdebug's close() does */
    int bad = fflush(f) != 0 || ftruncate(fileno(f), (off_t)(t->bytes - 2)) != 0 ||
              fseek(f, (long)(t->bytes - 2), SEEK_SET) != 0 ||
              fputs("\n]\n", f) == EOF;
    bad |= fclose(f) != 0;
    if (bad)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", t->tmp_path,
                          strerror(errno));
    char hour[11], dir[4096], path[4200];
    synth_fmt_hour(hour, t->last_end_us);
    snprintf(dir, sizeof dir, "%s/framework/pevents/%s", t->job->o->out, hour);
    if (synth_mkdirs(dir, err))
        return -1;
    snprintf(path, sizeof path, "%s/%lld_%s_pythontimeline.json", dir,
             (long long)t->last_end_us, t->node_part);
    if (rename(t->tmp_path, path) != 0)
        return sm_err_set(err, SM_ERR_IO, "cannot rename %s to %s: %s",
                          t->tmp_path, path, strerror(errno));
    return 0;
}

/* Rotates if due, opens a file if none, and names the phase's pid. */
static int trace_prepare(synth_trace *t, int ph, int64_t end_us, sm_err *err)
{
    if (t->f && (end_us - t->close_us > ROTATE_US || t->bytes > ROTATE_BYTES ||
                 end_us / HOUR_US != t->last_end_us / HOUR_US)) {
        t->close_us = end_us;
        if (trace_rotate(t, err))
            return -1;
    }
    if (!t->f && trace_open(t, err))
        return -1;
    if (t->phase_pid[ph])
        return 0;
    int pid = t->phase_pid[ph] = t->next_pid++;
    char line[256];
    int n = snprintf(line, sizeof line,
                     "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, "
                     "\"args\": {\"name\": \"%s\"}},\n"
                     "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, "
                     "\"args\": {\"sort_index\": %d}},\n",
                     pid, phase_names[ph], pid, pid);
    return trace_put(t, line, n, err);
}

/* One X event; step_num < 0 means no args (as dataset::GetNext has none). */
static int trace_event(synth_trace *t, int ph, const char *name, int64_t ts_us,
                       int64_t dur_us, int64_t step_num, sm_err *err)
{
    if (trace_prepare(t, ph, ts_us + dur_us, err))
        return -1;
    char line[320];
    int n = snprintf(line, sizeof line,
                     "{\"name\": \"%s\", \"pid\": %d, \"ph\": \"X\", \"ts\": %lld, "
                     "\"dur\": %lld",
                     name, t->phase_pid[ph], (long long)(ts_us - t->base_us),
                     (long long)dur_us);
    if (step_num >= 0)
        n += snprintf(line + n, sizeof line - (size_t)n,
                      ", \"args\": {\"pid\": %d, \"step_num\": \"%lld\"}},\n",
                      t->ospid, (long long)step_num);
    else
        n += snprintf(line + n, sizeof line - (size_t)n, "},\n");
    if (ts_us + dur_us > t->last_end_us)
        t->last_end_us = ts_us + dur_us;
    return trace_put(t, line, n, err);
}

static int trace_write_step(synth_trace *t, const synth_step *s, sm_err *err)
{
    int64_t at = s->start_us + 5;
    if (trace_event(t, PH_DATA, "dataset::GetNext", at, s->data_us, -1, err))
        return -1;
    at += s->data_us + 10;
    if (trace_event(t, PH_FORWARD, "ResNet50", at, s->fwd_us, s->num, err))
        return -1;
    at += s->fwd_us + 10;
    if (s->bwd_us &&
        trace_event(t, PH_BACKWARD, "ResNet50", at, s->bwd_us, s->num, err))
        return -1;
    int ph = s->eval ? PH_EVAL : PH_TRAIN;
    return trace_event(t, ph, phase_names[ph], s->start_us, s->dur_us, s->num, err);
}

/* Sums TRAIN steps into the profiled window they fall in and writes the
 * window's stats when its last step ends. */
static int trace_profile_step(synth_trace *t, const synth_step *s, sm_err *err)
{
    int every = t->job->o->python_every;
    if (every <= 0 || s->eval || s->num < SYNTH_PY_FIRST_STEP || t->rank != 0)
        return 0;
    int64_t k = (s->num - SYNTH_PY_FIRST_STEP) % every;
    if (k >= SYNTH_PY_WINDOW_STEPS)
        return 0;
    synth_pywin *w = &t->py;
    if (k == 0) {
        memset(w, 0, sizeof *w);
        w->first_step = s->num;
        w->start_us = s->start_us;
        t->py_on = 1;
    }
    if (!t->py_on)
        return 0;   /* joined mid-window */
    w->data_us += s->data_us;
    w->fwd_us += s->fwd_us;
    w->bwd_us += s->bwd_us;
    int64_t rest = s->dur_us - s->data_us - s->fwd_us - s->bwd_us;
    w->opt_us += rest > 0 ? rest * 7 / 10 : 0;
    w->last_step = s->num;
    w->end_us = s->start_us + s->dur_us;
    if (k + 1 < SYNTH_PY_WINDOW_STEPS)
        return 0;
    t->py_on = 0;
    return synth_pystats_write(t->job, t->node, w, err);
}

int synth_trace_advance(synth_trace *t, int64_t now_us, sm_err *err)
{
    for (;;) {
        if (!t->have_pending && !t->done)
            trace_next_step(t);
        if (t->done)
            return 0;
        const synth_step *s = &t->pending;
        if (s->start_us + s->dur_us > now_us)
            return 0;
        if (t->job->o->traces && trace_write_step(t, s, err))
            return -1;
        if (t->job->o->kineto && !t->kin && synth_kin_new(&t->kin, t, err))
            return -1;
        if (t->kin && synth_kin_step(t->kin, s, err))
            return -1;
        if (trace_profile_step(t, s, err))
            return -1;
        t->last_step_end_us = s->start_us + s->dur_us;
        t->last_eval = s->eval;
        t->have_pending = 0;
    }
}

enum synth_mode synth_trace_mode(const synth_trace *t, int64_t t_us)
{
    if (t_us < t->job->train_start_us)
        return SYNTH_INIT;
    if (t->done)
        return SYNTH_FINAL;
    if (t->have_pending && t->pending.eval &&
        (t->pending.start_us <= t_us || t->last_eval))
        return SYNTH_EVAL;
    return SYNTH_TRAIN;
}

int synth_trace_flush(synth_trace *t, sm_err *err)
{
    if (t->kin && synth_kin_flush(t->kin, err))
        return -1;
    if (t->f && fflush(t->f) != 0)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", t->tmp_path,
                          strerror(errno));
    return 0;
}

int synth_trace_close(synth_trace *t, int finish, sm_err *err)
{
    int krc = synth_kin_free(t->kin, err);
    t->kin = NULL;
    if (krc)
        err = NULL;   /* the first failure is the one reported */
    if (!t->f)
        return krc;
    if (finish)
        return trace_rotate(t, err) || krc ? -1 : 0;
    FILE *f = t->f;
    t->f = NULL;
    if (fclose(f) != 0)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", t->tmp_path,
                          strerror(errno));
    return krc;
}
