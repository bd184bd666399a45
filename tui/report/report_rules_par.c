/* report_rules_par: the report's rules on several threads (issue 28: the
 * rules were the largest serial stage after a parallel pass). The model is
 * settled first, so its readers write nothing; each rule writes its own
 * result alone, so the results, and the report, are the same bytes
 * whatever the thread count or the order the rules ran in. */
#include "tui/report/report_rules.h"

#include "tui/report/report_par.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct par_run {
    rules *r;
    const model *m;
    const size_t *idx;       /* the stale rules that may run anywhere */
    size_t n;
    atomic_size_t next;      /* the next of idx to take */
    atomic_int oom;
} par_run;

/* Takes rules until none is left. */
static void take_rules(par_run *p)
{
    size_t k;
    while ((k = atomic_fetch_add(&p->next, 1)) < p->n)
        if (rules_run_one(p->r, p->idx[k], p->m) < 0)
            atomic_store(&p->oom, 1);
}

static void *helper_main(void *arg)
{
    take_rules(arg);
    return NULL;
}

#define PAR_THREADS_MAX 16

int report_rules_evaluate(rules *r, model *m, size_t threads)
{
    size_t stale[64], any[64], ranks[64];
    if (threads < 2)
        return rules_evaluate(r, m);
    report_par_settle(m, threads);   /* what the report reads next, too */
    if (rules_count() > sizeof stale / sizeof *stale)
        return rules_evaluate(r, m);
    size_t n = rules_stale(r, m, stale), nany = 0, nranks = 0;
    for (size_t k = 0; k < n; k++) {
        if (rules_reads_ranks(stale[k]))
            ranks[nranks++] = stale[k];
        else
            any[nany++] = stale[k];
    }
    par_run p = {.r = r, .m = m, .idx = any, .n = nany};
    atomic_init(&p.next, 0);
    atomic_init(&p.oom, 0);
    if (threads > PAR_THREADS_MAX)
        threads = PAR_THREADS_MAX;
    if (threads > nany)
        threads = nany ? nany : 1;
    pthread_t th[PAR_THREADS_MAX];
    size_t started = 0;
    while (started + 1 < threads && pthread_create(&th[started], NULL, helper_main, &p) == 0)
        started++;
    /* The rules that read the Kineto ranks, on this thread alone (their
     * summaries sort on read); then this thread takes what is left. */
    for (size_t k = 0; k < nranks; k++)
        if (rules_run_one(r, ranks[k], m) < 0)
            atomic_store(&p.oom, 1);
    take_rules(&p);
    for (size_t k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    return atomic_load(&p.oom) ? -1 : n > 0;
}
