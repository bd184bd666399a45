/* The dashboard's key path (dash_key) while the loader holds the model
 * lock — as it does for every file it ingests: a key must be answered
 * from the snapshot at once, not wait for the lock (glibc mutexes are not
 * fair: under load a key waited behind the loader for tens of ms). A
 * helper thread holds job_lock; another presses keys; the test waits for
 * them with a deadline and checks what they did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "model_fixture.h"

#include "model/view/viewsnap.h"
#include "io/run/job.h"
#include "tui/dash/dash_internal.h"
#include "tui/panes/panes_builtin.h"
#include "model/view/sysview.h"

#define T0 1600000000000000LL
#define DEADLINE_S 10

typedef struct shared {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_mutex_t *model_lock;
    int locked, release, done;
    dash *d;
} shared;

/* The loader's stand-in: holds the model lock until told to let go. */
static void *hold_lock(void *arg)
{
    shared *s = arg;
    pthread_mutex_lock(s->model_lock);
    pthread_mutex_lock(&s->mu);
    s->locked = 1;
    pthread_cond_broadcast(&s->cv);
    while (!s->release)
        pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_unlock(s->model_lock);
    return NULL;
}

/* The UI: `j` (a pane's key, clamped to the visible nodes), then space
 * (pause at the newest sample on screen). */
static void *press_keys(void *arg)
{
    shared *s = arg;
    dash_key(s->d, 'j');
    dash_key(s->d, ' ');
    pthread_mutex_lock(&s->mu);
    s->done = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Waits until *flag or the deadline; returns *flag. Caller holds s->mu. */
static int wait_flag(shared *s, const int *flag)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += DEADLINE_S;
    while (!*flag && pthread_cond_timedwait(&s->cv, &s->mu, &dl) != ETIMEDOUT)
        ;
    return *flag;
}

/* The snapshot the loader would publish: three nodes, the System pane. */
static viewsnap *snapshot_of(model *m)
{
    viewbuild *dv = viewbuild_new(NULL, m, NULL, NULL);
    assert_non_null(dv);
    viewdata_req q;
    memset(&q, 0, sizeof q);
    q.live = 1;
    q.span_us = 60000000;
    q.visible = view_filter_match;
    sysview_params sp = {.count = 16};
    viewdata_ask_for(&q, &sysview_query, &sp, sizeof sp);
    viewbuild_want_view(dv, &q);
    viewsnap *s = viewbuild_build(dv, 0);
    assert_non_null(s);
    viewbuild_free(dv);
    return s;
}

static void test_key_answered_while_loader_holds_lock(void **state)
{
    (void)state;
    char dir[] = "/tmp/smtop-dash-keys-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sm_err err = {0};
    source_opts so;
    source_opts_init(&so);
    job *j = job_open(dir, &so, NULL, &err);
    assert_non_null(j);
    model *m = model_new(NULL);
    static const char *nodes[3] = {"algo-1", "algo-2", "algo-3"};
    for (int i = 0; i < 20; i++)
        for (int k = 0; k < 3; k++)
            fx_sample(m, nodes[k], "cpu", "CPUUtilization", "cpu0", T0 + i * 500000LL, 30);
    dash *d = calloc(1, sizeof *d);
    assert_non_null(d);
    d->j = j;
    view_init(&d->view, GLYPHS_ASCII);
    d->npanes = 1;
    d->panes[0].vt = &pane_system_vtbl;
    d->panes[0].p = pane_system_vtbl.create();
    d->snap = snapshot_of(m);
    d->ext.snap = d->snap;

    shared s = {.model_lock = job_lock(j), .d = d};
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    pthread_t holder, keys;
    assert_int_equal(pthread_create(&holder, NULL, hold_lock, &s), 0);
    pthread_mutex_lock(&s.mu);
    assert_true(wait_flag(&s, &s.locked));
    pthread_mutex_unlock(&s.mu);
    assert_int_equal(pthread_create(&keys, NULL, press_keys, &s), 0);
    pthread_mutex_lock(&s.mu);
    int answered = wait_flag(&s, &s.done);   /* while the lock is still held */
    s.release = 1;
    pthread_cond_broadcast(&s.cv);
    pthread_mutex_unlock(&s.mu);
    pthread_join(holder, NULL);
    pthread_join(keys, NULL);
    assert_true(answered);
    assert_int_equal(d->view.selected_node, 1);
    assert_int_equal(d->view.live, 0);
    assert_int_equal(d->view.end_us, model_last_us(m) + 1);   /* the newest on screen */

    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
    pane_system_vtbl.destroy(d->panes[0].p);
    viewsnap_unref(d->snap);
    free(d);
    model_free(m);
    job_close(j);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_answered_while_loader_holds_lock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
