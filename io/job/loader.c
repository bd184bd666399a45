/* loader: scan thread + self-pipe wakeup (see loader.h). */
#include "io/job/loader.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct loader {
    job *j;
    int interval_ms;
    int pipe_fd[2];
    pthread_t thread;
    pthread_mutex_t mu;        /* guards stop, err, err_us */
    pthread_cond_t cv;         /* signalled by loader_stop */
    int stop;
    char err[512];
    int64_t err_us;
};

static int64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Waits up to ms or until stop; returns the stop flag. Caller holds mu. */
static int wait_or_stop(loader *l, int ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    dl.tv_sec += ms / 1000;
    dl.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L)
        dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    while (!l->stop && pthread_cond_timedwait(&l->cv, &l->mu, &dl) != ETIMEDOUT)
        ;
    return l->stop;
}

static void *loader_main(void *arg)
{
    loader *l = arg;
    for (;;) {
        sm_err err = {0};
        int rc = job_scan(l->j, &err);
        scan_stats st;
        scanner_get_stats(job_scanner(l->j), &st);
        pthread_mutex_lock(&l->mu);
        if (rc != 0) {
            snprintf(l->err, sizeof l->err, "%s", err.msg[0] ? err.msg : "scan failed");
            l->err_us = wall_us();
        } else {
            l->err[0] = '\0';
            l->err_us = 0;
        }
        pthread_mutex_unlock(&l->mu);
        /* A full pipe already means "wake up": EAGAIN is fine. */
        ssize_t w = write(l->pipe_fd[1], "s", 1);
        (void)w;
        pthread_mutex_lock(&l->mu);
        int stop = wait_or_stop(l, rc == 0 && st.files_pending > 0 ? 0 : l->interval_ms);
        pthread_mutex_unlock(&l->mu);
        if (stop)
            return NULL;
    }
}

loader *loader_start(job *j, int interval_ms, sm_err *err)
{
    loader *l = calloc(1, sizeof *l);
    if (!l)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    l->j = j;
    l->interval_ms = interval_ms > 0 ? interval_ms : 5000;
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
    int e = pthread_create(&l->thread, NULL, loader_main, l);
    if (e != 0) {
        sm_err_set(err, SM_ERR_NOMEM, "cannot start the loader thread: %s", strerror(e));
        close(l->pipe_fd[0]);
        close(l->pipe_fd[1]);
        pthread_cond_destroy(&l->cv);
        pthread_mutex_destroy(&l->mu);
        free(l);
        return NULL;
    }
    return l;
}

static void loader_request_stop(loader *l)
{
    pthread_mutex_lock(&l->mu);
    l->stop = 1;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
}

static void loader_free(loader *l)
{
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
        /* Still in a pass: l stays allocated for the thread, which ends
         * with the process; detached, it is not a leak of a joinable one. */
        pthread_detach(l->thread);
        return -1;
    }
    loader_free(l);
    return 0;
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
