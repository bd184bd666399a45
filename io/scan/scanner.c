/* scanner: one pass = list → diff against the catalog → fetch new bytes
 * newest first → ingest. See scanner.h for the contract. */
#include "io/scan/scanner.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/scan/catalog.h"
#include "io/scan/scan_adopt.h"
#include "io/scan/scan_ingest.h"
#include "io/scan/scan_fetch.h"
#include "io/scan/scan_unread.h"
#include "io/decode/sys_decode.h"
#include "io/decode/tf_meta.h"
#include "io/decode/tf_trace.h"
#include "model/util/idmap.h"

#define DEFAULT_WINDOW_US (5LL * 60 * 1000000)
#define DEFAULT_BATCH 64
/* Files the pool hints to the source ahead of its reads
 * (source_prefetch): a few MB, enough to keep a disk reading while the
 * pool decodes what it read before. */
#define PREFETCH_AHEAD 8

struct scanner {
    source *src;
    char *root;                  /* key prefix of profiler-output, "" or "x/" */
    int jobs_checked;            /* jobs_inside looked (once, while waiting) */
    char jobs_msg[SCANNER_MSG_LEN];  /* "" or the jobs it found inside */
    model *m;
    scanner_opts o;
    void (*on_ingest)(void *ud);   /* scanner_on_ingest */
    void *on_ingest_ud;
    catalog *cat;
    adopt_list adopt;            /* open .tmp trace files, for rename matching */
    int adopt_any;               /* this round: a .tmp is or will be tracked */
    trace_carry *carry;          /* B/E pairs split across a writer's files */
    sysdec_scratch scratch;
    int64_t newest_sys_us, newest_trace_us;
    uint64_t pass;               /* passes begun; cat_entry.listed */
    /* Start-after keys (relative) of the windowed listings, system/ and
     * framework/pevents/: they only move forward, and a file at or before
     * them is never listed again, so once read it leaves the catalog
     * (`forgotten` counts those). */
    char *win_after[2];
    int64_t forgotten;
    cat_entry **work;
    size_t nwork, capwork;
    predec *pre;                 /* lines of the file being ingested that
                                    the fetch thread decoded ahead, or NULL */
    tf_meta_book *tfb;           /* smdebug's TF session records, by step dir */
    pthread_mutex_t mu;          /* guards st, msgs and unread */
    scan_stats st;
    char msgs[SCANNER_MSG_MAX][SCANNER_MSG_LEN];
    size_t msg_head, msg_count;
    unread_list unread;          /* files not read, with why */
    /* st.last_error says why a pass failed or why a file is not read:
     * true only until S3 answers again, so a pass that succeeds puts the
     * status right (a data problem, e.g. corrupt lines, stays said). */
    int err_transient;
    int shed;                    /* scanner_shed ran: no pass may follow */
};

static int64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void add_message(scanner *sc, const char *key, const char *what)
{
    pthread_mutex_lock(&sc->mu);
    size_t slot = (sc->msg_head + sc->msg_count) % SCANNER_MSG_MAX;
    if (sc->msg_count == SCANNER_MSG_MAX)
        sc->msg_head = (sc->msg_head + 1) % SCANNER_MSG_MAX;
    else
        sc->msg_count++;
    /* Bounded so the message always fits: a path and an error sentence. */
    snprintf(sc->msgs[slot], SCANNER_MSG_LEN, "%.250s: %.500s", key, what);
    snprintf(sc->st.last_error, sizeof sc->st.last_error, "%s", sc->msgs[slot]);
    sc->err_transient = 0;
    pthread_mutex_unlock(&sc->mu);
}

/* Names e as not read, with why (replacing an earlier reason), for the
 * report's list and the status line. The status line has one row: it
 * gets the file's own name, the report the whole key. */
