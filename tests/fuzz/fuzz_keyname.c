/* Fuzz target: what a key's name says — keyname_parse (kind, node, time,
 * trace kind of any profiler-output key), keyname_node_from_part, and the
 * Python stats-dir parsers (statsdir_parse_key / _name). Any string must
 * give a NUL-terminated node within its buffer, a known kind, and a window
 * left unchanged when a stats-dir name is refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/keyname.h"
#include "io/decode/statsdir.h"

static void check_key(const char *key)
{
    key_info ki;
    keyname_parse(key, &ki);
    /* KEY_CLOUDWATCH: the last kind (it read KEY_RULE_REPORT, the last
     * before KEY_KINETO, and so stopped at the first trace name) */
    if ((unsigned)ki.kind > KEY_CLOUDWATCH || memchr(ki.node, '\0', sizeof ki.node) == NULL)
        abort();
    if ((ki.kind == KEY_TRACE || ki.kind == KEY_TRACE_TMP) && (unsigned)ki.tkind > TRACE_SMDP)
        abort();
    char after[64];
    keyname_system_after(ki.time_us, 1, after, sizeof after);
    keyname_trace_after(ki.time_us, after, sizeof after);
}

static void check_stats(const char *s, size_t len)
{
    pystats_window w, before;
    sm_err err;
    memset(&w, 0x5a, sizeof w);
    w.node[sizeof w.node - 1] = '\0';
    w.framework[sizeof w.framework - 1] = '\0';
    before = w;
    if (statsdir_parse_name(s, len, &w, &err) != 0 && memcmp(&w, &before, sizeof w) != 0)
        abort();   /* a refused name must leave the window as it was */
    if (memchr(w.node, '\0', sizeof w.node) == NULL)
        abort();
    if (statsdir_parse_key(s, &w, &err) == 0 &&
        (memchr(w.node, '\0', sizeof w.node) == NULL ||
         memchr(w.framework, '\0', sizeof w.framework) == NULL))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    size_t len = strlen(s);   /* keys never hold a NUL */
    check_key(s);
    char node[128];
    keyname_node_from_part(s, len, node, sizeof node);
    if (memchr(node, '\0', sizeof node) == NULL)
        abort();
    check_stats(s, len);
    free(s);
    return 0;
}
