/* kineto_keep: see kineto_keep.h.
 *
 * A spilled block is its header (events, name bytes), its events, then
 * its names, written as they are in memory: the file lives only as long
 * as this process's read of one trace, on this machine. */
#include "io/run/kineto_keep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/util/vec.h"

struct kineto_keep {
    kineto_keep_ev *ev;
    size_t n, cap;
    char *names;
    size_t nn, ncap;
    int64_t count, t0, t1;
    FILE *spill;             /* NULL until a block is spilled */
    int no_spill;            /* no temporary file could be made */
    int64_t blocks;          /* whole blocks in the file */
};

typedef struct kblock {
    uint64_t n, nn;
} kblock;

kineto_keep *kineto_keep_new(void)
{
    return calloc(1, sizeof(kineto_keep));
}

void kineto_keep_free(kineto_keep *k)
{
    if (!k)
        return;
    if (k->spill)
        fclose(k->spill);
    free(k->ev);
    free(k->names);
    free(k);
}

/* An unlinked file in $TMPDIR (else /tmp), or NULL. */
static FILE *spill_open(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/smtop-kineto-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path);
    FILE *f = fdopen(fd, "w+b");
    if (!f)
        close(fd);
    return f;
}

/* The full block to the file. On a failure it stays in memory, and so do
 * the later ones; the file's blocks before it are whole (each was
 * flushed), and what follows them is never read. */
static void spill_block(kineto_keep *k)
{
    if (!k->spill && !(k->spill = spill_open())) {
        k->no_spill = 1;
        return;
    }
    kblock h = {k->n, k->nn};
    if (fwrite(&h, sizeof h, 1, k->spill) != 1 ||
        fwrite(k->ev, sizeof *k->ev, k->n, k->spill) != k->n ||
        (k->nn && fwrite(k->names, 1, k->nn, k->spill) != k->nn) || fflush(k->spill) != 0) {
        k->no_spill = 1;
        return;
    }
    k->blocks++;
    k->n = k->nn = 0;
}

int kineto_keep_add(kineto_keep *k, const kineto_keep_ev *ev, const char *name, size_t len)
{
    if (k->n >= KKEEP_BLOCK && !k->no_spill)
        spill_block(k);
    if (vec_grow(&k->ev, &k->cap, k->n + 1, sizeof *k->ev, 1024) != 0 ||
        vec_grow(&k->names, &k->ncap, k->nn + len + 1, 1, 1 << 16) != 0)
        return -1;
    kineto_keep_ev *e = &k->ev[k->n++];
    *e = *ev;
    e->name_at = (uint32_t)k->nn;
    e->name_len = (uint32_t)len;
    memcpy(k->names + k->nn, name, len);
    k->nn += len;
    int64_t end = ev->ts_ns + ev->dur_ns;
    if (!k->count || ev->ts_ns < k->t0)
        k->t0 = ev->ts_ns;
    if (!k->count || end > k->t1)
        k->t1 = end;
    k->count++;
    return 0;
}

int64_t kineto_keep_count(const kineto_keep *k)
{
    return k->count;
}

int kineto_keep_span(const kineto_keep *k, int64_t *t0, int64_t *t1)
{
    if (!k->count)
        return 0;
    *t0 = k->t0;
    *t1 = k->t1;
    return 1;
}

static void each_in(const kineto_keep_ev *ev, size_t n, const char *names,
                    void (*fn)(void *ud, const kineto_keep_ev *ev, const char *name), void *ud)
{
    for (size_t i = 0; i < n; i++)
        fn(ud, &ev[i], names + ev[i].name_at);
}

/* The spilled blocks, read back into one block's room of their own. */
static int each_spilled(kineto_keep *k, void (*fn)(void *ud, const kineto_keep_ev *ev, const char *name),
                        void *ud, sm_err *err)
{
    kineto_keep_ev *ev = malloc(KKEEP_BLOCK * sizeof *ev);
    char *names = NULL;
    size_t ncap = 0;
    int rc = ev && fseek(k->spill, 0, SEEK_SET) == 0 ? 0 : -1;
    for (int64_t b = 0; b < k->blocks && rc == 0; b++) {
        kblock h;
        rc = -1;
        if (fread(&h, sizeof h, 1, k->spill) != 1 || h.n > KKEEP_BLOCK || h.nn > SIZE_MAX / 2 ||
            vec_grow(&names, &ncap, h.nn + 1, 1, 1 << 16) != 0 ||
            fread(ev, sizeof *ev, h.n, k->spill) != h.n ||
            (h.nn && fread(names, 1, h.nn, k->spill) != h.nn))
            break;
        each_in(ev, h.n, names, fn, ud);
        rc = 0;
    }
    free(ev);
    free(names);
    if (rc != 0)
        sm_err_set(err, SM_ERR_IO, "cannot read back the trace's events from a temporary file");
    return rc;
}

int kineto_keep_each(kineto_keep *k, void (*fn)(void *ud, const kineto_keep_ev *ev, const char *name), void *ud,
               sm_err *err)
{
    if (k->blocks > 0 && each_spilled(k, fn, ud, err) != 0)
        return -1;
    each_in(k->ev, k->n, k->names, fn, ud);
    return 0;
}