static void note_unread(scanner *sc, cat_entry *e, const char *rel, const char *why)
{
    const char *base = strrchr(rel, '/');
    pthread_mutex_lock(&sc->mu);
    scan_unread_set(&sc->unread, e, why);   /* on OOM the status line still says it */
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

static void note_read(scanner *sc, cat_entry *e)
{
    if (!e->unread_at)
        return;
    pthread_mutex_lock(&sc->mu);
    scan_unread_clear(&sc->unread, e);
    sc->st.unread_files = (int64_t)sc->unread.n;
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
    sc->st.started_us = wall_us();
    pthread_mutex_init(&sc->mu, NULL);
    return sc;
}

void scanner_free(scanner *sc)
{
    if (!sc)
        return;
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

int scanner_probe_root(source *src, char *root, size_t cap, sm_err *err)
{
    static const char *const roots[] = {"", "profiler-output/"};
    static const char *const dirs[] = {"system/", "framework/"};
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
    return 0;
}

int scanner_find_root(source *src, char *root, size_t cap, sm_err *err)
{
    int found = scanner_probe_root(src, root, cap, err);
    if (found < 0)
        return -1;
    if (found)
        return 0;
    char jobs[3][SCAN_JOB_NAME];
    sm_err e2 = {0};
    size_t n = scanner_find_jobs(src, jobs, 3, &e2);
    if (n > 0)
        return sm_err_set(err, SM_ERR_NOTFOUND,
                          "%s holds %zu job%s (%s%s%s%s%s%s), not one: "
                          "open one of them, e.g. %s/%s", source_describe(src), n,
                          n == 1 ? "" : "s", jobs[0], n > 1 ? ", " : "", n > 1 ? jobs[1] : "",
                          n > 2 ? ", " : "", n > 2 ? jobs[2] : "", n > 3 ? ", ..." : "",
                          source_describe(src), jobs[0]);
    return sm_err_set(err, SM_ERR_NOTFOUND,
                      "%s holds no profiler data: expected system/ or framework/ "
                      "(or a job directory containing profiler-output/)",
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
    int found = sc->o.wait ? scanner_probe_root(sc->src, root, sizeof root, err)
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

/* ---- listing ----------------------------------------------------------- */

static int is_line_kind(key_kind k)
{
    return k == KEY_SYSTEM || k == KEY_TRACE || k == KEY_TRACE_TMP;
}

/* A listed object whose ETag changed: decide between "grew" and "replaced". */
static void note_changed(scanner *sc, cat_entry *e, const source_entry *se)
{
    int replaced = se->size < e->consumed || sc->src->vt->etag_is_identity;
    if (!replaced || !is_line_kind(e->ki.kind))
        return;
    if (e->ki.kind == KEY_TRACE_TMP && e->consumed > 0) {
        /* The writer renamed it and began a new file at the same path:
         * its state waits for the closed file, and the new file shares no
         * event with it (its events may even end earlier: hooks on other
         * threads finish out of order). */
        scan_adopt_stash(&sc->adopt, e);
        e->high_water_us = 0;
    }
    e->skip_until_us = e->high_water_us;
    catalog_entry_reset(e);
}

/* A closed trace read to its end whose file is now longer: smdebug never
 * appends to one (scan_ingest keeps no decoder for it), so whatever did
 * (a copy still being written, a hand edit) gets it read again from its
 * start, as a replacement: events already shown are skipped, and the
 * warnings name the file. */
static void closed_trace_grew(scanner *sc, cat_entry *e, const source_entry *se,
                              const char *rel)
{
    if (e->ki.kind != KEY_TRACE || e->consumed <= 0 || e->consumed < e->size ||
        se->size <= e->consumed)
        return;
    add_message(sc, rel, "a closed trace file grew after it was read (smdebug never "
                         "appends to one): read again from its start, events already "
                         "shown skipped");
    e->skip_until_us = e->high_water_us;
    catalog_entry_reset(e);
}

static void track_newest(scanner *sc, const key_info *ki)
{
    if (ki->kind == KEY_SYSTEM && ki->time_us > sc->newest_sys_us) {
        sc->newest_sys_us = ki->time_us;
    } else if (ki->kind == KEY_TRACE && ki->time_us > sc->newest_trace_us) {
        sc->newest_trace_us = ki->time_us;
    }
}

/* Records a TF session's .metadata; a trace of its step directory that
 * could not be placed before is fetched again. 0, or -1 on OOM. */
static int note_tf_meta(scanner *sc, const char *rel)
{
    int rc = tf_meta_book_note(sc->tfb, rel);
    if (rc <= 0)
        return rc;
    size_t dl = tf_meta_step_dir_len(rel), rl = strlen(sc->root), it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it)))
        if (e->ki.kind == KEY_TF_TRACE && e->unread_at && !strncmp(e->key + rl, rel, dl))
            e->whole_size = -1;
    return 0;
}

typedef struct list_ctx {
    scanner *sc;
    const char *stop_at;   /* stop the listing at the first key with this prefix */
    int oom;
} list_ctx;

/* A folder or file the source could not list: on the list of what is not
 * read (the report's warnings, the status line), once (the catalog
 * remembers it), and the listing goes on. */
static int note_unlisted(list_ctx *lc, const char *key, const char *rel, const char *why)
{
    cat_entry *e = catalog_get(lc->sc->cat, key);
    if (e)
        return 0;
    if (!(e = catalog_add(lc->sc->cat, key))) {
        lc->oom = 1;
        return 1;
    }
    e->failed = 1;
    note_unread(lc->sc, e, rel, why);
    return 0;
}

static int list_cb(void *ud, const source_entry *se)
{
    list_ctx *lc = ud;
    scanner *sc = lc->sc;
    size_t rl = sc->root ? strlen(sc->root) : 0;
    const char *rel;
    if (rl && !strncmp(se->key, "rule-output/", 12))
        rel = se->key;   /* job-relative, see list_all */
    else if (!strncmp(se->key, sc->root, rl))
        rel = se->key + rl;
    else
        return 0;
    if (lc->stop_at && !strncmp(rel, lc->stop_at, strlen(lc->stop_at)))
        return 1;
    if (se->error)
        return note_unlisted(lc, se->key, rel, se->error);
    key_info ki;
    keyname_parse(rel, &ki);
    if (ki.kind == KEY_TF_META)
        return note_tf_meta(sc, rel) < 0 ? (lc->oom = 1) : 0;
    const char *why = ki.kind == KEY_OTHER ? keyname_unread_reason(rel) : NULL;
    if (ki.kind == KEY_OTHER && !why)
        return 0;   /* not profiler data (e.g. rule output's HTML) */
    cat_entry *e = catalog_get(sc->cat, se->key);
    if (!e) {
        if (!(e = catalog_add_with_etag(sc->cat, se->key, se->etag))) {
            lc->oom = 1;
            return 1;
        }
        if (catalog_set_info(sc->cat, e, &ki) != 0) {
            lc->oom = 1;
            return 1;
        }
        if (why)
            note_unread(sc, e, rel, why);
    } else if (se->etag && se->etag[0] && e->etag && strcmp(se->etag, e->etag)) {
        note_changed(sc, e, se);
        if (catalog_set_etag(e, se->etag) != 0) {
            lc->oom = 1;
            return 1;
        }
        closed_trace_grew(sc, e, se, rel);   /* no-op when replaced */
    } else {
        closed_trace_grew(sc, e, se, rel);
    }
    e->size = se->size;
    e->listed = sc->pass;
    track_newest(sc, &ki);
    return 0;
}

static int list_prefix(scanner *sc, const char *rel_prefix, const char *rel_after,
                       const char *stop_at, sm_err *err)
{
    char prefix[1024], after[1024] = "";
    snprintf(prefix, sizeof prefix, "%s%s", sc->root, rel_prefix);
    if (rel_after && rel_after[0])
        snprintf(after, sizeof after, "%s%s", sc->root, rel_after);
    list_ctx lc = {sc, stop_at, 0};
    if (source_list(sc->src, prefix, after, list_cb, &lc, err) != 0)
        return -1;
    if (lc.oom)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory while listing %s", prefix);
    return 0;
}

/* The windowed listings and the key kind each one lists. */
static const char *const win_prefix[2] = {"system/incremental/", "framework/pevents/"};
static const key_kind win_kind[2] = {KEY_SYSTEM, KEY_TRACE};

/* Moves the start-after key of each windowed listing to the greatest
 * catalog key of its kind whose time is at least `window_us` older than
 * the newest one. Taken from keys actually seen rather than formatted
 * from a time, so it holds whatever hour-folder convention (UTC or not)
 * the writer used. Run after a listing: the catalog then holds every key
 * past the previous start-after. 0, or -1 on OOM. */
static int update_windows(scanner *sc)
{
    const int64_t newest[2] = {sc->newest_sys_us, sc->newest_trace_us};
    const char *best[2] = {sc->win_after[0], sc->win_after[1]};
    size_t rl = strlen(sc->root), it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it)))
        for (int w = 0; w < 2; w++)
            if (e->ki.kind == win_kind[w] && newest[w] &&
                e->ki.time_us <= newest[w] - sc->o.window_us &&
                (!best[w] || strcmp(e->key + rl, best[w]) > 0))
                best[w] = e->key + rl;
    for (int w = 0; w < 2; w++) {
        if (best[w] == sc->win_after[w])
            continue;
        char *k = strdup(best[w]);
        if (!k)
            return -1;
        free(sc->win_after[w]);
        sc->win_after[w] = k;
    }
    return 0;
}

