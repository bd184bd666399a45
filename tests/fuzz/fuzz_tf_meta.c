/* Fuzz target for the TF .metadata name parser and the placement that
 * uses it: the input is a file name. A name that parses prints back to a
 * name with the same writer and times; as a key in a step directory it is
 * a record exactly when it parses (book and keyname agree), and a trace
 * of that step is then placed at its start, also when the input's first
 * bytes name the trace's date folder beside a second record. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/keyname.h"
#include "io/decode/tf_meta.h"

#define STEP "framework/tensorflow/detailed_profiling/2020080520/000000002/"

static void round_trip(const tf_meta_name *nm)
{
    char name[512];
    tf_meta_name v;
    snprintf(name, sizeof name, "%s_%lld_%lld.5.metadata", nm->writer, (long long)nm->start_us,
             (long long)nm->end_us);
    if (tf_meta_parse_name(name, strlen(name), &v) != 0 || strcmp(v.writer, nm->writer) ||
        strcmp(v.node, nm->node) || v.start_us != nm->start_us || v.end_us != nm->end_us)
        abort();
}

static void as_record(const char *name, int parsed, const tf_meta_name *nm)
{
    char key[1024], trace[1200];
    snprintf(key, sizeof key, STEP "%s", name);
    key_info ki;
    keyname_parse(key, &ki);
    tf_meta_book *b = tf_meta_book_new();
    if (!b)
        return;
    int noted = tf_meta_book_note(b, key);
    if (noted < 0 || (noted == 1) != parsed || (ki.kind == KEY_TF_META && !parsed))
        abort();
    if (ki.kind == KEY_TF_META && (ki.time_us != nm->start_us || strcmp(ki.node, nm->node)))
        abort();
    snprintf(trace, sizeof trace, STEP "plugins/profile/%.19s/ip-10-0-1-1.trace.json.gz", name);
    tf_place pl;
    int placed = tf_meta_place(b, trace, &pl, NULL) == 0;
    if (placed != parsed || (placed && (pl.base_us != nm->start_us || strcmp(pl.node, nm->node))))
        abort();
    /* with a second record the date folder (or the host) must choose */
    tf_meta_book_note(b, STEP "9-algo-9_1596659860000000_1596659870000000.metadata");
    if (tf_meta_place(b, trace, &pl, NULL) == 0 && pl.base_us != nm->start_us &&
        pl.base_us != 1596659860000000LL)
        abort();
    tf_meta_book_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tf_meta_name nm, before;
    memset(&nm, 0x5a, sizeof nm);
    before = nm;
    int parsed = tf_meta_parse_name((const char *)data, size, &nm) == 0;
    if (!parsed && memcmp(&nm, &before, sizeof nm) != 0)
        abort();
    if (parsed) {
        if (!nm.writer[0] || !nm.node[0] || nm.start_us < 0 || nm.end_us < 0)
            abort();
        round_trip(&nm);
    }
    if (size > 0 && size < 400 && !memchr(data, '\0', size) && !memchr(data, '/', size)) {
        char name[400];
        memcpy(name, data, size);
        name[size] = '\0';
        as_record(name, parsed, &nm);
    }
    return 0;
}
