/* scan_shard: a fetch round over a source that reads in parallel, sharded
 * by node (issue 28, HACKING.md "Ingest that scales with cores").
 *
 * The work list is cut into batches of up to SHARD_BATCH line files (a
 * whole file, or a .tmp trace, which the adoption list depends on in
 * order, is read on its own between them, here). A batch's files are
 * grouped by node; each group is claimed by one worker (this thread being
 * one), which reads, decodes and adds its files in list order through a
 * model writer of its own (model_shard_*) bound to the node: nothing
 * crosses threads per sample. A node's files thus reach the model in the
 * order of the list, as on one thread, and no two workers touch a node.
 * At the end of the batch, with every worker idle, this thread folds the
 * writers into the model (sums, minima, maxima) and says each file's
 * counts and warnings in list order, so the report is the same bytes
 * whatever the thread count. The model lock is held for the batch: a
 * reader waits for at most one batch. */
#include "io/scan/scanner_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A batch holds the model lock while its files are read (a view's answer
 * waits for it) and ends in a barrier, where a worker the scheduler set
 * aside on a busy machine holds up the others: 8 files (a few ms on 2
 * cores) while a dashboard answers between batches (scan_on_ingest),
 * else 256. */
#define SHARD_BATCH 256
#define SHARD_BATCH_SHOWN 8

typedef struct shard_file {
    size_t work_at;          /* its place in the work list */
    size_t worker;           /* who read it */
    uint32_t next;           /* the group's next file, or SHARD_NONE */
    int state;               /* FILE_* */
    feed_note note;
    char why[SCANNER_MSG_LEN];
} shard_file;

#define SHARD_NONE UINT32_MAX
enum { FILE_WAITING, FILE_SKIPPED, FILE_UNREAD, FILE_READ };

typedef struct shard_group {
    const char *node;        /* the files' node (their catalog key info) */
    uint32_t first, last;
} shard_group;

typedef struct shard_run shard_run;

typedef struct shard_worker {
    shard_run *run;
    model_shard *w;
    sysdec_scratch ahead, slow;   /* decoding ahead; the lines it left */
    predec_buf recs;
    char *buf;
    size_t cap;
    pthread_t th;
    int started;
} shard_worker;

struct shard_run {
    scanner *sc;
    shard_worker *wk;
    size_t nwk;
    pthread_mutex_t mu;      /* guards gen, busy, quit, fail */
    pthread_cond_t go, idle;
    uint64_t gen;            /* batches posted */
    size_t busy;             /* helpers still in the batch */
    int quit;
    shard_file f[SHARD_BATCH];
    shard_group g[SHARD_BATCH];
    size_t nf, ng, room;
    atomic_size_t claim;     /* the next group to take */
    atomic_int stop;         /* a fetch failed: take no more files */
    size_t fail_at;          /* the first failed file's index, or SHARD_BATCH */
    sm_err fail;
    pthread_mutex_t adopt_mu;
};

/* ---- a worker's file --------------------------------------------------- */

typedef struct file_ctx {
    shard_worker *wk;
    shard_file *sf;
    int called;
} file_ctx;

static void file_cb(void *ud, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err)
{
    file_ctx *c = ud;
    shard_worker *wk = c->wk;
    scanner *sc = wk->run->sc;
    cat_entry *e = req->user;
    c->called = 1;
    if (!scan_feed_accept(sc, e, &len, etag, err, c->sf->why)) {
        c->sf->state = c->sf->why[0] ? FILE_UNREAD : FILE_SKIPPED;
        return;
    }
    c->sf->state = FILE_READ;
    predec pre = {0};
    int kind = scan_predec_kind(e->ki.kind);
    if (len && kind != PREDEC_NONE) {
        predec_decode(&wk->recs, &wk->ahead, data, len, kind);
        pre = predec_view(&wk->recs);
    }
    ingest_ctx cx = {.w = wk->w, .scratch = &wk->slow, .carry = sc->carry, .pre = &pre};
    if (len)
        scan_feed_lines(sc, &cx, e, data, len, &wk->run->adopt_mu, &c->sf->note);
    else
        c->sf->state = FILE_SKIPPED;
}

/* Notes the first failed file (by index, so the error said does not
 * depend on timing) and stops the batch. */
static void fail_file(shard_run *run, size_t i, const sm_err *err)
{
    pthread_mutex_lock(&run->mu);
    if (i < run->fail_at) {
        run->fail_at = i;
        run->fail = *err;
    }
    pthread_mutex_unlock(&run->mu);
    atomic_store(&run->stop, 1);
}

