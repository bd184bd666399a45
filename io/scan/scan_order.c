/* scan_order: the work list of a pass, newest first, each node's newest
 * system file in front. See scanner_internal.h. */
#include "io/scan/scanner_internal.h"

#include <stdlib.h>
#include <string.h>

#include "model/util/idmap.h"

/* ---- work list: what to fetch this pass, newest first ------------------ */

/* Appends e to the work list; 0, or -1 on OOM. */
int scan_order_push(scanner *sc, cat_entry *e)
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
    if (scan_is_line_kind(e->ki.kind))
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

int scan_order_build(scanner *sc)
{
    sc->nwork = 0;
    size_t it = 0;
    cat_entry *e;
    while ((e = catalog_next(sc->cat, &it))) {
        if (e->listed != sc->pass || !needs_fetch(e))
            continue;
        if (scan_order_push(sc, e) != 0)
            return -1;
    }
    if (!sc->nwork)   /* qsort(NULL, 0, ...) is undefined */
        return 0;
    qsort(sc->work, sc->nwork, sizeof *sc->work, work_cmp);
    return newest_system_first(sc);
}
/* Keeps in the work list the line files a read moved on that still have
 * bytes past it (read in chunks); returns how many. */
size_t scan_order_keep_unfinished(scanner *sc)
{
    size_t n = 0;
    for (size_t i = 0; i < sc->nwork; i++) {
        cat_entry *e = sc->work[i];
        if (e && scan_is_line_kind(e->ki.kind) && e->consumed > e->asked_at && e->size > e->consumed)
            sc->work[n++] = e;
    }
    sc->nwork = n;
    if (n) {
        pthread_mutex_lock(&sc->mu);
        sc->st.files_pending += (int64_t)n;
        sc->st.pass_files += (int64_t)n;   /* their bytes were counted once */
        pthread_mutex_unlock(&sc->mu);
    }
    return n;
}
