/* Fuzz target: the live-vs-final differential harness with the schedule
 * taken from the input. Each byte is one choice of live_writer.h (which
 * action, where a write is cut, when a file rotates, whether a scan runs
 * now, and whether writer actions slip in between a listing and the reads
 * that follow it). The live scanner tails an in-memory tree (memfs.h); at
 * the end its model must equal, exactly, a fresh scanner's on the
 * finished tree (`smtop report`'s path), with nothing counted corrupt.
 * Any difference aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/scan/scanner.h"
#include "../unit/live_writer.h"
#include "../unit/memfs.h"
#include "../unit/model_diff.h"

typedef struct run {
    memfs fs;
    live_writer w;
    lw_pick pick;
} run;

/* Writer actions that land between a listing and its reads. */
static void slip_in(void *ud)
{
    run *r = ud;
    for (unsigned n = lw_pick_n(&r->pick, 4); n == 3 && lw_step(&r->w);)
        n = lw_pick_n(&r->pick, 4);
}

static scanner *open_scanner(run *r, model *m)
{
    sm_err err = {0};
    scanner *sc = scanner_new(&r->fs.base, "", m, NULL, &err);
    if (!sc)
        abort();
    return sc;
}

static void scan(scanner *sc)
{
    sm_err err = {0};
    if (scanner_scan(sc, &err) != 0) {
        fprintf(stderr, "scan failed: %s\n", err.msg);
        abort();
    }
}

static int64_t corrupt(scanner *sc)
{
    scan_stats st;
    scanner_get_stats(sc, &st);
    return st.corrupt_lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run *r = calloc(1, sizeof *r);
    memfs_init(&r->fs);
    r->pick = (lw_pick){.in = data, .len = size};
    lw_init(&r->w, mf_fs(&r->fs), &r->pick);
    lw_begin(&r->w);
    model *live = model_new(NULL), *fin = model_new(NULL);
    scanner *ls = open_scanner(r, live);
    r->fs.before_fetch = slip_in;
    r->fs.hook_ud = r;
    while (lw_step(&r->w))
        if (lw_pick_n(&r->pick, 3) == 0)
            scan(ls);
    r->fs.before_fetch = NULL;
    while (lw_finish_step(&r->w))
        if (lw_pick_n(&r->pick, 3) == 0)
            scan(ls);
    scan(ls);
    scan(ls);
    scanner *fs = open_scanner(r, fin);
    scan(fs);
    scanner_finish(fs);
    model_diff d = mdiff_compare(fin, live);
    if (d.mismatches || corrupt(ls) || corrupt(fs) || r->w.failures) {
        fprintf(stderr, "live != final: %lld mismatches (%s), corrupt %lld/%lld, "
                        "writer failures %lld\n", (long long)d.mismatches, d.first,
                (long long)corrupt(ls), (long long)corrupt(fs), (long long)r->w.failures);
        abort();
    }
    scanner_free(ls);
    scanner_free(fs);
    model_free(live);
    model_free(fin);
    lw_free(&r->w);
    mf_free_all(&r->fs.base);
    free(r);
    return 0;
}
