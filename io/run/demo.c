/* demo: see demo.h. */
#include "io/run/demo.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
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
    atomic_int stop;          /* read by the generator thread */
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

/* Catches a generator that fails at once (TMPDIR full or read-only)
 * before the screen opens: returns when system/ exists or the generator
 * ended. Whether files are in it yet does not matter, the dashboard waits
 * for a job's first data itself. Waits at most ~20 s (slow CI under
 * sanitizers). */
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
        if (access(probe, F_OK) == 0)
            return 0;
        nanosleep(&(struct timespec){0, 50 * 1000000L}, NULL);
    }
    return sm_err_set(err, SM_ERR_IO, "the demo generator wrote nothing into %s", d->dir);
}

/* A demo directory "smtop-demo-PID-XXXXXX" of ours whose PID is no
 * longer running was left by a demo that died (SIGKILL, a crash): it is
 * removed. Another user's, a live process's, or anything not a plain
 * directory is left alone. */
static void sweep_dead_demos(const char *tmp)
{
    DIR *dir = opendir(tmp);
    if (!dir)
        return;
    struct dirent *e;
    while ((e = readdir(dir))) {
        char *end;
        if (strncmp(e->d_name, "smtop-demo-", 11))
            continue;
        long pid = strtol(e->d_name + 11, &end, 10);
        if (pid <= 0 || *end != '-' || strlen(end) != 7)
            continue;
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        remove_tree(path);
    }
    closedir(dir);
}

demo *demo_start(sm_err *err)
{
    demo *d = calloc(1, sizeof *d);
    if (!d)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && tmp[0] ? tmp : "/tmp";
    sweep_dead_demos(tmp);
    /* The PID in the name lets a later start tell a dead owner's. */
    snprintf(d->dir, sizeof d->dir, "%s/smtop-demo-%ld-XXXXXX", tmp, (long)getpid());
    if (!mkdtemp(d->dir)) {
        sm_err_set(err, SM_ERR_IO, "cannot create a demo directory in %s (set TMPDIR)",
                   tmp);
        free(d);
        return NULL;
    }
    pthread_mutex_init(&d->mu, NULL);
    synth_opts_init(&d->so);
    d->so.out = d->dir;
    d->so.nodes = 4, d->so.gpus = 2, d->so.cpus = 8, d->so.minutes = 10;
    d->so.live = 1, d->so.slow_node = 2, d->so.outlier_rate = 0.02;
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
    atomic_store(&d->stop, 1);
    pthread_join(d->thread, NULL);
    remove_tree(d->dir);
    pthread_mutex_destroy(&d->mu);
    free(d);
}
