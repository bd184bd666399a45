/* loader: scan thread, derived snapshots and self-pipe wakeup (see
 * loader.h). */
#include "io/run/loader.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/run/job_watch.h"

struct loader {
    job *j;
    loader_opts o;
    int pipe_fd[2];
    pthread_t thread;
    pthread_mutex_t mu;        /* guards stop, poked, err, err_us, snap */
    pthread_cond_t cv;         /* signalled by loader_stop and loader_poke */
    int stop;
    int poked;
    int rescan;                /* new data came outside a pass: scan and build now */
    char err[512];
    int64_t err_us;
    viewsnap *snap;             /* latest published snapshot */
    int64_t view_us;           /* when the view data was last built in full (loader thread) */
    int64_t view_cost_us;      /* how long that build took */
    /* The last answer to a view request, and the totals loader_view_stats
     * reports (loader thread; the totals under mu). */
    int64_t answer_us, answer_cost_us;
    uint64_t answers;
    int64_t answers_us, answer_max_us;
};

static int64_t clock_us(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Waits until the monotonic deadline, a stop or a poke. Caller holds mu. */
static void wait_until(loader *l, int64_t deadline_us)
{
    struct timespec dl = {(time_t)(deadline_us / 1000000), (long)(deadline_us % 1000000) * 1000};
    while (!l->stop && !l->poked &&
           pthread_cond_timedwait(&l->cv, &l->mu, &dl) != ETIMEDOUT)
        ;
}

static void wake_ui(loader *l)
{
    /* A full pipe already means "wake up": EAGAIN is fine. */
    ssize_t w = write(l->pipe_fd[1], "s", 1);
    (void)w;
}

static void scan_once(loader *l, int *pending)
{
    sm_err err = {0};
    int rc = job_scan(l->j, &err);
    scan_stats st;
    scanner_get_stats(job_scanner(l->j), &st);
    /* a pass listed from the cache is revalidated at once */
    *pending = rc == 0 && (st.files_pending > 0 || st.listing_cached);
    pthread_mutex_lock(&l->mu);
    if (rc != 0 && !l->stop) {   /* a pass cancelled by loader_stop is no news */
        snprintf(l->err, sizeof l->err, "%s", err.msg[0] ? err.msg : "scan failed");
        l->err_us = clock_us(CLOCK_REALTIME);
    } else if (rc == 0) {
        l->err[0] = '\0';
        l->err_us = 0;
    }
    pthread_mutex_unlock(&l->mu);
}

/* Builds (everything; the view data alone; or only the panes whose
 * request changed: VIEW_ANSWER) and publishes; l->mu is held only to swap
 * the pointer. */
enum { BUILD_ALL, BUILD_VIEW, BUILD_ANSWER };

static void publish_what(loader *l, int what)
{
    int64_t now = clock_us(CLOCK_REALTIME), t0 = clock_us(CLOCK_MONOTONIC);
    viewsnap *s = what == BUILD_ALL ? viewbuild_build(l->o.dv, now)
                                   : viewbuild_build_view(l->o.dv, now, what == BUILD_ANSWER);
    int64_t t1 = clock_us(CLOCK_MONOTONIC);
    if (what != BUILD_ANSWER) {
        l->view_us = t1;
        l->view_cost_us = t1 - t0;
    } else {
        l->answer_us = t1;
        l->answer_cost_us = t1 - t0;
    }
    pthread_mutex_lock(&l->mu);
    if (what == BUILD_ANSWER) {
        l->answers++;
        l->answers_us += t1 - t0;
        if (t1 - t0 > l->answer_max_us)
            l->answer_max_us = t1 - t0;
    }
    pthread_mutex_unlock(&l->mu);
    if (!s)
        return;   /* out of memory: the UI keeps the last snapshot */
    pthread_mutex_lock(&l->mu);
    viewsnap *old = l->snap;
    l->snap = s;
    pthread_mutex_unlock(&l->mu);
    viewsnap_unref(old);
}

static void publish(loader *l)
{
    /* The job's name: this thread's scan writes it, so it reads it here
     * without the lock; the snapshot carries it to the header. */
    viewbuild_set_place(l->o.dv, job_describe(l->j));
    publish_what(l, BUILD_ALL);
}

/* When the next answer to a view request may be built: answers take at
 * most an eighth of the loader's time, as the periodic builds do. A key
 * after a quiet spell is answered at once; but a request that changes
 * with every frame (a frame that draws an answer asks for something new)
 * would otherwise have the loader answer after every file and the UI
 * redraw after every answer, and a backfill crawl (one took 96 s instead
 * of 10 s before this bound). */
static int64_t answer_due(const loader *l)
{
    return l->answer_us + 7 * l->answer_cost_us;
}

/* Between the files of a pass: the panes whose view the UI changed, as
 * soon as the answer budget allows (a key's answer); and every pane's view data every view_min_ms
 * while the pass adds data, so the screen follows the backfill — but no
 * more than an eighth of the loader's time goes to it (a build that took
 * 40 ms waits 280 ms before the next). */
static void between_files(void *ud)
{
    loader *l = ud;
    if (viewbuild_pending_view(l->o.dv)) {
        if (clock_us(CLOCK_MONOTONIC) >= answer_due(l)) {
            publish_what(l, BUILD_ANSWER);
            wake_ui(l);
        }
        return;
    }
    int64_t wait = (int64_t)l->o.view_min_ms * 1000;
    if (wait < 7 * l->view_cost_us)
        wait = 7 * l->view_cost_us;
    if (clock_us(CLOCK_MONOTONIC) - l->view_us < wait)
        return;
    publish_what(l, BUILD_VIEW);
    wake_ui(l);
}

static void *loader_main(void *arg)
{
    loader *l = arg;
    int64_t next_scan = 0, last_build = 0;
    int pending = 0;
    for (;;) {
        int64_t now = clock_us(CLOCK_MONOTONIC);
        pthread_mutex_lock(&l->mu);
        int rescan = l->rescan;
        l->rescan = 0;
        pthread_mutex_unlock(&l->mu);
        int scanned = now >= next_scan || rescan;
        if (scanned) {
            scan_once(l, &pending);
            now = clock_us(CLOCK_MONOTONIC);
            next_scan = pending ? now : now + (int64_t)l->o.interval_ms * 1000;
        }
        /* Woken by a view request alone: only the panes it changed, once
         * the answer budget allows (else wake up then). */
        int64_t wake_at = next_scan;
        if (l->o.dv && !scanned && viewbuild_pending_view(l->o.dv)) {
            if (now >= answer_due(l))
                publish_what(l, BUILD_ANSWER);
            else if (answer_due(l) < wake_at)
                wake_at = answer_due(l);
        }
        /* Backfilling: builds at most every derive_min_ms, or the frames
         * would show rules over a model that is half a pass further on
         * while the loader spends its time re-deriving. */
        if (l->o.dv && (viewbuild_pending(l->o.dv) ||
                        (scanned && (!pending ||
                                     now - last_build >= (int64_t)l->o.derive_min_ms * 1000)))) {
            publish(l);
            last_build = clock_us(CLOCK_MONOTONIC);
        }
        wake_ui(l);
        pthread_mutex_lock(&l->mu);
        if (!l->stop && !l->poked)
            wait_until(l, wake_at);
        l->poked = 0;
        int stop = l->stop;
        pthread_mutex_unlock(&l->mu);
        if (stop)
            return NULL;
    }
}

void loader_view_stats(loader *l, uint64_t *answers, int64_t *answers_us, int64_t *max_us)
{
    pthread_mutex_lock(&l->mu);
    *answers = l->answers;
    *answers_us = l->answers_us;
    *max_us = l->answer_max_us;
    pthread_mutex_unlock(&l->mu);
}

/* The job's API watch added data (CloudWatch) or changed the status:
 * the next build must not wait for the interval. */
static void loader_rescan(void *ud)
{
    loader *l = ud;
    pthread_mutex_lock(&l->mu);
    l->rescan = 1;
    l->poked = 1;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
}

loader *loader_start_opts(job *j, const loader_opts *o, sm_err *err)
{
    loader *l = calloc(1, sizeof *l);
    if (!l)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    l->j = j;
    l->o = *o;
    if (l->o.interval_ms <= 0)
        l->o.interval_ms = 5000;
    if (l->o.derive_min_ms <= 0)
        l->o.derive_min_ms = 1000;
    if (l->o.view_min_ms <= 0)
        l->o.view_min_ms = 250;
    if (l->o.dv)
        scan_on_ingest(job_scanner(j), between_files, l);
    if (pipe2(l->pipe_fd, O_NONBLOCK | O_CLOEXEC) != 0) {
        sm_err_set(err, SM_ERR_IO, "cannot create a pipe: %s", strerror(errno));
        free(l);
        return NULL;
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&l->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&l->mu, NULL);
    if (job_get_watch(j))
        job_watch_on_change(job_get_watch(j), loader_rescan, l);
    int e = pthread_create(&l->thread, NULL, loader_main, l);
    if (e != 0) {
        sm_err_set(err, SM_ERR_NOMEM, "cannot start the loader thread: %s", strerror(e));
        scan_on_ingest(job_scanner(j), NULL, NULL);
        if (job_get_watch(j))
            job_watch_on_change(job_get_watch(j), NULL, NULL);
        close(l->pipe_fd[0]);
        close(l->pipe_fd[1]);
        pthread_cond_destroy(&l->cv);
        pthread_mutex_destroy(&l->mu);
        free(l);
        return NULL;
    }
    return l;
}

loader *loader_start(job *j, int interval_ms, sm_err *err)
{
    loader_opts o = {.interval_ms = interval_ms};
    return loader_start_opts(j, &o, err);
}

/* Asks the thread to end and cancels the source, so a pass in flight
 * returns as soon as its next read or listing notices the cancel. */
static void loader_request_stop(loader *l)
{
    pthread_mutex_lock(&l->mu);
    l->stop = 1;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
    job_cancel(l->j, 1);
}

static void loader_free(loader *l)
{
    scan_on_ingest(job_scanner(l->j), NULL, NULL);
    if (job_get_watch(l->j))
        job_watch_on_change(job_get_watch(l->j), NULL, NULL);
    job_cancel(l->j, 0);
    viewsnap_unref(l->snap);
    close(l->pipe_fd[0]);
    close(l->pipe_fd[1]);
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->mu);
    free(l);
}