/* Whether e will never be listed again and holds nothing still to do:
 * read, no held line, not on the unread list. */
static int entry_forgettable(const scanner *sc, const cat_entry *e)
{
    size_t rl = strlen(sc->root);
    for (int w = 0; w < 2; w++)
        if (e->ki.kind == win_kind[w] && sc->win_after[w] &&
            !strncmp(e->key + rl, win_prefix[w], strlen(win_prefix[w])) &&
            strcmp(e->key + rl, sc->win_after[w]) <= 0)
            return !e->partial_len && !e->js && !e->unread_at;
    return 0;
}

/* A file behind the windows, read to its listed size, is forgotten as
 * soon as it is ingested rather than when the pass ends: the first pass
 * over a long job's history (a day of 16 nodes: 46k files) then never
 * holds an entry, a key and a decoder for every file it has read (issue
 * 15). Its slot in the work list goes NULL; nothing reads it again this
 * round (keep_unfinished skips it, the fetch threads only look ahead). */
static void forget_if_read(scanner *sc, cat_entry *e)
{
    if (!e || !is_line_kind(e->ki.kind) || e->consumed < e->size || !entry_forgettable(sc, e))
        return;
    sc->work[e->work_at] = NULL;
    catalog_remove(sc->cat, e);
    sc->forgotten++;
}

/* Appends e to the work list; 0, or -1 on OOM. */
static int work_push(scanner *sc, cat_entry *e)
{
    if (sc->nwork == sc->capwork) {
        size_t ncap = sc->capwork ? sc->capwork * 2 : 256;
        cat_entry **nw = realloc(sc->work, ncap * sizeof *nw);
        if (!nw)
            return -1;
        sc->work = nw;
        sc->capwork = ncap;
    }
    sc->work[sc->nwork++] = e;
    return 0;
}

/* Drops the entries behind the windows, so later passes walk only what
 * can still change (the work list is free after a pass: it collects them,
 * as removing during the walk would move entries past it). On OOM the
 * rest stays for the next pass. */
static void forget_behind(scanner *sc)
{
    size_t it = 0;
    cat_entry *e;
    sc->nwork = 0;
    while ((e = catalog_next(sc->cat, &it)))
        if (entry_forgettable(sc, e) && work_push(sc, e) != 0)
            break;
    for (size_t i = 0; i < sc->nwork; i++)
        catalog_remove(sc->cat, sc->work[i]);
    sc->forgotten += (int64_t)sc->nwork;
    sc->nwork = 0;
}

