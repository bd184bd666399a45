/* scanner: one pass = list → diff against the catalog → fetch new bytes
 * newest first → ingest. See scanner.h for the contract; the stages are
 * scan_list.c, scan_order.c, scan_round.c and scan_feed.c
 * (scanner_internal.h). This file: the scanner's life, the pass, its
 * status and messages. */
#include "io/scan/scanner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/scan/scan_ingest.h"
#include "io/scan/scan_kineto.h"

int64_t scan_wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void scan_add_message(scanner *sc, const char *key, const char *what)
{
    pthread_mutex_lock(&sc->mu);
    size_t slot = (sc->msg_head + sc->msg_count) % SCANNER_MSG_MAX;
    if (sc->msg_count == SCANNER_MSG_MAX)
        sc->msg_head = (sc->msg_head + 1) % SCANNER_MSG_MAX;
    else
        sc->msg_count++;
    /* Bounded so the message always fits: a path and an error sentence. */
    snprintf(sc->msgs[slot], SCANNER_MSG_LEN, "%.250s: %.500s", key, what);
    sc->st.messages++;
    snprintf(sc->st.last_error, sizeof sc->st.last_error, "%s", sc->msgs[slot]);
    sc->err_transient = 0;
    pthread_mutex_unlock(&sc->mu);
}

void scanner_note(scanner *sc, const char *key, const char *what)
{
    scan_add_message(sc, key, what);
}

/* Names e as not read, with why (replacing an earlier reason), for the
 * report's list and the status line. The status line has one row: it
 * gets the file's own name, the report the whole key. */
void scan_note_unread(scanner *sc, cat_entry *e, const char *rel, const char *why)
{
    scan_note_unread_as(sc, e, rel, why, 0);
}

void scan_note_unread_as(scanner *sc, cat_entry *e, const char *rel, const char *why,
                         int partial)
{
    const char *base = strrchr(rel, '/');
    pthread_mutex_lock(&sc->mu);
    scan_unread_set(&sc->unread, e, why, partial);   /* on OOM the status line still says it */
    sc->st.unread_files = (int64_t)sc->unread.n;
    snprintf(sc->st.last_error, sizeof sc->st.last_error, "%.250s: %.500s",
             base ? base + 1 : rel, why);
    sc->err_transient = 1;
    pthread_mutex_unlock(&sc->mu);
}

/* After a pass that succeeded (mu held): a failure it did not repeat is
 * over; the status names the newest file still not read, if any. */
static void settle_last_error(scanner *sc)
{
    if (!sc->err_transient)
        return;
    sc->err_transient = 0;
    sc->st.last_error[0] = '\0';
    if (sc->unread.n) {
        const unread_item *u = &sc->unread.v[sc->unread.n - 1];
        const char *base = strrchr(u->e->key, '/');
        snprintf(sc->st.last_error, sizeof sc->st.last_error, "%.250s: %.500s",
                 base ? base + 1 : u->e->key, u->why);
        sc->err_transient = 1;
    }
}

/* unread_at is read under mu too: clearing another entry renumbers the
 * entries after it, and node workers note their files at once. */
void scan_note_read(scanner *sc, cat_entry *e)
{
    pthread_mutex_lock(&sc->mu);
    if (e->unread_at) {
        scan_unread_clear(&sc->unread, e);
        sc->st.unread_files = (int64_t)sc->unread.n;
    }
    pthread_mutex_unlock(&sc->mu);
}

