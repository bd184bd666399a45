/* step_focus: see step_focus.h. */
#include "tui/text/step_focus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *step_focus_clock(char *buf, size_t cap, int64_t t_us)
{
    if (cap == 0)
        return buf;
    /* Floor division so the milliseconds stay in [0, 1000). */
    int64_t sec = t_us >= 0 ? t_us / 1000000 : -((-t_us + 999999) / 1000000);
    int ms = (int)((t_us - sec * 1000000) / 1000);
    time_t tt = (time_t)sec;
    struct tm tm;
    if (!localtime_r(&tt, &tm)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    snprintf(buf, cap, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
    return buf;
}