/* Lists everything that may have changed since the last pass. */
static int list_all(scanner *sc, sm_err *err)
{
    for (int w = 0; w < 2; w++)
        if (list_prefix(sc, win_prefix[w], sc->win_after[w], NULL, err) != 0)
            return -1;
    /* The rest of framework/ (open .tmp traces, python stats, TF traces)
     * sits on either side of pevents/, which the call above covered. */
    if (list_prefix(sc, "framework/", NULL, "framework/pevents/", err) != 0)
        return -1;
    if (list_prefix(sc, "framework/", "framework/pevents0", NULL, err) != 0)
        return -1;
    /* SageMaker writes rule output beside profiler-output, so it is only
     * reachable when the user pointed at the job directory. */
    if (sc->root[0]) {
        list_ctx lc = {sc, NULL, 0};
        if (source_list(sc->src, "rule-output/", NULL, list_cb, &lc, err) != 0)
            return -1;
    }
    return 0;
}

/* ---- work list: what to fetch this pass, newest first ------------------ */

static int64_t entry_time(const cat_entry *e)
{
    return e->ki.kind == KEY_TRACE_TMP ? INT64_MAX : e->ki.time_us;
}

static int work_cmp(const void *a, const void *b)
{
    const cat_entry *x = *(cat_entry *const *)a, *y = *(cat_entry *const *)b;
    int64_t tx = entry_time(x), ty = entry_time(y);
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return strcmp(y->key, x->key);
}

static int needs_fetch(const cat_entry *e)
{
    if (e->ki.kind == KEY_OTHER)
        return 0;
    if (is_line_kind(e->ki.kind))
        return e->size > e->consumed;
    return e->size > 0 && e->size != e->whole_size;
}

static int same_node(const void *item, const void *key)
{
    return !strcmp(((const cat_entry *)item)->ki.node, key);
}

/* Moves each node's newest system file to the front (the work list is
 * newest first): a dashboard shows every node's latest minute before any
 * history or trace is read, whatever the nodes' clocks and file counts.
 * Traces keep their order among themselves (open .tmp files before the
 * closed ones they may be adopted into). 0, or -1 on OOM. */
static int newest_system_first(scanner *sc)
{
    cat_entry **tmp = malloc(sc->nwork * sizeof *tmp);
    idmap seen;
    idmap_init(&seen);
    if (!tmp)
        return -1;
    size_t nfirst = 0, nrest = 0;
    int rc = 0;
    for (size_t i = 0; i < sc->nwork; i++) {
        cat_entry *e = sc->work[i];
        int first = 0;
        if (e->ki.kind == KEY_SYSTEM && rc == 0) {
            sm_str part = {e->ki.node, strlen(e->ki.node)};
            uint64_t h = idmap_hash(&part, 1);
            first = !idmap_find(&seen, h, same_node, e->ki.node);
            if (first && idmap_put(&seen, h, e) != 0)
                rc = -1;
        }
        if (first)
            sc->work[nfirst++] = e;
        else
            tmp[nrest++] = e;
    }
    memcpy(sc->work + nfirst, tmp, nrest * sizeof *tmp);
    free(tmp);
    idmap_free(&seen);
    return rc;
}

static int build_work(scanner *sc)
{
    sc->nwork = 0;
    size_t it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it))) {
        if (e->listed != sc->pass || !needs_fetch(e))
            continue;
        if (work_push(sc, e) != 0)
            return -1;
    }
    if (!sc->nwork)   /* qsort(NULL, 0, ...) is undefined */
        return 0;
    qsort(sc->work, sc->nwork, sizeof *sc->work, work_cmp);
    return newest_system_first(sc);
}

/* ---- fetching and ingesting ------------------------------------------- */

/* A system file is final once a newer minute of the same node exists: the
 * profiler has moved on. Closed trace files are final by name. */
static int entry_is_final(const scanner *sc, const cat_entry *e, size_t len)
{
    (void)sc;
    /* A large closed file comes in several reads: the last one ends it. */
    return e->ki.kind == KEY_TRACE && e->consumed + (int64_t)len >= e->size;
}

/* Names the file the records the model refused came from (a..b are the
 * model's counts before and after ingesting it). */
static void note_drops(scanner *sc, const char *rel, const model_drops *b,
                       const model_drops *a)
{
    char what[256];
    if (a->bad_time != b->bad_time) {
        int64_t n = a->bad_time - b->bad_time;
        snprintf(what, sizeof what,
                 "%lld record%s with a time outside 2000-2100 ignored (latest: %.6g s "
                 "since 1970%s)", (long long)n, n == 1 ? "" : "s",
                 (double)a->bad_time_us / 1e6,
                 model_time_plausible(a->bad_time_us / 1000) ? ": milliseconds as seconds?" : "");
        add_message(sc, rel, what);
    }
    if (a->series_cap != b->series_cap) {
        snprintf(what, sizeof what,
                 "%lld samples dropped: their series are past the cap of %d per node "
                 "or %d in all", (long long)(a->series_cap - b->series_cap),
                 MODEL_NODE_SERIES_MAX, MODEL_SERIES_MAX);
        add_message(sc, rel, what);
    }
    if (a->node_cap != b->node_cap) {
        snprintf(what, sizeof what, "%lld records dropped: their nodes are past the cap of %d",
                 (long long)(a->node_cap - b->node_cap), MODEL_NODE_MAX);
        add_message(sc, rel, what);
    }
}

