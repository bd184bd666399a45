/* Fuzz target: the scanner's line splitting, partial lines, per-file
 * decoder state and .tmp adoption. The first input byte picks the files
 * (a system minute, an open trace .tmp that starts with the writer's "["
 * and metadata lines, or both) and whether the .tmp is closed at the end
 * (smdebug's ",\n" -> "\n]\n" when it ends so) and renamed into
 * pevents/; the rest is chunks, each a length byte and that many bytes,
 * appended to one of the files, with a live scan after each. A newline
 * ends the files (a writer completes its lines). The live model must then
 * equal a fresh scanner's on the finished files (`report`), with the same
 * corrupt-line count, whatever the bytes and wherever the chunks cut
 * them. Only the derived CPU total is left out: for bytes whose
 * timestamps do not rise, its grouping depends on where reads end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/scan/scanner.h"
#include "../unit/memfs.h"
#include "../unit/model_diff.h"

#define SYS "system/incremental/2020061000/1591747200.algo-1.json"
#define TMP "framework/1-algo-1_pythontimeline.json.tmp"
#define CLOSED "framework/pevents/2020061000/1591747260000000_1-algo-1_pythontimeline.json"
#define HEAD "[\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": " \
             "{\"start_time_since_epoch_in_micros\": 1591747200000000}},\n"

static scanner *scan_new(memfs *m, model *md)
{
    sm_err err = {0};
    scanner *sc = scanner_new(&m->base, "", md, NULL, &err);
    if (!sc)
        abort();
    return sc;
}

static void scan(scanner *sc)
{
    sm_err err = {0};
    if (scanner_scan(sc, &err) != 0)
        abort();
}

static int64_t corrupt(scanner *sc)
{
    scan_stats st;
    scanner_get_stats(sc, &st);
    return st.corrupt_lines;
}

/* The end of the .tmp: completed, and maybe closed and renamed. */
static void finish_tmp(memfs *fs, int close)
{
    mf_append(fs, TMP, "\n", 1);
    if (!close)
        return;
    mf_file *f = mf_get(fs, TMP, 0);
    if (f->data.len >= 3 && !memcmp(f->data.p + f->data.len - 3, ",\n\n", 3)) {
        mf_truncate(fs, TMP, (int64_t)f->data.len - 3);
        mf_append(fs, TMP, "\n]\n", 3);
    }
    mf_rename(fs, TMP, CLOSED);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    memfs fs;
    memfs_init(&fs);
    unsigned which = data[0] % 3;   /* 0 system, 1 trace, 2 both */
    model *live = model_new(NULL), *fin = model_new(NULL);
    if (which)
        mf_append(&fs, TMP, HEAD, strlen(HEAD));
    scanner *ls = scan_new(&fs, live);
    for (size_t at = 1; at < size;) {
        size_t n = data[at++];
        if (n > size - at)
            n = size - at;
        int trace = which == 2 ? (int)(n & 1) : which == 1;
        mf_append(&fs, trace ? TMP : SYS, (const char *)data + at, n);
        at += n;
        scan(ls);
    }
    if (which != 1)
        mf_append(&fs, SYS, "\n", 1);
    if (which)
        finish_tmp(&fs, data[0] & 4);
    scan(ls);
    scanner *fsc = scan_new(&fs, fin);
    scan(fsc);
    scanner_finish(fsc);
    model_diff d = mdiff_compare_raw(fin, live);
    if (d.mismatches || corrupt(ls) != corrupt(fsc)) {
        fprintf(stderr, "chunked != whole: %lld mismatches (%s), corrupt %lld vs %lld\n",
                (long long)d.mismatches, d.first, (long long)corrupt(ls),
                (long long)corrupt(fsc));
        abort();
    }
    scanner_free(ls);
    scanner_free(fsc);
    model_free(live);
    model_free(fin);
    mf_free_all(&fs.base);
    return 0;
}
