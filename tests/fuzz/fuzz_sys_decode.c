/* Differential fuzz target: each input line goes through sys_decode_line (the
 * fast scanner, falling back to jansson) and sys_decode_line_jansson alone.
 * The results must be identical — same verdict, same record bit for bit —
 * otherwise abort(), which libFuzzer and the replay driver report. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/sys_decode.h"

static int same(sm_str a, sm_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static void check_line(const char *p, size_t len, sysdec_scratch *sa, sysdec_scratch *sb)
{
    sm_sample a, b;
    int ra = sys_decode_line(p, len, &a, sa);
    int rb = sys_decode_line_jansson(p, len, &b, sb);
    if (ra != rb)
        abort();
    if (ra != 0)
        return;
    if (!same(a.type, b.type) || !same(a.dimension, b.dimension) || !same(a.name, b.name) ||
        !same(a.node, b.node) || !same(a.extra, b.extra) || a.ts_us != b.ts_us ||
        memcmp(&a.value, &b.value, sizeof a.value) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sysdec_scratch sa = {0}, sb = {0};
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        /* An exact-size copy, so ASan sees any read past the line. */
        char *line = malloc(len ? len : 1);
        if (!line)
            break;
        memcpy(line, p, len);
        check_line(line, len, &sa, &sb);
        free(line);
        p += len + (nl ? 1 : 0);
    }
    sys_decode_scratch_free(&sa);
    sys_decode_scratch_free(&sb);
    return 0;
}
