/* scan_list: the scanner's listings into the catalog (windowed
 * start-after keys for system/ and framework/pevents/), forgetting what
 * is read and behind the windows, and a job's first pass over its newest
 * minutes. See scanner_internal.h. */
#include "io/scan/scan_kineto.h"
#include "io/scan/scanner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- listing ----------------------------------------------------------- */

/* A listed object whose ETag changed: decide between "grew" and "replaced". */
static void note_changed(scanner *sc, cat_entry *e, const source_entry *se)
{
    int replaced = se->size < e->consumed || sc->src->vt->etag_is_identity;
    if (!replaced || !scan_is_line_kind(e->ki.kind))
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
    scan_add_message(sc, rel, "a closed trace file grew after it was read (smdebug never "
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
    scan_note_unread(lc->sc, e, rel, why);
    return 0;
}

static int list_cb(void *ud, const source_entry *se)
{
    list_ctx *lc = ud;
    scanner *sc = lc->sc;
    size_t rl = sc->root ? strlen(sc->root) : 0;
    /* keys outside the root are job-relative (rule-output/, Kineto traces
     * beside profiler-output/), see scan_list_all */
    const char *rel = rl && strncmp(se->key, sc->root, rl) ? se->key : se->key + rl;
    if (lc->stop_at && !strncmp(rel, lc->stop_at, strlen(lc->stop_at)))
        return 1;
    if (se->error)
        return note_unlisted(lc, se->key, rel, se->error);
    key_info ki;
    keyname_parse(rel, &ki);
    scan_kineto_classify(rel, &ki);
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
            scan_note_unread(sc, e, rel, why);
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
int scan_list_update_windows(scanner *sc)
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
            return !decoder_lines_holding(e->rd) && !e->unread_at;
    return 0;
}

/* A file behind the windows, read to its listed size, is forgotten as
 * soon as it is ingested rather than when the pass ends: the first pass
 * over a long job's history (a day of 16 nodes: 46k files) then never
 * holds an entry, a key and a decoder for every file it has read (issue
 * 15). Its slot in the work list goes NULL; nothing reads it again this
 * round (scan_order_keep_unfinished skips it, the fetch threads only look ahead). */
void scan_list_forget_if_read(scanner *sc, cat_entry *e)
{
    if (!e || !scan_is_line_kind(e->ki.kind) || e->consumed < e->size || !entry_forgettable(sc, e))
        return;
    sc->work[e->work_at] = NULL;
    catalog_remove(sc->cat, e);
    sc->forgotten++;
}


/* Drops the entries behind the windows, so later passes walk only what
 * can still change (the work list is free after a pass: it collects them,
 * as removing during the walk would move entries past it). On OOM the
 * rest stays for the next pass. */
void scan_list_forget_behind(scanner *sc)
{
    size_t it = 0;
    cat_entry *e;
    sc->nwork = 0;
    while ((e = catalog_next(sc->cat, &it)))
        if (entry_forgettable(sc, e) && scan_order_push(sc, e) != 0)
            break;
    for (size_t i = 0; i < sc->nwork; i++)
        catalog_remove(sc->cat, sc->work[i]);
    sc->forgotten += (int64_t)sc->nwork;
    sc->nwork = 0;
}

/* Lists everything that may have changed since the last pass. */
int scan_list_all(scanner *sc, sm_err *err)
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
    list_ctx lc = {sc, NULL, 0};
    if (sc->root[0] && source_list(sc->src, "rule-output/", NULL, list_cb, &lc, err) != 0)
        return -1;
    /* PyTorch profiler traces outside smdebug's folders */
    if (scan_kineto_list(sc->src, sc->root, list_cb, &lc, err) != 0)
        return -1;
    return lc.oom ? sm_err_set(err, SM_ERR_NOMEM, "out of memory while listing traces") : 0;
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
    int64_t hi = (scan_wall_us() > lo ? scan_wall_us() : lo) + day;
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
int scan_list_newest_first(scanner *sc, sm_err *err)
{
    char after[256];
    if (sc->pass != 1 || catalog_count(sc->cat) || !newest_system_after(sc, after, sizeof after))
        return 0;
    if (list_prefix(sc, "system/incremental/", after, NULL, err) != 0)
        return -1;
    if (scan_order_build(sc) != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    scan_progress_add_work(sc);
    if (scan_round_fetch_work(sc, err) != 0)
        return -1;
    if (sc->o.lock)
        pthread_mutex_lock(sc->o.lock);
    model_flush(sc->m, 0);
    if (sc->o.lock)
        pthread_mutex_unlock(sc->o.lock);
    return 0;
}
