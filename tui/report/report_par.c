/* report_par: see report_par.h. Threads take the next index from one
 * counter until none is left: which thread ran which index does not
 * matter, as each writes only its own. */
#include "tui/report/report_par.h"

#include <pthread.h>
#include <stdatomic.h>

#define PAR_THREADS_MAX 16

typedef struct par_each {
    int (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t n;
    atomic_size_t next;
    atomic_int failed;
} par_each;

static void take(par_each *p)
{
    size_t i;
    while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
        if (p->fn(p->ctx, i) < 0)
            atomic_store(&p->failed, 1);
}

static void *helper_main(void *arg)
{
    take(arg);
    return NULL;
}

int report_par_each(size_t n, size_t threads, int (*fn)(void *ctx, size_t i), void *ctx)
{
    par_each p = {.fn = fn, .ctx = ctx, .n = n};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, 0);
    if (threads > PAR_THREADS_MAX)
        threads = PAR_THREADS_MAX;
    if (threads > n)
        threads = n;
    pthread_t th[PAR_THREADS_MAX];
    size_t started = 0;
    while (started + 1 < threads && pthread_create(&th[started], NULL, helper_main, &p) == 0)
        started++;
    take(&p);
    for (size_t k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    return atomic_load(&p.failed) ? -1 : 0;
}

static int settle_one(void *m, size_t i)
{
    model_settle_node(m, i);
    return 0;
}

void report_par_settle(model *m, size_t threads)
{
    report_par_each(model_node_count(m), threads, settle_one, m);
}
