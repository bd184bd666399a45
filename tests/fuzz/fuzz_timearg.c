/* Fuzz target: --since/--until time arguments (timearg_parse), in UTC
 * and in a zone with an offset. A time accepted formats and parses back
 * to itself to the microsecond; a refusal has a message and leaves the
 * output unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/text/timearg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int zone_set;
    if (!zone_set) {
        timearg_use_utc();
        zone_set = 1;
    }
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    int64_t us = 12345, again = 0;
    sm_err err = {0};
    if (timearg_parse(s, &us, &err) == 0) {
        char buf[96];
        memset(&err, 0, sizeof err);
        if (!timearg_format(us, buf, sizeof buf) || !memchr(buf, '\0', sizeof buf))
            abort();
        if (timearg_parse(buf, &again, &err) == 0 && again != us)
            abort();
    } else if (us != 12345 || !err.msg[0]) {
        abort();
    }
    free(s);
    return 0;
}
