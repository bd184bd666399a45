/* live_writer: a training job's profiler writer, imitating smdebug's, one
 * small action at a time, for the live-vs-final differential harness
 * (test_live_vs_final, fuzz_live_schedule, tests/stress/live_vs_final.sh).
 *
 * Per node, system metrics go to one file per minute
 * (system/incremental/<YYYYMMDDHH>/<minute>.algo-N.json), written in
 * pieces cut at arbitrary byte offsets, the previous minute completed
 * before the next begins. Per writer process (1 or 2 per node), trace
 * events go to framework/<pid>-algo-N_pythontimeline.json.tmp: "[" and the
 * metadata line, process_name lines as phases first appear in the file,
 * one event per line ending in ",", flushed in arbitrary pieces. Events
 * are written when they end; a step's DataIterator sometimes comes after
 * its Step (hooks on other threads finish out of order). A file rotates
 * after a random number of events in four actions — flush, truncate the
 * last ",\n", append "\n]\n", rename into pevents/<hour>/<end_us>_... —
 * and its successor is created at once or at the next event. At the end
 * of the job every file is completed and closed the same way.
 *
 * Every choice comes from a lw_pick: a seeded generator, or the bytes of
 * a fuzz input. Files are written through a lw_fs, a real directory or
 * an in-memory tree (memfs.h). Header-only, test code. */
#ifndef SMTOP_TEST_LIVE_WRITER_H
#define SMTOP_TEST_LIVE_WRITER_H

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- choices ------------------------------------------------------------ */

typedef struct lw_pick {
    uint64_t rng;            /* used when in == NULL */
    const uint8_t *in;       /* fuzz input, or NULL */
    size_t len, at;
} lw_pick;

/* 1 while choices remain (a fuzz input ends; a generator does not). */
static inline int lw_pick_more(const lw_pick *p)
{
    return !p->in || p->at < p->len;
}

/* A choice in [0, n). A finished fuzz input answers 0. */
static inline unsigned lw_pick_n(lw_pick *p, unsigned n)
{
    if (n <= 1)
        return 0;
    if (p->in)
        return p->at < p->len ? p->in[p->at++] % n : 0;
    p->rng ^= p->rng << 13;
    p->rng ^= p->rng >> 7;
    p->rng ^= p->rng << 17;
    return (unsigned)((p->rng >> 11) % n);
}

/* ---- where the files go ---------------------------------------------- */

typedef struct lw_fs {
    int (*append)(void *ud, const char *rel, const char *data, size_t n);
    int (*truncate_to)(void *ud, const char *rel, int64_t size);
    int (*rename_to)(void *ud, const char *from, const char *to);
    void *ud;
} lw_fs;

