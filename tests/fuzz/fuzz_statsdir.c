/* Fuzz target for the Python stats-dir name parser: the input is a
 * stats_dir name. A name that parses prints back (times as whole µs, the
 * older naming with its node) to a name that parses to the same window;
 * as a key, in either layout, keyname's classification and statsdir's
 * parse agree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/keyname.h"
#include "io/decode/statsdir.h"

static void print_step(char *out, size_t cap, int64_t step)
{
    if (step == PYSTATS_NO_STEP)
        snprintf(out, cap, "*");
    else
        snprintf(out, cap, "%lld", (long long)step);
}

static void round_trip(const pystats_window *w)
{
    char name[512], a[32], b[32];
    if (w->legacy) {
        snprintf(name, sizeof name, "%lld.5_%lld_7-%s_%lld", (long long)w->start_us,
                 (long long)w->end_us, w->node,
                 (long long)(w->start_step == PYSTATS_NO_STEP ? -1 : w->start_step));
    } else {
        print_step(a, sizeof a, w->start_step);
        print_step(b, sizeof b, w->end_step);
        snprintf(name, sizeof name, "%s-%s-%s-%lld_%s-%s-%s-%lld.25",
                 pystats_mode_name(w->start_mode), a, pystats_phase_name(w->start_phase),
                 (long long)w->start_us, pystats_mode_name(w->end_mode), b,
                 pystats_phase_name(w->end_phase), (long long)w->end_us);
    }
    pystats_window v;
    memset(&v, 0, sizeof v);
    if (statsdir_parse_name(name, strlen(name), &v, NULL) != 0 || v.legacy != w->legacy ||
        v.start_us != w->start_us || v.end_us != w->end_us ||
        v.start_step != w->start_step || v.end_step != w->end_step ||
        v.start_mode != w->start_mode || v.end_mode != w->end_mode ||
        v.start_phase != w->start_phase || v.end_phase != w->end_phase ||
        (w->legacy && strcmp(v.node, w->node) != 0))
        abort();
}

/* keyname and statsdir must agree on a key built around the name. */
static void as_keys(const char *name, int parsed, const pystats_window *w)
{
    char key[1024];
    key_info ki;
    pystats_window k;
    snprintf(key, sizeof key, "framework/pytorch/cprofile/algo-1/%s/python_stats", name);
    keyname_parse(key, &ki);
    int ok = statsdir_parse_key(key, &k, NULL) == 0;
    if (ki.kind == KEY_CPROFILE && parsed != ok)
        abort();
    snprintf(key, sizeof key, "framework/tensorflow/cProfile/%s/python_stats", name);
    keyname_parse(key, &ki);
    ok = statsdir_parse_key(key, &k, NULL) == 0;
    if ((ki.kind == KEY_CPROFILE) != (ok && parsed && w->legacy && ki.node[0]))
        abort();
    if (ok && (!k.legacy || strcmp(k.node, w->node) != 0))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pystats_window w, before;
    memset(&w, 0x5a, sizeof w);
    before = w;
    int parsed = statsdir_parse_name((const char *)data, size, &w, NULL) == 0;
    if (!parsed) {
        if (memcmp(&w, &before, sizeof w) != 0)
            abort();   /* a failed parse leaves w as it was */
        memset(&w, 0, sizeof w);
    } else {
        if (w.start_us < 0 || w.end_us < 0)
            abort();
        round_trip(&w);
    }
    if (size < 400 && !memchr(data, '\0', size) && !memchr(data, '/', size)) {
        char name[400];
        memcpy(name, data, size);
        name[size] = '\0';
        if (size > 0)
            as_keys(name, parsed, &w);
    }
    return 0;
}