static void read_file(shard_worker *wk, size_t i)
{
    shard_run *run = wk->run;
    scanner *sc = run->sc;
    shard_file *sf = &run->f[i];
    if (sf->next != SHARD_NONE && sc->src->vt->prefetch) {
        source_req hint = scan_round_peek(sc, run->f[sf->next].work_at);
        source_prefetch(sc->src, &hint);
    }
    source_req req;
    scan_round_req(sc, &req, sf->work_at);
    req.buf = &wk->buf;
    req.cap = &wk->cap;
    model_shard_set_tag(wk->w, i);
    file_ctx c = {wk, sf, 0};
    sm_err err = {0};
    int rc = source_fetch(sc->src, &req, 1, file_cb, &c, &err);
    if (rc != 0 || !c.called) {
        if (rc == 0)
            sm_err_set(&err, SM_ERR_IO, "not fetched");
        fail_file(run, i, &err);
    }
}

/* Takes groups until none is left. */
static void work_batch(shard_worker *wk, size_t self)
{
    shard_run *run = wk->run;
    size_t k;
    while ((k = atomic_fetch_add(&run->claim, 1)) < run->ng) {
        shard_group *g = &run->g[k];
        if (model_shard_bind(wk->w, g->node, strlen(g->node), run->room) != 0) {
            sm_err oom = {SM_ERR_NOMEM, "out of memory"};
            fail_file(run, g->first, &oom);
        }
        for (uint32_t i = g->first; i != SHARD_NONE && !atomic_load(&run->stop);
             i = run->f[i].next) {
            run->f[i].worker = self;
            read_file(wk, i);
        }
    }
}

static void *helper_main(void *arg)
{
    shard_worker *wk = arg;
    shard_run *run = wk->run;
    size_t self = (size_t)(wk - run->wk);
    uint64_t seen = 0;
    pthread_mutex_lock(&run->mu);
    for (;;) {
        while (!run->quit && run->gen == seen)
            pthread_cond_wait(&run->go, &run->mu);
        if (run->quit)
            break;
        seen = run->gen;
        pthread_mutex_unlock(&run->mu);
        work_batch(wk, self);
        pthread_mutex_lock(&run->mu);
        if (--run->busy == 0)
            pthread_cond_signal(&run->idle);
    }
    pthread_mutex_unlock(&run->mu);
    return NULL;
}

/* ---- the batch --------------------------------------------------------- */

/* Adds work item j to the batch, in its node's group. */
static void batch_add(shard_run *run, size_t j)
{
    cat_entry *e = run->sc->work[j];
    uint32_t i = (uint32_t)run->nf++;
    run->f[i] = (shard_file){.work_at = j, .next = SHARD_NONE};
    for (size_t k = 0; k < run->ng; k++)
        if (!strcmp(run->g[k].node, e->ki.node)) {
            run->f[run->g[k].last].next = i;
            run->g[k].last = i;
            return;
        }
    run->g[run->ng++] = (shard_group){.node = e->ki.node, .first = i, .last = i};
}

/* What a batch's file did, said in list order; its model writer's drops
 * and the records of other nodes it kept aside go into the model. */
static void say_file(shard_run *run, size_t i)
{
    scanner *sc = run->sc;
    shard_file *sf = &run->f[i];
    cat_entry *e = sc->work[sf->work_at];
    shard_worker *wk = &run->wk[sf->worker];
    if (sf->state == FILE_READ) {
        const model_drops *b = &sf->note.before, *a = &sf->note.after;
        model_drops d = {a->bad_time - b->bad_time, a->bad_time_us,
                         a->series_cap - b->series_cap, a->node_cap - b->node_cap};
        model_add_drops(sc->m, &d);
        model_shard_apply_deferred(sc->m, wk->w, i);
        scan_feed_say(sc, e, &sf->note);
    } else if (sf->state == FILE_UNREAD) {
        scan_note_unread(sc, e, scan_rel_key(sc, e->key), sf->why);
    }
}

/* Reads a batch on every worker; 0, or -1 with err (a fetch failed: the
 * files read before it still count). */
static int run_batch(shard_run *run, sm_err *err)
{
    scanner *sc = run->sc;
    size_t room = model_series_room(sc->m);
    /* Each group may make as many series as a node can when the model
     * has room for all of them: then no order of the adds reaches the cap
     * over all nodes. Else each gets an equal share, whatever the timing. */
    run->room = room / run->ng >= MODEL_NODE_SERIES_MAX ? room : room / run->ng;
    run->fail_at = SHARD_BATCH;
    atomic_store(&run->claim, 0);
    atomic_store(&run->stop, 0);
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    /* The disk reads each group's first file while the workers start. */
    for (size_t k = 0; k < run->ng && sc->src->vt->prefetch; k++) {
        source_req hint = scan_round_peek(sc, run->f[run->g[k].first].work_at);
        source_prefetch(sc->src, &hint);
    }
    int rc = model_reserve_nodes(sc->m, run->ng);
    if (rc != 0) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    } else {
        pthread_mutex_lock(&run->mu);
        run->gen++;
        run->busy = run->nwk - 1;
        pthread_cond_broadcast(&run->go);
        pthread_mutex_unlock(&run->mu);
        work_batch(&run->wk[0], 0);
        pthread_mutex_lock(&run->mu);
        while (run->busy)
            pthread_cond_wait(&run->idle, &run->mu);
        pthread_mutex_unlock(&run->mu);
        for (size_t k = 0; k < run->nwk; k++)
            model_fold_shard(sc->m, run->wk[k].w);
        for (size_t i = 0; i < run->nf; i++)
            say_file(run, i);
        if (run->fail_at < SHARD_BATCH) {
            *err = run->fail;
            rc = -1;
        }
    }
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    for (size_t i = 0; i < run->nf; i++)
        scan_list_forget_if_read(sc, sc->work[run->f[i].work_at]);
    if (sc->on_ingest)
        sc->on_ingest(sc->on_ingest_ud);
    return rc;
}

