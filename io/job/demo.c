/* demo: see demo.h. */
#include "io/job/demo.h"

#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/synth/synth.h"

struct demo {
    char dir[4096];
    synth_opts so;
    pthread_t thread;
    volatile int stop;
    pthread_mutex_t mu;       /* guards done, rc, err */
    int done, rc;
    sm_err err;
};

static void *demo_main(void *arg)
{
    demo *d = arg;
    sm_err err = {0};
    int rc = synth_run(&d->so, &d->stop, &err);
    pthread_mutex_lock(&d->mu);
    d->done = 1;
    d->rc = rc;
    d->err = err;
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb, (void)f;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int stop_at_file(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
    (void)path, (void)sb, (void)f;
    return flag == FTW_F;
}

/* The generator creates system/ before its first file: the job can be
 * opened (its root found) once a file exists under it. */
static int has_file(const char *dir)
{
    return nftw(dir, stop_at_file, 16, FTW_PHYS) == 1;
}

/* History is written before live mode starts; a system file written and
 * the generator still running means the job can be opened. Waits at most
 * ~20 s (slow CI under sanitizers). */
static int wait_ready(demo *d, sm_err *err)
{
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/system", d->dir);
    for (int i = 0; i < 400; i++) {
        pthread_mutex_lock(&d->mu);
        int done = d->done, rc = d->rc;
        if (done && rc != 0)
            *err = d->err;
        pthread_mutex_unlock(&d->mu);
        if (done)
            return rc == 0 ? 0 : -1;
        if (has_file(probe))
            return 0;
        nanosleep(&(struct timespec){0, 50 * 1000000L}, NULL);
    }
    return sm_err_set(err, SM_ERR_IO, "the demo generator wrote nothing into %s", d->dir);
}

demo *demo_start(sm_err *err)
{
    demo *d = calloc(1, sizeof *d);
    if (!d)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    const char *tmp = getenv("TMPDIR");
    snprintf(d->dir, sizeof d->dir, "%s/smtop-demo-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(d->dir)) {
        sm_err_set(err, SM_ERR_IO, "cannot create a demo directory in %s (set TMPDIR)",
                   tmp && tmp[0] ? tmp : "/tmp");
        free(d);
        return NULL;
    }
    pthread_mutex_init(&d->mu, NULL);
    synth_opts_init(&d->so);
    d->so.out = d->dir;
    d->so.nodes = 4, d->so.gpus = 2, d->so.cpus = 8, d->so.minutes = 10;
    d->so.live = 1, d->so.slow_node = 2, d->so.outlier_rate = 0.02;
    d->so.ranks = 2, d->so.slow_rank = 1;   /* one rank per GPU; rank 1 of algo-1 lags */
    d->so.python_every = 250;   /* a new profiled window every ~30 s */
    d->so.seed = (uint64_t)time(NULL);
    if (pthread_create(&d->thread, NULL, demo_main, d) != 0) {
        sm_err_set(err, SM_ERR_NOMEM, "cannot start the demo generator thread");
        remove_tree(d->dir);
        pthread_mutex_destroy(&d->mu);
        free(d);
        return NULL;
    }
    if (wait_ready(d, err) != 0) {
        demo_stop(d);
        return NULL;
    }
    return d;
}

const char *demo_dir(const demo *d)
{
    return d->dir;
}

void demo_stop(demo *d)
{
    if (!d)
        return;
    d->stop = 1;
    pthread_join(d->thread, NULL);
    remove_tree(d->dir);
    pthread_mutex_destroy(&d->mu);
    free(d);
}