/* Hands a whole file to on_file; a TF trace first gets its node and
 * session start from smdebug's record (ki.node, ki.time_us; time_us 0
 * when there is none, and on_file may then anchor it otherwise). */
static void ingest_whole(scanner *sc, cat_entry *e, const void *data, size_t len)
{
    e->whole_size = e->size;
    if (!sc->o.on_file)
        return;
    sm_err err = {0}, place = {0};
    const char *rel = e->key + (strncmp(e->key, "rule-output/", 12) ? strlen(sc->root) : 0);
    key_info ki;
    catalog_entry_info(e, &ki);
    int placed = 1;
    if (ki.kind == KEY_TF_TRACE) {
        tf_place pl;
        placed = tf_meta_place(sc->tfb, rel, &pl, &place) == 0;
        if (placed) {
            snprintf(ki.node, sizeof ki.node, "%s", pl.node);
            ki.time_us = pl.base_us;
        }
    }
    model_drops before, after;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_get_drops(sc->m, &before);
    int rc = sc->o.on_file(sc->o.on_file_ud, &ki, rel, data, len, &err);
    model_get_drops(sc->m, &after);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    note_drops(sc, rel, &before, &after);
    if (rc == 0) {
        note_read(sc, e);
        return;
    }
    pthread_mutex_lock(&sc->mu);
    if (!e->unread_at)
        sc->st.skipped_files++;
    pthread_mutex_unlock(&sc->mu);
    /* An unplaced trace says what record it lacks, not only that the
     * step's start is unknown. */
    char why[SCANNER_MSG_LEN];
    snprintf(why, sizeof why, "not read: %s",
             !placed && err.code == SM_ERR_NOTFOUND ? place.msg : err.msg);
    note_unread(sc, e, rel, why);
}

static void ingest_lines(scanner *sc, cat_entry *e, const char *data, size_t len)
{
    ingest_ctx cx = {.m = sc->m, .scratch = &sc->scratch, .carry = sc->carry};
    cx.pre = sc->pre;
    int64_t corrupt_before = e->corrupt;
    model_drops before, after;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_get_drops(sc->m, &before);
    size_t skip = 0;
    if (e->ki.kind == KEY_TRACE && e->consumed == 0)
        skip = scan_adopt_take(&sc->adopt, e, data, len);
    if (e->ki.kind == KEY_TRACE_TMP)
        scan_adopt_track(&sc->adopt, e);
    if (e->ki.kind == KEY_SYSTEM)
        model_set_stream(sc->m, e->id);   /* one file, one stream */
    int rc = scan_ingest_bytes(&cx, e, data, len, skip, entry_is_final(sc, e, len));
    model_get_drops(sc->m, &after);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    pthread_mutex_lock(&sc->mu);
    sc->st.lines += cx.n.lines;
    sc->st.corrupt_lines += cx.n.corrupt;
    sc->st.partial_lines += cx.n.partial;
    pthread_mutex_unlock(&sc->mu);
    const char *rel = e->key + strlen(sc->root);
    if (rc != 0)
        add_message(sc, rel, "out of memory, will retry");
    note_drops(sc, rel, &before, &after);
    if (e->corrupt != corrupt_before) {
        char what[128];
        snprintf(what, sizeof what, "%lld corrupt line%s skipped (first: \"%s\")",
                 (long long)(e->corrupt - corrupt_before),
                 e->corrupt - corrupt_before == 1 ? "" : "s", cx.first_bad);
        add_message(sc, rel, what);
    }
}

static void fetch_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *err)
{
    scanner *sc = ud;
    cat_entry *e = req->user;
    if (!err && etag && e->etag && sc->src->vt->etag_is_identity && strcmp(etag, e->etag)) {
        /* The path now names another file than the one listed (the writer
         * renamed the .tmp and started a new one in between): its bytes do
         * not continue this entry. The next listing sees the change. */
        len = 0;
    }
    pthread_mutex_lock(&sc->mu);
    if (sc->st.files_pending > 0)
        sc->st.files_pending--;
    if (!err)
        sc->st.bytes_read += (int64_t)len;
    pthread_mutex_unlock(&sc->mu);
    if (err && err->code == SM_ERR_NOTFOUND && e->ki.kind == KEY_TRACE_TMP)
        return;   /* renamed since the listing: a rotation, seen next pass */
    if (err) {
        if (!e->failed) {
            pthread_mutex_lock(&sc->mu);
            sc->st.skipped_files++;
            pthread_mutex_unlock(&sc->mu);
        }
        e->failed = 1;
        char why[SCANNER_MSG_LEN];
        snprintf(why, sizeof why, "not read: %s", err->msg);
        note_unread(sc, e, e->key + strlen(sc->root), why);
        return;
    }
    e->failed = 0;
    if (is_line_kind(e->ki.kind))
        note_read(sc, e);
    if (is_line_kind(e->ki.kind)) {
        if (len)
            ingest_lines(sc, e, data, len);
    } else {
        ingest_whole(sc, e, data, len);
    }
    if (sc->on_ingest)
        sc->on_ingest(sc->on_ingest_ud);
}