/* Reads work item i here, as the serial scanner does. */
static int read_here(scanner *sc, size_t i, sm_err *err)
{
    if (scan_is_stream(sc, sc->work[i]))
        return scan_stream_fetch(sc, i, scan_feed_cb, sc, 1, err);
    source_req req;
    scan_round_req(sc, &req, i);
    int rc = source_fetch(sc->src, &req, 1, scan_feed_cb, sc, err);
    scan_list_forget_if_read(sc, sc->work[i]);
    return rc;
}

/* A node's own file: read on the node's worker. */
static int shardable(const cat_entry *e)
{
    return e->ki.kind == KEY_SYSTEM || e->ki.kind == KEY_TRACE;
}

static int run_all(shard_run *run, sm_err *err)
{
    scanner *sc = run->sc;
    size_t i = 0;
    while (i < sc->nwork) {
        if (!shardable(sc->work[i])) {
            if (read_here(sc, i++, err) != 0)
                return -1;
            continue;
        }
        run->nf = run->ng = 0;
        size_t most = sc->on_ingest ? SHARD_BATCH_SHOWN : SHARD_BATCH;
        while (i < sc->nwork && run->nf < most && shardable(sc->work[i]))
            batch_add(run, i++);
        /* Past the node cap, which nodes are kept depends on the order. */
        if (model_node_count(sc->m) + run->ng > MODEL_NODE_MAX) {
            for (size_t k = 0; k < run->nf; k++)
                if (read_here(sc, run->f[k].work_at, err) != 0)
                    return -1;
            continue;
        }
        if (run_batch(run, err) != 0)
            return -1;
    }
    return 0;
}

static void run_free(shard_run *run)
{
    pthread_mutex_lock(&run->mu);
    run->quit = 1;
    pthread_cond_broadcast(&run->go);
    pthread_mutex_unlock(&run->mu);
    for (size_t k = 0; k < run->nwk; k++) {
        shard_worker *wk = &run->wk[k];
        if (wk->started)
            pthread_join(wk->th, NULL);
        model_shard_free(wk->w);
        sys_decode_scratch_free(&wk->ahead);
        sys_decode_scratch_free(&wk->slow);
        predec_buf_free(&wk->recs);
        free(wk->buf);
    }
    pthread_mutex_destroy(&run->mu);
    pthread_mutex_destroy(&run->adopt_mu);
    pthread_cond_destroy(&run->go);
    pthread_cond_destroy(&run->idle);
    free(run->wk);
    free(run);
}

/* Workers: this thread and nwk - 1 helpers; fewer when a thread does not
 * start (this thread alone still reads everything). NULL on OOM. */
static shard_run *run_new(scanner *sc, size_t nwk)
{
    shard_run *run = calloc(1, sizeof *run);
    if (!run || !(run->wk = calloc(nwk, sizeof *run->wk))) {
        free(run);
        return NULL;
    }
    run->sc = sc;
    pthread_mutex_init(&run->mu, NULL);
    pthread_mutex_init(&run->adopt_mu, NULL);
    pthread_cond_init(&run->go, NULL);
    pthread_cond_init(&run->idle, NULL);
    for (size_t k = 0; k < nwk; k++) {
        shard_worker *wk = &run->wk[k];
        wk->run = run;
        if (!(wk->w = model_shard_new(sc->m)))
            break;
        run->nwk = k + 1;
        if (k > 0 && pthread_create(&wk->th, NULL, helper_main, wk) != 0) {
            model_shard_free(wk->w);
            wk->w = NULL;
            run->nwk = k;
            break;
        }
        wk->started = k > 0;
    }
    if (!run->nwk) {
        run_free(run);
        return NULL;
    }
    return run;
}

int scan_shard_round(scanner *sc, size_t threads, sm_err *err)
{
    shard_run *run = run_new(sc, threads ? threads : 1);
    if (!run)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = run_all(run, err);
    run_free(run);
    return rc;
}