void loader_stop(loader *l)
{
    if (!l)
        return;
    loader_request_stop(l);
    pthread_join(l->thread, NULL);
    loader_free(l);
}

int loader_stop_within(loader *l, int ms)
{
    if (!l)
        return 0;
    loader_request_stop(l);
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);   /* pthread_timedjoin_np's clock */
    dl.tv_sec += ms / 1000;
    dl.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L)
        dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    if (pthread_timedjoin_np(l->thread, NULL, &dl) != 0) {
        /* Still in a pass the cancel did not reach (e.g. a blocking local
         * read): l stays allocated for the thread, which ends with the
         * process; detached, it is not a leak of a joinable one. */
        pthread_detach(l->thread);
        return -1;
    }
    loader_free(l);
    return 0;
}

viewsnap *loader_snapshot(loader *l)
{
    pthread_mutex_lock(&l->mu);
    viewsnap *s = viewsnap_ref(l->snap);
    pthread_mutex_unlock(&l->mu);
    return s;
}

void loader_poke(loader *l)
{
    pthread_mutex_lock(&l->mu);
    l->poked = 1;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
}

int loader_fd(const loader *l)
{
    return l->pipe_fd[0];
}

int loader_ack(loader *l)
{
    char buf[64];
    int total = 0;
    ssize_t n;
    while ((n = read(l->pipe_fd[0], buf, sizeof buf)) > 0)
        total += (int)n;
    return total;
}

void loader_last_error(loader *l, char *buf, size_t cap, int64_t *when_us)
{
    pthread_mutex_lock(&l->mu);
    snprintf(buf, cap, "%s", l->err);
    if (when_us)
        *when_us = l->err_us;
    pthread_mutex_unlock(&l->mu);
}