scanner *scanner_new(source *src, const char *root, model *m,
                     const scanner_opts *opts, sm_err *err)
{
    scanner *sc = calloc(1, sizeof *sc);
    if (!sc || (root && !(sc->root = strdup(root))) || !(sc->cat = catalog_new()) ||
        !(sc->carry = trace_carry_new()) || !(sc->tfb = tf_meta_book_new())) {
        if (sc) {
            free(sc->root);
            catalog_free(sc->cat);
            trace_carry_free(sc->carry);
        }
        free(sc);
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    sc->src = src;
    sc->m = m;
    if (opts)
        sc->o = *opts;
    if (sc->o.window_us <= 0)
        sc->o.window_us = DEFAULT_WINDOW_US;
    if (sc->o.batch == 0)
        sc->o.batch = DEFAULT_BATCH;
    if (sc->o.read_chunk == 0)
        sc->o.read_chunk = SCAN_READ_CHUNK;
    sc->st.waiting = !root && sc->o.wait;
    sc->st.started_us = scan_wall_us();
    pthread_mutex_init(&sc->mu, NULL);
    return sc;
}

void scanner_free(scanner *sc)
{
    if (!sc)
        return;
    if (sc->cat)
        scan_stream_abandon_all(sc);
    catalog_free(sc->cat);
    tf_meta_book_free(sc->tfb);
    scan_unread_free(&sc->unread);
    scan_adopt_free(&sc->adopt);
    trace_carry_free(sc->carry);
    sys_decode_scratch_free(&sc->scratch);
    pthread_mutex_destroy(&sc->mu);
    free(sc->win_after[0]);
    free(sc->win_after[1]);
    free(sc->work);
    free(sc->root);
    free(sc->sbuf);
    free(sc);
}

/* ---- root discovery ---------------------------------------------------- */

typedef struct probe {
    int found;
} probe;

static int probe_cb(void *ud, const source_entry *e)
{
    (void)e;
    ((probe *)ud)->found = 1;
    return 1;
}

static int has_any(source *src, const char *prefix, sm_err *err)
{
    probe p = {0};
    if (source_list(src, prefix, NULL, probe_cb, &p, err) != 0)
        return -1;
    return p.found;
}

int scanner_probe_root(source *src, char *root, size_t cap, size_t *jobs, sm_err *err)
{
    static const char *const roots[] = {"", "profiler-output/"};
    static const char *const dirs[] = {"system/", "framework/"};
    size_t njobs = 0;
    if (!jobs)
        jobs = &njobs;
    *jobs = 0;
    for (size_t r = 0; r < 2; r++)
        for (size_t d = 0; d < 2; d++) {
            char prefix[512];
            snprintf(prefix, sizeof prefix, "%s%s", roots[r], dirs[d]);
            int found = has_any(src, prefix, err);
            if (found < 0)
                return -1;
            if (found) {
                snprintf(root, cap, "%s", roots[r]);
                return 1;
            }
        }
    /* A folder holding SageMaker jobs is not one folder of traces: its
     * JSON files are their system metrics and timelines (the caller then
     * names the jobs inside). */
    char job[1][SCAN_JOB_NAME];
    sm_err e2 = {0};
    *jobs = scan_find_jobs(src, job, 1, &e2);
    if (*jobs > 0)
        return 0;
    return scan_kineto_probe(src, root, cap, err);
}

int scanner_find_root(source *src, char *root, size_t cap, sm_err *err)
{
    size_t inside = 0;
    int found = scanner_probe_root(src, root, cap, &inside, err);
    if (found < 0)
        return -1;
    if (found)
        return 0;
    /* the probe counted the jobs; list again only for their names */
    char jobs[3][SCAN_JOB_NAME];
    sm_err e2 = {0};
    size_t n = inside > 0 ? scan_find_jobs(src, jobs, 3, &e2) : 0;
    if (n > 0)
        return sm_err_set(err, SM_ERR_NOTFOUND,
                          "%s holds %zu job%s (%s%s%s%s%s%s), not one: "
                          "open one of them, e.g. %s/%s", source_describe(src), n,
                          n == 1 ? "" : "s", jobs[0], n > 1 ? ", " : "", n > 1 ? jobs[1] : "",
                          n > 2 ? ", " : "", n > 2 ? jobs[2] : "", n > 3 ? ", ..." : "",
                          source_describe(src), jobs[0]);
    return sm_err_set(err, SM_ERR_NOTFOUND,
                      "%s holds no profiler data: expected system/ or framework/ "
                      "(or a job directory containing profiler-output/), or PyTorch "
                      "profiler traces (*.pt.trace.json[.gz])",
                      source_describe(src));
}

/* Before the first pass that finds data: 1 once the root is known, 0
 * while waiting for a job that has written nothing yet (opts.wait), -1
 * with err otherwise. The root never changes once found; it is set under
 * mu because scanner_root reads it from other threads. */
/* Waiting on a folder that holds jobs rather than being one would wait
 * forever: once, look inside; when jobs are there, every pass fails
 * naming them (the dashboard's status line then says what to type).
 * 0 (go on waiting), or -1 with err. */
static int jobs_inside(scanner *sc, sm_err *err)
{
    if (!sc->jobs_checked) {
        char root[256];
        sm_err e = {0};
        sc->jobs_checked = 1;
        if (scanner_find_root(sc->src, root, sizeof root, &e) < 0 && strstr(e.msg, "), not one: "))
            snprintf(sc->jobs_msg, sizeof sc->jobs_msg, "%s", e.msg);
    }
    return sc->jobs_msg[0] ? sm_err_set(err, SM_ERR_NOTFOUND, "%s", sc->jobs_msg) : 0;
}

static int resolve_root(scanner *sc, sm_err *err)
{
    if (sc->root)
        return 1;
    char root[256];
    int found = sc->o.wait ? scanner_probe_root(sc->src, root, sizeof root, NULL, err)
                : scanner_find_root(sc->src, root, sizeof root, err) == 0 ? 1 : -1;
    if (found == 0)
        return jobs_inside(sc, err);
    if (found < 0)
        return found;
    char *r = strdup(root);
    if (!r)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&sc->mu);
    sc->root = r;
    sc->st.waiting = 0;
    pthread_mutex_unlock(&sc->mu);
    return 1;
}
/* A pass over a source that holds nothing yet: done, still waiting. */
static int pass_waiting(scanner *sc)
{
    int cached = source_pass_end(sc->src);
    pthread_mutex_lock(&sc->mu);
    sc->st.listing_cached = cached;
    sc->st.scanning = 0;
    sc->st.waiting = 1;
    sc->st.last_scan_us = scan_wall_us();
    sc->st.passes++;
    pthread_mutex_unlock(&sc->mu);
    return 0;
}