void scanner_on_ingest(scanner *sc, void (*fn)(void *ud), void *ud)
{
    sc->on_ingest = fn;
    sc->on_ingest_ud = ud;
}

/* How much of line file e one read asks for: read_chunk bytes (the first
 * read of a closed trace at least SCAN_FIRST_READ_MIN), the rest in later
 * reads of the pass. A closed trace read from its start
 * while .tmp files are tracked is read whole: scan_adopt matches the .tmp's
 * lines against its first bytes, which one chunk might cut short. Whether
 * any is tracked is taken when the round starts (`adopt_any`): requests
 * are built on the fetch threads while this round's .tmp files are still
 * being ingested. */
static int64_t read_len(const scanner *sc, const cat_entry *e)
{
    /* What fits in one read is asked to the end, as always: a whole closed
     * object is what the S3 cache keeps. */
    if (e->size - e->consumed <= (int64_t)sc->o.read_chunk)
        return -1;
    if (e->ki.kind != KEY_TRACE || e->consumed != 0)
        return (int64_t)sc->o.read_chunk;
    if (sc->adopt_any)
        return -1;
    return (int64_t)(sc->o.read_chunk > SCAN_FIRST_READ_MIN ? sc->o.read_chunk
                                                            : SCAN_FIRST_READ_MIN);
}

/* Builds the request of work[i]. */
static void fill_reqs_into(scanner *sc, source_req *req, size_t i)
{
    cat_entry *e = sc->work[i];
    int whole = !is_line_kind(e->ki.kind);
    e->asked_at = e->consumed;
    *req = (source_req){.key = e->key, .offset = whole ? 0 : e->consumed,
                        .len = whole ? -1 : read_len(sc, e), .user = e};
}

/* The request work[i] will make, built without marking the entry (for a
 * hint: fill_reqs_into builds the real one when the file is claimed). */
static source_req peek_req(const scanner *sc, size_t i)
{
    const cat_entry *e = sc->work[i];
    int whole = !is_line_kind(e->ki.kind);
    return (source_req){.key = e->key, .offset = whole ? 0 : e->consumed,
                        .len = whole ? -1 : read_len(sc, e), .user = sc->work[i]};
}

/* Builds the requests of work[i, i+n). */
static void fill_reqs(scanner *sc, source_req *reqs, size_t i, size_t n)
{
    for (size_t k = 0; k < n; k++)
        fill_reqs_into(sc, &reqs[k], i + k);
}

typedef struct ahead_ctx {
    scanner *sc;
    source_req *reqs;
    atomic_size_t hinted;   /* work items below it were hinted (pool only) */
} ahead_ctx;

/* The decode-ahead kind of a file (its key kind never changes). */
static int ahead_kind(key_kind k)
{
    return k == KEY_SYSTEM ? PREDEC_SYSTEM
           : k == KEY_TRACE || k == KEY_TRACE_TMP ? PREDEC_TRACE : PREDEC_NONE;
}

/* Fetch thread: a callback's arguments go to the scanner's thread, with a
 * line file's lines decoded ahead. Reads nothing but the entry's kind,
 * which no one changes after the listing. */
static void ahead_cb(void *ud, const source_req *req, const void *data, size_t len,
                     const char *etag, const sm_err *err)
{
    scan_fetch *f = ud;
    const cat_entry *e = req->user;
    scan_fetch_put(f, req, data, len, etag, err, err ? PREDEC_NONE : ahead_kind(e->ki.kind));
}

/* One fetch thread, batches of requests (a source whose fetches must not
 * overlap, e.g. S3 with its own parallel transfers). A request reads only
 * its own entry's offset, which nothing but that entry's ingest changes
 * (adoption rewinds an open .tmp, and those come first in the list), so
 * the next batch need not wait for this one to be ingested. */
static int ahead_run(void *ud, scan_fetch *f, sm_err *err)
{
    ahead_ctx *a = ud;
    scanner *sc = a->sc;
    for (size_t i = 0; i < sc->nwork; i += sc->o.batch) {
        size_t n = sc->nwork - i < sc->o.batch ? sc->nwork - i : sc->o.batch;
        fill_reqs(sc, a->reqs, i, n);
        if (source_fetch(sc->src, a->reqs, n, ahead_cb, f, err) != 0)
            return -1;
    }
    return 0;
}

typedef struct pool_one {
    scan_fetch *f;
    size_t k;
    int put;
} pool_one;

static void pool_cb(void *ud, const source_req *req, const void *data, size_t len,
                    const char *etag, const sm_err *err)
{
    pool_one *p = ud;
    const cat_entry *e = req->user;
    scan_fetch_put_at(p->f, p->k, req, data, len, etag, err,
                      err ? PREDEC_NONE : ahead_kind(e->ki.kind));
    p->put = 1;
}

/* Hints the files after claimed item k, up to PREFETCH_AHEAD of them,
 * each once whichever pool thread gets there first. */
static void prefetch_after(ahead_ctx *a, size_t k)
{
    scanner *sc = a->sc;
    size_t want = k + 1 + PREFETCH_AHEAD < sc->nwork ? k + 1 + PREFETCH_AHEAD : sc->nwork;
    size_t h = atomic_load(&a->hinted), next;
    while ((next = h > k ? h : k + 1) < want) {
        if (atomic_compare_exchange_weak(&a->hinted, &h, next + 1)) {
            source_req r = peek_req(sc, next);
            source_prefetch(sc->src, &r);
            h = next + 1;
        }
    }
}