/* A real directory: ud is its path (char *). */
static inline int lw_posix_path(void *ud, const char *rel, char *out, size_t cap)
{
    if ((size_t)snprintf(out, cap, "%s/%s", (const char *)ud, rel) >= cap)
        return -1;
    for (char *p = out + strlen(ud) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(out, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return 0;
}

static inline int lw_posix_append(void *ud, const char *rel, const char *data, size_t n)
{
    char path[1024];
    if (lw_posix_path(ud, rel, path, sizeof path) != 0)
        return -1;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    ssize_t w = n ? write(fd, data, n) : 0;
    close(fd);
    return w == (ssize_t)n ? 0 : -1;
}

static inline int lw_posix_truncate(void *ud, const char *rel, int64_t size)
{
    char path[1024];
    if (lw_posix_path(ud, rel, path, sizeof path) != 0)
        return -1;
    return truncate(path, size);
}

static inline int lw_posix_rename(void *ud, const char *from, const char *to)
{
    char a[1024], b[1024];
    if (lw_posix_path(ud, from, a, sizeof a) != 0 || lw_posix_path(ud, to, b, sizeof b) != 0)
        return -1;
    return rename(a, b);
}

static inline lw_fs lw_posix_fs(const char *dir)
{
    return (lw_fs){lw_posix_append, lw_posix_truncate, lw_posix_rename, (void *)dir};
}

/* ---- the writer ---------------------------------------------------------- */

#define LW_MAX_NODES 3
#define LW_MAX_WRITERS 6
#define LW_MAX_CORES 4
#define LW_T0_US 1594681080000000LL   /* 2020-07-13T22:58:00Z: an hour turns soon */
#define LW_INTERVAL_US 500000LL

enum { LW_STEP, LW_EVAL, LW_FORWARD, LW_BACKWARD, LW_DATA, LW_PHASES };

static const char *const lw_phase_names[LW_PHASES] = {
    "Step:ModeKeys.TRAIN", "Step:ModeKeys.EVAL", "Forward", "Backward(post-forward)",
    "DataIterator",
};

typedef struct lw_buf {
    char *p;
    size_t len, cap;
} lw_buf;

static inline void lw_buf_add(lw_buf *b, const char *s, size_t n)
{
    if (n == 0)
        return;   /* b->p may still be NULL: memcpy must not see it */
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np)
            abort();   /* test code: out of memory is fatal */
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static inline void lw_buf_drop(lw_buf *b, size_t n)
{
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
}

typedef struct lw_ev {
    int phase;
    int64_t start_us, dur_us, step;
} lw_ev;

typedef struct lw_sys {
    int node;                /* 1-based */
    int64_t next_us;         /* time of the next sample */
    int64_t minute_s;        /* minute of the open file, 0 before the first */
    char path[160];
    lw_buf pend;             /* generated, not yet on disk */
} lw_sys;

typedef struct lw_trace {
    int node, pid;
    char part[32];           /* "<pid>-algo-<node>" */
    char tmp[160];
    int64_t base_us;         /* start_time_since_epoch_in_micros */
    int64_t next_start_us, step;
    lw_ev *queue;            /* ended, not yet in a file (the writer never
                                lags: a file's name is about now, as smdebug's) */
    size_t nqueue, capqueue;
    int has_file;            /* the .tmp exists */
    int rotating;            /* rotation actions done so far, 0 = none */
    int64_t file_events, rotate_at, file_end_us;
    int phase_pid[LW_PHASES];
    int next_pid;
    int64_t written;         /* bytes of the .tmp on disk */
    lw_buf pend;
} lw_trace;

typedef struct live_writer {
    lw_fs fs;
    lw_pick *pick;
    int64_t now_us;
    int nnodes, ncores, ntr;
    lw_sys sys[LW_MAX_NODES];
    lw_trace tr[LW_MAX_WRITERS];
    int finishing;
    int64_t actions, samples, events, rotations, failures;
} live_writer;

static inline void lw_fail(live_writer *w, int rc)
{
    if (rc != 0)
        w->failures++;
}

static inline void lw_init(live_writer *w, lw_fs fs, lw_pick *pick)
{
    memset(w, 0, sizeof *w);
    w->fs = fs;
    w->pick = pick;
    w->now_us = LW_T0_US;
    w->nnodes = 1 + (int)lw_pick_n(pick, LW_MAX_NODES);
    w->ncores = 2 + (int)lw_pick_n(pick, LW_MAX_CORES - 1);
    for (int n = 0; n < w->nnodes; n++) {
        w->sys[n].node = n + 1;
        w->sys[n].next_us = LW_T0_US + 1000 * (int64_t)(n * 37 + 11);
        int writers = 1 + (int)lw_pick_n(pick, 2);
        for (int k = 0; k < writers; k++) {
            lw_trace *t = &w->tr[w->ntr++];
            t->node = n + 1;
            t->pid = 100 + 10 * n + k;
            snprintf(t->part, sizeof t->part, "%d-algo-%d", t->pid, t->node);
            snprintf(t->tmp, sizeof t->tmp, "framework/%d-algo-%d_pythontimeline.json.tmp",
                     t->pid, t->node);
            t->base_us = LW_T0_US - 2000000 + 1000 * t->pid;
            t->next_start_us = LW_T0_US + 5000 * t->pid;
            t->rotate_at = 1 + lw_pick_n(pick, 24);
        }
    }
}

static inline void lw_free(live_writer *w)
{
    for (int n = 0; n < w->nnodes; n++)
        free(w->sys[n].pend.p);
    for (int k = 0; k < w->ntr; k++) {
        free(w->tr[k].pend.p);
        free(w->tr[k].queue);
    }
}

/* ---- system metrics ---- */

static inline void lw_hour(int64_t t_us, char out[11])
{
    time_t s = (time_t)(t_us / 1000000);
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(out, 11, "%Y%m%d%H", &tm);
}

/* Writes the rest of the open minute file (its writer moved on). */
static inline void lw_sys_complete(live_writer *w, lw_sys *s)
{
    if (s->pend.len)
        lw_fail(w, w->fs.append(w->fs.ud, s->path, s->pend.p, s->pend.len));
    s->pend.len = 0;
}

static inline void lw_sys_line(live_writer *w, lw_sys *s, const char *type, const char *name,
                               const char *dim, int64_t ts)
{
    char line[320];
    unsigned v = lw_pick_n(w->pick, 10000);
    int n = snprintf(line, sizeof line,
                     "{\"Type\": \"%s\", \"Name\": \"%s\", \"Dimension\": \"%s\", "
                     "\"Value\": %u.%02u, \"NodeId\": \"algo-%d\", \"Timestamp\": "
                     "%" PRId64 ".%06" PRId64 "}\n",
                     type, name, dim, v / 100, v % 100, s->node, ts / 1000000, ts % 1000000);
    lw_buf_add(&s->pend, line, (size_t)n);
    w->samples++;
}

/* One timestamp's lines: every core, a GPU and memory. */
static inline void lw_sys_sample(live_writer *w, lw_sys *s, int64_t ts)
{
    int64_t minute = ts / 60000000 * 60;
    if (minute != s->minute_s) {
        lw_sys_complete(w, s);
        char hour[11];
        lw_hour(ts, hour);
        snprintf(s->path, sizeof s->path, "system/incremental/%s/%" PRId64 ".algo-%d.json",
                 hour, minute, s->node);
        s->minute_s = minute;
    }
    char name[16];
    for (int c = 0; c < w->ncores; c++) {
        snprintf(name, sizeof name, "cpu%d", c);
        lw_sys_line(w, s, "cpu", name, "CPUUtilization", ts);
    }
    lw_sys_line(w, s, "gpu", "gpu0", "GPUUtilization", ts);
    lw_sys_line(w, s, "gpu", "gpu0", "GPUMemoryUtilization", ts);
    lw_sys_line(w, s, "memory", "MemoryUsedPercent", "MemoryUtilization", ts);
}

/* ---- trace files ---- */

static inline void lw_tr_line(lw_trace *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void lw_tr_line(lw_trace *t, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    lw_buf_add(&t->pend, line, (size_t)n);
}

static inline void lw_tr_open(lw_trace *t)
{
    lw_tr_line(t, "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": "
                  "{\"start_time_since_epoch_in_micros\": %" PRId64 "}},\n", t->base_us);
    memset(t->phase_pid, 0, sizeof t->phase_pid);
    t->next_pid = 1;
    t->has_file = 1;
    t->file_events = 0;
    t->file_end_us = 0;
}

static inline void lw_tr_event(live_writer *w, lw_trace *t, const lw_ev *e)
{
    if (!t->phase_pid[e->phase]) {
        t->phase_pid[e->phase] = t->next_pid++;
        lw_tr_line(t, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"args\": "
                      "{\"name\": \"%s\"}},\n", t->phase_pid[e->phase], lw_phase_names[e->phase]);
    }
    lw_tr_line(t, "{\"name\": \"%s\", \"pid\": %d, \"ph\": \"X\", \"ts\": %" PRId64
                  ", \"dur\": %" PRId64 ", \"args\": {\"step_num\": \"%" PRId64 "\"}},\n",
               e->phase == LW_DATA ? "DataIterator::next" : lw_phase_names[e->phase],
               t->phase_pid[e->phase], e->start_us - t->base_us, e->dur_us, e->step);
    if (e->start_us + e->dur_us > t->file_end_us)
        t->file_end_us = e->start_us + e->dur_us;
    t->file_events++;
    w->events++;
}

/* Moves queued events into the open file (opening one if needed), and
 * starts a rotation once the file has enough events. */
static inline void lw_tr_drain(live_writer *w, lw_trace *t)
{
    if (t->rotating)
        return;
    for (size_t i = 0; i < t->nqueue; i++) {
        if (!t->has_file)
            lw_tr_open(t);
        lw_tr_event(w, t, &t->queue[i]);
    }
    t->nqueue = 0;
    if (t->has_file && t->file_events >= t->rotate_at)
        t->rotating = 1;
}

static inline void lw_tr_queue(lw_trace *t, int phase, int64_t start, int64_t dur)
{
    if (t->nqueue == t->capqueue) {
        t->capqueue = t->capqueue ? t->capqueue * 2 : 64;
        t->queue = realloc(t->queue, t->capqueue * sizeof *t->queue);
        if (!t->queue)
            abort();   /* test code: out of memory is fatal */
    }
    t->queue[t->nqueue++] = (lw_ev){phase, start, dur, t->step};
}

/* Generates the steps of t that end by now. */
static inline void lw_tr_advance(live_writer *w, lw_trace *t)
{
    for (;;) {
        int64_t dur = 300000 + 1000 * (int64_t)lw_pick_n(w->pick, 200);
        int64_t s = t->next_start_us;
        if (s + dur > w->now_us)
            break;
        int eval = t->step % 40 >= 36;
        int64_t data = dur / 20, fwd = dur * 2 / 5;
        int late_data = lw_pick_n(w->pick, 4) == 0;
        if (!late_data)
            lw_tr_queue(t, LW_DATA, s, data);
        lw_tr_queue(t, LW_FORWARD, s + data, fwd);
        if (!eval)
            lw_tr_queue(t, LW_BACKWARD, s + data + fwd, dur - data - fwd - 1000);
        lw_tr_queue(t, eval ? LW_EVAL : LW_STEP, s, dur);
        if (late_data)
            lw_tr_queue(t, LW_DATA, s, data);
        t->step++;
        t->next_start_us = s + dur + 1000 + 1000 * (int64_t)lw_pick_n(w->pick, 50);
    }
    lw_tr_drain(w, t);
}

static inline void lw_tr_write(live_writer *w, lw_trace *t, const char *p, size_t n)
{
    lw_fail(w, w->fs.append(w->fs.ud, t->tmp, p, n));
    t->written += (int64_t)n;
}

/* Writes the first n pending bytes of t's open file. */
static inline void lw_tr_flush(live_writer *w, lw_trace *t, size_t n)
{
    lw_tr_write(w, t, t->pend.p, n);
    lw_buf_drop(&t->pend, n);
}

/* One action of a rotation: flush, truncate the last ",\n", append
 * "\n]\n", rename (and, half the time, create the successor at once with
 * the events that ended meanwhile). */
static inline void lw_tr_rotate_step(live_writer *w, lw_trace *t)
{
    if (t->rotating == 1) {
        lw_tr_flush(w, t, t->pend.len);
    } else if (t->rotating == 2) {
        t->written -= 2;
        lw_fail(w, w->fs.truncate_to(w->fs.ud, t->tmp, t->written));
    } else if (t->rotating == 3) {
        lw_tr_write(w, t, "\n]\n", 3);
    } else {
        char hour[11], final[200];
        lw_hour(t->file_end_us, hour);
        snprintf(final, sizeof final, "framework/pevents/%s/%" PRId64 "_%s_pythontimeline.json",
                 hour, t->file_end_us, t->part);
        lw_fail(w, w->fs.rename_to(w->fs.ud, t->tmp, final));
        w->rotations++;
        t->has_file = 0;
        t->rotating = 0;
        t->written = 0;
        t->rotate_at = 1 + lw_pick_n(w->pick, 24);
        int at_once = t->nqueue && lw_pick_n(w->pick, 2);
        lw_tr_drain(w, t);
        if (at_once)
            lw_tr_flush(w, t, t->pend.len);
        return;
    }
    t->rotating++;
}

/* ---- actions ---------------------------------------------------------- */

/* Moves the clock on by 0.25-2 s and generates what ended meanwhile. */
static inline void lw_advance(live_writer *w)
{
    w->now_us += 250000 * (1 + (int64_t)lw_pick_n(w->pick, 8));
    for (int n = 0; n < w->nnodes; n++) {
        lw_sys *s = &w->sys[n];
        for (; s->next_us <= w->now_us; s->next_us += LW_INTERVAL_US)
            lw_sys_sample(w, s, s->next_us);
    }
    for (int k = 0; k < w->ntr; k++)
        lw_tr_advance(w, &w->tr[k]);
}

/* Writes a piece of pending bytes cut at an arbitrary offset. */
static inline size_t lw_piece(live_writer *w, size_t pending)
{
    if (!pending)
        return 0;
    unsigned how = lw_pick_n(w->pick, 4);
    if (how == 0)
        return pending;                      /* all of it */
    if (how == 1)
        return 1 + lw_pick_n(w->pick, 16) % pending;   /* a few bytes */
    return 1 + (size_t)lw_pick_n(w->pick, 1u << 16) % pending;
}

static inline int lw_flush_sys(live_writer *w, int all)
{
    lw_sys *s = &w->sys[lw_pick_n(w->pick, (unsigned)w->nnodes)];
    if (!s->pend.len)
        return 0;
    size_t n = all ? s->pend.len : lw_piece(w, s->pend.len);
    lw_fail(w, w->fs.append(w->fs.ud, s->path, s->pend.p, n));
    lw_buf_drop(&s->pend, n);
    return 1;
}

static inline int lw_flush_trace(live_writer *w, lw_trace *t)
{
    if (!t->pend.len || t->rotating)
        return 0;
    lw_tr_flush(w, t, lw_piece(w, t->pend.len));
    return 1;
}

/* The end of the job: one more piece of closing work (a system file
 * completed, a trace file's rotation step). 0 once all is closed. */
static inline int lw_finish_step(live_writer *w)
{
    w->finishing = 1;
    for (int n = 0; n < w->nnodes; n++)
        if (w->sys[n].pend.len) {
            lw_sys_complete(w, &w->sys[n]);
            return 1;
        }
    for (int k = 0; k < w->ntr; k++) {
        lw_trace *t = &w->tr[k];
        lw_tr_drain(w, t);
        if (t->has_file && !t->rotating)
            t->rotating = 1;
        if (t->rotating) {
            lw_tr_rotate_step(w, t);
            return 1;
        }
    }
    return 0;
}

/* The job's first second: two timestamps per node generated, a first
 * byte of system data on disk, so the directory is recognised as profiler
 * output before the tailing starts. (With a single timestamp ever, a live
 * CPU total cannot know the group is whole and waits for the next one;
 * `report` knows the data is final. A job that ends after one sample is
 * not what the harness is about.) */
static inline void lw_begin(live_writer *w)
{
    while (w->now_us < LW_T0_US + 2 * LW_INTERVAL_US)
        lw_advance(w);
    lw_fail(w, w->fs.append(w->fs.ud, w->sys[0].path, w->sys[0].pend.p, 1));
    lw_buf_drop(&w->sys[0].pend, 1);
}

/* One action of a running job. Returns 0 when the choices ran out. */
static inline int lw_step(live_writer *w)
{
    if (!lw_pick_more(w->pick))
        return 0;
    w->actions++;
    unsigned what = lw_pick_n(w->pick, 10);
    lw_trace *t = &w->tr[lw_pick_n(w->pick, (unsigned)w->ntr)];
    if (what < 3) {
        lw_advance(w);
    } else if (what < 6) {
        if (!lw_flush_sys(w, 0))
            lw_advance(w);
    } else if (what < 8 || !t->rotating) {
        if (!lw_flush_trace(w, t) && t->rotating)
            lw_tr_rotate_step(w, t);
    } else {
        lw_tr_rotate_step(w, t);
    }
    return 1;
}

#endif