int scanner_scan(scanner *sc, sm_err *err)
{
    if (sc->shed)
        return sm_err_set(err, SM_ERR_IO, "the job was declared final: no pass follows");
    pthread_mutex_lock(&sc->mu);
    sc->st.scanning = 1;
    sc->st.pass_started_us = scan_wall_us();
    sc->st.pass_files = sc->st.pass_bytes = sc->st.pass_bytes_read = 0;
    pthread_mutex_unlock(&sc->mu);
    int rc = resolve_root(sc, err);
    if (rc == 0)
        return pass_waiting(sc);
    sc->pass++;
    if (rc > 0)
        rc = scan_list_newest_first(sc, err);
    rc = rc < 0 ? -1 : scan_list_all(sc, err);
    if (rc == 0 && (scan_list_update_windows(sc) != 0 || scan_order_build(sc) != 0))
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (rc == 0) {
        scan_progress_add_work(sc);
        pthread_mutex_lock(&sc->mu);
        sc->st.files_known = (int64_t)catalog_count(sc->cat) + sc->forgotten;
        pthread_mutex_unlock(&sc->mu);
        rc = scan_round_fetch_work(sc, err);
    }
    if (rc == 0)
        scan_list_forget_behind(sc);
    int cached = source_pass_end(sc->src);
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_flush(sc->m, 0);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    pthread_mutex_lock(&sc->mu);
    sc->st.scanning = 0;
    sc->st.files_pending = 0;
    sc->st.listing_cached = rc == 0 && cached;
    sc->st.last_scan_us = scan_wall_us();
    if (rc == 0) {
        sc->st.passes++;
        settle_last_error(sc);
    } else {
        snprintf(sc->st.last_error, sizeof sc->st.last_error, "%s", err ? err->msg : "scan failed");
        sc->err_transient = 1;
    }
    pthread_mutex_unlock(&sc->mu);
    return rc;
}

void scan_progress_add_work(scanner *sc)
{
    int64_t bytes = 0;
    for (size_t i = 0; i < sc->nwork; i++)
        if (sc->work[i]->size > sc->work[i]->consumed)
            bytes += sc->work[i]->size - sc->work[i]->consumed;
    pthread_mutex_lock(&sc->mu);
    sc->st.files_pending = (int64_t)sc->nwork;
    sc->st.pass_files += (int64_t)sc->nwork;
    sc->st.pass_bytes += bytes;
    pthread_mutex_unlock(&sc->mu);
}

