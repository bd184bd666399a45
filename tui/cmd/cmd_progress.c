/* cmd_progress: see cmd_progress.h. A thread wakes every TICK_MS and
 * reads the scanner's counters (scanner_get_stats takes their mutex
 * only): it writes nothing the read uses. */
#include "tui/cmd/cmd_progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "tui/text/progress.h"

#define TICK_MS 250

struct cmd_progress {
    scanner *sc;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    int drawn;     /* a line is on the terminal */
};

static int64_t wall_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* One redraw: the line (numbers only: nothing from the data), cut to
 * the terminal's width as it stood at the start, or the old one wiped
 * when the pass no longer wants one. */
static void draw(cmd_progress *p, int cols)
{
    scan_stats st;
    char line[256];
    scanner_get_stats(p->sc, &st);
    if (progress_line(&st, wall_us(), PROGRESS_AFTER_US, line, sizeof line)) {
        fprintf(stderr, "\r%.*s\033[K", cols > 1 ? cols - 1 : 79, line);
        p->drawn = 1;
    } else if (p->drawn) {
        fputs("\r\033[K", stderr);
        p->drawn = 0;
    }
    fflush(stderr);
}

static void *progress_main(void *arg)
{
    cmd_progress *p = arg;
    struct winsize ws;
    int cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
        if (!p->stop)
            draw(p, cols);
    }
    if (p->drawn)
        fputs("\r\033[K", stderr), fflush(stderr);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cmd_progress *cmd_progress_start(scanner *sc)
{
    if (!sc || !isatty(STDERR_FILENO))
        return NULL;
    cmd_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->sc = sc;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->th, NULL, progress_main, p) != 0) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

void cmd_progress_stop(cmd_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->th, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