/* A pool thread: claims the next file of the work list, reads and
 * decodes it, until none is left. The consumer takes them in list order. */
static int pool_run(void *ud, scan_fetch *f, sm_err *err)
{
    ahead_ctx *a = ud;
    scanner *sc = a->sc;
    pool_one p = {f, 0, 0};
    while (scan_fetch_claim(f, sc->nwork, &p.k) == 0) {
        if (sc->src->vt->prefetch)
            prefetch_after(a, p.k);
        source_req req;
        fill_reqs_into(sc, &req, p.k);
        scan_fetch_lend_buf(f, p.k, &req);
        p.put = 0;
        int rc = source_fetch(sc->src, &req, 1, pool_cb, &p, err);
        if (!p.put) {   /* the claimed item is owed to the consumer */
            sm_err why = {SM_ERR_IO, ""};
            snprintf(why.msg, sizeof why.msg, "%s", rc ? err->msg : "not fetched");
            scan_fetch_put_at(f, p.k, &req, NULL, 0, NULL, &why, PREDEC_NONE);
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Decode threads: one per core, the consumer (this thread) feeding the
 * model being one of the loads; at least one. */
static size_t pool_size(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? (size_t)n : 1;
}

/* Keeps in the work list the line files a read moved on that still have
 * bytes past it (read in chunks); returns how many. */
static size_t keep_unfinished(scanner *sc)
{
    size_t n = 0;
    for (size_t i = 0; i < sc->nwork; i++) {
        cat_entry *e = sc->work[i];
        if (e && is_line_kind(e->ki.kind) && e->consumed > e->asked_at && e->size > e->consumed)
            sc->work[n++] = e;
    }
    sc->nwork = n;
    if (n) {
        pthread_mutex_lock(&sc->mu);
        sc->st.files_pending += (int64_t)n;
        pthread_mutex_unlock(&sc->mu);
    }
    return n;
}

static int fetch_round(scanner *sc, source_req *reqs, sm_err *err);

/* Fetches and ingests the work list; files larger than one read go on
 * in further rounds until read to their listed size. */
static int fetch_work(scanner *sc, sm_err *err)
{
    source_req *reqs = calloc(sc->o.batch, sizeof *reqs);
    if (!reqs)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    int rc = 0;
    do
        rc = fetch_round(sc, reqs, err);
    while (rc == 0 && keep_unfinished(sc));
    free(reqs);
    return rc;
}

static int fetch_round(scanner *sc, source_req *reqs, sm_err *err)
{
    int rc = 0;
    /* With line files to decode (a pass over a job's history, or several
     * nodes' new minutes), a fetch thread reads and decodes while this one
     * feeds the model; otherwise, or when no thread starts, fetch here. */
    size_t nlines = 0;
    for (size_t i = 0; i < sc->nwork; i++) {
        sc->work[i]->work_at = (uint32_t)i;
        nlines += ahead_kind(sc->work[i]->ki.kind) != PREDEC_NONE;
    }
    /* .tmp files come first in the list, so they are tracked by the time
     * a closed trace after them is ingested. */
    sc->adopt_any = sc->adopt.n > 0;
    for (size_t i = 0; i < sc->nwork && !sc->adopt_any; i++)
        sc->adopt_any = sc->work[i]->ki.kind == KEY_TRACE_TMP;
    ahead_ctx a = {sc, reqs, 0};
    scan_fetch *f = NULL;
    if (nlines >= 2 && !sc->o.sequential)
        f = sc->src->vt->fetch_reentrant
                ? scan_fetch_start_pool(pool_size() < sc->nwork ? pool_size() : sc->nwork,
                                        pool_run, &a)
                : scan_fetch_start(ahead_run, &a);
    if (f) {
        scan_item it;
        while (scan_fetch_take(f, &it) == 0) {
            cat_entry *e = it.req.user;
            sc->pre = &it.pre;
            fetch_cb(sc, &it.req, it.data, it.len, it.etag, it.err);
            sc->pre = NULL;
            scan_fetch_release(f);
            forget_if_read(sc, e);
        }
        rc = scan_fetch_finish(f, err);
    } else {
        for (size_t i = 0; i < sc->nwork && rc == 0; i += sc->o.batch) {
            size_t n = sc->nwork - i < sc->o.batch ? sc->nwork - i : sc->o.batch;
            fill_reqs(sc, reqs, i, n);
            rc = source_fetch(sc->src, reqs, n, fetch_cb, sc, err);
            for (size_t k = 0; k < n; k++)   /* the source is done with their keys */
                forget_if_read(sc, sc->work[i + k]);
        }
    }
    return rc;
}

/* ---- the first pass: the newest minutes before the whole listing ------ */

typedef struct sys_probe {
    size_t rl;             /* root length */
    int found, hour_dirs;
    int64_t time_us;
} sys_probe;

static int sys_probe_cb(void *ud, const source_entry *se)
{
    sys_probe *p = ud;
    key_info ki;
    if (se->error || strlen(se->key) < p->rl)
        return 0;
    keyname_parse(se->key + p->rl, &ki);
    if (ki.kind != KEY_SYSTEM)
        return 0;
    p->found = 1;
    p->time_us = ki.time_us;
    p->hour_dirs = strchr(se->key + p->rl + strlen("system/incremental/"), '/') != NULL;
    return 1;
}

/* The first system file listed after `after` (relative, NULL = from the
 * start): 1 with p filled, 0 none, -1 the listing failed. */
static int probe_system(scanner *sc, const char *after, sys_probe *p)
{
    char prefix[1024], from[1024] = "";
    snprintf(prefix, sizeof prefix, "%ssystem/incremental/", sc->root);
    if (after)
        snprintf(from, sizeof from, "%s%s", sc->root, after);
    *p = (sys_probe){.rl = strlen(sc->root)};
    sm_err err = {0};
    if (source_list(sc->src, prefix, from, sys_probe_cb, p, &err) != 0)
        return -1;
    return p->found;
}

/* Finds the start-after key of the newest system minutes: a binary
 * search over time with listings that stop at their first key (a few
 * dozen short listings instead of every key of a long job). Which keys
 * exist after a time only shrinks as the time grows, whatever clock the
 * hour folders follow, so the search is sound; a folder convention other
 * than UTC only widens what it returns. 1 with `after` written, 0 when
 * there is nothing to gain (no system files, a failed probe). */
static int newest_system_after(scanner *sc, char *after, size_t cap)
{
    sys_probe p;
    if (probe_system(sc, NULL, &p) != 1)
        return 0;
    int hd = p.hour_dirs;
    int64_t lo = p.time_us, day = 86400LL * 1000000;
    int64_t hi = (wall_us() > lo ? wall_us() : lo) + day;
    keyname_system_after(hi, hd, after, cap);
    if (probe_system(sc, after, &p) != 0)
        return 0;   /* files from beyond tomorrow: list them all */
    while (hi - lo > 60LL * 1000000) {
        int64_t mid = lo + (hi - lo) / 2;
        int r = probe_system(sc, keyname_system_after(mid, hd, after, cap), &p);
        if (r < 0)
            return 0;
        if (r)
            lo = p.time_us > mid && p.time_us < hi ? p.time_us : mid;
        else
            hi = mid;
    }
    keyname_system_after(lo - sc->o.window_us, hd, after, cap);
    return 1;
}

/* On a job's first pass: lists only the newest minutes of system files
 * (the window before the newest one) and reads them, so every node shows
 * its latest data before the whole listing and the history. The pass
 * then goes on as any other; what was read here is not read again. */
static int read_newest_first(scanner *sc, sm_err *err)
{
    char after[256];
    if (sc->pass != 1 || catalog_count(sc->cat) || !newest_system_after(sc, after, sizeof after))
        return 0;
    if (list_prefix(sc, "system/incremental/", after, NULL, err) != 0)
        return -1;
    if (build_work(sc) != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&sc->mu);
    sc->st.files_pending = (int64_t)sc->nwork;
    pthread_mutex_unlock(&sc->mu);
    if (fetch_work(sc, err) != 0)
        return -1;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_flush(sc->m, 0);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    return 0;
}

/* A pass over a source that holds nothing yet: done, still waiting. */
static int pass_waiting(scanner *sc)
{
    int cached = source_pass_end(sc->src);
    pthread_mutex_lock(&sc->mu);
    sc->st.listing_cached = cached;
    sc->st.scanning = 0;
    sc->st.waiting = 1;
    sc->st.last_scan_us = wall_us();
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
    pthread_mutex_unlock(&sc->mu);
    int rc = resolve_root(sc, err);
    if (rc == 0)
        return pass_waiting(sc);
    sc->pass++;
    if (rc > 0)
        rc = read_newest_first(sc, err);
    rc = rc < 0 ? -1 : list_all(sc, err);
    if (rc == 0 && (update_windows(sc) != 0 || build_work(sc) != 0))
        rc = sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    if (rc == 0) {
        pthread_mutex_lock(&sc->mu);
        sc->st.files_pending = (int64_t)sc->nwork;
        sc->st.files_known = (int64_t)catalog_count(sc->cat) + sc->forgotten;
        pthread_mutex_unlock(&sc->mu);
        rc = fetch_work(sc, err);
    }
    if (rc == 0)
        forget_behind(sc);
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
    sc->st.last_scan_us = wall_us();
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

void scanner_finish(scanner *sc)
{
    ingest_ctx cx = {.m = sc->m, .scratch = &sc->scratch, .carry = sc->carry};
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    size_t it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it))) {
        if (!is_line_kind(e->ki.kind))
            continue;
        model_drops before, after;
        model_get_drops(sc->m, &before);
        scan_ingest_finish_entry(&cx, e);
        model_get_drops(sc->m, &after);
        note_drops(sc, e->key + strlen(sc->root), &before, &after);
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
        add_message(sc, "framework/pevents/", what);
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
    pthread_mutex_lock(&sc->mu);
    /* The dashboard asks before the first pass has found the root. */
    size_t n = sc->unread.n, rl = sc->root ? strlen(sc->root) : 0;
    for (size_t i = 0; i < n; i++) {
        const char *key = sc->unread.v[i].e->key;
        cb(ud, key + (strncmp(key, "rule-output/", 12) ? rl : 0), sc->unread.v[i].why);
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