void scanner_finish(scanner *sc)
{
    ingest_ctx cx = {.w = model_writer(sc->m), .scratch = &sc->scratch, .carry = sc->carry};
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    size_t it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it))) {
        if (!scan_is_line_kind(e->ki.kind))
            continue;
        model_drops before, after;
        model_get_drops(sc->m, &before);
        scan_ingest_finish_entry(&cx, e);
        model_get_drops(sc->m, &after);
        scan_feed_note_drops(sc, scan_rel_key(sc, e->key), &before, &after);
    }
    model_flush(sc->m, 1);
    size_t nb = trace_carry_waiting_b(sc->carry), ne = trace_carry_waiting_e(sc->carry);
    size_t lost = trace_carry_dropped(sc->carry);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    if (nb || ne || lost) {
        char what[200];
        snprintf(what, sizeof what, "%zu B event%s without an E in a later file of the "
                 "writer, %zu E event%s without a B in an earlier one%s: not shown",
                 nb, nb == 1 ? "" : "s", ne, ne == 1 ? "" : "s",
                 lost ? " (more dropped past the bound)" : "");
        scan_add_message(sc, "framework/pevents/", what);
    }
    pthread_mutex_lock(&sc->mu);
    sc->st.lines += cx.n.lines;
    sc->st.corrupt_lines += cx.n.corrupt;
    sc->st.partial_lines += cx.n.partial;
    pthread_mutex_unlock(&sc->mu);
}

int scanner_root(scanner *sc, char *buf, size_t cap)
{
    pthread_mutex_lock(&sc->mu);
    int known = sc->root != NULL;
    snprintf(buf, cap, "%s", known ? sc->root : "");
    pthread_mutex_unlock(&sc->mu);
    return known;
}

size_t scanner_catalog_bytes(const scanner *sc)
{
    return catalog_bytes(sc->cat);
}

void scanner_get_stats(scanner *sc, scan_stats *out)
{
    pthread_mutex_lock(&sc->mu);
    *out = sc->st;
    pthread_mutex_unlock(&sc->mu);
}

static int names_unread(const cat_entry *e, void *ud)
{
    (void)ud;
    return e->unread_at != 0;
}

void scanner_shed(scanner *sc)
{
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    pthread_mutex_lock(&sc->mu);
    if (catalog_retain(sc->cat, names_unread, NULL) == 0) {
        sc->nwork = 0;      /* pointed at entries now gone */
        scan_adopt_free(&sc->adopt);
        memset(&sc->adopt, 0, sizeof sc->adopt);
    }
    sc->shed = 1;
    pthread_mutex_unlock(&sc->mu);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
}

size_t scanner_unread(scanner *sc, scanner_unread_cb cb, void *ud)
{
    return scanner_unread_at(sc, 0, cb, ud);
}

size_t scanner_unread_at(scanner *sc, int ended, scanner_unread_cb cb, void *ud)
{
    pthread_mutex_lock(&sc->mu);
    /* The dashboard asks before the first pass has found the root. */
    size_t n = sc->unread.n;
    for (size_t i = 0; i < n; i++) {
        const unread_item *u = &sc->unread.v[i];
        char why[SCANNER_MSG_LEN + 96];
        snprintf(why, sizeof why, "%s%s", u->why, !u->partial ? ""
                 : ended ? ": truncated (the job has ended; the file will not be completed)"
                         : ": still being written?; read again once it changes");
        cb(ud, scan_rel_key(sc, u->e->key), why);
    }
    pthread_mutex_unlock(&sc->mu);
    return n;
}

size_t scanner_messages(scanner *sc, char (*out)[SCANNER_MSG_LEN], size_t max)
{
    pthread_mutex_lock(&sc->mu);
    size_t n = sc->msg_count < max ? sc->msg_count : max;
    size_t first = sc->msg_count - n;
    for (size_t i = 0; i < n; i++)
        memcpy(out[i], sc->msgs[(sc->msg_head + first + i) % SCANNER_MSG_MAX],
               SCANNER_MSG_LEN);
    pthread_mutex_unlock(&sc->mu);
    return n;
}
